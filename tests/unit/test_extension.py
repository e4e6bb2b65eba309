"""Loading and unloading the extension in an in-process IPython shell."""

import sys
import types

import pytest
from IPython.core.completer import provisionalcompleter
from IPython.testing import globalipapp

from jaxdbg_widgets.core import jax_registry
from jaxdbg_widgets.notebook import extension


@pytest.fixture
def ip():
    globalipapp.start_ipython()
    shell = globalipapp.get_ipython()
    yield shell
    extension.unload_ipython_extension(shell)
    shell.extension_manager.loaded.discard("jaxdbg")


def test_load_registers_the_magic_and_prints_one_line(ip, capsys):
    ip.run_line_magic("load_ext", "jaxdbg")
    assert capsys.readouterr().out.count("\n") == 1
    assert "jaxdbg" in ip.magics_manager.magics["line"]


def test_loading_twice_is_harmless(ip, capsys):
    extension.load_ipython_extension(ip)
    extension.load_ipython_extension(ip)
    assert "already loaded" in capsys.readouterr().out
    assert extension.is_loaded()


def test_unload_restores_registry_and_magics(ip):
    registry_before = jax_registry.snapshot()
    magics_before = set(ip.magics_manager.magics["line"])
    matchers_before = _matcher_counts(ip)
    ip.run_line_magic("load_ext", "jaxdbg")
    ip.run_line_magic("unload_ext", "jaxdbg")
    assert jax_registry.snapshot() == registry_before
    assert set(ip.magics_manager.magics["line"]) == magics_before
    assert _matcher_counts(ip) == matchers_before


def _matcher_counts(ip):
    """Custom matchers (IPython >= 8.6) and magic-argument matchers (IPython 7)."""
    completer = ip.Completer
    return len(completer.custom_matchers), len(getattr(completer, "magic_arg_matchers", []))


def _completions(ip, line):
    with provisionalcompleter():
        return sorted(c.text for c in ip.Completer.completions(line, len(line)))


def test_completion_offers_only_our_choices(ip):
    ip.run_line_magic("load_ext", "jaxdbg")
    assert _completions(ip, "%jaxdbg nans ") == ["off", "on"]
    assert _completions(ip, "x = 1\n%jaxdbg headless r") == ["raise"]
    assert "import" in _completions(ip, "imp")


def test_reload_ends_loaded(ip):
    ip.run_line_magic("load_ext", "jaxdbg")
    ip.run_line_magic("reload_ext", "jaxdbg")
    assert extension.is_loaded()


def test_unknown_subcommand_prints_usage_not_traceback(ip, capsys):
    ip.run_line_magic("load_ext", "jaxdbg")
    ip.run_line_magic("jaxdbg", "bogus")
    err = capsys.readouterr().err
    assert err.splitlines()[0] == "%jaxdbg: unknown subcommand 'bogus'"
    assert "Traceback" not in err


def test_colab_custom_widget_manager_is_enabled_on_load_and_off_on_unload(ip, monkeypatch):
    calls = []
    output = types.ModuleType("google.colab.output")
    output.enable_custom_widget_manager = lambda: calls.append("enable")
    output.disable_custom_widget_manager = lambda: calls.append("disable")
    colab = types.ModuleType("google.colab")
    colab.output = output
    google = types.ModuleType("google")
    google.colab = colab
    for name, module in (
        ("google", google),
        ("google.colab", colab),
        ("google.colab.output", output),
    ):
        monkeypatch.setitem(sys.modules, name, module)
    ip.run_line_magic("load_ext", "jaxdbg")
    assert calls == ["enable"]
    ip.run_line_magic("unload_ext", "jaxdbg")
    assert calls == ["enable", "disable"]


def test_a_failing_feature_is_left_off_and_named_in_the_load_message(ip, capsys, monkeypatch):
    def broken(_ip):
        raise RuntimeError("no such thing\nsecond line")

    monkeypatch.setattr(extension, "FEATURES", [*extension.FEATURES, ("broken feature", broken)])
    ip.run_line_magic("load_ext", "jaxdbg")
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    assert "broken feature (RuntimeError: no such thing)" in out
    assert extension.is_loaded()


def test_an_undo_that_raises_does_not_stop_the_others(ip, capsys, monkeypatch):
    undone: list[str] = []

    def feature(name, fails=False):
        def install(_ip):
            def undo():
                undone.append(name)
                if fails:
                    raise RuntimeError(f"{name} is stuck\nsecond line")

            return undo

        return name, install

    features = [feature("first"), feature("second", fails=True), feature("third", fails=True)]
    monkeypatch.setattr(extension, "FEATURES", [*extension.FEATURES, *features])
    registry_before = jax_registry.snapshot()
    ip.run_line_magic("load_ext", "jaxdbg")
    capsys.readouterr()
    ip.run_line_magic("unload_ext", "jaxdbg")
    assert undone == ["third", "second", "first"]
    assert jax_registry.snapshot() == registry_before, "the features before them were undone"
    err = capsys.readouterr().err
    assert err == (
        "jaxdbg unloaded; could not undo: third (RuntimeError: third is stuck); "
        "second (RuntimeError: second is stuck)\n"
    )
    assert not extension.is_loaded()
