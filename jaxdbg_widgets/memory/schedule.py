"""The order a compiled program runs its instructions in, read from ``Compiled.as_text()``.

A scheduled module (``is_scheduled=true``) lists each computation's instructions in the order
they run; this reader keeps, per computation, every instruction's name, result shape, opcode,
operands, called computations and source metadata, so live ranges can be computed from it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from jaxdbg_widgets.comms.hlo_syntax import (
    COMPUTATION,
    called_computations,
    closing_paren,
    file_name,
    source_metadata,
)
from jaxdbg_widgets.comms.shapes import ArrayShape, UnreadShape, parse_shape, split_top

_NAME = re.compile(r"^\s*(ROOT\s+)?%?([^\s=]+)\s+=\s+")
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
        opened = COMPUTATION.match(line.strip())
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
    close = closing_paren(line, open_at)
    operands = tuple(
        part.split()[-1].lstrip("%") for part in split_top(line[open_at + 1 : close]) if part
    )
    rest = line[close + 1 :]
    try:
        shape = parse_shape(shape_text)
    except UnreadShape:
        shape = None
    metadata = rest[rest.find("metadata={") :] if "metadata={" in rest else ""
    op_name, source_file, source_line, frame = source_metadata(metadata)
    index = _INDEX.search(rest) if opcode == "get-tuple-element" else None
    return Instruction(
        name=match.group(2),
        opcode=opcode,
        shape=shape,
        operands=operands if opcode not in ("constant", "parameter", "iota") else (),
        called=tuple(called_computations(rest)),
        root=bool(match.group(1)),
        index=int(index.group(1)) if index else None,
        op_name=op_name or "",
        stack_frame_id=frame,
        source_file=None if source_file is None else file_name(source_file),
        source_line=source_line,
        fusion_kind=_fusion_kind(rest) if opcode == "fusion" else "",
    )


def _fusion_kind(rest: str) -> str:
    match = _FUSION_KIND.search(rest)
    return match.group(1) if match else ""


def _shape_text(line: str, start: int) -> tuple[str, int]:
    """The result shape written at ``start`` and where the opcode begins."""
    if line.startswith("(", start):
        end = closing_paren(line, start) + 1
    else:
        end = line.find(" ", start)
        end = len(line) if end < 0 else end
    return line[start:end], end + 1
