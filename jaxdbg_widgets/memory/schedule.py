"""The order a compiled program runs its instructions in, read from ``Compiled.as_text()``.

A scheduled module (``is_scheduled=true``) lists each computation's instructions in the order
they run; this reader keeps, per computation, every instruction's name, result shape, opcode,
operands, called computations and source metadata, so live ranges can be computed from it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from jaxdbg_widgets.comms.shapes import ArrayShape, UnreadShape, parse_shape, split_top

_COMPUTATION = re.compile(r"^(ENTRY\s+)?%?([^\s(]+)\s*\(.*\)\s*->\s*.*\{\s*$")
_NAME = re.compile(r"^\s*(ROOT\s+)?%?([^\s=]+)\s+=\s+")
_CALLED = re.compile(
    r"\b(?:calls|body|condition|to_apply|true_computation|false_computation)=%?([\w.\-]+)"
)
_BRANCHES = re.compile(r"\bbranch_computations=\{([^}]*)\}")
_OP_NAME = re.compile(r'op_name="((?:[^"\\]|\\.)*)"')
_SOURCE_FILE = re.compile(r'source_file="((?:[^"\\]|\\.)*)"')
_SOURCE_LINE = re.compile(r"source_line=(\d+)")
_FRAME_ID = re.compile(r"stack_frame_id=(\d+)")
_INDEX = re.compile(r"\bindex=(\d+)")
_FUSION_KIND = re.compile(r"\bkind=(k\w+)")


@dataclass(frozen=True)
class Instruction:
    """One scheduled instruction: its result shape (nested tuples kept) and where it came from."""

    name: str
    opcode: str
    shape: ArrayShape | tuple[object, ...] | None
    operands: tuple[str, ...]
    called: tuple[str, ...]
    root: bool
    index: int | None
    op_name: str
    stack_frame_id: int | None
    source_file: str | None
    source_line: int | None
    fusion_kind: str = ""


@dataclass(frozen=True)
class Schedule:
    """Every computation's instructions in run order, and which computation is the entry."""

    entry: str
    scheduled: bool
    computations: dict[str, tuple[Instruction, ...]]


def read_schedule(text: str) -> Schedule:
    """Read a compiled module's text into its per-computation instruction order."""
    computations: dict[str, list[Instruction]] = {}
    entry, current = "", None
    scheduled = "is_scheduled=true" in text.split("\n", 1)[0]
    for line in text.splitlines():
        if current is not None:
            if line.startswith("}"):
                current = None
                continue
            instruction = _instruction(line)
            if instruction is not None:
                computations[current].append(instruction)
            continue
        opened = _COMPUTATION.match(line.strip())
        if opened:
            current = opened.group(2)
            computations[current] = []
            if opened.group(1):
                entry = current
    return Schedule(entry, scheduled, {k: tuple(v) for k, v in computations.items()})


def _instruction(line: str) -> Instruction | None:
    match = _NAME.match(line)
    if match is None:
        return None
    start = match.end()
    shape_text, after = _shape_text(line, start)
    open_at = line.find("(", after)
    if open_at < 0:
        return None
    opcode = line[after:open_at].strip()
    close = _closing(line, open_at)
    operands = tuple(
        part.split()[-1].lstrip("%") for part in split_top(line[open_at + 1 : close]) if part
    )
    rest = line[close + 1 :]
    try:
        shape = parse_shape(shape_text)
    except UnreadShape:
        shape = None
    called = list(_CALLED.findall(rest))
    for branches in _BRANCHES.findall(rest):
        called.extend(b.strip().lstrip("%") for b in branches.split(",") if b.strip())
    metadata = rest[rest.find("metadata={") :] if "metadata={" in rest else ""
    op_name = _OP_NAME.search(metadata)
    source_file = _SOURCE_FILE.search(metadata)
    source_line = _SOURCE_LINE.search(metadata)
    frame = _FRAME_ID.search(metadata)
    index = _INDEX.search(rest) if opcode == "get-tuple-element" else None
    return Instruction(
        name=match.group(2),
        opcode=opcode,
        shape=shape,
        operands=operands if opcode not in ("constant", "parameter", "iota") else (),
        called=tuple(called),
        root=bool(match.group(1)),
        index=int(index.group(1)) if index else None,
        op_name=op_name.group(1) if op_name else "",
        stack_frame_id=int(frame.group(1)) if frame else None,
        source_file=source_file.group(1) if source_file else None,
        source_line=int(source_line.group(1)) if source_line else None,
        fusion_kind=_fusion_kind(rest) if opcode == "fusion" else "",
    )


def _fusion_kind(rest: str) -> str:
    match = _FUSION_KIND.search(rest)
    return match.group(1) if match else ""


def _shape_text(line: str, start: int) -> tuple[str, int]:
    """The result shape written at ``start`` and where the opcode begins."""
    if line.startswith("(", start):
        end = _closing(line, start) + 1
    else:
        end = line.find(" ", start)
        end = len(line) if end < 0 else end
    return line[start:end], end + 1


def _closing(line: str, open_at: int) -> int:
    """The index of the parenthesis closing the one at ``open_at`` (quotes skipped)."""
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
