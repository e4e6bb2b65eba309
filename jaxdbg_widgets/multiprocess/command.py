"""``%jaxdbg cluster N [DEVICES]``: the magic twin of ``jaxdbg_widgets.cluster``.

It starts ``N`` local ipyparallel engines with ``DEVICES`` simulated CPU devices each
(``none`` leaves their ``XLA_FLAGS`` alone), joins them into one ``jax.distributed`` job and
binds the ipyparallel client to ``rc`` in the notebook, so ``%%px`` cells run on every process.
``%jaxdbg cluster memory [EXPR]`` then shows one memory map of every process
(:mod:`jaxdbg_widgets.multiprocess.memory`), ``%jaxdbg cluster sharding EXPR`` a global
array's sharding (:mod:`jaxdbg_widgets.multiprocess.sharding`), ``%jaxdbg cluster compiles``
one compile report of every process (:mod:`jaxdbg_widgets.multiprocess.compiles`).
"""

from __future__ import annotations

from typing import Any

from jaxdbg_widgets.multiprocess.job import cluster

USAGE = (
    "cluster N [DEVICES|none] | cluster memory [EXPR] | cluster sharding EXPR | cluster compiles"
)
VIEWS = ("memory", "sharding", "compiles")
"""The views of the whole job the magic shows instead of starting one."""
NAME = "rc"
"""The notebook variable that receives the ipyparallel client."""


def parse(args: list[str]) -> tuple[int, int | None]:
    """``(engines, devices per engine)`` from the magic's words; ValueError on bad input."""
    if not 1 <= len(args) <= 2:
        raise ValueError(f"cluster takes the number of engines and, optionally, devices: {USAGE}")
    engines = _positive(args[0], "the number of engines")
    if len(args) == 1:
        return engines, 2
    if args[1].lower() == "none":
        return engines, None
    return engines, _positive(args[1], "the devices per engine")


def _positive(word: str, what: str) -> int:
    if not word.isdigit() or int(word) < 1:
        raise ValueError(f"{what} must be a whole number of at least 1, not {word!r}")
    return int(word)


def run(args: list[str], namespace: dict[str, Any]) -> Any:
    """Start the job and bind its client to ``rc`` in ``namespace``; returns the client.
    ``memory [EXPR]``, ``sharding EXPR`` and ``compiles`` show the job's memory map, an array's
    sharding or its compile report instead (and return None)."""
    if args and args[0] in VIEWS:
        from jaxdbg_widgets.multiprocess import compiles, memory, sharding

        views = {"memory": memory, "sharding": sharding, "compiles": compiles}
        views[args[0]].show(args[1:])
        return None
    engines, devices = parse(args)
    client = cluster(engines, devices)
    namespace[NAME] = client
    per = "its own device flags" if devices is None else f"{devices} CPU devices"
    print(
        f"rc: {engines} ipyparallel engines, {per} each, joined into one JAX job; "
        "%%px cells run on every process"
    )
    return client
