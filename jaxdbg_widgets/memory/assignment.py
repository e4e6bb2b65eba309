"""Where XLA put each buffer of a compiled program: its allocation, offset and size.

Read from the serialized buffer assignment that ``Compiled.memory_analysis()`` carries, with the
module's own serialization naming the instructions. XLA lays a program's temporaries out in one
block (per memory space) that it allocates whole, so the bytes a step needs are the end of the
highest buffer live then, not the sum of the live buffers: alignment and packing leave gaps.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from jaxdbg_widgets.memory import proto_wire as wire

# BufferAllocationProto's flags, by field number.
_THREAD_LOCAL, _PARAMETER, _LIVE_OUT, _CONSTANT = 3, 5, 7, 12

BufferKey = tuple[str, str, tuple[int, ...]]
"""A buffer by the computation and instruction that define it and its index in their result."""


@dataclass(frozen=True)
class Chunk:
    """One buffer's place: which allocation, at which offset, how many bytes."""

    allocation: int
    offset: int
    size: int

    @property
    def end(self) -> int:
        return self.offset + self.size


@dataclass(frozen=True)
class Assignment:
    """Every counted buffer's place (arguments, outputs, temporaries; not constants or
    thread-local scratch), and the size of each block that holds the temporaries."""

    chunks: dict[BufferKey, Chunk]
    blocks: dict[int, int]  # allocation index -> bytes, for the temporaries' allocations
    unnamed: int  # temporaries whose defining instruction could not be named

    @property
    def temp_bytes(self) -> int:
        return sum(self.blocks.values())

    def top(self, keys: Iterable[BufferKey]) -> int:
        """The temporary bytes in use when ``keys`` are live: per block, the highest end."""
        ends: dict[int, int] = {}
        for key in keys:
            chunk = self.chunks.get(key)
            if chunk is not None and chunk.allocation in self.blocks:
                ends[chunk.allocation] = max(ends.get(chunk.allocation, 0), chunk.end)
        return sum(ends.values())

    def occupants(self, keys: Sequence[BufferKey]) -> list[int]:
        """Which of ``keys`` hold memory together, as indices in order: one XLA placed
        nowhere counted is left out, and so is one whose place overlaps a key taken before
        (XLA reuses that storage, so only one of them holds it at a time)."""
        taken: dict[int, list[Chunk]] = {}
        out = []
        for at, key in enumerate(keys):
            chunk = self.chunks.get(key)
            if chunk is None:
                continue
            held = taken.setdefault(chunk.allocation, [])
            if any(c.offset < chunk.end and chunk.offset < c.end for c in held):
                continue
            held.append(chunk)
            out.append(at)
        return out


def read_assignment(assignment: bytes, module: bytes) -> Assignment:
    """Read a ``BufferAssignmentProto`` and its ``HloModuleProto`` into each buffer's place.

    Raises :class:`proto_wire.WireError` for bytes that are not such messages.
    """
    fields = wire.message(assignment)
    blocks, placed = _places(wire.messages(fields, 3))
    by_buffer = _named_by_trace(wire.messages(fields, 4))
    by_instruction = _named_by_id(wire.message(module))
    chunks: dict[BufferKey, Chunk] = {}
    unnamed = 0
    for buffer in wire.messages(fields, 1):
        buffer_id = wire.integer(buffer, 1)
        chunk = placed.get(buffer_id)
        if chunk is None:
            continue
        (where,) = wire.messages(buffer, 3) or [{}]
        owner = by_buffer.get(buffer_id) or by_instruction.get(wire.integer(where, 4, -1))
        if owner is None:
            unnamed += chunk.allocation in blocks
            continue
        chunks[(*owner, tuple(wire.integers(where, 3)))] = chunk
    return Assignment(chunks, blocks, unnamed)


def _places(allocations: list[wire.Fields]) -> tuple[dict[int, int], dict[int, Chunk]]:
    """The allocations XLA counts as temporary (not a parameter, an output, a constant or
    thread-local) with their sizes, and the place of each buffer in a counted allocation."""
    blocks: dict[int, int] = {}
    placed: dict[int, Chunk] = {}
    for allocation in allocations:
        if wire.integer(allocation, _THREAD_LOCAL) or wire.integer(allocation, _CONSTANT):
            continue
        index = wire.integer(allocation, 1)
        if not any(wire.integer(allocation, flag) for flag in (_PARAMETER, _LIVE_OUT)):
            blocks[index] = wire.integer(allocation, 2)
        for assigned in wire.messages(allocation, 9):
            chunk = Chunk(index, wire.integer(assigned, 2), wire.integer(assigned, 3))
            placed[wire.integer(assigned, 1)] = chunk
    return blocks, placed


def _named_by_trace(traces: list[wire.Fields]) -> dict[int, tuple[str, str]]:
    """Buffer id -> (computation, instruction) from the heap simulator's events, where XLA
    kept them: the event that places a buffer names the instruction that defines it."""
    named: dict[int, tuple[str, str]] = {}
    for trace in traces:
        for event in wire.messages(trace, 1):
            if wire.integer(event, 1) in (0, 2):  # ALLOC, SHARE_WITH
                owner = (wire.text(event, 3), wire.text(event, 4))
                named.setdefault(wire.integer(event, 2), owner)
    return named


def _named_by_id(module: wire.Fields) -> dict[int, tuple[str, str]]:
    """Instruction id -> (computation, instruction), from the module's own serialization."""
    named: dict[int, tuple[str, str]] = {}
    for computation in wire.messages(module, 3):
        name = wire.text(computation, 1)
        for instruction in wire.messages(computation, 2):
            named[wire.integer(instruction, 35)] = (name, wire.text(instruction, 1))
    return named
