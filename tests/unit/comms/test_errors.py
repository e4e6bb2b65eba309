"""Wrong input to the communication map is a clear error, never an unrelated one or "nothing"."""

import pytest

import jaxdbg_widgets as jdw


@pytest.mark.parametrize("fun", ["not a function", 3, None, [lambda x: x]])
def test_something_that_is_not_a_function_is_a_type_error_naming_what_is_expected(fun):
    with pytest.raises(TypeError, match="expects a function.*but got " + type(fun).__name__):
        jdw.communication_map(fun)
