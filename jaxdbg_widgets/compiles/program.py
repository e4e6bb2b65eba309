"""Why a program is slow to compile: its jaxpr equations per user source line and the large
constants it captured, biggest first (a Python ``for`` over 300 steps shows as one big line)."""

from __future__ import annotations

import dataclasses
import functools
import linecache
import re
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from jaxdbg_widgets._kernel.cell_files import local_file
from jaxdbg_widgets.compiles.model import Constant, LineSize, ProgramSize
from jaxdbg_widgets.compiles.signature import UNKNOWN_SITE, Site
from jaxdbg_widgets.core import _jax_internals as internals
from jaxdbg_widgets.core.callsite import is_internal_file

LINES = 20
"""How many of a program's biggest lines are kept."""
CONSTANT_BYTES = 1 << 16
"""A captured constant this large or larger is listed (smaller ones are folded by XLA anyway)."""


def sub_jaxprs(params: dict[str, Any]) -> Iterator[Any]:
    """The jaxprs inside an equation's parameters (a scan body, cond branches, a pjit)."""
    for value in params.values():
        for item in value if isinstance(value, tuple | list) else (value,):
            if hasattr(item, "eqns"):
                yield item
            elif hasattr(getattr(item, "jaxpr", None), "eqns"):
                yield item.jaxpr


_internal_file = functools.lru_cache(maxsize=4096)(is_internal_file)
"""``is_internal_file`` once per file name: a program repeats the same few files many times."""
_local_file = functools.lru_cache(maxsize=4096)(local_file)
"""``local_file`` once per file name, for the same reason."""


def _user_line(eqn: Any) -> tuple[str, int] | None:
    """The file and line of the innermost user frame an equation was traced at."""
    for filename, lineno, _ in internals.equation_frames(eqn):
        if not _internal_file(filename):
            return filename, lineno
    return None


def user_site(eqn: Any, place: Callable[[str, int], Site]) -> Site:
    """The innermost user line an equation was traced at."""
    line = _user_line(eqn)
    return UNKNOWN_SITE if line is None else place(*line)


def _count(jaxpr: Any, counts: Counter[tuple[str, int] | None]) -> int:
    """Count ``jaxpr``'s equations (sub-jaxprs included) per user line into ``counts``."""
    total = 0
    for eqn in jaxpr.eqns:
        counts[_user_line(eqn)] += 1
        total += 1
        for sub in sub_jaxprs(eqn.params):
            total += _count(sub, counts)
    return total


def _constants(closed: Any, place: Callable[[str, int], Site], limit: int) -> list[Constant]:
    """The captured constants of at least ``limit`` bytes and the line using each, biggest first."""
    jaxpr = closed.jaxpr
    large = {
        var: const
        for var, const in zip(jaxpr.constvars, closed.consts, strict=False)
        if int(getattr(const, "nbytes", 0)) >= limit
    }
    found = []
    for eqn in jaxpr.eqns if large else ():
        for var in eqn.invars:
            const = large.pop(var, None) if not internals.is_literal(var) else None
            if const is not None:
                found.append(Constant(_type(const), int(const.nbytes), user_site(eqn, place)))
    found += [Constant(_type(c), int(c.nbytes), UNKNOWN_SITE) for c in large.values()]
    return sorted(found, key=lambda c: -c.nbytes)


def _type(value: Any) -> str:
    """``float32[3,4]`` for an array."""
    shape = ",".join(str(d) for d in getattr(value, "shape", ()))
    return f"{getattr(value, 'dtype', '?')}[{shape}]"


def program_size(
    closed: Any, place: Callable[[str, int], Site], *, constant_bytes: int = CONSTANT_BYTES
) -> ProgramSize | None:
    """The size of a traced program (a closed jaxpr), or ``None`` when it is not one."""
    if not hasattr(getattr(closed, "jaxpr", None), "eqns"):
        return None
    raw: Counter[tuple[str, int] | None] = Counter()
    total = _count(closed.jaxpr, raw)
    counts: Counter[Site] = Counter()
    for line, n in raw.items():
        counts[UNKNOWN_SITE if line is None else place(*line)] += n
    lines = tuple(
        LineSize(site, n, linecache.getline(site.filename, site.lineno).strip())
        for site, n in sorted(counts.items(), key=lambda item: (-item[1], item[0].label))[:LINES]
    )
    return ProgramSize(total, lines, tuple(_constants(closed, place, constant_bytes)))


_LOCATION_FRAME = re.compile(r'"([^"]*)"\("([^"]+)":(\d+):')
"""One frame of an MLIR location: ``"function"("file":line:column``."""


def _operations(operation: Any) -> Iterator[Any]:
    """Every operation nested in an MLIR operation's regions, depth first."""
    for region in operation.regions:
        for block in region.blocks:
            for inner in block.operations:
                yield inner
                yield from _operations(inner.operation)


def _location_frame(location: str) -> tuple[str, str, int] | None:
    """The function, file and line of the innermost user frame in an MLIR location."""
    for function, written, lineno in _LOCATION_FRAME.findall(location):
        filename = _local_file(written)
        if not _internal_file(filename):
            return function, filename, int(lineno)
    return None


def _hlo_line(location: str, caller: tuple[str, int] | None, name: str) -> tuple[str, int] | None:
    """The user line an operation comes from; ``None`` for one located at the jit's call site
    in a function other than the traced one (the constants and plumbing JAX adds there)."""
    frame = _location_frame(location)
    if frame is None:
        return None
    function, filename, lineno = frame
    if (filename, lineno) == caller and function != name:
        return None
    return filename, lineno


def with_hlo(
    size: ProgramSize | None,
    module: Any,
    place: Callable[[str, int], Site],
    *,
    caller: Site | None = None,
    name: str = "",
) -> ProgramSize | None:
    """``size`` with the StableHLO operations of its lowered ``module`` counted per user line
    (a new size when the trace gave none); ``size`` as it was when ``module`` is not one.

    ``caller`` is the jit's call site and ``name`` the traced function's name: operations JAX
    locates at the call site, outside that function, belong to no line.
    """
    operation = getattr(module, "operation", None)
    if operation is None:
        return size
    at = (caller.filename, caller.lineno) if caller is not None else None
    raw: Counter[tuple[str, int] | None] = Counter()
    for op in _operations(operation):
        raw[_hlo_line(str(op.location), at, name)] += 1
    counts: dict[Site, int] = {}
    for line, n in raw.items():
        site = UNKNOWN_SITE if line is None else place(*line)
        counts[site] = counts.get(site, 0) + n
    base = size if size is not None else ProgramSize(0, (), ())
    known = {line.site for line in base.lines}
    lines = (
        tuple(dataclasses.replace(line, hlo=counts.get(line.site, 0)) for line in base.lines)
        + tuple(
            LineSize(site, 0, linecache.getline(site.filename, site.lineno).strip(), n)
            for site, n in sorted(counts.items(), key=lambda item: -item[1])
            if site not in known and site is not UNKNOWN_SITE
        )[: max(0, LINES - len(base.lines))]
    )
    return dataclasses.replace(base, lines=lines, hlo=sum(raw.values()))
