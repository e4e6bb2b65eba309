"""``compare EXPR``: one expression's value in every gathered shard, and which shards differ.

Each waiting shard evaluates the expression with :meth:`Session.evaluate` at the same frame
depth and ``vmap`` element as the shown shard; a released shard's program has moved on, so
its row says so. Equal answers form a group: the same text, the same error, or numbers (and
arrays of numbers of one shape) equal within :data:`RTOL`, so a sum that differs by rounding
agrees. When one group is larger than every other, the rows outside it are marked; a tie for
the largest marks nothing and is reported as a tie. The text names the differing shards and
gives one line per group: ``shards 0–215, 217–255: False``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from types import CodeType
from typing import Any

import numpy as np

from jaxdbg_widgets.core.shard_place import ShardPlace
from jaxdbg_widgets.debugger.session.shard_gathering import Hit
from jaxdbg_widgets.debugger.session.single import Session
from jaxdbg_widgets.debugger.session.values import CELL_LIMIT, describe_error, short_repr, truncate

CONTINUED = "(continued)"
"""A continued shard's compare value: its program has moved on, its values are gone."""
RTOL = 1e-5
ATOL = 1e-8
"""Numbers closer than this agree (``numpy.isclose``; NaN agrees with NaN)."""
NUMERIC_LIMIT = 1 << 20
"""Arrays with more elements than this are compared by their text only."""
ARRAYS_MERGED = 64
"""Past this many distinct array texts, arrays are grouped by their text only."""
SHARDS_NAMED = 12
"""How many shard ranges a line names before it says how many more there are."""


@dataclass(frozen=True)
class CompareRow:
    """One shard's value of a compared expression; ``differs`` marks a minority value.

    ``index`` is the row's position among the gathered shards, ``shard`` the shard's index in
    the mesh, ``group`` which group of equal answers it belongs to (``None`` once continued).
    """

    index: int
    label: str
    value: str
    error: bool = False
    differs: bool = False
    shard: int = 0
    group: int | None = None


@dataclass(frozen=True)
class _Answer:
    text: str
    error: bool
    number: Any = None
    value: Any = None


def compare(
    hits: Sequence[Hit],
    expression: str,
    reference: Session | None,
    shard_index: Callable[[ShardPlace, int], int],
) -> tuple[list[CompareRow], list[Any]]:
    """``expression`` in every waiting hit, at ``reference``'s frame depth and element: the
    rows, and each row's value (``None`` for a continued or raising hit) for its picture."""
    if not expression.strip():
        raise SyntaxError("compare needs an expression")
    code = compile(expression, "<jdb>", "eval")
    depth = reference.selected if reference else 0
    element = reference.batch_element if reference and reference.batch_size else None
    answers = [None if h.resume else _answer(h.session, code, depth, element) for h in hits]
    groups = _group(answers)
    rows = [
        CompareRow(n, h.shard.label, CONTINUED, shard=shard_index(h.shard, n))
        if answer is None
        else CompareRow(
            n,
            h.shard.label,
            answer.text,
            answer.error,
            shard=shard_index(h.shard, n),
            group=groups[n],
        )
        for n, (h, answer) in enumerate(zip(hits, answers, strict=True))
    ]
    return mark(rows), [None if a is None else a.value for a in answers]


def _answer(session: Session, code: CodeType, depth: int, element: int | None) -> _Answer:
    """One shard's value of ``code``: its text, whether it raised, and its number if numeric."""
    try:
        value = session.evaluate(code, depth=depth, element=element)
    except BaseException as err:  # an expression may raise anything, even SystemExit
        return _Answer(f"*** {truncate(describe_error(err), CELL_LIMIT)}", True)
    return _Answer(short_repr(value), False, _numeric(value), value)


def _numeric(value: Any) -> np.ndarray | None:
    """``value`` as a numpy array of numbers (float or complex), or ``None`` if it is not one."""
    if isinstance(value, (bool, str, bytes)) or value is None:
        return None
    try:
        array = np.asarray(value)
    except Exception:
        return None
    if array.dtype.kind not in "fc" or array.size > NUMERIC_LIMIT:
        return None
    return array


def _close(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two arrays of numbers of one shape are equal within tolerance."""
    if a.shape != b.shape:
        return False
    with np.errstate(all="ignore"):
        return bool(np.all(np.isclose(a, b, rtol=RTOL, atol=ATOL, equal_nan=True)))


def plain_answers(
    hits: Sequence[Hit], expression: str, reference: Session | None
) -> tuple[list[tuple[str, bool, float | list[Any] | None] | None], list[Any]]:
    """``expression`` in every waiting hit as ``(text, error, numbers)``, plain data another
    process can group with :func:`group_values` (``None`` for a continued hit; numbers only
    for real values of at most ``ARRAYS_MERGED`` elements), and each hit's value itself
    (``None`` for a continued or raising hit), for its picture."""
    if not expression.strip():
        raise SyntaxError("compare needs an expression")
    code = compile(expression, "<jdb>", "eval")
    depth = reference.selected if reference else 0
    element = reference.batch_element if reference and reference.batch_size else None
    plain: list[tuple[str, bool, float | list[Any] | None] | None] = []
    values: list[Any] = []
    for hit in hits:
        if hit.resume is not None:
            plain.append(None)
            values.append(None)
            continue
        answer = _answer(hit.session, code, depth, element)
        number = answer.number
        small = number is not None and number.size <= ARRAYS_MERGED and number.dtype.kind == "f"
        plain.append((answer.text, answer.error, number.tolist() if small else None))
        values.append(answer.value)
    return plain, values


def group_values(values: Sequence[tuple[str, bool, Any] | None]) -> list[int | None]:
    """Groups of equal answers for ``(text, error, numbers)`` triples gathered from several
    processes (``None`` for a continued hit), by the same rule as one process's compare."""
    answers = [
        None if v is None else _Answer(v[0], v[1], None if v[2] is None else np.asarray(v[2]))
        for v in values
    ]
    return _group(answers)


def _group(answers: Sequence[_Answer | None]) -> list[int | None]:
    """Each answer's group: equal texts first, then numbers equal within tolerance merged.

    Real scalars are merged in sorted order, each with its neighbour, so the cost stays
    ``n log n`` at any device count; arrays are compared pairwise while there are at most
    :data:`ARRAYS_MERGED` distinct array texts.
    """
    by_text: dict[tuple[str, bool], int] = {}
    leaders: list[_Answer] = []
    first: list[int | None] = []
    for answer in answers:
        if answer is None:
            first.append(None)
            continue
        key = (answer.text, answer.error)
        if key not in by_text:
            by_text[key] = len(leaders)
            leaders.append(answer)
        first.append(by_text[key])
    parent = list(range(len(leaders)))

    def root(g: int) -> int:
        while parent[g] != g:
            g = parent[g]
        return g

    def join(a: int, b: int) -> None:
        a, b = root(a), root(b)
        parent[max(a, b)] = min(a, b)

    scalars, arrays = [], []
    for g, leader in enumerate(leaders):
        number = leader.number
        if number is None:
            continue
        if number.size == 1 and number.dtype.kind == "f" and not np.isnan(number).any():
            scalars.append((float(number.reshape(())), g))
        else:
            arrays.append(g)
    scalars.sort()
    for (a_value, a), (b_value, b) in itertools.pairwise(scalars):
        if math.isclose(a_value, b_value, rel_tol=RTOL, abs_tol=ATOL):
            join(a, b)
    if len(arrays) <= ARRAYS_MERGED:
        for n, a in enumerate(arrays):
            for b in arrays[n + 1 :]:
                if root(a) != root(b) and _close(leaders[a].number, leaders[b].number):
                    join(a, b)
    return [None if g is None else root(g) for g in first]


def mark(rows: Sequence[CompareRow]) -> list[CompareRow]:
    """``rows`` with ``differs`` set outside the one largest group (nothing set on a tie)."""
    sizes: dict[int, int] = {}
    for row in rows:
        if row.group is not None:
            sizes[row.group] = sizes.get(row.group, 0) + 1
    ranked = sorted(sizes.values(), reverse=True)
    tied = len(ranked) > 1 and ranked[0] == ranked[1]
    common = None if not sizes or tied else max(sizes, key=sizes.__getitem__)
    return [
        replace(r, differs=common is not None and r.group is not None and r.group != common)
        for r in rows
    ]


def without(rows: Sequence[CompareRow], position: int) -> list[CompareRow]:
    """``rows`` once the shard at ``position`` has continued: its value gone, marks redone."""
    return mark(
        [
            replace(r, value=CONTINUED, error=False, group=None) if r.index == position else r
            for r in rows
        ]
    )


def groups(rows: Sequence[CompareRow]) -> list[list[CompareRow]]:
    """The answered rows in their groups of equal answers, largest first."""
    by_group: dict[int, list[CompareRow]] = {}
    for row in rows:
        if row.group is not None:
            by_group.setdefault(row.group, []).append(row)
    return sorted(by_group.values(), key=len, reverse=True)


def shard_ranges(indices: Sequence[int]) -> str:
    """``shards 0–215, 217–255`` (``shard 216`` for one), cut after a dozen ranges."""
    ordered = sorted(indices)
    ranges: list[str] = []
    start = previous = None
    for i in [*ordered, None]:
        if start is not None and (i is None or i != previous + 1):
            ranges.append(str(start) if start == previous else f"{start}–{previous}")
            start = None
        if i is not None and start is None:
            start = i
        previous = i
    shown = ", ".join(ranges[:SHARDS_NAMED])
    if len(ranges) > SHARDS_NAMED:
        shown += f", ... ({len(ordered)} in all)"
    return f"{'shard' if len(ordered) == 1 else 'shards'} {shown}"


def verdict(rows: Sequence[CompareRow]) -> str:
    """One line: every shard agrees, which shards differ and how, or that the top values tie."""
    answered = groups(rows)
    if not answered:
        return "no waiting shard to compare"
    if len(answered) == 1:
        return f"all {len(answered[0])} shards agree: {_short(answered[0][0].value)}"
    differing = [r for r in rows if r.differs]
    if not differing:
        size = len(answered[0])
        tied = sum(len(g) == size for g in answered)
        each = "1 shard" if size == 1 else f"{size} shards"
        return f"no most common value: {tied} values tie, {each} each"
    common = answered[0]
    minority = {r.group for r in differing}
    what = _short(differing[0].value) if len(minority) == 1 else f"{len(minority)} other values"
    verb = "differs" if len(differing) == 1 else "differ"
    others = "other" if len(common) == 1 else "others"
    return (
        f"{shard_ranges([r.shard for r in differing])} {verb}: {what}, "
        f"{len(common)} {others} {_short(common[0].value)}"
    )


def compare_text(expression: str, rows: list[CompareRow]) -> str:
    """The compare result as transcript text: one line per group of equal answers (differing
    ones marked ``!``), the continued shards, and the verdict."""
    lines = [f"{expression} in {len(rows)} shards:"]
    for group in groups(rows):
        mark_ = "!" if group[0].differs else " "
        lines.append(f"{mark_} {shard_ranges([r.shard for r in group])}: {_short(group[0].value)}")
    gone = [r.shard for r in rows if r.group is None]
    if gone:
        lines.append(f"  {shard_ranges(gone)}: {CONTINUED}")
    lines.append(verdict(rows))
    return "\n".join(lines)


def _short(value: str) -> str:
    return truncate(value, max(40, CELL_LIMIT // 4))
