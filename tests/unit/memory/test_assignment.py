"""XLA's buffer assignment read from its serialized bytes: the wire reader, each buffer's place,
the bytes a set of live buffers takes there, and the report's fallback where none is given."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import pytest

import jaxdbg_widgets as jdw
from jaxdbg_widgets.core import _jax_internals as internals
from jaxdbg_widgets.memory import proto_wire as wire
from jaxdbg_widgets.memory.assignment import Chunk, read_assignment
from jaxdbg_widgets.memory.schedule import read_schedule
from tests.unit.memory.peak_corpus import CORPUS


def _varint(n: int) -> bytes:
    n &= (1 << 64) - 1
    out = bytearray()
    while True:
        low, n = n & 0x7F, n >> 7
        out.append(low | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _field(number: int, value: int | bytes | str) -> bytes:
    if isinstance(value, int):
        return _varint(number << 3) + _varint(value)
    data = value.encode() if isinstance(value, str) else value
    return _varint(number << 3 | 2) + _varint(len(data)) + data


def _message(*fields: tuple[int, int | bytes | str]) -> bytes:
    return b"".join(_field(n, v) for n, v in fields)


def test_the_wire_reader_reads_scalars_strings_messages_and_both_list_encodings():
    inner = _message((1, 7), (2, "dot.3"))
    packed = b"".join(_varint(v) for v in (3, 300, 5))
    data = _message((1, -2), (2, "name"), (3, inner), (3, inner), (4, packed), (5, 8), (5, 9))
    fields = wire.message(data)
    assert wire.integer(fields, 1) == -2  # int64 negatives take ten bytes on the wire
    assert wire.text(fields, 2) == "name"
    assert [wire.text(m, 2) for m in wire.messages(fields, 3)] == ["dot.3", "dot.3"]
    assert wire.integers(fields, 4) == [3, 300, 5]
    assert wire.integers(fields, 5) == [8, 9]
    assert wire.integer(fields, 6, default=-1) == -1 and wire.text(fields, 6) == ""


@pytest.mark.parametrize(
    "data",
    [b"\x0a\x05ab", b"\x08", b"\x0b", bytes([0x08]) + b"\xff" * 11],
    ids=["length past the end", "varint past the end", "unknown wire type", "varint too long"],
)
def test_bytes_that_are_not_a_message_raise_wire_error(data):
    with pytest.raises(wire.WireError):
        wire.message(data)


def _assignment_bytes() -> tuple[bytes, bytes]:
    """A parameter, an output, a constant, thread-local scratch and one temporary block of three
    buffers (two sharing a place), as XLA serializes them."""

    def buffer(buffer_id: int, size: int, instruction_id: int, index: bytes = b"") -> bytes:
        where = _message((4, instruction_id), *([(3, index)] if index else []))
        return _field(1, _message((1, buffer_id), (2, size), (3, where)))

    def assigned(buffer_id: int, offset: int, size: int) -> tuple[int, bytes]:
        return (9, _message((1, buffer_id), (2, offset), (3, size)))

    allocations = [
        _message((1, 0), (2, 64), (5, 1), assigned(10, 0, 64)),  # parameter
        _message((1, 1), (2, 64), (7, 1), assigned(11, 0, 64)),  # output
        _message((1, 2), (2, 4), (12, 1), assigned(12, 0, 4)),  # constant
        _message((1, 3), (2, 8), (3, 1), assigned(13, 0, 8)),  # thread-local
        _message(
            (1, 4), (2, 320), assigned(14, 0, 256), assigned(15, 256, 64), assigned(16, 0, 128)
        ),
    ]
    assignment = b"".join(
        [
            buffer(10, 64, 1),
            buffer(11, 64, 5),
            buffer(12, 4, 2),
            buffer(13, 8, 9),
            buffer(14, 256, 3),
            buffer(15, 64, 4, b"\x01"),
            buffer(16, 128, 99),  # named by the heap simulator's trace only
            *(_field(3, a) for a in allocations),
            _field(4, _message((1, _message((1, 0), (2, 16), (3, "main"), (4, "fusion.2"))))),
        ]
    )
    instructions = [(1, "p"), (2, "constant.1"), (3, "dot.3"), (4, "all-reduce"), (5, "add.5")]
    computation = _message(
        (1, "main"), *((2, _message((1, name), (35, ident))) for ident, name in instructions)
    )
    return assignment, _message((3, computation))


def test_each_counted_buffer_is_placed_by_its_computation_instruction_and_index():
    layout = read_assignment(*_assignment_bytes())
    assert layout.blocks == {4: 320} and layout.temp_bytes == 320
    assert layout.chunks == {
        ("main", "p", ()): Chunk(0, 0, 64),
        ("main", "add.5", ()): Chunk(1, 0, 64),
        ("main", "dot.3", ()): Chunk(4, 0, 256),
        ("main", "all-reduce", (1,)): Chunk(4, 256, 64),
        ("main", "fusion.2", ()): Chunk(4, 0, 128),
    }  # no constant, no thread-local scratch
    assert layout.unnamed == 0


def test_the_bytes_in_use_are_the_highest_end_in_the_block_not_the_sum():
    layout = read_assignment(*_assignment_bytes())
    dot, reduced, fused = (
        ("main", "dot.3", ()),
        ("main", "all-reduce", (1,)),
        ("main", "fusion.2", ()),
    )
    assert layout.top([reduced]) == 320  # 64 bytes at offset 256: the block up to it is in use
    assert layout.top([dot, fused]) == 256
    assert layout.top([("main", "p", ()), ("main", "add.5", ())]) == 0  # not temporaries
    assert layout.top([("main", "unknown", ())]) == 0


def test_buffers_sharing_a_place_hold_it_once_the_first_taken_wins():
    layout = read_assignment(*_assignment_bytes())
    keys = [("main", "fusion.2", ()), ("main", "dot.3", ()), ("main", "all-reduce", (1,))]
    assert layout.occupants(keys) == [0, 2]
    assert layout.occupants([("main", "gone", ()), *keys[1:]]) == [1, 2]


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_every_temporary_of_a_compiled_program_names_one_of_its_instructions(name):
    f, args = CORPUS[name]
    compiled = jax.jit(f).lower(*args).compile()
    stats = compiled.memory_analysis()
    serialized = internals.buffer_assignment(compiled, stats)
    assert serialized is not None, "this JAX gives no buffer assignment"
    layout = read_assignment(*serialized)
    assert layout.temp_bytes == stats.temp_size_in_bytes
    assert layout.unnamed == 0
    schedule = read_schedule(compiled.as_text())
    named = {(c, i.name) for c, steps in schedule.computations.items() for i in steps}
    temporaries = [key for key, chunk in layout.chunks.items() if chunk.allocation in layout.blocks]
    assert temporaries and all(key[:2] in named for key in temporaries)


def _tiny(x):
    return jnp.tanh(x @ x.T).sum(0)


def test_without_an_assignment_the_buffers_are_counted_side_by_side_and_a_note_says_so(
    monkeypatch,
):
    monkeypatch.setattr(internals, "buffer_assignment", lambda compiled, stats: None)
    report = jdw.peak_memory(_tiny, jax.ShapeDtypeStruct((3, 5), jnp.float32)).report
    assert not report.laid_out
    assert any("no buffer assignment" in note for note in report.notes)
    assert sum(b.nbytes for b in report.buffers) == report.peak_bytes


def test_an_assignment_that_does_not_read_falls_back_with_its_reason(monkeypatch):
    monkeypatch.setattr(internals, "buffer_assignment", lambda compiled, stats: (b"\x0b", b""))
    report = jdw.peak_memory(_tiny, jax.ShapeDtypeStruct((3, 5), jnp.float32)).report
    assert not report.laid_out
    [note] = [n for n in report.notes if "could not be read" in n]
    assert "wire type 3" in note and "side by side" in note
