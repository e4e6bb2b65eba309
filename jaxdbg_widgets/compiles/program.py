"""Why a program is slow to compile: its jaxpr equations per user source line and the large
constants it captured, biggest first (a Python ``for`` over 300 steps shows as one big line)."""

from __future__ import annotations

import functools
import linecache
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

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
