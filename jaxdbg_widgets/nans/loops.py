"""Loops searched as compiled loops: ``scan`` and ``while`` run up to their first iteration
whose results go bad, which is then gone through like any other level.

One compiled loop per body serves both searches (the kind is an argument), keeps the values
of the iteration it stopped at where they are small, and, for a loop that stays good, hands
on the loop's outputs, so a loop need not run compiled whole before it is searched.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, Protocol

import jax
import numpy as np

from jaxdbg_widgets.core import _jax_internals as internals
from jaxdbg_widgets.nans.program import Level, ShardContext, any_bad, is_plain
from jaxdbg_widgets.nans.report import Origin


class Place(Protocol):
    """Where the search is (``search._Where``): its shard context, and a step inside."""

    shard: ShardContext | None

    def step(self, text: str) -> Place: ...


class Searching(Protocol):
    """What a loop asks of the search around it (``search._Search``)."""

    kind: str

    def level(self, jaxpr: Any, where: Place) -> Level: ...

    def walk(
        self,
        level: Level,
        inputs: Sequence[Any],
        where: Place,
        recorded: dict[Any, Any] | None = None,
    ) -> tuple[Origin | None, list[Any]]: ...

    def search(self, level: Level, inputs: Sequence[Any], where: Place) -> Origin | None: ...

    def count(self, equations: int, eqn: Any) -> None: ...

    def bad(self, values: Sequence[Any], where: Place, kind: str | None = None) -> np.ndarray: ...


FAST_AFTER = 0
"""How many iterations of a loop run one compiled call each before the rest runs as one
compiled loop that stops at the first iteration whose results go bad: none, as a compiled
loop costs one compile of the body, like one iteration. A loop inside a ``shard_map`` body
always runs one iteration at a time."""


def loop_at_once(eqn: Any, where: Place) -> bool:
    """Whether ``eqn`` is a loop outside a shard context whose compiled search loop gives its
    outputs too: a ``while``, or a ``scan`` whose layout is read and whose stacked outputs are
    plain arrays (not keys) in the places of the body's outputs."""
    if where.shard is not None or eqn.primitive.name not in ("while", "scan"):
        return False
    if eqn.primitive.name == "while":
        return True
    layout = internals.scan_layout(eqn)
    if layout is None:
        return False
    body = layout.body.jaxpr.outvars
    if len(body) != len(eqn.outvars):
        return False
    rows = [() if j in layout.carry_out else (layout.length,) for j in range(len(body))]
    return all(
        is_plain(inner.aval) and outer.aval.shape == (*row, *inner.aval.shape)
        for inner, outer, row in zip(body, eqn.outvars, rows, strict=True)
    )


def walk_loop(
    search: Searching, eqn: Any, ins: list[Any], where: Place
) -> tuple[Origin | None, list[Any]]:
    """Search a loop that :func:`loop_at_once` takes: the origin, else its outputs."""
    if eqn.primitive.name == "while":
        return walk_while(search, eqn, ins, where)
    return walk_scan(search, eqn, internals.scan_layout(eqn), ins, where)


@partial(jax.jit, static_argnames="axis")
def _slices(xs: list[Any], index: Any, axis: int) -> list[Any]:
    """Each of ``xs`` at ``index`` along ``axis``: one compiled call for every iteration."""
    return [jax.lax.dynamic_index_in_dim(x, index, axis, keepdims=False) for x in xs]


def _take(xs: list[Any], index: int, shard: ShardContext | None) -> list[Any]:
    """A scan's inputs at one iteration (after the device rows in a shard context)."""
    return _slices(xs, index, 1 if shard is not None else 0) if xs else []


def walk_scan(
    search: Searching,
    eqn: Any,
    layout: internals.ScanLayout,
    ins: list[Any],
    where: Place,
    outputs: bool = True,
) -> tuple[Origin | None, list[Any]]:
    """Search a scan's iterations: the origin, else ``None`` and, where ``outputs`` are asked
    for (outside a shard context), the scan's outputs."""
    level = search.level(layout.body, where)
    consts = [ins[i] for i in layout.consts]
    carry = [ins[i] for i in layout.carry]
    xs = [ins[i] for i in layout.xs]
    outvars = list(level.jaxpr.outvars)
    ys_out = _stacked_positions(layout) if outputs else []
    ys = _empty_stacks(layout, ys_out) if outputs else None
    step = 0
    while step < layout.length:
        compiled = step >= FAST_AFTER and where.shard is None
        if compiled:
            skipped, carry, ys = _skip_scan(
                search, level, layout, consts, carry, xs, (ys_out, ys or []), step
            )
            search.count(len(level.eqns) * ((skipped or (layout.length,))[0] - step), eqn)
            if skipped is None:
                return None, _scan_outputs(layout, ys_out, carry, ys)
            step, carry, recorded = skipped
        i = layout.length - 1 - step if layout.reverse else step
        inputs = [*consts, *carry, *_take(xs, i, where.shard)]
        inside = where.step(f"scan iteration {i}")
        if compiled:  # the compiled loop found this iteration's results bad (and stacked them)
            found, outs = search.walk(level, inputs, inside, recorded)
        else:
            outs = level.run(0, len(level.eqns), level.environment(inputs), outvars)
            bad = search.bad(outs, where).any()
            found = search.search(level, inputs, inside) if bad else None
            search.count(0 if bad else len(level.eqns), eqn)
            if ys is not None and ys_out:
                ys = _put(ys, [outs[j] for j in ys_out], i)
        if found is not None:
            return found, []
        carry = [outs[k] for k in layout.carry_out]
        step += 1
    return None, _scan_outputs(layout, ys_out, carry, ys)


def _stacked_positions(layout: internals.ScanLayout) -> list[int]:
    """The positions among the body's outputs of those the scan stacks (its ``ys``)."""
    return [j for j in range(len(layout.body.jaxpr.outvars)) if j not in layout.carry_out]


def _empty_stacks(layout: internals.ScanLayout, ys_out: list[int]) -> list[Any]:
    """Host zeros to stack each of a scan's ``ys`` into, one row per iteration."""
    avals = [layout.body.jaxpr.outvars[j].aval for j in ys_out]
    return [np.zeros((layout.length, *a.shape), a.dtype) for a in avals]


def _scan_outputs(
    layout: internals.ScanLayout, ys_out: list[int], carry: list[Any], ys: list[Any] | None
) -> list[Any]:
    """A scan equation's outputs, its final carry then its stacked ``ys``, in the places of the
    body's outputs they come from; nothing where they were not asked for."""
    if ys is None:
        return []
    by_position = dict(zip(layout.carry_out, carry, strict=True))
    by_position.update(zip(ys_out, ys, strict=True))
    return [by_position[j] for j in range(len(by_position))]


@jax.jit
def _put(stacks: list[Any], rows: list[Any], index: Any) -> list[Any]:
    """Each of ``stacks`` with its row ``index`` set to the matching one of ``rows``."""
    return [
        jax.lax.dynamic_update_index_in_dim(s, r, index, 0)
        for s, r in zip(stacks, rows, strict=True)
    ]


def _skip_scan(
    search: Searching,
    level: Level,
    layout: internals.ScanLayout,
    consts: list[Any],
    carry: list[Any],
    xs: list[Any],
    stacks: tuple[list[int], list[Any]],
    step: int,
) -> tuple[tuple[int, list[Any], dict[Any, Any] | None] | None, list[Any], list[Any]]:
    """From ``step`` on, the first step of a scan whose body results go bad, the carry it
    starts from and the values it defined, found by one compiled loop (``None`` when every
    later step stays good); then the last carry, and the ``stacks`` (the body's outputs at
    those positions, one row per step) with every step the loop ran written in."""
    ys_out, ys = stacks
    key = ("scan", layout.length, layout.reverse, layout.carry_out, tuple(ys_out))
    if key not in level.loops:
        level.loops[key] = _scan_loop(level, layout, ys_out)
    record, compiled = level.loops[key]
    final, last, found, values, ys = compiled(consts, carry, xs, ys, step, search.kind == "nan")
    return _skipped(found, last, record, values), list(final), list(ys)


def _scan_loop(
    level: Level, layout: internals.ScanLayout, ys_out: list[int]
) -> tuple[list[Any], Callable[..., Any]]:
    """The values a scan's checking loop keeps of its bad step, and the loop, compiled once
    per body for both searches (see :func:`_skip_scan`)."""
    record = level.kept_in_loops()
    body, length, count = level.function(record), layout.length, len(level.jaxpr.outvars)

    def run(
        consts: list[Any], carry: list[Any], xs: list[Any], ys: list[Any], start: Any, nan_only: Any
    ) -> Any:
        def going(state: tuple[Any, ...]) -> Any:
            return (state[3] < 0) & (state[2] < length)

        def one(state: tuple[Any, ...]) -> tuple[Any, ...]:
            carry, _, k, _, _, ys = state
            i = length - 1 - k if layout.reverse else k
            results = body(
                *consts, *carry, *[jax.lax.dynamic_index_in_dim(x, i, 0, False) for x in xs]
            )
            outs = results[:count]
            found = jax.numpy.where(any_bad(outs, nan_only), k, -1)
            ys = [
                jax.lax.dynamic_update_index_in_dim(s, outs[j], i, 0)
                for s, j in zip(ys, ys_out, strict=True)
            ]
            new = [outs[j] for j in layout.carry_out]
            return new, carry, k + 1, found, results[count:], ys

        initial = (carry, carry, start, -1, _blank(record), ys)
        state = jax.lax.while_loop(going, one, initial)
        return state[0], state[1], state[3], state[4], state[5]

    return record, jax.jit(run)


def _blank(record: list[Any]) -> list[Any]:
    """Zeros in the place of each recorded value, before any iteration ran."""
    return [jax.numpy.zeros(v.aval.shape, v.aval.dtype) for v in record]


def _skipped(
    found: Any, last: list[Any], record: list[Any], values: list[Any]
) -> tuple[int, list[Any], dict[Any, Any] | None] | None:
    """What a compiled loop found: the bad iteration, the carry it started from and, where
    the loop kept them, the values it defined; ``None`` when every iteration stayed good."""
    if int(found) < 0:
        return None
    return int(found), list(last), dict(zip(record, values, strict=True)) if record else None


def walk_while(
    search: Searching, eqn: Any, ins: list[Any], where: Place
) -> tuple[Origin | None, list[Any]]:
    """Search a while loop's iterations: the origin, else ``None`` and the loop's outputs."""
    params = eqn.params
    cond = search.level(params["cond_jaxpr"], where)
    body = search.level(params["body_jaxpr"], where)
    cond_count, body_count = params["cond_nconsts"], params["body_nconsts"]
    cond_consts = ins[:cond_count]
    body_consts = ins[cond_count : cond_count + body_count]
    carry = ins[cond_count + body_count :]
    iteration = 0
    while True:
        if iteration >= FAST_AFTER and where.shard is None:
            skipped, carry = _skip_while(
                search, cond, body, cond_consts, body_consts, carry, iteration
            )
            if skipped is None:
                search.count(len(cond.eqns) + len(body.eqns), eqn)  # the rest ran finite
                return None, carry
            search.count((len(cond.eqns) + len(body.eqns)) * (skipped[0] - iteration), eqn)
            iteration, carry, recorded = skipped
            inside = where.step(f"while iteration {iteration}")
            found, carry = search.walk(body, [*body_consts, *carry], inside, recorded)
            if found is not None:
                return found, []
            iteration += 1  # its bad values only carried a constant's infinity on
            continue
        cond_inputs = [*cond_consts, *carry]
        (go,) = cond.run(0, len(cond.eqns), cond.environment(cond_inputs), cond.jaxpr.outvars)
        active = np.asarray(go)
        if not active.any():
            return None, carry
        inputs = [*body_consts, *carry]
        outs = body.run(0, len(body.eqns), body.environment(inputs), body.jaxpr.outvars)
        if (search.bad(outs, where) & active).any():
            found = search.search(body, inputs, where.step(f"while iteration {iteration}"))
            if found is not None:
                return found, []
        else:
            search.count(len(cond.eqns) + len(body.eqns), eqn)
        carry = [_where_active(active, new, old) for new, old in zip(outs, carry, strict=True)]
        iteration += 1


def _skip_while(
    search: Searching,
    cond: Level,
    body: Level,
    cond_consts: list[Any],
    body_consts: list[Any],
    carry: list[Any],
    iteration: int,
) -> tuple[tuple[int, list[Any], dict[Any, Any] | None] | None, list[Any]]:
    """From ``iteration`` on, the first iteration of a while loop whose body results go bad,
    the carry it starts from and the values it defined, found by one compiled loop (``None``
    when the loop ends with every later iteration good); and the loop's last carry."""
    key = ("while", id(cond))
    if key not in body.loops:
        body.loops[key] = _while_loop(cond, body)
    record, compiled = body.loops[key]
    final, last, found, values = compiled(
        cond_consts, body_consts, carry, iteration, search.kind == "nan"
    )
    return _skipped(found, last, record, values), list(final)


def _while_loop(cond: Level, body: Level) -> tuple[list[Any], Callable[..., Any]]:
    """The values a while loop's checking loop keeps of its bad iteration, and the loop,
    compiled once per body for both searches (see :func:`_skip_while`)."""
    record = body.kept_in_loops()
    test, step, count = cond.function(), body.function(record), len(body.jaxpr.outvars)

    def run(
        cond_consts: list[Any], body_consts: list[Any], carry: list[Any], start: Any, nan_only: Any
    ) -> Any:
        def going(state: tuple[Any, ...]) -> Any:
            return (state[3] < 0) & test(*cond_consts, *state[0])[0]

        def one(state: tuple[Any, ...]) -> tuple[Any, ...]:
            carry, _, k, _, _ = state
            results = step(*body_consts, *carry)
            outs = results[:count]
            found = jax.numpy.where(any_bad(outs, nan_only), k, -1)
            return outs, carry, k + 1, found, results[count:]

        state = jax.lax.while_loop(going, one, (carry, carry, start, -1, _blank(record)))
        return state[0], state[1], state[3], state[4]

    return record, jax.jit(run)


def _where_active(active: np.ndarray, new: Any, old: Any) -> Any:
    """Per device in a shard context, the new carry where that device's loop went on."""
    if active.ndim == 0:
        return new
    mask = active.reshape(active.shape + (1,) * (np.ndim(new) - 1))
    return jax.numpy.where(mask, new, old)
