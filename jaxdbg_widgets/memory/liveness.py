"""Live ranges of a scheduled program's buffers, and the bytes in use at every step.

Each instruction that makes a new array defines one buffer per array of its result; an
instruction that only renames (``tuple``, ``get-tuple-element``, ``bitcast``, ``while``, a
parameter) defines none and passes its operands' buffers on. A buffer lives from the step
that defines it to the last step that reads it. Arguments and outputs are counted for the whole
program, as XLA allocates them; a ``while``, ``call`` or ``conditional`` adds the fullest step
of the temporaries inside its computations at its step.

With XLA's buffer assignment (exact mode) a step's bytes are where XLA placed the live buffers,
so in-place reuse and alignment are XLA's own; each tuple's table of pointers is a buffer too.
Without it, a buffer an operation may write over a dying operand of its size shares that
operand's storage, and live buffers are counted side by side.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from jaxdbg_widgets.comms.shapes import ArrayShape
from jaxdbg_widgets.memory.assignment import Assignment
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
TABLE = "tuple table"  # the kind of a tuple's table of pointers
_WHOLE = ("argument", "output")  # buffers XLA allocates for the whole program


@dataclass(frozen=True)
class Buffer:
    """One array the program stores: who defines it, its shape, and the steps it lives."""

    id: int
    instruction: Instruction
    array: ArrayShape
    defined: int
    last_use: int
    kind: str  # "argument", "output", "temporary", "residual", "in a loop", "tuple table"
    reader: Instruction | None = None  # the first step that reads it, for where it is used
    computation: str = ""
    index: tuple[int, ...] = ()  # its place in its instruction's (tuple) result

    @property
    def nbytes(self) -> int:
        return self.array.nbytes

    @property
    def key(self) -> tuple[str, str, tuple[int, ...]]:
        """The computation, instruction and result index that name it in XLA's assignment."""
        return (self.computation, self.instruction.name, self.index)


Measure = Callable[[Iterable[Buffer]], int]
"""The bytes a set of live buffers takes: their sum, or where XLA laid them out, its top."""


def summed(buffers: Iterable[Buffer]) -> int:
    """The bytes of ``buffers`` side by side, with no gaps."""
    return sum(b.nbytes for b in buffers)


class _Made(NamedTuple):
    id: int
    instruction: Instruction
    array: ArrayShape
    kind: str
    path: tuple[int, ...]  # its index in the instruction's result


@dataclass(frozen=True)
class Liveness:
    """Buffers of the entry computation and the bytes live at each scheduled step."""

    buffers: tuple[Buffer, ...]
    steps: tuple[Instruction, ...]
    timeline: tuple[int, ...]
    nested: tuple[tuple[Buffer, ...], ...]  # per step: buffers live inside what it calls
    fixed_bytes: int  # arguments + outputs, live the whole program
    peak_step: int
    layout: Assignment | None = None  # where XLA placed them, when known

    @property
    def peak_bytes(self) -> int:
        return self.timeline[self.peak_step] if self.timeline else self.fixed_bytes

    def live_at(self, step: int) -> tuple[Buffer, ...]:
        """Buffers live at ``step``: arguments, outputs, temporaries, and nested ones."""
        own = tuple(b for b in self.buffers if b.kind in _WHOLE or b.defined <= step <= b.last_use)
        return own + (self.nested[step] if 0 <= step < len(self.nested) else ())

    def holding_at(self, step: int) -> tuple[Buffer, ...]:
        """The buffers live at ``step`` that hold memory of their own: with XLA's layout, of
        buffers sharing a place only one is counted; without it, every live buffer."""
        live = self.live_at(step)
        return live if self.layout is None else _holding(live, self.layout, self.fixed_bytes)


def liveness(
    schedule: Schedule, layout: Assignment | None = None, fixed: int | None = None
) -> Liveness:
    """Live ranges in ``schedule``'s entry computation, with its callees' temporaries nested.

    Each step's bytes are ``fixed`` (by default the arguments and outputs, which live the
    whole program) plus the other buffers live then, placed as ``layout`` says where it is
    given; the peak is the fullest step, the one with the most bytes side by side where
    several tie.
    """
    if layout is not None:
        layout = _through_calls(layout, schedule)
    measure = summed if layout is None else _placed(layout)
    walk = _Walk(schedule, measure, exact=layout is not None)
    buffers, nested = walk.ranges(schedule.entry)
    whole = [b for b in buffers if b.kind in _WHOLE]
    fixed = summed(whole) if fixed is None else fixed
    steps = schedule.computations.get(schedule.entry, ())
    timeline, side_by_side = [], []
    for live in _live_sets(buffers, nested, len(steps)):
        timeline.append(fixed + measure(live))
        side_by_side.append(summed(live))
    peak = max(range(len(timeline)), key=lambda i: (timeline[i], side_by_side[i], -i), default=0)
    return Liveness(tuple(buffers), steps, tuple(timeline), nested, fixed, peak, layout)


def _holding(live: tuple[Buffer, ...], layout: Assignment, fixed: int) -> tuple[Buffer, ...]:
    """Of ``live``, the buffers with memory of their own in XLA's layout. Arguments and
    outputs hold theirs the whole program; a temporary XLA placed in their storage costs
    nothing more and is left out; of temporaries sharing a place only the newest holds it (a
    loop's first). Arguments and outputs the layout does not name are kept while they fit in
    XLA's own count of argument and output bytes, ``fixed`` (an output written over a donated
    argument does not)."""

    def order(b: Buffer) -> tuple[int, int]:
        rank = {"argument": 0, "output": 1, "in a loop": 2}.get(b.kind, 3)
        return (rank, -b.defined if rank == 3 else 0)

    ordered = sorted(live, key=order)
    kept = set(layout.occupants([b.key for b in ordered]))
    budget = fixed - sum(ordered[at].nbytes for at in kept if ordered[at].kind in _WHOLE)
    out = []
    for at, b in enumerate(ordered):
        if at in kept:
            out.append(b)
        elif b.kind in _WHOLE and b.key not in layout.chunks and b.nbytes <= budget:
            budget -= b.nbytes
            out.append(b)
    return tuple(out)


def _placed(layout: Assignment) -> Measure:
    """The bytes live buffers take in XLA's layout: the end of the highest, per block."""
    return lambda buffers: layout.top(b.key for b in buffers)


def _through_calls(layout: Assignment, schedule: Schedule) -> Assignment:
    """``layout`` with each ``call``'s result placed where its callee's root is: older XLA
    names a call's buffers by the instruction inside that makes them."""
    chunks = dict(layout.chunks)
    for computation, steps in schedule.computations.items():
        for inst in steps:
            if inst.opcode != "call" or len(inst.called) != 1:
                continue
            callee = inst.called[0]
            root = next((i for i in schedule.computations.get(callee, ()) if i.root), None)
            for (where, name, index), chunk in layout.chunks.items():
                if root is not None and (where, name) == (callee, root.name):
                    chunks.setdefault((computation, inst.name, index), chunk)
    return replace(layout, chunks=chunks)


def _live_sets(
    buffers: list[Buffer], nested: tuple[tuple[Buffer, ...], ...], count: int
) -> Iterable[list[Buffer]]:
    """The temporaries live at each of ``count`` steps, nested ones included."""
    starting: list[list[Buffer]] = [[] for _ in range(count)]
    ending: list[list[Buffer]] = [[] for _ in range(count)]
    for b in buffers:
        if b.kind not in _WHOLE:
            starting[b.defined].append(b)
            ending[b.last_use].append(b)
    live: dict[int, Buffer] = {}
    for step in range(count):
        live.update((b.id, b) for b in starting[step])
        yield [*live.values(), *nested[step]]
        for b in ending[step]:
            live.pop(b.id, None)


@dataclass
class _Reads:
    """What one walk over a computation learns of its buffers."""

    values: dict[str, Value] = field(default_factory=dict)
    made: list[_Made] = field(default_factory=list)
    last: dict[int, int] = field(default_factory=dict)
    backward: set[int] = field(default_factory=set)  # read by a transpose (backward-pass) step
    forward: set[int] = field(default_factory=set)  # made or read by a forward (jvp) step
    first_reader: dict[int, Instruction] = field(default_factory=dict)
    in_place: list[tuple[Instruction, int]] = field(default_factory=list)
    tables: dict[int, Value] = field(default_factory=dict)  # a tuple table -> what it points to
    root: Value = None


class _Walk:
    """Live ranges of one computation's buffers, with what the computations it runs hold."""

    def __init__(self, schedule: Schedule, measure: Measure, *, exact: bool) -> None:
        self.schedule, self.measure, self.exact = schedule, measure, exact
        self.counter = 0

    def ranges(self, computation: str) -> tuple[list[Buffer], tuple[tuple[Buffer, ...], ...]]:
        """The computation's buffers, and per step the buffers live inside what it runs."""
        steps = self.schedule.computations.get(computation, ())
        reads = _Reads()
        nested = []
        for step, inst in enumerate(steps):
            self._read_operands(reads, step, inst)
            nested.append(self._nested_peak(inst) if inst.opcode in _NESTED else ())
            self._define_result(reads, step, inst, entry=computation == self.schedule.entry)
        for table, pointed in reads.tables.items():  # a table lives while its parts are read
            uses = [reads.last.get(b, 0) for b in _flat(pointed)]
            reads.last[table] = max([reads.last.get(table, 0), *uses])
        shares: dict[int, int] = {}
        if not self.exact:
            for inst, step in reads.in_place:  # once every last use is known
                _share(inst, step, reads, shares)
        buffers = _buffers(
            reads, shares, steps, computation, entry=computation == self.schedule.entry
        )
        return buffers, tuple(nested)

    def _read_operands(self, reads: _Reads, step: int, inst: Instruction) -> None:
        for operand in inst.operands:
            for buffer in _flat(reads.values.get(operand)):
                reads.last[buffer] = step
                if inst.op_name:
                    reads.first_reader.setdefault(buffer, inst)
                if "transpose(" in inst.op_name:
                    reads.backward.add(buffer)
                elif "jvp(" in inst.op_name:
                    reads.forward.add(buffer)

    def _define_result(self, reads: _Reads, step: int, inst: Instruction, *, entry: bool) -> None:
        values = reads.values
        if inst.opcode == "parameter":
            values[inst.name] = self._define(reads, inst, "argument" if entry else "parameter")
        elif inst.opcode == "get-tuple-element":
            whole = values.get(inst.operands[0]) if inst.operands else None
            part = (
                whole[inst.index] if isinstance(whole, tuple) and inst.index is not None else whole
            )
            values[inst.name] = part if isinstance(whole, tuple) else whole
        elif inst.opcode == "tuple":
            values[inst.name] = tuple(values.get(o) for o in inst.operands)
            if self.exact:
                self._table(reads, inst, (), values[inst.name], "temporary")
        elif inst.opcode in _RENAMES:
            values[inst.name] = values.get(inst.operands[0]) if inst.operands else None
        else:
            values[inst.name] = self._define(reads, inst, "temporary")
            if _in_place(inst):
                reads.in_place.append((inst, step))
        if inst.root:
            reads.root = values[inst.name]

    def _define(self, reads: _Reads, inst: Instruction, kind: str) -> Value:
        """New buffers for each array of ``inst``'s result, nested as its shape is (and, in
        exact mode, one for each tuple's table of pointers)."""

        def build(shape: object, index: tuple[int, ...]) -> Value:
            if isinstance(shape, ArrayShape):
                return self._new(reads, inst, shape, kind, index)
            if isinstance(shape, tuple):
                parts = tuple(build(part, (*index, at)) for at, part in enumerate(shape))
                if self.exact:
                    self._table(reads, inst, index, parts, kind)
                return parts
            return None

        return build(inst.shape, ())

    def _table(
        self, reads: _Reads, inst: Instruction, index: tuple[int, ...], parts: Value, kind: str
    ) -> None:
        """The table of pointers XLA keeps for a tuple: eight bytes per element."""
        count = len(parts) if isinstance(parts, tuple) else 0
        kind = TABLE if kind == "temporary" else kind
        table = self._new(reads, inst, ArrayShape("u64", (count,)), kind, index)
        reads.tables[table] = parts

    def _new(
        self, reads: _Reads, inst: Instruction, array: ArrayShape, kind: str, index: tuple[int, ...]
    ) -> int:
        self.counter += 1
        reads.made.append(_Made(self.counter, inst, array, kind, index))
        return self.counter

    def _nested_peak(self, inst: Instruction) -> tuple[Buffer, ...]:
        """The temporaries live at the fullest step of the computations ``inst`` runs."""
        # A conditional's or call's result is its branch's result, stored once: the caller
        # counts it.
        own_result = ("parameter", "output") if inst.opcode in ("conditional", "call") else ()
        best: tuple[Buffer, ...] = ()
        most = (0, 0)
        for name in inst.called:
            buffers, inner = self.ranges(name)
            temps = [b for b in buffers if b.kind not in ("parameter", *own_result)]
            for step in range(len(inner)):
                live = tuple(b for b in temps if b.defined <= step <= b.last_use) + inner[step]
                fuller = (self.measure(live), summed(live))
                if fuller > most:
                    best, most = live, fuller
        return tuple(replace(b, kind="in a loop") for b in best)


def _buffers(
    reads: _Reads,
    shares: dict[int, int],
    steps: tuple[Instruction, ...],
    computation: str,
    *,
    entry: bool,
) -> list[Buffer]:
    """Every buffer ``reads`` made, with its kind and live range; one whose storage is an
    output's (the caller's, inside a loop) is left to be counted there."""
    step_of = {inst.name: step for step, inst in enumerate(steps)}
    outputs = set(_flat(reads.root))  # inside a loop or call: the state its caller holds
    stored_in_output, in_caller = _stored_in_outputs(reads, shares, outputs)
    defined_at = {m.id: step_of[m.instruction.name] for m in reads.made}
    handed_over = {old: defined_at[new] for new, old in shares.items()}
    end = max(len(steps) - 1, 0)
    buffers = []
    for buffer_id, inst, array, kind, index in reads.made:
        defined = step_of[inst.name]
        if (entry and buffer_id in stored_in_output) or buffer_id in in_caller:
            continue
        kind = _kind(reads, buffer_id, inst, kind, outputs)
        last_use = max(reads.last.get(buffer_id, defined), defined)
        if buffer_id in handed_over:
            last_use = max(handed_over[buffer_id] - 1, defined)
        if kind in _WHOLE:
            last_use = end
        reader = reads.first_reader.get(buffer_id)
        buffers.append(
            Buffer(buffer_id, inst, array, defined, last_use, kind, reader, computation, index)
        )
    return buffers


def _kind(reads: _Reads, buffer_id: int, inst: Instruction, made_as: str, outputs: set[int]) -> str:
    """``output`` for what the computation returns (its root tuple's table too), ``residual``
    for a temporary the forward pass makes and the backward pass reads, else as made."""
    if (
        buffer_id in outputs or (inst.root and buffer_id in reads.tables)
    ) and made_as != "argument":
        return "output"
    made_forward = "jvp(" in inst.op_name and "transpose(" not in inst.op_name
    backward = buffer_id in reads.backward
    if made_as == "temporary" and backward and (made_forward or buffer_id in reads.forward):
        return "residual"
    return made_as


def _stored_in_outputs(
    reads: _Reads, shares: dict[int, int], outputs: set[int]
) -> tuple[set[int], set[int]]:
    """Buffers an output is written over, and (inside a loop or call) the chains that end in
    a parameter: results written over the caller's state."""
    stored_in_output: set[int] = set()
    in_caller: set[int] = set()
    kinds = {m.id: m.kind for m in reads.made}
    for out in outputs:
        chain, new = [out], out
        while new in shares:
            new = shares[new]
            chain.append(new)
        stored_in_output.update(chain[1:])
        if kinds.get(chain[-1]) == "parameter":
            in_caller.update(chain)
    return stored_in_output, in_caller


def _in_place(inst: Instruction) -> bool:
    return inst.opcode in _IN_PLACE or (
        inst.opcode == "fusion" and inst.fusion_kind in ("kLoop", "kInput")
    )


def _share(inst: Instruction, step: int, reads: _Reads, shares: dict[int, int]) -> None:
    """Write ``inst``'s one new buffer into an operand buffer of its size that dies here."""
    new = reads.values.get(inst.name)
    if not isinstance(new, int):
        return
    found = {m.id: (m.array, m.kind) for m in reads.made}
    taken = set(shares.values())
    size = found[new][0].nbytes
    for operand in inst.operands:
        old = reads.values.get(operand)
        if not isinstance(old, int) or old in taken or reads.last.get(old) != step:
            continue
        array, kind = found.get(old, (None, ""))
        if array is not None and kind in ("temporary", "parameter") and array.nbytes == size:
            shares[new] = old
            return


def _flat(value: Value) -> list[int]:
    if value is None:
        return []
    if isinstance(value, int):
        return [value]
    return [b for part in value for b in _flat(part)]
