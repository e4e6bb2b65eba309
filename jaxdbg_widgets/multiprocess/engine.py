"""What runs on each ipyparallel engine: device flags, ``jax.distributed``, the print outbox.

Every function here is sent to the engines by :mod:`jaxdbg_widgets.multiprocess.job`
(ipyparallel pickles them by name, so the engines import this module) and returns plain data.
"""

from __future__ import annotations

import collections
import os
import socket
import sys
import threading
from typing import Any

from jaxdbg_widgets._kernel.cell_files import PROCESS_PART

DEVICE_FLAG = "--xla_force_host_platform_device_count"
FILE_NAMES_OPTION = "jax_hlo_source_file_canonicalization_regex"
OUTBOX_CAPACITY = 100_000


def with_device_count(flags: str, count: int) -> str:
    """``XLA_FLAGS`` with the simulated CPU device count set to ``count`` (any old one replaced)."""
    kept = [flag for flag in flags.split() if not flag.startswith(DEVICE_FLAG + "=")]
    return " ".join([*kept, f"{DEVICE_FLAG}={count}"])


def prepare(devices: int | None) -> dict[str, Any]:
    """Set this engine's device count (read by JAX when it first picks its devices) and how its
    programs name cell files, and say whether JAX was imported, has picked its devices, and
    joined a job already."""
    if devices is not None:
        os.environ["XLA_FLAGS"] = with_device_count(os.environ.get("XLA_FLAGS", ""), devices)
    name_cell_files_alike()
    answer: dict[str, Any] = {"pid": os.getpid(), "imported": "jax" in sys.modules}
    answer["joined"] = answer["imported"] and _joined()
    answer["started"] = answer["imported"] and _started()
    if answer["joined"]:
        import jax

        answer.update(process=jax.process_index(), processes=jax.process_count())
        answer["local_devices"] = jax.local_device_count()
    return answer


def name_cell_files_alike() -> None:
    """Have the programs this engine compiles name a cell's file as every other process does,
    unless the user chose how JAX names files.

    ipykernel keeps each process's cell files in a folder named after the process, and JAX
    writes file names into compiled programs: from JAX 0.12.1 on CPU, a collective whose
    programs differ in those names never returns. Lines and cells stay named.
    """
    import jax

    if getattr(jax.config, FILE_NAMES_OPTION) is None:
        jax.config.update(FILE_NAMES_OPTION, PROCESS_PART)


def _started() -> bool:
    """Whether this engine's JAX picked its devices already (unknown counts as not)."""
    from jaxdbg_widgets.core import _jax_internals as jx

    return bool(jx.backends_started())


def _joined() -> bool:
    """Whether ``jax.distributed.initialize`` already ran here (JAX without the check: no)."""
    import jax

    is_initialized = getattr(jax.distributed, "is_initialized", None)
    return bool(is_initialized()) if is_initialized is not None else False


def free_port(host: str) -> int:
    """A TCP port nobody listens on now at ``host``, for the job's coordinator."""
    with socket.socket() as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


def initialize(coordinator: str, processes: int, process_id: int) -> dict[str, Any]:
    """Join the job as ``process_id`` of ``processes``; blocks until every process joined."""
    import jax

    jax.distributed.initialize(
        coordinator_address=coordinator, num_processes=processes, process_id=process_id
    )
    return {
        "process": jax.process_index(),
        "devices": jax.device_count(),
        "local_devices": jax.local_device_count(),
    }


class Outbox:
    """This engine's prints, kept until the notebook takes them, oldest first."""

    def __init__(self, capacity: int = OUTBOX_CAPACITY) -> None:
        self._records: collections.deque[tuple[Any, ...]] = collections.deque(maxlen=capacity)
        self._lock = threading.Lock()
        self._seen = 0
        self._taken = 0

    def add(self, record: Any) -> None:
        """The print sink: keep one record, its values as summaries so it pickles small."""
        kept = record._replace(printed=record.values, names=None)
        with self._lock:
            self._records.append(tuple(kept))
            self._seen += 1

    def take(self) -> dict[str, Any]:
        """Every kept record, and how many were dropped since the last take; empties the box."""
        with self._lock:
            records = list(self._records)
            self._records.clear()
            dropped = self._seen - self._taken - len(records)
            self._taken = self._seen
        return {"records": records, "dropped": dropped}


_outbox: Outbox | None = None
_desk: Any = None


def load_extension() -> dict[str, Any]:
    """Load ``%load_ext jaxdbg`` in this engine and start its outbox (once)."""
    global _outbox
    from IPython import get_ipython

    from jaxdbg_widgets.core.sinks import add_print_sink

    ip = get_ipython()
    if ip is not None:
        ip.run_line_magic("load_ext", "jaxdbg")
    if _outbox is None:
        _outbox = Outbox()
        add_print_sink(_outbox.add)
    return {"shell": ip is not None, "breakpoints": _serve_from_notebook(ip)}


def process_index() -> int:
    """This engine's JAX process index in its job."""
    import jax

    return jax.process_index()


def _serve_from_notebook(ip: Any) -> bool:
    """Hold this engine's breakpoints for the notebook (once); whether that is on."""
    global _desk
    from jaxdbg_widgets import _capabilities
    from jaxdbg_widgets._kernel import control_handlers
    from jaxdbg_widgets.debugger.serve import relay
    from jaxdbg_widgets.multiprocess import breaks, desk

    kernel = getattr(ip, "kernel", None)
    if kernel is None:
        return False
    if _desk is not None:
        return True
    capability = _capabilities.check(
        control_handlers.LIBRARY,
        control_handlers.NAME,
        control_handlers.FEATURE,
        lambda: control_handlers.probe(kernel),
    )
    if not capability.ok:
        return False
    _desk = desk.Desk(process_index)
    control_handlers.add(kernel, breaks.REQUEST_TYPE, breaks.REPLY_TYPE, _desk.answer)
    relay.set_server(_desk.serve)
    return True


def take_prints() -> dict[str, Any]:
    """This engine's prints since the last call (none before ``load_extension``)."""
    if _outbox is None:
        return {"records": [], "dropped": 0}
    return _outbox.take()
