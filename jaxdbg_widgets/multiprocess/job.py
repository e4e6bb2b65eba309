"""``jaxdbg_widgets.cluster``: ipyparallel engines joined into one ``jax.distributed`` job.

ipyparallel starts and runs the processes and ``jax.distributed`` joins them; this module only
does, in order, the steps a user would type: start or attach to a cluster, set each engine's
device count before JAX picks its devices, call ``jax.distributed.initialize`` on every engine,
and load the extension on the engines and in the notebook. Only ipyparallel's public API is
used (``Cluster``, ``Client``, ``apply_async``).
"""

from __future__ import annotations

from typing import Any

from jaxdbg_widgets import _capabilities
from jaxdbg_widgets._kernel import ipp_control
from jaxdbg_widgets.core.errors import one_line
from jaxdbg_widgets.multiprocess import engine, watchdog

INSTALL_HINT = (
    "jaxdbg_widgets.cluster needs ipyparallel: pip install 'jaxdbg-widgets[multiprocess]' "
    "(or pip install ipyparallel)"
)


def _ipyparallel() -> Any:
    """The ``ipyparallel`` module, or an ImportError that says how to install it."""
    try:
        import ipyparallel
    except ImportError as err:
        raise ImportError(INSTALL_HINT) from err
    return ipyparallel


def cluster(
    n: int | None = None,
    devices_per_engine: int | None = 2,
    *,
    client: Any = None,
    coordinator_host: str = "127.0.0.1",
    load_extension: bool = True,
    timeout: float = 120,
    **cluster_options: Any,
) -> Any:
    """Start ``n`` ipyparallel engines (or use ``client``'s), join them into one JAX job, and
    return the ipyparallel ``Client``; ``%%px`` cells then run on every process.

    Each engine becomes process ``rank`` of the job, in the order of its engine id.
    ``devices_per_engine`` simulated CPU devices are set on each engine (``None`` leaves its
    ``XLA_FLAGS`` alone, e.g. on GPUs), and every engine's programs name a cell's file alike
    (see :func:`jaxdbg_widgets.multiprocess.engine.name_cell_files_alike`). ``client`` attaches to engines started elsewhere
    (``ipcluster start``, other hosts); ``cluster_options`` go to ``ipyparallel.Cluster``
    (``profile_dir``, ``cluster_id``, ...). Calling it again on a joined job only reloads the
    extension. Raises RuntimeError when an engine cannot take the device count or join.
    Engines it starts end when this process ends, however it ends (a kernel killed, crashed
    or restarted included): a watchdog process stops them.
    """
    ipp = _ipyparallel()
    if client is None:
        if n is None:
            raise ValueError("cluster needs n, the number of engines to start, or a client")
        started = ipp.Cluster(n=n, **cluster_options)
        client = started.start_and_connect_sync()
        watchdog.guard(started)
    ids = _engine_ids(client, n, timeout)
    answers = client[ids].apply_sync(engine.prepare, devices_per_engine)
    if not all(answer["joined"] for answer in answers):
        _join(client, ids, answers, devices_per_engine, coordinator_host, timeout)
    else:
        _check_joined(ids, answers, devices_per_engine)
    if load_extension:
        loaded = client[ids].apply_sync(engine.load_extension)
        _load_in_notebook(client, ids, [answer["breakpoints"] for answer in loaded])
    return client


def _engine_ids(client: Any, n: int | None, timeout: float) -> list[int]:
    """The ids of the job's engines, the first ``n`` once that many registered."""
    if n is not None:
        client.wait_for_engines(n, timeout=timeout)
    ids = sorted(client.ids)
    if not ids:
        raise RuntimeError("the ipyparallel cluster has no engines")
    return ids[:n] if n is not None else ids


def _join(
    client: Any,
    ids: list[int],
    answers: list[dict[str, Any]],
    devices: int | None,
    host: str,
    timeout: float,
) -> None:
    """``jax.distributed.initialize`` on every engine at once (each waits for all the others)."""
    joined = [eid for eid, answer in zip(ids, answers, strict=True) if answer["joined"]]
    if joined:
        raise RuntimeError(
            f"engines {joined} already joined a JAX job and the others did not: restart the "
            "engines (client.shutdown(hub=False) and start again) to form one job"
        )
    started = [eid for eid, answer in zip(ids, answers, strict=True) if answer["started"]]
    if started:
        raise RuntimeError(
            f"engines {started} ran JAX before joining a job, so their devices are fixed and "
            "jax.distributed.initialize can no longer run there: restart those engines "
            "(e.g. client[ids].shutdown() and start new ones) before jaxdbg_widgets.cluster"
        )
    port = client[ids[0]].apply_sync(engine.free_port, host)
    coordinator = f"{host}:{port}"
    pending = [
        client[eid].apply_async(engine.initialize, coordinator, len(ids), rank)
        for rank, eid in enumerate(ids)
    ]
    results = []
    for eid, result in zip(ids, pending, strict=True):
        try:
            results.append(result.get(timeout=timeout))
        except Exception as err:
            raise RuntimeError(
                f"engine {eid} could not join the JAX job at {coordinator}: {_reason(err)}. "
                "An engine that ran JAX computations before cannot join: restart the engines"
            ) from None
    _check_devices(ids, [r["local_devices"] for r in results], devices)


def _check_joined(ids: list[int], answers: list[dict[str, Any]], devices: int | None) -> None:
    """Attach to a job joined earlier: one job of these engines, with the device count asked."""
    counts = {answer["processes"] for answer in answers}
    if counts != {len(ids)}:
        raise RuntimeError(
            f"the engines joined JAX jobs of {sorted(counts)} processes, not one job of {len(ids)}"
        )
    _check_devices(ids, [answer["local_devices"] for answer in answers], devices)


def _check_devices(ids: list[int], counts: list[int], devices: int | None) -> None:
    """Refuse engines whose JAX already runs with another device count than ``devices``."""
    wrong = [(eid, c) for eid, c in zip(ids, counts, strict=True) if devices not in (None, c)]
    if wrong:
        found = ", ".join(f"engine {eid}: {count}" for eid, count in wrong)
        raise RuntimeError(
            f"engines imported JAX with another device count than devices_per_engine="
            f"{devices} ({found}); restart those engines, or pass devices_per_engine=None"
        )


def engine_reason(err: BaseException) -> str:
    """One line of an engine's error: the first of a CompositeError (one per engine, each
    ``(ename, evalue, traceback, engine info)``), else as :func:`_reason` reads it."""
    elist = getattr(err, "elist", None)
    if elist:
        ename, evalue, _, info = elist[0]
        engine = info.get("engine_id") if isinstance(info, dict) else None
        where = f"engine {engine}: " if engine is not None else ""
        return where + _first_line(f"{ename}: {evalue}")
    return _reason(err)


def _first_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[0].strip() if lines else text


def _reason(err: BaseException) -> str:
    """One line of an engine's error (ipyparallel's RemoteError names the engine's exception)."""
    ename, evalue = getattr(err, "ename", None), getattr(err, "evalue", None)
    if not ename:
        return one_line(err)
    lines = [line for line in f"{ename}: {evalue}".splitlines() if line.strip()]
    return lines[0].strip()


_view: Any = None
"""The ipyparallel view of the job joined last in this notebook."""


def current_view() -> Any:
    """The view of every engine of the job :func:`cluster` joined last; ValueError when none."""
    if _view is None:
        raise ValueError(
            "no JAX job was joined in this notebook: run %jaxdbg cluster N (or "
            "jaxdbg_widgets.cluster(n)) first, or pass view=client[:]"
        )
    return _view


def _load_in_notebook(client: Any, ids: list[int], breakpoints: list[bool]) -> None:
    """``%load_ext jaxdbg`` here, ``%%px`` on these engines, their prints in this log and their
    breakpoints in one debugger widget (where every engine can hold them for the notebook)."""
    from IPython import get_ipython

    ip = get_ipython()
    if ip is None:
        return
    ip.run_line_magic("load_ext", "jaxdbg")
    global _view
    view = client[ids]
    view.block = True
    view.activate()
    _view = view
    from jaxdbg_widgets.multiprocess import breaks, collector

    collector.attach(ip, view)
    if not all(breakpoints):
        print(
            "jaxdbg: the engines' kernels cannot answer control requests, so breakpoints in "
            "%%px cells follow each engine's headless policy"
        )
        return
    if not _capabilities.check(
        ipp_control.LIBRARY,
        ipp_control.NAME,
        ipp_control.FEATURE,
        lambda: ipp_control.probe(client),
    ).ok:
        print(
            "jaxdbg: this ipyparallel client cannot send control requests, so breakpoints in "
            "%%px cells follow each engine's headless policy"
        )
        return
    processes = view.apply_sync(engine.process_index)
    breaks.attach(ip, client, dict(zip(processes, ids, strict=True)))
