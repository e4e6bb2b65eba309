"""Every view names code from a notebook cell ``In[n]`` one way, never by the kernel's temporary
file (``/tmp/ipykernel_…/1187764415.py``): the communication map, the print log and the NaN
report's source header."""

from __future__ import annotations

import os
import re
from types import SimpleNamespace

import pytest

from jaxdbg_widgets._kernel import cell_files
from jaxdbg_widgets.comms.api import communication_map_from_text
from jaxdbg_widgets.core.sinks import PrintRecord
from jaxdbg_widgets.nans.report import Origin, SourceLine
from jaxdbg_widgets.nans.view import _source
from jaxdbg_widgets.notebook.printlog import PrintBuffer
from tests.unit.comms.test_hlo import MODULE

CELL_FILE = "/tmp/ipykernel_4242/1187764415.py"


@pytest.fixture
def cell_5(monkeypatch):
    """A running shell whose compiler knows ``CELL_FILE`` as cell 5, as IPython 8+ does."""
    names = {CELL_FILE: ("Cell", "In[5]")}
    shell = SimpleNamespace(compile=SimpleNamespace(format_code_name=names.get))
    monkeypatch.setattr(cell_files, "running_shell", lambda: shell)


def test_short_names_are_cells_or_base_names(cell_5):
    assert cell_files.short_name(CELL_FILE) == "In[5]"
    assert cell_files.short_name("/home/u/model.py") == "model.py"


def test_the_communication_map_names_the_cell(cell_5):
    text = MODULE.replace("/home/u/model.py", CELL_FILE)
    comms = communication_map_from_text(text, axis_names=("x", "y"), mesh_shape=(2, 4))
    assert any("from line 41 of In[5]" in sentence for sentence in comms.summary())
    assert "1187764415" not in comms.to_text() and "1187764415" not in comms.to_html()


def _logged_site(log: PrintBuffer, filename: str) -> str:
    log.add(PrintRecord("x=1", filename, 3, "f", 0.0, (), None))
    return log.snapshot()[-1].site


def test_the_print_log_names_the_cell(cell_5):
    assert _logged_site(PrintBuffer(attach=False), CELL_FILE) == "In[5]:3 in f"


def test_a_cell_run_again_names_its_prints_after_the_run_that_made_them(monkeypatch):
    names = {CELL_FILE: ("Cell", "In[5]")}
    shell = SimpleNamespace(compile=SimpleNamespace(format_code_name=names.get))
    monkeypatch.setattr(cell_files, "running_shell", lambda: shell)
    log = PrintBuffer(attach=False)
    first = _logged_site(log, CELL_FILE)
    names[CELL_FILE] = ("Cell", "In[7]")  # the same code run again: one file, a new number
    assert (first, _logged_site(log, CELL_FILE)) == ("In[5]:3 in f", "In[7]:3 in f")
    assert [entry.site for entry in log.snapshot()] == ["In[5]:3 in f", "In[7]:3 in f"]


def test_the_nan_report_source_header_names_the_cell(cell_5):
    line = SourceLine(CELL_FILE, 2, "loss", "y = jnp.log(x)")
    origin = Origin("log", (), (line,), "forward", (), (), ())
    assert _source(origin)["filename"] == "In[5]"
    assert line.describe() == "In[5]:2 in loss: y = jnp.log(x)"


def test_code_a_px_cell_sent_to_the_engines_is_named_after_that_cell(monkeypatch):
    from ipykernel.compiler import get_tmp_hash_seed, murmur2_x86

    monkeypatch.setattr(cell_files, "_engine_files", {})
    body = "y = step(x)\njdw.print('y={}', y)\n"
    assert cell_files.remember_engine_cell("%%px --targets 0\n" + body.rstrip("\n"), 12)
    assert not cell_files.remember_engine_cell("z = 1\n", 13)  # not a %%px cell: nothing noted
    engine_file = f"/tmp/ipykernel_5151/{murmur2_x86(body, get_tmp_hash_seed())}.py"
    assert cell_files.cell_name(engine_file) == "In[12]"
    assert cell_files.short_name(engine_file) == "In[12]"
    assert cell_files.cell_line(engine_file, 2) == 3  # line 1 of the cell is %%px
    assert cell_files.cell_line("/home/u/model.py", 2) == 2
    plain = murmur2_x86("z = 1\n", get_tmp_hash_seed())
    other = f"/tmp/ipykernel_5151/{plain}.py"
    assert cell_files.cell_name(other) is None


def test_a_px_cell_run_again_names_the_engines_prints_after_each_run(monkeypatch):
    from ipykernel.compiler import get_tmp_hash_seed, murmur2_x86

    monkeypatch.setattr(cell_files, "_engine_files", {})
    code = "jdw.print('y={}', y)"
    engine_file = f"/tmp/ipykernel_5151/{murmur2_x86(code, get_tmp_hash_seed())}.py"
    log = PrintBuffer(attach=False)
    before = _logged_site(log, engine_file)  # a file no table names yet keeps its base name
    sites = []
    for number in (12, 14):
        cell_files.remember_engine_cell("%%px\n" + code, number)
        sites.append(_logged_site(log, engine_file))
    assert before == os.path.basename(engine_file) + ":3 in f"
    assert sites == ["In[12]:3 in f", "In[14]:3 in f"]
    assert [entry.site for entry in log.snapshot()] == [before, *sites]


PX_BODY = "import jax.numpy as jnp\n\ndef loss(x):\n    y = jnp.log(x)\n    return y.sum()\n"
"""A ``%%px`` cell's code: line 4 of the engine's file is line 5 of the notebook cell."""


@pytest.fixture
def engine_file_of_cell_12(monkeypatch, tmp_path):
    """On an engine whose own count calls a ``%%px`` cell's code ``In[2]``, the notebook said the
    cell is its ``In[12]``: the engine's file of that code."""
    import ipykernel.compiler
    from ipykernel.compiler import get_tmp_hash_seed, murmur2_x86

    folder = tmp_path / "ipykernel_5151"
    folder.mkdir()
    path = folder / f"{murmur2_x86(PX_BODY, get_tmp_hash_seed())}.py"
    path.write_text(PX_BODY)
    engine_names = {str(path): ("Cell", "In[2]")}
    shell = SimpleNamespace(compile=SimpleNamespace(format_code_name=engine_names.get))
    monkeypatch.setattr(cell_files, "running_shell", lambda: shell)
    monkeypatch.setattr(cell_files, "_cell_files", {str(path): 2})  # as its own hook noted it
    monkeypatch.setattr(ipykernel.compiler, "get_tmp_directory", lambda: str(folder))
    monkeypatch.setattr(cell_files, "_notebook_cells", {})
    cell_files.name_notebook_cell("\n%%px\n" + PX_BODY, 12)
    return str(path)


def test_what_an_engine_draws_names_the_notebooks_cell_and_its_lines(engine_file_of_cell_12):
    from jaxdbg_widgets.comms.model import SourceLine as CommsLine
    from jaxdbg_widgets.compiles.capture import place
    from jaxdbg_widgets.debugger.session.frame_view import view_frame
    from jaxdbg_widgets.debugger.view.build import _source_window
    from jaxdbg_widgets.memory.peak_text import where

    file = engine_file_of_cell_12  # a blank line and the magic stand above the code
    assert cell_files.cell_name(file) == "In[12]"
    assert cell_files.cell_line(file, 4) == 6
    assert place(file, 4).label == "In[12]:6"
    assert CommsLine(file, 4, "loss", "stack frames").label == "line 6 of In[12]"
    assert where(CommsLine(file, 4, "loss", "stack frames")) == "In[12]:6 (loss)"
    line = SourceLine(file, 4, "loss", "    y = jnp.log(x)")
    assert line.describe() == "In[12]:6 in loss: y = jnp.log(x)"
    rows = _source(Origin("log", (), (line,), "forward", (), (), ()))["lines"]
    assert [(r["lineno"], r["marked"]) for r in rows if r["text"]][:3] == [
        (3, False),
        (5, False),
        (6, True),
    ]
    code = PX_BODY.splitlines()
    frame = view_frame(SimpleNamespace(filename=file, lineno=4, source=code, offset=3))
    assert frame.label == "loss (In[12]:6)"
    window = _source_window(frame)
    assert window["first"] + window["current"] == 6
    assert window["first"] == 3  # the code's first line is the cell's third


def test_an_engines_communication_map_numbers_its_lines_as_the_notebooks_cell(
    engine_file_of_cell_12,
):
    from jaxdbg_widgets.comms.view import comms_view

    text = MODULE.replace("/home/u/model.py", engine_file_of_cell_12)
    text = text.replace("line=41 end_line=41", "line=4 end_line=4")
    comms = communication_map_from_text(text, axis_names=("x", "y"), mesh_shape=(2, 4))
    assert any("from line 6 of In[12]" in sentence for sentence in comms.summary())
    view = comms_view(comms)
    assert 6 in [line["line"] for line in view["lines"]]
    (source,) = [s for s in view["sources"] if s["name"] == "In[12]"]
    assert [n for n, _ in source["lines"]] == [4, 5, 6, 7]  # the code from its line 2
    assert dict(source["lines"])[6] == "    y = jnp.log(x)"


def test_the_notebooks_own_cell_of_a_px_cells_code_keeps_its_name_and_lines(monkeypatch):
    from ipykernel.compiler import get_tmp_directory, get_tmp_hash_seed, murmur2_x86

    monkeypatch.setattr(cell_files, "_engine_files", {})
    code = "y = step(x)"
    assert cell_files.remember_engine_cell("%%px\n" + code, 12)
    name = f"{murmur2_x86(code, get_tmp_hash_seed())}.py"
    own, engine = os.path.join(get_tmp_directory(), name), f"/tmp/ipykernel_5151/{name}"
    shell = SimpleNamespace(compile=SimpleNamespace(format_code_name={own: ("Cell", "In[13]")}.get))
    monkeypatch.setattr(cell_files, "running_shell", lambda: shell)
    assert (cell_files.cell_name(own), cell_files.cell_line(own, 1)) == ("In[13]", 1)
    assert (cell_files.cell_name(engine), cell_files.cell_line(engine, 1)) == ("In[12]", 2)


def test_every_process_names_a_cells_file_alike_and_other_files_as_they_are():
    same = {
        re.sub(cell_files.PROCESS_PART, "", name)
        for name in (CELL_FILE, "/var/T/ipykernel_7/1187764415.py")
    }
    assert same == {"ipykernel_/1187764415.py"}
    for kept in ("/home/u/model.py", "/home/u/myipykernel_1/2.py", "/tmp/ipykernel_1/notes.py"):
        assert re.sub(cell_files.PROCESS_PART, "", kept) == kept


def test_a_cell_file_named_alike_is_this_process_file_and_its_cell(monkeypatch):
    from ipykernel.compiler import get_tmp_directory

    own = os.path.join(get_tmp_directory(), "1187764415.py")
    assert cell_files.local_file("ipykernel_/1187764415.py") == own
    assert cell_files.local_file("/home/u/model.py") == "/home/u/model.py"
    shell = SimpleNamespace(compile=SimpleNamespace(format_code_name={own: ("Cell", "In[5]")}.get))
    monkeypatch.setattr(cell_files, "running_shell", lambda: shell)
    text = MODULE.replace("/home/u/model.py", "ipykernel_/1187764415.py")
    comms = communication_map_from_text(text, axis_names=("x", "y"), mesh_shape=(2, 4))
    assert any("from line 41 of In[5]" in sentence for sentence in comms.summary())
