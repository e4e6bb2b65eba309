"""The search through one traced program: the first equation whose inputs are good and whose
outputs are not.

Each level (the top program, a loop body, a branch, a ``shard_map`` body) runs in compiled
stretches of equations whose live results are checked on the host; only the first stretch with
a NaN or an infinity in its results is gone through equation by equation. A compound equation
(``jit``, ``cond``, ``shard_map``, custom-derivative and ``checkpoint`` calls) whose outputs went
bad is opened and searched the same way; loops are searched as compiled loops
(:mod:`jaxdbg_widgets.nans.loops`). Debug prints, logs and breakpoints are taken out of the
program first, so nothing prints during the search.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

import jax
import numpy as np
from jax.extend.core import ClosedJaxpr

from jaxdbg_widgets.core import _jax_internals as internals
from jaxdbg_widgets.nans import loops
from jaxdbg_widgets.nans.origin import build_origin, source_lines
from jaxdbg_widgets.nans.program import (
    Level,
    ShardContext,
    bad_rows,
)
from jaxdbg_widgets.nans.progress import Ticker
from jaxdbg_widgets.nans.report import Origin, SourceLine
from jaxdbg_widgets.nans.summary import host_value, is_key

STRETCH = 256
"""Equations compiled together at one level: bounds compile time and what is looked into."""


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
class Where:
    """Where the search is: the iteration/branch path, the shard context, the rule, and the
    name stacks of the equations it went into (a sub-program's own stacks start empty)."""

    path: tuple[str, ...] = ()
    shard: ShardContext | None = None
    rule: str | None = None
    scope: tuple[str, ...] = ()
    caller: tuple[SourceLine, ...] = ()
    """The user lines of the innermost equation around here that has any (the ``jnp.where``
    call whose own ``jit`` holds the equation), for equations JAX kept no user frame for."""

    def step(self, text: str) -> Where:
        return replace(self, path=(*self.path, text))

    def inside(self, eqn: Any) -> Where:
        """Here, inside ``eqn``'s sub-programs: its transformations apply to them too."""
        stack = internals.name_stack(eqn)
        caller = tuple(source_lines(eqn)) or self.caller
        return replace(self, scope=(*self.scope, stack) if stack else self.scope, caller=caller)


class _Closed(Enum):
    """What an opener returns for an equation it cannot open (it is then reported whole)."""

    CLOSED = "closed"


CLOSED = _Closed.CLOSED


class Search:
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
        self.nan_first = False
        """Whether the origin is a NaN computed from a constant's infinities, met before any
        non-finite value computed from finite inputs (the lead is then the first NaN)."""
        self._levels = levels if levels is not None else {}
        """Levels by sub-program, shared by the searches of one report (their compilations too)."""

    def level(self, jaxpr: Any, where: Where) -> Level:
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

    def bad(self, values: Sequence[Any], where: Where, kind: str | None = None) -> np.ndarray:
        """Which devices (a scalar outside a shard context) see a bad value among ``values``."""
        rows = where.shard is not None
        shape = (where.shard.mesh.devices.size,) if rows else ()
        found = np.zeros(shape, bool)
        for value in values:
            if value is not None:
                found = found | bad_rows(value, kind or self.kind, rows)
        return found

    def search(self, level: Level, inputs: Sequence[Any], where: Where) -> Origin | None:
        """The origin inside ``level`` run on ``inputs``; ``None`` when it stays finite."""
        return self.walk(level, inputs, where)[0]

    def walk(
        self,
        level: Level,
        inputs: Sequence[Any],
        where: Where,
        recorded: dict[Any, Any] | None = None,
    ) -> tuple[Origin | None, list[Any]]:
        """The origin inside ``level``, else ``None`` and the level's outputs.

        Stretches of equations run compiled and only their live results are checked; the first
        stretch with a bad result is gone through equation by equation, checking every output.
        A stretch that is one call (``jit``, a custom rule, ``checkpoint``) is opened at once.
        ``recorded`` holds every value the level defines where a compiled loop already ran it.
        """
        env = level.environment(inputs)
        start = 0
        while start < len(level.eqns):
            stop = _stretch_end(level, start, where)
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
            start = stop
        return None, [v.val if internals.is_literal(v) else env[v] for v in level.jaxpr.outvars]

    def _step_through(
        self,
        level: Level,
        start: int,
        stop: int,
        env: dict[Any, Any],
        where: Where,
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
            elif kept is None and loops.loop_at_once(eqn, where):
                self.count(1, eqn)
                carried = self.carried_count
                origin, outs = loops.walk_loop(self, eqn, ins, where.inside(eqn))
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
        self, eqn: Any, ins: list[Any], outs: list[Any], where: Where, devices: np.ndarray
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
        self, eqn: Any, ins: list[Any], outs: list[Any], where: Where, devices: np.ndarray
    ) -> Origin | None:
        """``eqn`` as the origin where its inputs were good, else ``None`` with the first
        such equation kept as carrying a constant's infinity on."""
        made = devices & ~self.bad(ins, where)
        if not made.any():
            fresh = self.bad(outs, where, "nan") & ~self.bad(ins, where, "nan")
            if self.kind == "nonfinite" and fresh.any():  # -inf - -inf under a mask
                self.origin_eqn, self.nan_first = eqn, True
                return self._origin(eqn, ins, outs, where, fresh, "nan")
            self.carried_count += 1
            if self.carried is None:
                self.carried = self._origin(eqn, ins, outs, where, devices)
                self.carried_eqn = eqn
            return None
        self.origin_eqn = eqn
        return self._origin(eqn, ins, outs, where, made)

    def _origin(
        self,
        eqn: Any,
        ins: list[Any],
        outs: list[Any],
        where: Where,
        devices: np.ndarray,
        kind: str | None = None,
    ) -> Origin:
        """The report's facts for ``eqn``, read on the first of ``devices`` in a shard context;
        ``kind`` is what it is the origin of, where not what this search looks for."""
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
            kind or self.kind,
            scope=where.scope,
            caller=where.caller,
            batch_axes=[internals.batch_axis(v) for v in eqn.outvars],
        )
        if eqn.primitive.name == "scan" and not internals.SCAN_LAYOUT:
            origin = replace(origin, notes=(*origin.notes, UNREAD_SCAN))
        return origin


def _stretch_end(level: Level, start: int, where: Where) -> int:
    """Where the stretch from ``start`` ends: after :data:`STRETCH` equations, before a loop
    :func:`~jaxdbg_widgets.nans.loops.loop_at_once` takes, or right after one that begins it."""
    if start not in level.ends:  # a loop body's level is walked again at each bad iteration
        end = min(len(level.eqns), start + STRETCH)
        at = (i for i in range(start, end) if loops.loop_at_once(level.eqns[i], where))
        level.ends[start] = max(next(at, end), start + 1)
    return level.ends[start]


def _opened_at_once(eqn: Any, where: Where) -> bool:
    """Whether ``eqn`` is searched inside without a compiled run of it first: a call, or a
    loop that :func:`~jaxdbg_widgets.nans.loops.loop_at_once` takes."""
    return eqn.primitive.name in CALLS or loops.loop_at_once(eqn, where)


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


# --- opening compound equations ------------------------------------------------------------


def _walk_call(
    search: Search, eqn: Any, ins: list[Any], where: Where
) -> tuple[Origin | None, list[Any]]:
    """Search inside a call-like equation: its origin, else ``None`` and its outputs."""
    params = eqn.params
    sub = next(params[k] for k in ("jaxpr", "call_jaxpr", "fun_jaxpr") if k in params)
    rule = CALLS[eqn.primitive.name]
    inner = replace(where.inside(eqn), rule=rule or where.rule)
    origin, outs = search.walk(search.level(sub, inner), ins, inner)
    return origin, outs


def _open_scan(search: Search, eqn: Any, ins: list[Any], where: Where) -> Origin | _Closed | None:
    layout = internals.scan_layout(eqn)
    if layout is None:
        return CLOSED  # this JAX's scan form is not read: the scan itself is reported
    return loops.walk_scan(search, eqn, layout, ins, where, outputs=False)[0]


def _open_while(search: Search, eqn: Any, ins: list[Any], where: Where) -> Origin | _Closed | None:
    return loops.walk_while(search, eqn, ins, where)[0]


def _open_cond(search: Search, eqn: Any, ins: list[Any], where: Where) -> Origin | _Closed | None:
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
    search: Search, eqn: Any, ins: list[Any], where: Where
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


_OPENERS: dict[str, Callable[[Search, Any, list[Any], Where], Origin | _Closed | None]] = {
    "scan": _open_scan,
    "while": _open_while,
    "cond": _open_cond,
    "shard_map": _open_shard_map,
}
