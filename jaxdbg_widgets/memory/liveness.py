"""Live ranges of a scheduled program's buffers, and the live bytes at every step.

Each instruction that makes a new array defines one buffer per array of its result; an
instruction that only renames (``tuple``, ``get-tuple-element``, ``bitcast``, ``while``, a
parameter) defines none and passes its operands' buffers on. A buffer lives from the step
that defines it to the last step that reads it. Arguments and outputs are counted for the whole
program, as XLA allocates them; a ``while``, ``call`` or ``conditional`` adds the peak of the
temporaries inside its computations at its step.
"""

from __future__ import annotations

from dataclasses import dataclass

from jaxdbg_widgets.comms.shapes import ArrayShape
from jaxdbg_widgets.memory.schedule import Instruction, Schedule

# Opcodes whose result is their operands' buffers, not a new one.
_RENAMES = frozenset(
    {"tuple", "get-tuple-element", "bitcast", "while", "opt-barrier", "optimization-barrier"}
)
# Opcodes whose called computations run as separate steps (a fusion's body is never stored).
_NESTED = frozenset({"while", "call", "conditional", "async-start"})

# Operations XLA may write into an operand's buffer when that operand dies there.
_IN_PLACE = frozenset(
    {
        "add", "subtract", "multiply", "divide", "maximum", "minimum", "negate", "abs", "exp",
        "log", "tanh", "logistic", "sqrt", "rsqrt", "power", "select", "clamp", "compare",
        "convert", "and", "or", "xor", "not", "sine", "cosine", "floor", "ceil", "sign",
        "exponential", "log-plus-one", "exponential-minus-one", "dynamic-update-slice", "scatter",
        "sort",
    }
)  # fmt: skip

Value = int | tuple["Value", ...] | None


@dataclass(frozen=True)
class Buffer:
    """One array the program stores: who defines it, its shape, and the steps it lives."""

    id: int
    instruction: Instruction
    array: ArrayShape
    defined: int
    last_use: int
    kind: str  # "argument", "output", "temporary", "residual", "in a loop" (or call)
    reader: Instruction | None = None  # the first step that reads it, for where it is used

    @property
    def nbytes(self) -> int:
        return self.array.nbytes


@dataclass(frozen=True)
class Liveness:
    """Buffers of the entry computation and the bytes live at each scheduled step."""

    buffers: tuple[Buffer, ...]
    steps: tuple[Instruction, ...]
    timeline: tuple[int, ...]
    nested: tuple[tuple[Buffer, ...], ...]  # per step: buffers live inside what it calls
    fixed_bytes: int  # arguments + outputs, live the whole program
    peak_step: int

    @property
    def peak_bytes(self) -> int:
        return self.timeline[self.peak_step] if self.timeline else self.fixed_bytes

    def live_at(self, step: int) -> tuple[Buffer, ...]:
        """Buffers live at ``step``: arguments, outputs, temporaries, and nested ones."""
        own = tuple(
            b
            for b in self.buffers
            if b.kind in ("argument", "output") or b.defined <= step <= b.last_use
        )
        return own + (self.nested[step] if 0 <= step < len(self.nested) else ())


def liveness(schedule: Schedule) -> Liveness:
    """Live ranges in ``schedule``'s entry computation, with its callees' temporaries nested."""
    steps = schedule.computations.get(schedule.entry, ())
    buffers, nested_peaks = _ranges(schedule, steps, entry=True, counter=[0])
    fixed = sum(b.nbytes for b in buffers if b.kind in ("argument", "output"))
    timeline = []
    deltas = [0] * (len(steps) + 1)
    for b in buffers:
        if b.kind in ("argument", "output"):
            continue
        deltas[b.defined] += b.nbytes
        deltas[b.last_use + 1] -= b.nbytes
    running = 0
    for step in range(len(steps)):
        running += deltas[step]
        timeline.append(fixed + running + sum(b.nbytes for b in nested_peaks[step]))
    peak = max(range(len(timeline)), key=lambda i: timeline[i]) if timeline else 0
    return Liveness(tuple(buffers), steps, tuple(timeline), nested_peaks, fixed, peak)


def _ranges(
    schedule: Schedule, steps: tuple[Instruction, ...], *, entry: bool, counter: list[int]
) -> tuple[list[Buffer], tuple[tuple[Buffer, ...], ...]]:
    values: dict[str, Value] = {}
    made: list[tuple[int, Instruction, ArrayShape, str]] = []
    last: dict[int, int] = {}
    backward: set[int] = set()  # buffers read by a transpose (backward-pass) step
    forward: set[int] = set()  # buffers made or read by a forward (jvp) step
    first_reader: dict[int, Instruction] = {}
    shares: dict[int, int] = {}  # a buffer -> the dying operand buffer it is written into
    in_place: list[tuple[Instruction, int]] = []  # steps that may write over a dying operand
    nested: list[tuple[Buffer, ...]] = []
    root_value: Value = None
    for step, inst in enumerate(steps):
        for operand in inst.operands:
            for buffer in _flat(values.get(operand)):
                last[buffer] = step
                if inst.op_name:
                    first_reader.setdefault(buffer, inst)
                if "transpose(" in inst.op_name:
                    backward.add(buffer)
                elif "jvp(" in inst.op_name:
                    forward.add(buffer)
        nested.append(_nested_peak(schedule, inst, counter) if inst.opcode in _NESTED else ())
        if inst.opcode == "parameter":
            kind = "argument" if entry else "parameter"
            values[inst.name] = _define(inst, step, kind, made, counter)
        elif inst.opcode == "get-tuple-element":
            whole = values.get(inst.operands[0]) if inst.operands else None
            part = (
                whole[inst.index] if isinstance(whole, tuple) and inst.index is not None else whole
            )
            values[inst.name] = part if isinstance(whole, tuple) else whole
        elif inst.opcode == "tuple":
            values[inst.name] = tuple(values.get(o) for o in inst.operands)
        elif inst.opcode in _RENAMES:
            values[inst.name] = values.get(inst.operands[0]) if inst.operands else None
        else:
            values[inst.name] = _define(inst, step, "temporary", made, counter)
            if _in_place(inst):
                in_place.append((inst, step))
        if inst.root:
            root_value = values[inst.name]
    for inst, step in in_place:  # once every last use is known
        _share(inst, step, values, last, made, shares)
    step_of = {inst.name: step for step, inst in enumerate(steps)}
    outputs = set(_flat(root_value))  # inside a loop or call: the state its caller holds
    stored_in_output = set()
    in_caller = set()  # inside a loop or call: results written over its parameters
    kinds = {b: kind for b, _, _, kind in made}
    for out in outputs:
        chain, new = [out], out
        while new in shares:
            new = shares[new]
            chain.append(new)
        stored_in_output.update(chain[1:])
        if kinds.get(chain[-1]) == "parameter":
            in_caller.update(chain)
    end = max(len(steps) - 1, 0)
    buffers = []
    handed_over = {old: step_of_new for old, step_of_new in _hand_overs(shares, made, step_of)}
    for buffer_id, inst, array, kind in made:
        defined = step_of[inst.name]
        if (entry and buffer_id in stored_in_output) or buffer_id in in_caller:
            continue  # its storage is an output's (the caller's, inside a loop), counted there
        if buffer_id in outputs and kind != "argument":
            kind = "output"
        made_forward = "jvp(" in inst.op_name and "transpose(" not in inst.op_name
        if kind == "temporary" and buffer_id in backward and (made_forward or buffer_id in forward):
            kind = "residual"
        last_use = max(last.get(buffer_id, defined), defined)
        if buffer_id in handed_over:
            last_use = max(handed_over[buffer_id] - 1, defined)
        if kind in ("argument", "output") or buffer_id in outputs:
            last_use = end
        reader = first_reader.get(buffer_id)
        buffers.append(Buffer(buffer_id, inst, array, defined, last_use, kind, reader))
    return buffers, tuple(nested)


def _in_place(inst: Instruction) -> bool:
    return inst.opcode in _IN_PLACE or (
        inst.opcode == "fusion" and inst.fusion_kind in ("kLoop", "kInput")
    )


def _share(
    inst: Instruction,
    step: int,
    values: dict[str, Value],
    last: dict[int, int],
    made: list[tuple[int, Instruction, ArrayShape, str]],
    shares: dict[int, int],
) -> None:
    """Write ``inst``'s one new buffer into an operand buffer of its size that dies here."""
    new = values.get(inst.name)
    if not isinstance(new, int):
        return
    found = {b: (array, kind) for b, _, array, kind in made}
    taken = set(shares.values())
    size = found[new][0].nbytes
    for operand in inst.operands:
        old = values.get(operand)
        if not isinstance(old, int) or old in taken or last.get(old) != step:
            continue
        array, kind = found.get(old, (None, ""))
        if array is not None and kind in ("temporary", "parameter") and array.nbytes == size:
            shares[new] = old
            return


def _hand_overs(
    shares: dict[int, int],
    made: list[tuple[int, Instruction, ArrayShape, str]],
    step_of: dict[str, int],
) -> list[tuple[int, int]]:
    """``(old buffer, step where a new buffer takes its storage)`` for every share."""
    defined = {b: step_of[inst.name] for b, inst, _, _ in made}
    return [(old, defined[new]) for new, old in shares.items()]


def _define(
    inst: Instruction,
    step: int,
    kind: str,
    made: list[tuple[int, Instruction, ArrayShape, str]],
    counter: list[int],
) -> Value:
    """New buffers for each array of ``inst``'s result, nested as its shape is."""

    def build(shape: object) -> Value:
        if isinstance(shape, ArrayShape):
            counter[0] += 1
            made.append((counter[0], inst, shape, kind))
            return counter[0]
        if isinstance(shape, tuple):
            return tuple(build(part) for part in shape)
        return None

    return build(inst.shape)


def _flat(value: Value) -> list[int]:
    if value is None:
        return []
    if isinstance(value, int):
        return [value]
    return [b for part in value for b in _flat(part)]


def _nested_peak(schedule: Schedule, inst: Instruction, counter: list[int]) -> tuple[Buffer, ...]:
    """The temporaries live at the fullest step of the computations ``inst`` runs."""
    # A conditional's or call's result is its branch's result, stored once: the caller counts it.
    own_result = ("parameter", "output") if inst.opcode in ("conditional", "call") else ()
    best: tuple[Buffer, ...] = ()
    for name in inst.called:
        steps = schedule.computations.get(name, ())
        buffers, inner = _ranges(schedule, steps, entry=False, counter=counter)
        temps = [b for b in buffers if b.kind not in ("parameter", *own_result)]
        for step in range(len(steps)):
            live = tuple(b for b in temps if b.defined <= step <= b.last_use) + inner[step]
            if sum(b.nbytes for b in live) > sum(b.nbytes for b in best):
                best = live
    return tuple(
        Buffer(b.id, b.instruction, b.array, b.defined, b.last_use, "in a loop", b.reader)
        for b in best
    )
