"""A traced program made ready for the search: debug callbacks taken out, liveness known,
stretches of equations run as one compiled call each, single equations run on their own."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
from jax.extend.core import ClosedJaxpr, Jaxpr
from jax.sharding import PartitionSpec

from jaxdbg_widgets.core import _jax_internals as internals
from jaxdbg_widgets.nans.summary import is_inexact

CALLBACK_PRIMITIVES = frozenset({"debug_callback", "debug_print"})
"""JAX's primitives that only print or call back: the search never runs them."""

OWN_PREFIX = "jaxdbg_"
"""This package's print, log, callback and breakpoint primitives, never run by the search."""


def is_callback(eqn: Any) -> bool:
    """Whether ``eqn`` is a debug print, log, callback or breakpoint."""
    name = eqn.primitive.name
    return name in CALLBACK_PRIMITIVES or name.startswith(OWN_PREFIX)


@dataclass
class Stripped:
    """What removing the debug callbacks took out: one equation per callback site."""

    equations: list[Any] = field(default_factory=list)


def _used_vars(jaxpr: Jaxpr) -> set[Any]:
    used = {v for v in jaxpr.outvars if not internals.is_literal(v)}
    for eqn in jaxpr.eqns:
        used.update(v for v in eqn.invars if not internals.is_literal(v))
    return used


def _strip_param(value: Any, stripped: Stripped) -> Any:
    if isinstance(value, ClosedJaxpr):
        return value.replace(jaxpr=strip_callbacks(value.jaxpr, stripped))
    if isinstance(value, Jaxpr):
        return strip_callbacks(value, stripped)
    if isinstance(value, tuple) and any(isinstance(v, (ClosedJaxpr, Jaxpr)) for v in value):
        return tuple(_strip_param(v, stripped) for v in value)
    return value


def strip_callbacks(jaxpr: Jaxpr, stripped: Stripped) -> Jaxpr:
    """``jaxpr`` and its sub-programs without the callback equations whose outputs go unused."""
    used = _used_vars(jaxpr)
    eqns = []
    for eqn in jaxpr.eqns:
        if is_callback(eqn) and not any(v in used for v in eqn.outvars):
            stripped.equations.append(eqn)
            continue
        params = {k: _strip_param(v, stripped) for k, v in eqn.params.items()}
        if any(params[k] is not v for k, v in eqn.params.items()):
            eqn = eqn.replace(params=params)
        eqns.append(eqn)
    if len(eqns) == len(jaxpr.eqns) and all(a is b for a, b in zip(eqns, jaxpr.eqns, strict=True)):
        return jaxpr
    return jaxpr.replace(eqns=eqns)


def prepare(jaxpr: Jaxpr, stripped: Stripped) -> Jaxpr:
    """The program the search runs: debug callbacks taken out (into ``stripped``), then every
    equation whose values reach no output left out, so the origin is the first bad value
    among those the program uses, for its line and its loop iteration alike."""
    return internals.without_dead_code(strip_callbacks(jaxpr, stripped))


def count_equations(jaxpr: Jaxpr) -> int:
    """Equations in ``jaxpr`` and in every sub-program, each counted once."""
    total = 0
    for eqn in jaxpr.eqns:
        total += 1
        for value in eqn.params.values():
            for sub in value if isinstance(value, tuple) else (value,):
                if isinstance(sub, ClosedJaxpr):
                    total += count_equations(sub.jaxpr)
                elif isinstance(sub, Jaxpr):
                    total += count_equations(sub)
    return total


KINDS = ("nonfinite", "nan")
"""What a check looks for: any NaN or infinity, or NaN only."""


def bad_rows(value: Any, kind: str, rows: bool) -> np.ndarray:
    """Whether ``value`` holds a NaN (or an infinity, for ``"nonfinite"``), read on the host.

    With ``rows``, one answer per leading row (per device in a shard context). NumPy's checks
    on the host are several times faster than the same reduction compiled by XLA on CPU.
    """
    if not is_inexact(value):
        return np.zeros(np.shape(value)[:1] if rows else (), bool)
    array = np.asarray(value)
    bad = np.isnan(array) if kind == "nan" else ~np.isfinite(array)
    return bad.reshape(bad.shape[0], -1).any(axis=1) if rows else np.asarray(bad.any())


@dataclass(frozen=True)
class ShardContext:
    """The manual mesh a level runs in: values carry one leading row per device. ``checked``
    when the body was typed with varying manual axes (``check_vma``), as its steps must be."""

    mesh: Any
    axes: tuple[str, ...]
    checked: bool = False

    @property
    def spec(self) -> PartitionSpec:
        return PartitionSpec(self.axes)


RECORD_BYTES = 64 * 2**20
"""The most bytes of intermediate values one compiled run of a stretch hands back whole."""

LOOP_RECORD_BYTES = 8 * 2**20
"""The most bytes of a loop body's values a compiled loop keeps of its latest iteration:
every iteration writes them, so they stay small beside the body's own work."""


class Level:
    """One jaxpr of the program (top level, a loop body, a branch) and its compiled stretches.

    Values live in an environment keyed by jaxpr variable; a variable is dropped after the last
    equation that reads it, so memory stays bounded by what is still needed.
    """

    def __init__(
        self,
        jaxpr: Jaxpr,
        consts: Sequence[Any],
        shard: ShardContext | None,
        kind: str = "nonfinite",
    ) -> None:
        self.jaxpr = jaxpr
        self.kind = kind
        self.consts = list(consts)
        self.shard = shard
        self.eqns = list(jaxpr.eqns)
        end = len(self.eqns)
        self.last_use: dict[Any, int] = {}
        for index, eqn in enumerate(self.eqns):
            for var in eqn.invars:
                if not internals.is_literal(var):
                    self.last_use[var] = index
        for var in jaxpr.outvars:
            if not internals.is_literal(var):
                self.last_use[var] = end
        self._compiled: dict[tuple[Any, ...], Callable[..., Any]] = {}
        self.loops: dict[tuple[Any, ...], Any] = {}
        """Compiled checking loops over this level as a body, by their shape (see the search)."""
        self.ends: dict[int, int] = {}
        """Where the stretch from each start ends, once the search has found it."""

    def environment(self, inputs: Sequence[Any]) -> dict[Any, Any]:
        """The values of the level's constants and inputs, keyed by variable."""
        env = dict(zip(self.jaxpr.constvars, self.consts, strict=True))
        env.update(zip(self.jaxpr.invars, inputs, strict=True))
        return env

    def _live_in(self, start: int, stop: int, wanted: Sequence[Any]) -> list[Any]:
        """The values ``[start, stop)`` reads from before it, and those of ``wanted`` it only
        passes on (a loop body that returns an input unchanged, as ``fori_loop``'s bound)."""
        defined, needed = set(), []
        for eqn in self.eqns[start:stop]:
            for var in eqn.invars:
                if not internals.is_literal(var) and var not in defined and var not in needed:
                    needed.append(var)
            defined.update(eqn.outvars)
        passed_on = (v for v in wanted if not internals.is_literal(v) and v not in defined)
        return needed + [v for v in dict.fromkeys(passed_on) if v not in needed]

    def live_out(self, start: int, stop: int) -> list[Any]:
        """Variables defined in ``[start, stop)`` that a later equation or the output reads."""
        return [
            var
            for eqn in self.eqns[start:stop]
            for var in eqn.outvars
            if self.last_use.get(var, -1) >= stop
        ]

    def recordable(self, start: int, stop: int, limit: int = RECORD_BYTES) -> list[Any] | None:
        """Every value ``[start, stop)`` defines, where together they fit in
        :data:`RECORD_BYTES`: one compiled run then gives what stepping would, one equation at
        a time, without compiling each equation on its own; else ``None``."""
        defined = [
            var
            for eqn in self.eqns[start:stop]
            for var in eqn.outvars
            if not internals.is_dropped(var)
        ]
        rows = self.shard.mesh.devices.size if self.shard is not None else 1
        size = sum(_bytes(var.aval) for var in defined) * rows
        return defined if size <= limit else None

    def run(self, start: int, stop: int, env: dict[Any, Any], wanted: Sequence[Any]) -> list[Any]:
        """The ``wanted`` values after running equations ``[start, stop)`` as one compiled call."""
        live_in = self._live_in(start, stop, wanted)
        key = (start, stop, tuple(wanted))
        if key not in self._compiled:
            self._compiled[key] = self._compile(start, stop, live_in, list(wanted))
        return list(self._compiled[key](*[env[v] for v in live_in]))

    def step(self, index: int, env: dict[Any, Any]) -> list[Any]:
        """One equation's outputs: dispatched eagerly, or compiled per device in a shard context."""
        eqn = self.eqns[index]
        if self.shard is not None:
            outs = [v for v in eqn.outvars if not internals.is_dropped(v)]
            values = dict(zip(outs, self.run(index, index + 1, env, outs), strict=True))
            return [values.get(v) for v in eqn.outvars]
        ins = [a.val if internals.is_literal(a) else env[a] for a in eqn.invars]
        return internals.bind_equation(eqn, ins)

    def forget(self, env: dict[Any, Any], stop: int) -> None:
        """Drop every value no equation from ``stop`` on reads."""
        for var in [v for v in env if self.last_use.get(v, -1) < stop]:
            del env[var]

    def function(self, record: Sequence[Any] = ()) -> Callable[..., list[Any]]:
        """The whole level as a traceable function of its inputs that returns its outputs,
        then the ``record`` values, to run inside a compiled loop (outside a shard context)."""
        names = [*self.jaxpr.constvars, *self.jaxpr.invars]
        whole = _stretch(self.eqns, names, [*self.jaxpr.outvars, *record])
        return lambda *inputs: whole(*self.consts, *inputs)

    def kept_in_loops(self) -> list[Any]:
        """What a compiled loop over this level as its body hands back of the iteration that
        went bad, so that iteration is gone through without compiling the body again: every
        value the level defines, where they fit in :data:`LOOP_RECORD_BYTES` and none is a
        key; else nothing."""
        everything = self.recordable(0, len(self.eqns), LOOP_RECORD_BYTES)
        if everything is None or not all(is_plain(v.aval) for v in everything):
            return []
        return everything

    def _compile(
        self, start: int, stop: int, live_in: list[Any], wanted: list[Any]
    ) -> Callable[..., Any]:
        stretch = _stretch(self.eqns[start:stop], live_in, wanted)
        if self.shard is None:
            return jax.jit(stretch)
        spec, axes = self.shard.spec, self.shard.axes
        invariant = [
            tuple(a for a in axes if a not in internals.varying_axes(v))
            if self.shard.checked
            else ()
            for v in live_in
        ]

        def per_device(*values: Any) -> list[Any]:
            local = [
                internals.invariant_along(v[0], a) for v, a in zip(values, invariant, strict=True)
            ]
            return [jnp.asarray(o)[None] for o in stretch(*local)]

        shard_map = (
            internals.shard_map_checked if self.shard.checked else internals.shard_map_unchecked
        )
        mapped = shard_map(
            per_device,
            self.shard.mesh,
            in_specs=tuple(spec for _ in live_in),
            out_specs=[spec for _ in wanted],
        )
        return jax.jit(mapped)


def is_plain(aval: Any) -> bool:
    """Whether a value of ``aval`` is a plain array a compiled loop can hold and write rows
    of: not a key, a token or a ``float0`` tangent."""
    dtype = getattr(aval, "dtype", None)
    return isinstance(dtype, np.dtype) and dtype != jax.dtypes.float0


def _bytes(aval: Any) -> int:
    """The bytes of a value of ``aval``; a key or a token counts as 16 bytes an element."""
    itemsize = getattr(getattr(aval, "dtype", None), "itemsize", 16)
    return int(np.prod(getattr(aval, "shape", ()), dtype=np.int64)) * itemsize


def _stretch(
    eqns: Sequence[Any], live_in: Sequence[Any], wanted: Sequence[Any]
) -> Callable[..., list[Any]]:
    """``eqns`` as a function of the ``live_in`` values that returns the ``wanted`` ones."""

    def stretch(*values: Any) -> list[Any]:
        env = dict(zip(live_in, values, strict=True))
        for eqn in eqns:
            ins = [a.val if internals.is_literal(a) else env[a] for a in eqn.invars]
            outs = internals.bind_equation(eqn, ins)
            env.update(
                (v, o)
                for v, o in zip(eqn.outvars, outs, strict=True)
                if not internals.is_dropped(v)
            )
        return [a.val if internals.is_literal(a) else env[a] for a in wanted]

    return stretch


def any_bad(values: Sequence[Any], nan_only: Any) -> Any:
    """Inside a compiled program: whether ``values`` hold a NaN (or, unless the traced boolean
    ``nan_only`` is set, an infinity), as :func:`bad_rows` reads it on the host; keys and
    integers never do. One compiled loop serves both kinds of search."""
    found = jnp.bool_(False)
    for value in values:
        if is_inexact(value):
            bad = jnp.isnan(value) | (~nan_only & jnp.isinf(value))
            found = found | bad.any()
    return found
