"""``%jaxdbg nans``: both JAX flags and the origin search switched together, restored by the undo."""

import jax
import pytest

from jaxdbg_widgets.core import _jax_internals as internals
from jaxdbg_widgets.nans import recheck
from jaxdbg_widgets.notebook import nans


@pytest.fixture(autouse=True)
def restore_flags():
    undo = nans.install(None)
    yield
    undo()


def test_on_and_off_switch_both_flags(capsys):
    nans.run(["on"])
    assert (jax.config.jax_debug_nans, jax.config.jax_debug_infs) == (True, True)
    assert capsys.readouterr().out == "nan checks: on (jax_debug_nans=True, jax_debug_infs=True)\n"
    nans.run(["OFF"])
    assert (jax.config.jax_debug_nans, jax.config.jax_debug_infs) == (False, False)


def test_no_argument_reports_the_state_including_mixed(capsys):
    jax.config.update("jax_debug_nans", True)
    jax.config.update("jax_debug_infs", False)
    nans.run([])
    assert capsys.readouterr().out.startswith("nan checks: mixed (jax_debug_nans=True")


def test_the_checks_really_raise_on_a_nan():
    nans.run(["on"])
    with pytest.raises(FloatingPointError):
        jax.jit(lambda x: jax.numpy.log(x))(-1.0)


@pytest.mark.parametrize("args", [["maybe"], ["on", "off"]])
def test_bad_arguments_are_value_errors(args):
    with pytest.raises(ValueError, match="nans takes one of on\\|off"):
        nans.run(args)


def test_undo_restores_what_was_there_at_install():
    jax.config.update("jax_debug_infs", True)
    undo = nans.install(None)
    nans.run(["off"])
    undo()
    assert (jax.config.jax_debug_nans, jax.config.jax_debug_infs) == (False, True)


def test_on_puts_the_origin_search_in_place_and_off_puts_jax_rerun_back():
    if not recheck.available():
        pytest.skip("this JAX has no nan-recheck")
    nans.run(["on"])
    assert recheck.installed()
    nans.run(["on"])
    nans.run(["off"])
    assert internals.nan_recheck_installed() is internals.JAX_NAN_RECHECK


def test_unloading_restores_the_flags_and_whatever_re_run_was_there():
    if not recheck.available():
        pytest.skip("this JAX has no nan-recheck")

    def earlier(error, fun, args, kwargs):
        raise FloatingPointError("earlier")

    undo_earlier = internals.replace_nan_recheck(earlier)
    try:
        undo = nans.install(None)
        nans.run(["on"])
        undo()
        assert internals.nan_recheck_installed() is earlier
        assert (jax.config.jax_debug_nans, jax.config.jax_debug_infs) == (False, False)
    finally:
        undo_earlier()
    assert internals.nan_recheck_installed() is internals.JAX_NAN_RECHECK
