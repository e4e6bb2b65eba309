"""Wrong input to the communication map is a clear error, never an unrelated one or "nothing"."""

import pytest

import jaxdbg_widgets as jdw
from jaxdbg_widgets.comms.hlo import NotAnHloModule

from .test_golden import make_mesh
from .test_hlo import MODULE


@pytest.mark.parametrize("fun", ["not a function", 3, None, [lambda x: x]])
def test_something_that_is_not_a_function_is_a_type_error_naming_what_is_expected(fun):
    with pytest.raises(TypeError, match="expects a function.*but got " + type(fun).__name__):
        jdw.communication_map(fun)


def _entry_cut(text: str) -> str:
    """``text`` cut just before its ENTRY computation (XLA prints ENTRY last)."""
    return text[: text.index("ENTRY")]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no 'HloModule <name>' line, and it is empty"),
        ("   \n\n", "it is empty"),
        ("hello world\nnot a module", "it starts with 'hello world'"),
        ("module @jit_f {\n  func.func public @main() {\n", "StableHLO"),
        (MODULE[: len(MODULE) // 2], "ends inside computation"),
        (MODULE.rstrip()[:-1], "ends inside computation 'main'"),
        (_entry_cut(MODULE), "no ENTRY computation"),
        ("HloModule jit_f, num_partitions=8\n", "no ENTRY computation"),
    ],
)
def test_text_that_is_not_one_whole_module_is_an_error_never_no_collectives(text, message):
    with pytest.raises(NotAnHloModule, match=message):
        jdw.communication_map_from_text(text)
    with pytest.raises(ValueError):
        jdw.communication_map_from_text(text, axis_names=("x", "y"), mesh_shape=(2, 4))


@pytest.mark.parametrize(
    ("names", "shape", "message"),
    [
        (("x", "y", "z"), (2, 4), "differ in length"),
        (("x",), (2, 4), "differ in length"),
        (("x", "y"), None, "axis_names was given without mesh_shape"),
        (None, (2, 4), "mesh_shape was given without axis_names"),
        (("x", "y"), (2, 2), "has 4 devices, but HLO module 'jit_step' runs on 8"),
        (("x", "y"), (0, 8), "positive integers"),
    ],
)
def test_a_mesh_that_does_not_fit_is_a_clear_value_error(names, shape, message):
    with pytest.raises(ValueError, match=message):
        jdw.communication_map_from_text(MODULE, axis_names=names, mesh_shape=shape)


def test_a_mesh_of_the_wrong_size_is_a_clear_value_error():
    with pytest.raises(ValueError, match="has 4 devices"):
        jdw.communication_map_from_text(MODULE, mesh=make_mesh((4,), ("rows",)))


def test_bytes_are_read_as_utf8_text_and_other_types_are_a_type_error():
    from_bytes = jdw.communication_map_from_text(MODULE.encode(), axis_names="x", mesh_shape=8)
    from_text = jdw.communication_map_from_text(MODULE, axis_names=("x",), mesh_shape=(8,))
    assert from_bytes.to_text() == from_text.to_text()
    assert len(from_bytes.collectives) == len(from_text.collectives) > 0
    with pytest.raises(TypeError, match=r"expects the HLO module's text .* got int"):
        jdw.communication_map_from_text(3)
