"""``In[N]`` names for the files IPython compiles cell code to, on IPython 7 to 9, and the one
name every process of a job gives a cell's file in the programs it compiles."""

from __future__ import annotations

import os
import re
from typing import Any

from jaxdbg_widgets import _capabilities
from jaxdbg_widgets._kernel import parent
from jaxdbg_widgets._kernel.shell import running_shell

# IPython 7 names cell code ``<ipython-input-3-5f1c...>``; later versions ask ``compile``.
_OLD_CELL_FILE = re.compile(r"^<ipython-input-(\d+)-[0-9a-f]*>$")
_cell_files: dict[str, int] = {}
# An engine's ipykernel names the code of a ``%%px`` cell after a hash of it, in its own folder.
_KERNEL_FILE = re.compile(r"[/\\]ipykernel_\d+[/\\](\d+\.py)$")
_PX_MAGIC = re.compile(r"^%%px\b")
# "1140406091.py" -> (the notebook cell that sent the code, the cell's lines above that code)
_engine_files: dict[str, tuple[int, int]] = {}
# On an engine: its own file of a ``%%px`` cell's code -> the same, as the notebook said
_notebook_cells: dict[str, tuple[int, int]] = {}
_changes = 0
PROCESS_PART = r"^.*[/\\](?=ipykernel_\d+[/\\]\d+\.py$)|(?<=[/\\]ipykernel_)\d+(?=[/\\]\d+\.py$)"
"""What of a cell file's name differs between processes (its folder and the process id in
it): removed, every process writes ``ipykernel_/1140406091.py`` for the code of one cell."""
_SHARED_FILE = re.compile(r"^ipykernel_[/\\](\d+\.py)$")


def probe(shell: Any) -> None:
    """Raise unless the shell's compiler can say beforehand which file it compiles a cell to."""
    _capabilities.require_parameters(shell.compile.get_code_name, ("raw_code", "number"))


def remember_cell_file(shell: Any, raw_cell: str, number: int) -> None:
    """Note which file IPython compiles cell ``number`` to, before the cell runs, where the
    file's name does not say.

    ipykernel names a cell's file after a hash of its source, so the same code run again is
    the same file under a new number: IPython 7 cannot tell which, and IPython >= 8 tells only
    once it has compiled the cell. A file named after its cell's number is left to its name.
    """
    compiler = getattr(shell, "compile", None)
    if compiler is None or not _capabilities.has("ipython", "cell-names"):
        return
    code_name = compiler.get_code_name
    if code_name("", "", 1) == code_name("", "", 2):  # the name does not carry the number
        _write(_cell_files, {code_name(raw_cell, raw_cell, number): number})


def remember_cell_history(shell: Any) -> None:
    """Note the files of the cells run so far (the running one included), as above, where
    IPython cannot name them itself (IPython 7).

    History keeps each cell without its trailing newlines, so both spellings are noted; the
    running cell's exact source is the code of the kernel's current request.
    """
    if callable(getattr(getattr(shell, "compile", None), "format_code_name", None)):
        return
    history = getattr(getattr(shell, "history_manager", None), "input_hist_raw", [])
    for number, raw_cell in enumerate(history):
        if number:
            remember_cell_file(shell, raw_cell, number)
            remember_cell_file(shell, raw_cell + "\n", number)
    kernel = getattr(shell, "kernel", None)
    code = parent.request_code(kernel) if kernel is not None else None
    if code is not None and history:
        remember_cell_file(shell, code, len(history) - 1)


def remember_engine_cell(raw_cell: str, number: int | None) -> bool:
    """In the notebook: note the file each engine compiles a ``%%px`` cell's code to, so that
    code is named after the notebook's ``In[number]`` and counted in its lines, never after an
    engine's temporary file; whether ``raw_cell`` is such a cell."""
    if number is None or (found := _px_files(raw_cell)) is None:
        return False
    names, above = found
    _write(_engine_files, dict.fromkeys(names, (number, above)))
    return True


def name_notebook_cell(raw_cell: str, number: int | None) -> None:
    """On an engine: note that the ``%%px`` cell about to run is the notebook's ``In[number]``,
    so what this process draws names its code and lines as the notebook shows them, never
    after the engine's own count of the cells it ran."""
    folder = _tmp_directory()
    if number is None or folder is None or (found := _px_files(raw_cell)) is None:
        return
    names, above = found
    _write(_notebook_cells, {os.path.join(folder, name): (number, above) for name in names})


def _write(table: dict[str, Any], entries: dict[str, Any]) -> None:
    """Add ``entries`` to one of this module's tables of cell files, counting the change."""
    global _changes
    table.update(entries)
    _changes += 1


def changes() -> int:
    """How many times a table of cell files here was written: a name read from these tables
    (see :func:`known_cell_name`) may differ after; one only IPython knows is not counted."""
    return _changes


def _px_files(raw_cell: str) -> tuple[set[str], int] | None:
    """The base names every process gives the code of a ``%%px`` cell, and the cell's lines
    above that code; ``None`` for any other cell.

    ipykernel names a cell's file after a hash of its code, the same in every process; the
    engines run the cell's body, which IPython hands the magic with a final newline.
    """
    stripped = raw_cell.lstrip("\n")
    first, _, body = stripped.partition("\n")
    if not _PX_MAGIC.match(first):
        return None
    above = len(raw_cell) - len(stripped) + 1  # blank lines, then the magic's own line
    codes = {body, body.rstrip("\n") + "\n", body.rstrip("\n")}
    names = {name for name in map(_hashed_name, codes) if name is not None}
    return names, above


def _px_cell(filename: str) -> tuple[int, int] | None:
    """The notebook cell whose ``%%px`` code ``filename`` holds, and its lines above that code:
    as the notebook told this engine, or, in the notebook, for another process's file."""
    if filename in _notebook_cells:
        return _notebook_cells[filename]
    if not _engine_files:  # no %%px cell ran here: nothing to look up (most kernels)
        return None
    engine = _KERNEL_FILE.search(filename)
    if engine is None or os.path.dirname(filename) == _tmp_directory():
        return None
    return _engine_files.get(engine.group(1))


def cell_line(filename: str, lineno: int) -> int:
    """``lineno`` as the user counts it: in a file of a ``%%px`` cell's code, the line of that
    notebook cell (the magic's line comes first); in any other file, as it is."""
    known = _px_cell(filename)
    return lineno + known[1] if known is not None else lineno


def _hashed_name(code: str) -> str | None:
    """``1140406091.py``: the base name ipykernel gives the file of ``code`` (None when this
    ipykernel names files some other way)."""
    try:
        from ipykernel.compiler import get_tmp_hash_seed, murmur2_x86
    except ImportError:
        return None
    return f"{murmur2_x86(code, get_tmp_hash_seed())}.py"


def local_file(filename: str) -> str:
    """This process's own file for a cell file named as every process names it (see
    :data:`PROCESS_PART`), so its lines can be read and its cell named; any other name as is."""
    shared = _SHARED_FILE.match(filename)
    folder = _tmp_directory() if shared is not None else None
    return os.path.join(folder, shared.group(1)) if shared and folder else filename


def _tmp_directory() -> str | None:
    """The folder ipykernel keeps this process's cell files in (``None``: unknown here)."""
    try:
        from ipykernel.compiler import get_tmp_directory
    except ImportError:
        return None
    return get_tmp_directory()


def cell_name(filename: str) -> str | None:
    """``In[3]`` for code IPython compiled from cell 3 (here, or on an engine from the notebook's
    ``%%px`` cell 3, which an engine's own count would name otherwise), else ``None``."""
    return known_cell_name(filename) or ipython_cell_name(filename)


def ipython_cell_name(filename: str) -> str | None:
    """``In[3]`` as the running IPython (8 or later) names a file it compiled, else ``None``."""
    compiler = getattr(running_shell(), "compile", None)
    format_code_name = getattr(compiler, "format_code_name", None)
    named = format_code_name(filename) if format_code_name is not None else None
    return named[1] if named is not None else None


def known_cell_name(filename: str) -> str | None:
    """:func:`cell_name` as the file's own name or this module's tables say it, without asking
    IPython: an answer that changes only when :func:`changes` does."""
    old_style = _OLD_CELL_FILE.match(filename)
    if old_style is not None:
        return f"In[{old_style.group(1)}]"
    if filename in _notebook_cells:  # on an engine, the notebook's number over its own count
        return f"In[{_notebook_cells[filename][0]}]"
    if filename in _cell_files:
        return f"In[{_cell_files[filename]}]"
    known = _px_cell(filename)
    return f"In[{known[0]}]" if known is not None else None


def short_name(filename: str) -> str:
    """``In[3]`` for code from cell 3, else the file's base name: the one way every view names
    where code came from (never the kernel's temporary ``/tmp/ipykernel_…/1187764415.py``)."""
    return cell_name(filename) or os.path.basename(filename) or filename


def counts_cell_before_running(shell: Any) -> bool:
    """Whether ``execution_count`` already counts the running cell when ``pre_run_cell`` fires.

    IPython 9.8 moved the increment from after the cell to before this event.
    """
    import IPython

    return tuple(IPython.version_info[:2]) >= (9, 8)
