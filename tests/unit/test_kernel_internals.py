"""The IPython/ipykernel adapter's pure parts, against stand-in shells and kernels."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from jaxdbg_widgets import _capabilities, _kernel_internals


def test_outside_ipython_there_is_no_shell_or_kernel(monkeypatch):
    monkeypatch.setattr(_kernel_internals.sys, "modules", {})
    assert _kernel_internals.running_shell() is None
    assert _kernel_internals.running_kernel() is None


def test_ipython7_cell_names_are_read_from_the_file_name():
    assert _kernel_internals.cell_name("<ipython-input-3-5f1c0a2b9e1d>") == "In[3]"
    assert _kernel_internals.cell_name("/home/me/script.py") is None


def test_hashed_cell_files_are_remembered_before_the_cell_runs(monkeypatch):
    compiler = SimpleNamespace(
        get_code_name=lambda raw_code, code, number: f"/tmp/{hash(raw_code)}.py"
    )
    shell = SimpleNamespace(compile=compiler)
    monkeypatch.setattr(_capabilities, "_table", dict(_capabilities._table))
    _capabilities.check(
        "ipython", "cell-names", "names", lambda: _kernel_internals._probe_cell_names(shell)
    )
    _kernel_internals.remember_cell_file(shell, "x = 1\n", 7)
    assert _kernel_internals.cell_name(f"/tmp/{hash('x = 1' + chr(10))}.py") == "In[7]"


def test_a_changed_showtraceback_signature_prints_the_line_instead(capsys, monkeypatch):
    monkeypatch.setattr(_capabilities, "_table", {})  # as before any load checked a shell

    def show(etype, value, stb, extra):
        raise AssertionError("not called with a changed signature")

    shell = SimpleNamespace(
        _showtraceback=show,
        set_custom_exc=None,
        InteractiveTB=SimpleNamespace(get_exception_only=lambda t, v: [f"{t.__name__}: {v}\n"]),
    )
    assert _kernel_internals.show_error_line(shell, ValueError("bad")) == ["ValueError: bad\n"]
    assert capsys.readouterr().err == "ValueError: bad\n"


@pytest.mark.parametrize("route", ["magic_arg_matchers", "custom_matchers"])
def test_line_completion_is_added_and_removed(route):
    completer = SimpleNamespace(custom_matchers=[], magic_arg_matchers=[], text_until_cursor="")
    shell = SimpleNamespace(Completer=completer)
    if route == "magic_arg_matchers":
        undo = _kernel_internals._add_magic_arg_matcher(
            shell, "%jaxdbg", lambda line: ["on", "off"]
        )
        matcher = completer.magic_arg_matchers[-1]
        completer.text_until_cursor = "%jaxdbg nans "
        assert matcher("%jaxdbg nans ") == ["on", "off"]
        completer.text_until_cursor = "import o"
        assert matcher("import o") == []
    else:
        undo = _kernel_internals.add_line_completer(shell, "%jaxdbg", lambda line: [])
    undo()
    assert completer.custom_matchers == [] and completer.magic_arg_matchers == []
