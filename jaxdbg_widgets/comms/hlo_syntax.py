"""What every reader of compiled HLO text reads the same way: computation headers, the
computations an instruction calls, and the source metadata it carries.

The collective reader (``comms/hlo.py``) and the schedule reader (``memory/schedule.py``) both
read ``Compiled.as_text()``; one grammar here keeps them reading it alike.
"""

from __future__ import annotations

import re

from jaxdbg_widgets._kernel.cell_files import local_file

COMPUTATION = re.compile(r"^(ENTRY\s+)?%?([^\s(]+)\s*\(.*\)\s*->\s*.*\{\s*$")
"""A computation's opening line: group 1 is ``ENTRY`` when it is the entry, group 2 its name."""

_CALLED = re.compile(
    r"\b(?:calls|body|condition|to_apply|true_computation|false_computation)=%?([\w.\-]+)"
)
_BRANCHES = re.compile(r"\bbranch_computations=\{([^}]*)\}")
_OP_NAME = re.compile(r'op_name="((?:[^"\\]|\\.)*)"')
_SOURCE_FILE = re.compile(r'source_file="((?:[^"\\]|\\.)*)"')
_SOURCE_LINE = re.compile(r"source_line=(\d+)")
_FRAME_ID = re.compile(r"stack_frame_id=(\d+)")


def called_computations(text: str) -> list[str]:
    """The computations an instruction's ``text`` names: ``calls=``, ``body=``, ``to_apply=``
    and the like, then every one of its ``branch_computations``."""
    called = _CALLED.findall(text)
    branched = _BRANCHES.findall(text) if "branch_computations=" in text else ()
    for branches in branched:
        called.extend(b.strip().lstrip("%") for b in branches.split(",") if b.strip())
    return called


def source_metadata(metadata: str) -> tuple[str | None, str | None, int | None, int | None]:
    """``op_name``, ``source_file``, ``source_line`` and ``stack_frame_id`` of an instruction's
    ``metadata={...}``, the strings as written (escapes kept); ``None`` for each one absent."""
    op_name = _OP_NAME.search(metadata)
    source_file = _SOURCE_FILE.search(metadata)
    source_line = _SOURCE_LINE.search(metadata)
    frame = _FRAME_ID.search(metadata)
    return (
        op_name.group(1) if op_name else None,
        source_file.group(1) if source_file else None,
        int(source_line.group(1)) if source_line else None,
        int(frame.group(1)) if frame else None,
    )


def file_name(written: str) -> str:
    """A file name as the compiled text writes it (escaped, and a cell's file alike for every
    process of a job), as this process names that file."""
    return local_file(unescape(written))


def unescape(text: str) -> str:
    """A string of the compiled text without its escapes."""
    return text.replace('\\"', '"').replace("\\\\", "\\")


def closing_paren(line: str, open_at: int) -> int:
    """The index of the parenthesis closing the one at ``open_at`` (quoted text skipped), or
    ``len(line)`` when it never closes."""
    depth, quoted = 0, False
    for position in range(open_at, len(line)):
        ch = line[position]
        if ch == '"':
            quoted = not quoted
        elif quoted:
            continue
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return position
    return len(line)
