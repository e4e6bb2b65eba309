"""Programs that use ``jax.debug.print``/``jax.debug.callback`` the way users do.

Each runs unchanged with plain JAX and with the extension loaded; ``run_programs.py`` records
what each prints, returns and raises. Programs whose prints come from several devices at once
are listed in ``UNORDERED``: only the set of their lines is compared.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

PROGRAMS: dict[str, Callable[[], object]] = {}
UNORDERED: set[str] = set()


def program(fn=None, *, unordered: bool = False):
    """Register ``fn`` under its name."""

    def register(fn):
        PROGRAMS[fn.__name__] = fn
        if unordered:
            UNORDERED.add(fn.__name__)
        return fn

    return register(fn) if fn is not None else register


def _show(x):
    jax.debug.print("x={x}", x=x)
    return x


@program
def eager_print():
    jax.debug.print("eager {} and {y}", jnp.arange(3), y=2.5)


@program
def jit_print():
    return jax.jit(lambda x: _show(x) * 2)(jnp.arange(4.0))


@program
def format_specs_and_printoptions():
    with np.printoptions(precision=2):
        jax.jit(lambda x: jax.debug.print("{x:.3f} {y!r} {z[0]}", x=x, y=x, z=[x]))(1 / 3)


@program
def positional_without_placeholders():
    jax.jit(lambda x: jax.debug.print("plain", skip_format_check=True))(1)


@program
def ordered_prints():
    def f(x):
        for i in range(3):
            jax.debug.print("step {} {}", i, x + i, ordered=True)
        return x

    return jax.jit(f)(1.0)


@program
def two_call_form():
    jax.jit(lambda x: jax.debug.print(ordered=True)("two-call {x}", x=x))(3)


@program
def vmap_print():
    return jax.vmap(_show)(jnp.arange(3.0))


@program
def eager_vmap_print():
    jax.vmap(lambda x: jax.debug.print("v={}", x))(jnp.arange(2))


@program
def grad_print():
    return jax.grad(lambda x: jnp.sin(_show(x)))(0.5)


@program
def jvp_print():
    return jax.jvp(lambda x: _show(x) ** 2, (2.0,), (1.0,))


@program
def linearize_print():
    y, f_jvp = jax.linearize(lambda x: _show(x) ** 3, 2.0)
    return y, f_jvp(1.0)


@program
def scan_print():
    def body(c, x):
        jax.debug.print("carry={} x={}", c, x)
        return c + x, c

    return jax.lax.scan(body, 0.0, jnp.arange(3.0))


@program
def fori_loop_print():
    return jax.jit(
        lambda n: jax.lax.fori_loop(0, n, lambda i, t: _show(t + i), 0), static_argnums=()
    )(3)


@program
def while_loop_print():
    def body(c):
        jax.debug.print("c={}", c)
        return c + 1

    return jax.jit(lambda x: jax.lax.while_loop(lambda c: c < 3, body, x))(0)


@program
def cond_print():
    def f(x):
        return jax.lax.cond(
            x > 0, lambda v: _show(v) + 1, lambda v: jax.debug.print("neg {}", v) or v, x
        )

    return jax.jit(f)(2.0), jax.jit(f)(-2.0)


@program
def switch_print():
    branches = [lambda v: _show(v), lambda v: _show(v * 10)]
    return [jax.jit(lambda i: jax.lax.switch(i, branches, 1.0))(i) for i in range(2)]


@program
def remat_print():
    f = jax.checkpoint(lambda x: jnp.sin(_show(x)))
    return jax.grad(f)(1.0)


@program
def custom_jvp_print():
    @jax.custom_jvp
    def f(x):
        jax.debug.print("primal {}", x)
        return x**2

    @f.defjvp
    def f_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        jax.debug.print("jvp {} {}", x, t)
        return f(x), 2 * x * t

    return jax.grad(f)(3.0)


@program
def custom_vjp_print():
    @jax.custom_vjp
    def f(x):
        return x * 2

    def fwd(x):
        jax.debug.print("fwd {}", x)
        return x * 2, x

    def bwd(x, g):
        jax.debug.print("bwd {} {}", x, g)
        return (g * 2,)

    f.defvjp(fwd, bwd)
    return jax.grad(f)(1.5)


@program
def aot_lower_compile():
    compiled = jax.jit(_show).lower(jnp.ones(2)).compile()
    return compiled(jnp.arange(2.0))


@program
def export_with_a_print():
    from jax import export

    exported = export.export(jax.jit(_show))(jax.ShapeDtypeStruct((2,), jnp.float32))
    return exported.call(jnp.arange(2.0))


@program
def checkify_print():
    from jax.experimental import checkify

    def f(x):
        checkify.check(x > 0, "x must be positive")
        return _show(x)

    err, out = checkify.checkify(jax.jit(f))(1.0)
    return err.get(), out


@program
def disable_jit_print():
    with jax.disable_jit():
        return jax.jit(lambda x: _show(x) + 1)(jnp.arange(2))


@program(unordered=True)
def pmap_print():
    return jax.pmap(lambda x: _show(x) * 2)(jnp.arange(jax.device_count(), dtype=jnp.float32))


@program(unordered=True)
def shard_map_print():
    from jax.sharding import NamedSharding
    from jax.sharding import PartitionSpec as P

    mesh = jax.make_mesh((jax.device_count(),), ("i",))
    x = jax.device_put(jnp.arange(float(jax.device_count())), NamedSharding(mesh, P("i")))
    f = jax.shard_map(lambda b: _show(b) + 1, mesh=mesh, in_specs=P("i"), out_specs=P("i"))
    return jax.jit(f)(x)


@program
def pallas_interpret_print():
    from jax.experimental import pallas as pl

    def kernel(x_ref, o_ref):
        jax.debug.print("in kernel {}", x_ref[...])
        o_ref[...] = x_ref[...] * 2

    call = pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct((4,), jnp.float32), interpret=True)
    return call(jnp.arange(4.0))


@program
def prng_keys():
    key = jax.random.key(0)
    jax.debug.print("key={}", key)
    jax.jit(lambda k: jax.debug.print("jit key={}", k))(key)
    jax.vmap(lambda k: jax.debug.print("vmap key={}", k))(jax.random.split(key, 2))
    with jax.disable_jit():
        jax.debug.print("disabled key={}", key)
    return jax.random.key_data(key)


@program
def low_precision_dtypes():
    for dtype in (jnp.bfloat16, jnp.float8_e4m3fn, jnp.int4, jnp.uint4):
        x = jnp.arange(3).astype(dtype)
        jax.debug.print("{} {}", dtype.__name__, x)
        jax.jit(lambda v: jax.debug.print("jit {}", v))(x)


@program
def complex_values():
    return jax.jit(lambda z: _show(z * 1j))(jnp.array([1 + 2j, 3 - 1j], jnp.complex64))


@program
def zero_size_arrays():
    jax.debug.print("empty {}", jnp.zeros((0, 3)))
    return jax.jit(lambda v: _show(v).sum())(jnp.zeros((2, 0)))


@program
def pytrees():
    tree = {"a": jnp.arange(2), "b": (1.5, [jnp.ones(1)]), "c": None}
    jax.debug.print("eager tree {} {s}", tree, s={"static": "text"})
    jax.jit(lambda t: jax.debug.print("tree {} {s}", t, s={"static": "text"}))(tree)
    jax.jit(lambda t: jax.debug.print("a={t[a]} b={t[b][1][0]}", t=t))(tree)


@program
def callback_with_pytrees():
    def show(tree):
        print("callback", {k: (type(v).__name__, v.dtype, v.shape) for k, v in tree.items()})

    jax.jit(lambda t: jax.debug.callback(show, t))({"x": jnp.ones(2)})
    jax.debug.callback(show, {"y": jnp.zeros(3, jnp.int32)})


@program
def callback_keyword_arguments():
    def show(x, *, scale):
        print("callback", x * scale)

    jax.jit(lambda x: jax.debug.callback(show, x, scale=2.0))(jnp.arange(2.0))


@program
def error_f_string():
    x = 1
    jax.jit(lambda v: jax.debug.print(f"{x}", x=v))(1)


@program
def error_unused_positional():
    jax.debug.print("{}", 1, 2)


@program
def error_two_call_arguments():
    jax.debug.print(ordered=True, a=42)("hello {a}")


@program
def error_callback_two_call_arguments():
    jax.debug.callback(None, 42, ordered=True)(lambda x, a: x)


@program
def error_callback_not_callable():
    jax.debug.callback("not callable", 1)


@program
def error_format_not_a_string():
    jax.debug.print(123, 4)


@program
def error_format_not_a_string_unchecked():
    jax.jit(lambda x: jax.debug.print(123, x, skip_format_check=True))(4)


@program
def error_missing_field():
    jax.debug.print("{missing}", x=1)


@program
def error_raised_inside_callback():
    def fail(x):
        raise ValueError(f"bad value {x}")

    jax.jit(lambda x: jax.debug.callback(fail, x))(2.0)
    jax.effects_barrier()


@program
def error_raised_inside_eager_callback():
    def fail(x):
        raise ValueError(f"bad eager value {x}")

    jax.debug.callback(fail, 3)


@program
def print_inside_partial_and_static_args():
    @partial(jax.jit, static_argnums=1)
    def f(x, label):
        jax.debug.print("{label}: {x}", label=label, x=x)
        return x

    return f(1.0, "static")


@program
def recompiles_counted_by_jax():
    """Retraces for six causes; JAX's own compile events are counted (the same with watching)."""
    compiles = []

    def listen(event, duration, **kwargs):
        if event == "/jax/core/compile/backend_compile_duration":
            compiles.append(kwargs.get("fun_name"))

    jax.monitoring.register_event_duration_secs_listener(listen)
    try:
        step = jax.jit(lambda x, tree, mode: x * tree["a"] + len(mode), static_argnums=2)
        out = [step(jnp.ones(n), {"a": 2.0}, "m") for n in (2, 3, 3)]
        out.append(step(jnp.ones(3), {"a": jnp.float32(2.0)}, "m"))
        out.append(step(jnp.ones(3), {"a": 2.0}, "mode"))
        out += [jax.jit(lambda x: x + 1)(jnp.ones(2)) for _ in range(2)]
        with jax.default_matmul_precision("highest"):
            out.append(step(jnp.ones(3), {"a": 2.0}, "m"))
    finally:
        jax.monitoring.unregister_event_duration_listener(listen)
    print(f"{len(compiles)} compiles:", ", ".join(sorted(compiles)))
    return [jax.device_get(o).tolist() for o in out]
