"""Lowering a function for abstract versions of its arguments: nothing is allocated or run.

Shared by the communication map and the peak-memory report, for ``jax.jit`` functions, plain
functions and the jits of libraries (``eqx.filter_jit``, ``nnx.jit``).
"""

from __future__ import annotations

import functools
from typing import Any

from jaxdbg_widgets.core.arguments import split_arguments


def abstract(x: Any) -> Any:
    """``x`` as a ``ShapeDtypeStruct``: the sharding of a committed array kept, others left open."""
    import jax
    import numpy as np

    if isinstance(x, jax.Array) and not isinstance(x, jax.core.Tracer):
        sharding = x.sharding if getattr(x, "committed", True) else None
        return jax.ShapeDtypeStruct(x.shape, x.dtype, sharding=sharding)
    if isinstance(x, np.ndarray):
        return jax.ShapeDtypeStruct(x.shape, x.dtype)
    return x


def lower_abstract(fun: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """The lowering for abstract versions of the arguments.

    A library's jit (``eqx.filter_jit``, ``nnx.jit``) and a plain function whose arguments hold
    leaves that are not arrays (an equinox module's activation) are jitted over their array leaves
    alone: the other leaves are passed as they are, and what the call writes into its
    arguments (an nnx model updated in place) is kept as an output.
    """
    import jax

    split = split_arguments(args, kwargs)
    plain = not callable(getattr(fun, "lower", None))
    if _library_jit(fun) or (plain and split.static):
        program = split.program(fun)
        program.__name__ = getattr(fun, "__name__", None) or type(fun).__name__
        return jax.jit(program).lower(*(abstract(leaf) for leaf in split.dynamic))
    jitted = jax.jit(fun) if plain else fun
    abstract_args = jax.tree_util.tree_map(abstract, args)
    abstract_kwargs = jax.tree_util.tree_map(abstract, kwargs)
    return jitted.lower(*abstract_args, **abstract_kwargs)


def _library_jit(fun: Any) -> bool:
    """Whether ``fun`` is a jit of some library's own making, which may not take abstract
    arguments: it has a ``lower`` but is not ``jax.jit``'s."""
    return callable(getattr(fun, "lower", None)) and not isinstance(fun, _jax_jit_type())


@functools.cache
def _jax_jit_type() -> type:
    import jax

    return type(jax.jit(lambda: None))
