"""``find_nonfinite``: the first equation of a program whose inputs are finite and outputs not.

The program is traced once with ``jax.make_jaxpr`` on the concrete arguments. Each level (the
top program, a loop body, a branch, a ``shard_map`` body) runs in compiled stretches of
equations whose live results are checked on the host; only the first stretch with a NaN or an
infinity in its results is run again equation by equation. A compound equation (``jit``, ``scan``, ``while``, ``cond``,
``shard_map``, custom-derivative and ``checkpoint`` calls) whose outputs went non-finite is
opened and searched the same way, iteration by iteration for loops. Debug prints, logs and
breakpoints are taken out of the program first, so nothing prints during the search.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from functools import partial
from typing import Any

import jax
import numpy as np
from jax.extend.core import ClosedJaxpr

from jaxdbg_widgets.core import _jax_internals as internals
from jaxdbg_widgets.core.callsite import user_call_site
from jaxdbg_widgets.nans.origin import build_origin, source_lines
from jaxdbg_widgets.nans.program import (
    Level,
    ShardContext,
    Stripped,
    any_bad,
    bad_rows,
    count_equations,
    prepare,
)
from jaxdbg_widgets.nans.progress import SearchProgress, Sink, Ticker
from jaxdbg_widgets.nans.report import NonfiniteReport, Origin, SourceLine
from jaxdbg_widgets.nans.rules import (
    Retrace,
    retrace_function,
    with_backward_rule,
    with_batch_axes,
)
from jaxdbg_widgets.nans.summary import host_value, is_key, summarize
from jaxdbg_widgets.nans.validation import Arguments

STRETCH = 256
"""Equations compiled together at one level: bounds compile time and what is looked into."""

FAST_AFTER = 0
"""Loop iterations run one compiled call each before the rest of the loop runs as one compiled
loop that stops at the first iteration whose results go bad (then opened as before). A loop
inside a ``shard_map`` body always runs one iteration at a time."""

CALLS = {
    "pjit": None,
    "jit": None,
    "closed_call": None,
    "core_call": None,
    "remat2": "checkpoint (remat)",
    "checkpoint": "checkpoint (remat)",
    "custom_jvp_call": "custom_jvp function (its primal rule ran)",
    "custom_vjp_call": "custom_vjp function (its primal rule ran)",
    "custom_vjp_call_jaxpr": "custom_vjp function (its primal rule ran)",
}
"""Call-like primitives opened as one sub-program, with the rule or scope they stand for."""

UNREAD_SCAN = (
    "this JAX writes scans in a form the search does not read (jax scan-layout in "
    "%jaxdbg status): the scan is reported as one equation, without its iteration"
)


@dataclass(frozen=True)
class _Where:
    """Where the search is: the iteration/branch path, the shard context, the rule, and the
    name stacks of the equations it went into (a sub-program's own stacks start empty)."""

    path: tuple[str, ...] = ()
    shard: ShardContext | None = None
    rule: str | None = None
    scope: tuple[str, ...] = ()
    caller: tuple[SourceLine, ...] = ()
    """The user lines of the innermost equation around here that has any (the ``jnp.where``
    call whose own ``jit`` holds the equation), for equations JAX kept no user frame for."""

    def step(self, text: str) -> _Where:
        return replace(self, path=(*self.path, text))

    def inside(self, eqn: Any) -> _Where:
        """Here, inside ``eqn``'s sub-programs: its transformations apply to them too."""
        stack = internals.name_stack(eqn)
        caller = tuple(source_lines(eqn)) or self.caller
        return replace(self, scope=(*self.scope, stack) if stack else self.scope, caller=caller)


class _Closed(Enum):
    """What an opener returns for an equation it cannot open (it is then reported whole)."""

    CLOSED = "closed"


CLOSED = _Closed.CLOSED


class _Search:
    def __init__(
        self,
        arg_names: dict[Any, str],
        kind: str,
        ticker: Ticker,
        levels: dict[tuple[int, Any], Level] | None = None,
    ) -> None:
        self.checked = 0
        self.kind = kind
        self.ticker = ticker
        self.origin_eqn: Any = None
        self.arg_names = arg_names
        self.carried: Origin | None = None
        """The first equation whose outputs went bad only because its inputs already were (an
        infinity a constant brought in, as ``jnp.where(mask, s, -jnp.inf)``): no origin."""
        self.carried_count = 0
        self.carried_eqn: Any = None
        self._levels = levels if levels is not None else {}
        """Levels by sub-program, shared by the searches of one report (their compilations too)."""

    def level(self, jaxpr: Any, where: _Where) -> Level:
        """The level for a sub-program, made once so loop iterations reuse its compilations."""
        closed = jaxpr if isinstance(jaxpr, ClosedJaxpr) else None
        open_jaxpr = closed.jaxpr if closed is not None else jaxpr
        key = (id(open_jaxpr), where.shard)
        if key not in self._levels:
            consts = [_stack(c, where.shard) for c in closed.consts] if closed is not None else []
            self._levels[key] = Level(open_jaxpr, consts, where.shard, self.kind)
        return self._levels[key]

    def count(self, equations: int, eqn: Any) -> None:
        """``equations`` more checked, ``eqn`` the current one (its line read only when shown)."""
        self.checked += equations
        self.ticker.add(equations, lambda: next(iter(source_lines(eqn)), None))

    def bad(self, values: Sequence[Any], where: _Where, kind: str | None = None) -> np.ndarray:
        """Which devices (a scalar outside a shard context) see a bad value among ``values``."""
        rows = where.shard is not None
        shape = (where.shard.mesh.devices.size,) if rows else ()
        found = np.zeros(shape, bool)
        for value in values:
            if value is not None:
                found = found | bad_rows(value, kind or self.kind, rows)
        return found

    def search(self, level: Level, inputs: Sequence[Any], where: _Where) -> Origin | None:
        """The origin inside ``level`` run on ``inputs``; ``None`` when it stays finite."""
        return self.walk(level, inputs, where)[0]

    def walk(
        self,
        level: Level,
        inputs: Sequence[Any],
        where: _Where,
        recorded: dict[Any, Any] | None = None,
    ) -> tuple[Origin | None, list[Any]]:
        """The origin inside ``level``, else ``None`` and the level's outputs.

        Stretches of equations run compiled and only their live results are checked; the first
        stretch with a bad result is gone through equation by equation, checking every output.
        A stretch that is one call (``jit``, a custom rule, ``checkpoint``) is opened at once.
        ``recorded`` holds every value the level defines where a compiled loop already ran it.
        """
        env = level.environment(inputs)
        total = len(level.eqns)
        for start in range(0, total, STRETCH):
            stop = min(total, start + STRETCH)
            wanted = level.live_out(start, stop)
            if recorded is None and stop - start == 1 and _opened_at_once(level.eqns[start], where):
                origin = self._step_through(level, start, stop, env, where)
            else:
                kept, whole = (
                    (recorded, True) if recorded is not None else _run(level, start, stop, env)
                )
                values = [kept[v] for v in wanted]
                if self.bad(values, where).any():
                    del values
                    stepped = kept if whole else None
                    origin = self._step_through(level, start, stop, env, where, stepped)
                else:
                    origin = None
                    self.count(stop - start, level.eqns[stop - 1])
                    env.update(zip(wanted, values, strict=True))
                    level.forget(env, stop)
            if origin is not None:
                return origin, []
        return None, [v.val if internals.is_literal(v) else env[v] for v in level.jaxpr.outvars]

    def _step_through(
        self,
        level: Level,
        start: int,
        stop: int,
        env: dict[Any, Any],
        where: _Where,
        recorded: dict[Any, Any] | None = None,
    ) -> Origin | None:
        """Go through ``[start, stop)`` one equation at a time, reading each one's outputs from
        ``recorded`` (one compiled run of the stretch) or else running it on its own; a call
        whose outputs went bad, or were not recorded, is opened."""
        for index in range(start, stop):
            eqn = level.eqns[index]
            ins = [
                _stack(v.val, where.shard) if internals.is_literal(v) else env[v]
                for v in eqn.invars
            ]
            kept = [recorded.get(v) for v in eqn.outvars] if recorded is not None else None
            if eqn.primitive.name in CALLS and (kept is None or self.bad(kept, where).any()):
                self.count(1, eqn)
                origin, outs = _walk_call(self, eqn, ins, where)
                if origin is not None:
                    return origin
            elif kept is None and _opened_at_once(eqn, where):  # a while loop
                self.count(1, eqn)
                carried = self.carried_count
                origin, outs = _walk_while(self, eqn, ins, where.inside(eqn))
                if origin is not None:
                    return origin
                devices = self.bad(outs, where)
                if devices.any() and self.carried_count == carried:
                    origin = self._made(eqn, ins, outs, where, devices)
                    if origin is not None:
                        return origin
            else:
                outs = kept if kept is not None else level.step(index, env)
                self.count(1, eqn)
                devices = self.bad(outs, where)
                if devices.any():
                    origin = self._at(eqn, ins, outs, where, devices)
                    if origin is not None:
                        return origin
            env.update((v, o) for v, o in zip(eqn.outvars, outs, strict=True) if _is_var(v))
            level.forget(env, index + 1)
        return None

    def _at(
        self, eqn: Any, ins: list[Any], outs: list[Any], where: _Where, devices: np.ndarray
    ) -> Origin | None:
        """The origin at ``eqn``, whose outputs went bad on ``devices``: inside it when it is
        opened, else the equation itself where its inputs were good; ``None`` where every bad
        value only carried on what its inputs (a constant's infinity) already held."""
        opener = _OPENERS.get(eqn.primitive.name)
        if opener is not None:
            carried = self.carried_count
            found = opener(self, eqn, ins, where.inside(eqn))
            if found is not CLOSED and (found is not None or self.carried_count > carried):
                return found
        return self._made(eqn, ins, outs, where, devices)

    def _made(
        self, eqn: Any, ins: list[Any], outs: list[Any], where: _Where, devices: np.ndarray
    ) -> Origin | None:
        """``eqn`` as the origin where its inputs were good, else ``None`` with the first
        such equation kept as carrying a constant's infinity on."""
        made = devices & ~self.bad(ins, where)
        if not made.any():
            self.carried_count += 1
            if self.carried is None:
                self.carried = self._origin(eqn, ins, outs, where, devices)
                self.carried_eqn = eqn
            return None
        self.origin_eqn = eqn
        return self._origin(eqn, ins, outs, where, made)

    def _origin(
        self, eqn: Any, ins: list[Any], outs: list[Any], where: _Where, devices: np.ndarray
    ) -> Origin:
        """The report's facts for ``eqn``, read on the first of ``devices`` in a shard context."""
        names = [
            f"in{i}" if internals.is_literal(v) else self.arg_names.get(v, f"in{i}")
            for i, v in enumerate(eqn.invars)
        ]
        names = [n if names.index(n) == i else f"{n}_{i}" for i, n in enumerate(names)]
        origin = build_origin(
            eqn,
            names,
            ins,
            outs,
            where.path,
            where.shard,
            [int(d) for d in np.flatnonzero(devices)],
            where.rule,
            self.kind,
            scope=where.scope,
            caller=where.caller,
            batch_axes=[internals.batch_axis(v) for v in eqn.outvars],
        )
        if eqn.primitive.name == "scan" and not internals.SCAN_LAYOUT:
            origin = replace(origin, notes=(*origin.notes, UNREAD_SCAN))
        return origin


def _opened_at_once(eqn: Any, where: _Where) -> bool:
    """Whether ``eqn`` is searched inside without a compiled run of it first: a call, or a
    while loop outside a shard context (its compiled search loop gives its outputs too)."""
    name = eqn.primitive.name
    return name in CALLS or (name == "while" and where.shard is None)


def _run(level: Level, start: int, stop: int, env: dict[Any, Any]) -> tuple[dict[Any, Any], bool]:
    """One compiled run of ``[start, stop)``: every value it defines where they fit in
    memory (so stepping through it runs nothing again), else only its live results; and
    whether they are every value."""
    everything = level.recordable(start, stop)
    kept = everything if everything is not None else level.live_out(start, stop)
    return dict(zip(kept, level.run(start, stop, env, kept), strict=True)), everything is not None


def _is_var(atom: Any) -> bool:
    return not internals.is_literal(atom) and not internals.is_dropped(atom)


def _stack(value: Any, shard: ShardContext | None) -> Any:
    """A value every device of ``shard`` holds whole, as one row per device, placed one row
    on each device (a mesh of explicit axes takes no host array where rows are expected)."""
    if shard is None:
        return value
    array = host_value(value)
    broadcast = jax.numpy.broadcast_to if is_key(array) else np.broadcast_to
    rows = broadcast(array[None], (shard.mesh.devices.size, *array.shape))
    return jax.device_put(rows, jax.sharding.NamedSharding(shard.mesh, shard.spec))


@partial(jax.jit, static_argnames="axis")
def _slices(xs: list[Any], index: Any, axis: int) -> list[Any]:
    """Each of ``xs`` at ``index`` along ``axis``: one compiled call for every iteration."""
    return [jax.lax.dynamic_index_in_dim(x, index, axis, keepdims=False) for x in xs]


def _take(xs: list[Any], index: int, shard: ShardContext | None) -> list[Any]:
    """A scan's inputs at one iteration (after the device rows in a shard context)."""
    return _slices(xs, index, 1 if shard is not None else 0) if xs else []


# --- opening compound equations ------------------------------------------------------------


def _walk_call(
    search: _Search, eqn: Any, ins: list[Any], where: _Where
) -> tuple[Origin | None, list[Any]]:
    """Search inside a call-like equation: its origin, else ``None`` and its outputs."""
    params = eqn.params
    sub = next(params[k] for k in ("jaxpr", "call_jaxpr", "fun_jaxpr") if k in params)
    rule = CALLS[eqn.primitive.name]
    inner = replace(where.inside(eqn), rule=rule or where.rule)
    origin, outs = search.walk(search.level(sub, inner), ins, inner)
    return origin, outs


def _open_scan(search: _Search, eqn: Any, ins: list[Any], where: _Where) -> Origin | _Closed | None:
    layout = internals.scan_layout(eqn)
    if layout is None:
        return CLOSED  # this JAX's scan form is not read: the scan itself is reported
    level = search.level(layout.body, where)
    consts = [ins[i] for i in layout.consts]
    carry = [ins[i] for i in layout.carry]
    xs = [ins[i] for i in layout.xs]
    outvars = list(level.jaxpr.outvars)
    step = 0
    while step < layout.length:
        compiled = step >= FAST_AFTER and where.shard is None
        if compiled:
            skipped = _skip_scan(search, level, layout, consts, carry, xs, step)
            search.count(len(level.eqns) * ((skipped or (layout.length,))[0] - step), eqn)
            if skipped is None:
                return None
            step, carry, recorded = skipped
        i = layout.length - 1 - step if layout.reverse else step
        inputs = [*consts, *carry, *_take(xs, i, where.shard)]
        inside = where.step(f"scan iteration {i}")
        if compiled:  # the compiled loop found this iteration's results bad
            found, outs = search.walk(level, inputs, inside, recorded)
        else:
            outs = level.run(0, len(level.eqns), level.environment(inputs), outvars)
            bad = search.bad(outs, where).any()
            found = search.search(level, inputs, inside) if bad else None
            search.count(0 if bad else len(level.eqns), eqn)
        if found is not None:
            return found
        carry = [outs[k] for k in layout.carry_out]
        step += 1
    return None


def _skip_scan(
    search: _Search,
    level: Level,
    layout: internals.ScanLayout,
    consts: list[Any],
    carry: list[Any],
    xs: list[Any],
    step: int,
) -> tuple[int, list[Any], dict[Any, Any] | None] | None:
    """From ``step`` on, the first step of a scan whose body results go bad, the carry it
    starts from and the values it defined, found by one compiled loop; ``None`` when every
    later step stays good."""
    record = level.kept_in_loops()
    body, length, count = level.function(record), layout.length, len(level.jaxpr.outvars)

    def run(consts: list[Any], carry: list[Any], xs: list[Any], start: Any, nan_only: Any) -> Any:
        def going(state: tuple[Any, ...]) -> Any:
            return (state[3] < 0) & (state[2] < length)

        def one(state: tuple[Any, ...]) -> tuple[Any, ...]:
            carry, _, k, _, _ = state
            i = length - 1 - k if layout.reverse else k
            results = body(
                *consts, *carry, *[jax.lax.dynamic_index_in_dim(x, i, 0, False) for x in xs]
            )
            outs = results[:count]
            found = jax.numpy.where(any_bad(outs, nan_only), k, -1)
            return [outs[j] for j in layout.carry_out], carry, k + 1, found, results[count:]

        state = jax.lax.while_loop(going, one, (carry, carry, start, -1, _blank(record)))
        return state[1], state[3], state[4]

    shape = ("scan", layout.length, layout.reverse, layout.carry_out)
    compiled = level.loops.setdefault(shape, jax.jit(run))
    last, found, values = compiled(consts, carry, xs, step, search.kind == "nan")
    return _skipped(found, last, record, values)


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


def _open_while(
    search: _Search, eqn: Any, ins: list[Any], where: _Where
) -> Origin | _Closed | None:
    return _walk_while(search, eqn, ins, where)[0]


def _walk_while(
    search: _Search, eqn: Any, ins: list[Any], where: _Where
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
    search: _Search,
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

    compiled = body.loops.setdefault(("while", id(cond)), jax.jit(run))
    final, last, found, values = compiled(
        cond_consts, body_consts, carry, iteration, search.kind == "nan"
    )
    return _skipped(found, last, record, values), list(final)


def _where_active(active: np.ndarray, new: Any, old: Any) -> Any:
    """Per device in a shard context, the new carry where that device's loop went on."""
    if active.ndim == 0:
        return new
    mask = active.reshape(active.shape + (1,) * (np.ndim(new) - 1))
    return jax.numpy.where(mask, new, old)


def _open_cond(search: _Search, eqn: Any, ins: list[Any], where: _Where) -> Origin | _Closed | None:
    branches = eqn.params["branches"]
    index = np.unique(np.asarray(ins[0]))
    if index.size != 1:
        return CLOSED  # devices took different branches: the cond itself is reported
    k = int(np.clip(index[0], 0, len(branches) - 1))
    label = (
        f"cond {'true' if k else 'false'} branch" if len(branches) == 2 else f"switch branch {k}"
    )
    inner = where.step(label)
    return search.search(search.level(branches[k], inner), ins[1:], inner)


def _open_shard_map(
    search: _Search, eqn: Any, ins: list[Any], where: _Where
) -> Origin | _Closed | None:
    if where.shard is not None:
        return CLOSED
    mesh, in_specs, manual = internals.shard_map_params(eqn)
    if not isinstance(mesh, jax.sharding.Mesh) or manual != frozenset(mesh.axis_names):
        return CLOSED
    checked = internals.checks_vma(eqn)
    if checked and not internals.SHARD_MAP_VMA:
        return CLOSED  # its steps could not be typed as the body is: the shard_map is reported
    shard = ShardContext(mesh, tuple(mesh.axis_names), checked)
    split = internals.shard_map_unchecked(
        lambda *xs: [x[None] for x in xs],
        mesh,
        in_specs=in_specs,
        out_specs=[shard.spec for _ in ins],
    )
    rows = jax.jit(split)(*ins)
    inner = replace(where, shard=shard)
    return search.search(search.level(eqn.params["jaxpr"], inner), rows, inner)


_OPENERS: dict[str, Callable[[_Search, Any, list[Any], _Where], Origin | _Closed | None]] = {
    "scan": _open_scan,
    "while": _open_while,
    "cond": _open_cond,
    "shard_map": _open_shard_map,
}


# --- the public entry point -----------------------------------------------------------------

_CHECK_FLAGS = ("jax_debug_nans", "jax_debug_infs")


@contextlib.contextmanager
def _checks_off() -> Iterator[None]:
    """JAX's own NaN/Inf checks off during the search (its values are meant to hold NaNs).

    The flags are set and put back globally: JAX's thread-local ``jax.debug_nans(False)``
    block leaves its post-call check off for the thread afterwards, even when the flag is on.
    """
    saved = {flag: bool(getattr(jax.config, flag)) for flag in _CHECK_FLAGS}
    for flag, value in saved.items():
        if value:
            jax.config.update(flag, False)
    try:
        yield
    finally:
        for flag, value in saved.items():
            if value:
                jax.config.update(flag, True)


def search_call(name: str, arguments: Arguments, sink: Sink) -> NonfiniteReport:
    """The report of ``find_nonfinite`` for a call whose arguments are already split; a long
    search's progress goes to ``sink``."""
    require_evaluation()
    caller = user_call_site()
    program, values = arguments.program, arguments.values
    with _checks_off():
        with internals.recording_batch_axes():
            closed = jax.make_jaxpr(program)(*values)
        retrace = retrace_function(program, values, {}, caller)
        where = _Where()
        return _report(name, closed, arguments.named, retrace, where, sink, arguments.local_names)


def search_program(
    name: str,
    closed: ClosedJaxpr,
    values: Sequence[Any],
    sink: Sink,
    name_stack: str = "",
    retrace: Callable[[], ClosedJaxpr] | None = None,
) -> NonfiniteReport:
    """The report of ``find_nonfinite`` for a program JAX already traced, run on ``values``.

    ``name_stack`` is the transformation the program was made by (``transpose(jvp())`` for a
    backward pass, ``vmap()`` for a batched one), so the origin names its pass and batch
    elements as inside ``find_nonfinite(jax.grad(...))``. ``retrace`` traces a backward
    program again with its equations' own tracebacks, so a ``custom_vjp`` backward rule's
    origin names the rule's line; without it, the origin names the line that called the
    function.
    """
    require_evaluation()
    named = [(f"arg{i}", value) for i, value in enumerate(values)]
    again = Retrace(lambda: retrace().jaxpr) if retrace is not None else None
    where = _Where(scope=(name_stack,) if name_stack else ())
    with _checks_off():
        return _report(name, closed, named, again, where, sink)


def require_evaluation() -> None:
    """Raise ``RuntimeError`` where this JAX cannot evaluate equations one by one."""
    if not internals.JAXPR_EVAL:
        raise RuntimeError(
            "find_nonfinite cannot evaluate equations on this JAX (see %jaxdbg status)"
        )


def _report(
    name: str,
    closed: ClosedJaxpr,
    named: list[tuple[str, Any]],
    retrace: Retrace | None,
    where: _Where,
    sink: Sink,
    local_names: list[str] | None = None,
) -> NonfiniteReport:
    """Search ``closed`` on the ``named`` values, with JAX's checks already off; the
    debugger's locals name them ``local_names``, or as the trace kept their names."""
    if not closed.jaxpr.eqns:
        raise ValueError(
            f"{name} traces to no equations: its outputs are its inputs or constants, "
            "so there is nothing to search"
        )
    stripped = Stripped()
    jaxpr = prepare(closed.jaxpr, stripped)
    skipped = tuple(line for eqn in stripped.equations for line in source_lines(eqn)[:1])
    total = count_equations(jaxpr)
    dead = count_equations(closed.jaxpr) - len(stripped.equations) - total
    bad_args = tuple(s for s in (summarize(n, v) for n, v in named) if not s.finite)
    if bad_args:
        return NonfiniteReport(name, 0, total, None, bad_args, skipped, dead=dead)
    ticker = Ticker(name, total, sink)
    try:
        names = local_names or _local_names(jaxpr, named)
        found = _locate(jaxpr, closed.consts, named, names, ticker, retrace, where)
    except KeyboardInterrupt:
        found = None  # raised below, so the search's frames and values go with this one
    if found is None:
        raise KeyboardInterrupt(_interrupted(ticker.finish("interrupted")))
    ticker.finish("done")
    checked, origin, nan_origin, lead = found
    return NonfiniteReport(name, checked, total, origin, (), skipped, nan_origin, lead, dead)


def _locate(
    jaxpr: Any,
    consts: list[Any],
    named: list[tuple[str, Any]],
    local_names: list[str],
    ticker: Ticker,
    retrace: Retrace | None,
    where: _Where,
) -> tuple[int, Origin | None, Origin | None, str]:
    """The equations checked, the origin, after an infinity the first NaN's, and the
    definition the origin answers (``NonfiniteReport.lead``)."""
    leaves = [_as_array(v, var.aval) for (_, v), var in zip(named, jaxpr.invars, strict=True)]
    arg_names = dict(zip(jaxpr.invars, local_names, strict=True))
    levels: dict[tuple[int, Any], Level] = {}
    search = _Search(arg_names, "nonfinite", ticker, levels)
    origin = search.search(search.level(ClosedJaxpr(jaxpr, consts), where), leaves, where)
    if origin is not None:
        origin = _with_rule(origin, search.origin_eqn, jaxpr, retrace)
        if any(s.nan for s in origin.outputs):
            return search.checked, origin, None, "nonfinite"
    nan_search = _Search(arg_names, "nan", ticker, levels)
    nan_origin = nan_search.search(
        nan_search.level(ClosedJaxpr(jaxpr, consts), where), leaves, where
    )
    if nan_origin is not None:
        nan_origin = _with_rule(nan_origin, nan_search.origin_eqn, jaxpr, retrace)
    if origin is not None:
        return search.checked, origin, nan_origin, "nonfinite"
    if nan_origin is not None:  # every infinity came from a constant, as a mask's -inf
        return nan_search.checked, _brought_in(nan_origin, search.carried), None, "nan"
    carried = search.carried or nan_search.carried
    if carried is None:
        return search.checked, None, None, "nonfinite"
    eqn = search.carried_eqn if search.carried is not None else nan_search.carried_eqn
    return search.checked, _with_rule(carried, eqn, jaxpr, retrace), None, "constant"


def _as_array(value: Any, aval: Any) -> Any:
    """An argument as the program reads it: a Python or NumPy value as a host array of the
    traced dtype (no compiled conversion), anything else through ``jnp.asarray``."""
    if isinstance(value, jax.Array):
        return value
    dtype = getattr(aval, "dtype", None)
    if isinstance(dtype, np.dtype):
        return np.asarray(value, dtype)
    return jax.numpy.asarray(value)


def _brought_in(origin: Origin, constant: Origin | None) -> Origin:
    """``origin`` with a note naming the line where a constant first brought an infinity in
    (``s = jnp.where(mask, s, -jnp.inf)``), when its inputs hold one."""
    if constant is None or all(s.finite for s in origin.inputs):
        return origin
    line = constant.source
    where = line.describe() if line is not None else f"{constant.primitive}, no user line kept"
    note = f"its inputs' infinities came from a constant, first brought in at {where}"
    return replace(origin, notes=(*origin.notes, note))


def _with_rule(origin: Origin, eqn: Any, jaxpr: Any, retrace: Retrace | None) -> Origin:
    """``origin`` with its backward rule's line and, where its trace came from JAX's caches,
    its batch axis, where the program can be traced again."""
    if retrace is None:
        return origin
    return with_batch_axes(with_backward_rule(origin, eqn, jaxpr, retrace), eqn, jaxpr, retrace)


def _local_names(jaxpr: Any, named: list[tuple[str, Any]]) -> list[str]:
    """Each argument's name as a local: the parameter's own name where the trace kept one that
    is an identifier (``x``, ``lr``), else its path (``arg0``, ``arg1['w']``)."""
    kept = internals.argument_names(jaxpr) or (None,) * len(named)
    return [
        own if own is not None and own.isidentifier() else path
        for own, (path, _) in zip(kept, named, strict=True)
    ]


def _interrupted(reading: SearchProgress) -> str:
    """What an interrupted search says: how far it went, and that JAX's checks are back."""
    where = f", at {reading.line.describe()}" if reading.line is not None else ""
    return (
        f"find_nonfinite({reading.function}) stopped after {reading.checked:,} equations "
        f"checked in {reading.seconds:.1f} s{where}; JAX's jax_debug_nans and jax_debug_infs "
        "are as they were"
    )
