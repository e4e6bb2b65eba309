"""What stands in for ``jax.debug`` fails with JAX's own messages, and prints what JAX prints.

Covers typed PRNG keys outside ``jit``, escaped braces, and the predicate of the fast print path.
"""

from __future__ import annotations

import jax
import numpy as np
import pytest
from jax import numpy as jnp

import jaxdbg_widgets as jdw
from jaxdbg_widgets.core import formatting, sinks
from jaxdbg_widgets.core.callbacks import jax_debug_callback
from jaxdbg_widgets.core.primitive import HostCall, bind
from jaxdbg_widgets.core.printing import jax_debug_print
from tests.unit.core.parity import TWO_CALL_FORM, needs_jax

JAX_PRINT, JAX_CALLBACK = jax.debug.print, jax.debug.callback


def _message(call) -> tuple[type, str]:
    with pytest.raises(Exception) as info:
        call()
    return type(info.value), str(info.value)


MISUSES = {
    "unused keyword": lambda p, c: p("{x}", x=1, y=2),
    "unused positional": lambda p, c: p("{}", 1, 2),
    "option as keyword in second call": lambda p, c: p(ordered=True)("{a}", a=1, partitioned=True),
    "print two-call keywords": lambda p, c: p(ordered=True, a=42)("hello {a}"),
    "print two-call positionals": lambda p, c: p(None, 42, ordered=True)("hello {a}"),
    "callback two-call keywords": lambda p, c: c(ordered=True, a=42)(lambda x, a: x),
    "callback two-call positionals": lambda p, c: c(None, 42, ordered=True)(lambda x, a: x),
    "callback not callable": lambda p, c: c("not a function", 1),
}


TWO_CALL = ("second call", "two-call keywords", "two-call positionals")


@pytest.mark.parametrize(
    "misuse",
    [
        pytest.param(
            misuse,
            id=name,
            marks=needs_jax("two-call form", TWO_CALL_FORM) if name.endswith(TWO_CALL) else (),
        )
        for name, misuse in MISUSES.items()
    ],
)
def test_stand_ins_fail_with_jax_messages(misuse):
    expected = _message(lambda: misuse(JAX_PRINT, JAX_CALLBACK))
    assert _message(lambda: misuse(jax_debug_print, jax_debug_callback)) == expected


def test_our_own_names_appear_when_ours_were_called():
    _, message = _message(lambda: jdw.print("{x}", x=1, y=2))
    assert "`jaxdbg_widgets.print`" in message
    _, message = _message(lambda: jdw.callback(None, 42))
    assert message.startswith("jaxdbg_widgets.callback received unexpected arguments")


KEY_RUNS = {
    "eager": lambda p, k: p("key={}", k),
    "eager vmap": lambda p, k: jax.vmap(lambda k: p("key={}", k))(jax.random.split(k, 2)),
    "jit": lambda p, k: jax.jit(lambda k: p("key={}", k))(k),
}


@pytest.mark.parametrize("run", KEY_RUNS.values(), ids=KEY_RUNS.keys())
@pytest.mark.parametrize("ours", [jdw.print, jax_debug_print], ids=["jdw.print", "stand-in"])
def test_typed_prng_keys_print_as_jax_prints_them(capfd, run, ours):
    key = jax.random.key(0)
    outputs = []
    for fn in (JAX_PRINT, ours):
        run(fn, key)
        jax.effects_barrier()
        outputs.append(capfd.readouterr().out)
    assert "key=" in outputs[0]
    assert outputs[1] == outputs[0]


def test_typed_prng_keys_under_disable_jit(capfd):
    with jax.disable_jit():
        jdw.print("key={}", jax.random.key(0))
    assert capfd.readouterr().out == "key=Array((), dtype=key<fry>) overlaying:\n[0 0]\n"


def test_typed_prng_keys_reach_sinks_and_callbacks(capfd):
    records, seen = [], []
    remove = sinks.add_print_sink(records.append)
    try:
        jdw.print("key={k}", k=jax.random.key(0))
        jdw.callback(seen.append, jax.random.key(1))
    finally:
        remove()
    assert records[0].values == (("k", "key<fry>[]"),)
    assert jax.dtypes.issubdtype(seen[0].dtype, jax.dtypes.extended)
    capfd.readouterr()


def test_escaped_braces_format_as_python_does(capfd):
    x = jnp.float32(2.0)
    jdw.print("{{a}} {x}", x=x)
    jax.jit(lambda v: jdw.print("{{a}} {x}", x=v))(x)
    jdw.print("{{a}}")
    jax.effects_barrier()
    assert capfd.readouterr().out == "{a} 2.0\n{a} 2.0\n{a}\n"


def test_placeholders_found_after_escaped_braces():
    assert formatting.has_placeholders("{{a}} {x}")
    assert not formatting.has_placeholders("{{a}}")
    assert formatting.has_placeholders("x={x}")


@pytest.mark.parametrize("pred", [False, True])
def test_fast_print_path_honours_the_predicate(pred):
    seen = []

    def record(values, batch):
        seen.append([np.asarray(v).tolist() for v in values])

    host = HostCall(record, "print", "record")
    bind([jnp.float32(3.0)], host, pred=jnp.bool_(pred), numpy_operands=True)
    jax.jit(lambda p, v: bind([v], host, pred=p, numpy_operands=True))(pred, 4.0)
    jax.effects_barrier()
    assert seen == ([[3.0], [4.0]] if pred else [])


def test_fast_print_path_selects_batched_elements():
    seen = []

    def record(values, batch):
        seen.append((np.asarray(values[0]).tolist(), batch.indices))

    host = HostCall(record, "print", "record")

    def f(p, v):
        bind([v], host, pred=p, numpy_operands=True, vmap_method="expand_dims")

    jax.vmap(f)(jnp.array([True, False, True]), jnp.arange(3.0))
    jax.effects_barrier()
    assert seen == [([0.0, 2.0], (0, 2))]
