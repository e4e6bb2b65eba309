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
from jaxdbg_widgets.nans.report import Origin, SourceLine
from jaxdbg_widgets.nans.view import _source
from jaxdbg_widgets.notebook.printlog import LogEntry
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


def test_the_print_log_names_the_cell(cell_5):
    entry = LogEntry(1, 5, "x=1", CELL_FILE, 3, "f", 0.0, (), None)
    assert entry.site == "In[5]:3 in f"


def test_the_nan_report_source_header_names_the_cell(cell_5):
    line = SourceLine(CELL_FILE, 2, "loss", "y = jnp.log(x)")
    origin = Origin("log", (), (line,), "forward", (), (), ())
    assert _source(origin)["filename"] == "In[5]"
    assert line.describe() == "In[5]:2 in loss: y = jnp.log(x)"


def test_code_a_px_cell_sent_to_the_engines_is_named_after_that_cell(monkeypatch):
    from ipykernel.compiler import get_tmp_hash_seed, murmur2_x86

    monkeypatch.setattr(cell_files, "_engine_files", {})
    body = "y = step(x)\njdw.print('y={}', y)\n"
    cell_files.remember_engine_cell("%%px --targets 0\n" + body.rstrip("\n"), 12)
    cell_files.remember_engine_cell("z = 1\n", 13)  # not a %%px cell: nothing to note
    engine_file = f"/tmp/ipykernel_5151/{murmur2_x86(body, get_tmp_hash_seed())}.py"
    assert cell_files.cell_name(engine_file) == "In[12]"
    assert cell_files.short_name(engine_file) == "In[12]"
    assert cell_files.engine_line(engine_file, 2) == 3  # line 1 of the cell is %%px
    assert cell_files.engine_line("/home/u/model.py", 2) == 2
    plain = murmur2_x86("z = 1\n", get_tmp_hash_seed())
    other = f"/tmp/ipykernel_5151/{plain}.py"
    assert cell_files.cell_name(other) is None


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
