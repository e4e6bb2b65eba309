"""The cause of a retrace, worked out from two signatures built by hand (no JAX)."""

from __future__ import annotations

from jaxdbg_widgets.compiles.diff import closest, differences
from jaxdbg_widgets.compiles.signature import FunctionId, Leaf, Signature, Site, static_of

HERE = Site("train.py", 3, "train.py:3")


class Fn:
    """A stand-in for a traced function object."""


def _signature(*leaves: Leaf, statics=(), context=(), function=None) -> Signature:
    return Signature(
        function or FunctionId("f", HERE, False), tuple(leaves), tuple(statics), tuple(context)
    )


def test_a_shape_change_is_named_by_its_argument_path():
    old = _signature(Leaf("batch", "f32[32,3]"))
    new = _signature(Leaf("batch", "f32[7,3]"))
    [diff] = differences(new, old)
    assert (diff.kind, diff.text()) == ("shape", "batch: f32[32,3] → f32[7,3]")


def test_a_dtype_change_is_not_called_a_shape_change():
    [diff] = differences(_signature(Leaf("x", "i32[3]")), _signature(Leaf("x", "f32[3]")))
    assert diff.kind == "dtype"


def test_a_python_scalar_is_named_as_a_weak_type():
    [diff] = differences(
        _signature(Leaf("lr", "f32[]")), _signature(Leaf("lr", "f32[]", weak=True))
    )
    assert diff.kind == "weak type"
    assert diff.text().startswith("lr: f32[] (weak: a Python scalar) → f32[]")


def test_pytree_keys_that_appear_or_go_and_none_against_an_array():
    old = _signature(Leaf("p['w']", "f32[3]"), Leaf("p['b']", "None", none=True))
    new = _signature(Leaf("p['b']", "f32[2]"), Leaf("p['m']", "f32[3]"))
    found = {(d.kind, d.path, d.hint) for d in differences(new, old)}
    assert found == {
        ("structure", "p['b']", "None vs an array"),
        ("structure", "p['m']", "a pytree key appeared"),
        ("structure", "p['w']", "a pytree key went"),
    }


def test_shardings_are_compared_only_where_both_are_known():
    old = _signature(Leaf("x", "f32[8]", sharding="P('x') over {'x': 8}"))
    new = _signature(Leaf("x", "f32[8]", sharding="P() over {'x': 8}"))
    assert [d.kind for d in differences(new, old)] == ["sharding"]
    assert differences(_signature(Leaf("x", "f32[8]")), old) == []


def test_a_static_value_and_a_static_hashed_by_identity():
    old = _signature(statics=[static_of("mode", "train"), static_of("cfg", Fn())])
    new = _signature(statics=[static_of("mode", "eval"), static_of("cfg", Fn())])
    found = {d.path: d for d in differences(new, old)}
    assert found["mode"].text() == "mode: 'train' → 'eval'"
    assert found["cfg"].after == "a new Fn object" and "hashed by identity" in found["cfg"].hint


def test_a_new_function_object_names_where_it_was_built():
    one, two = Fn(), Fn()
    import weakref

    old = _signature(function=FunctionId("<lambda>", HERE, False, ref=weakref.ref(one)))
    new = _signature(function=FunctionId("<lambda>", HERE, False, ref=weakref.ref(two)))
    [diff] = differences(new, old)
    assert diff.kind == "function" and "train.py:3" in diff.hint
    assert differences(old, old) == []


def test_a_context_value_that_changed_is_named():
    old = _signature(context=[("jax_enable_x64", "False", hash(False))])
    new = _signature(context=[("jax_enable_x64", "True", hash(True))])
    [diff] = differences(new, old)
    assert diff.text().startswith("jax_enable_x64: False → True")


def test_the_closest_earlier_signature_is_the_baseline():
    first = _signature(Leaf("x", "f32[1]"), Leaf("y", "f32[1]"))
    second = _signature(Leaf("x", "f32[2]"), Leaf("y", "f32[2]"))
    new = _signature(Leaf("x", "f32[2]"), Leaf("y", "f32[3]"))
    index, found = closest(new, [first, second])
    assert index == 1 and [d.path for d in found] == ["y"]
    assert closest(new, []) is None
