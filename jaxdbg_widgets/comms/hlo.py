"""The reader of compiled HLO text: every collective, the source tables, and the loops around them.

Reads what ``jax.jit(f).lower(...).compile().as_text()`` prints: the module header, the
``FileNames``/``FunctionNames``/``FileLocations``/``StackFrames`` tables, and each
computation's instructions. Collectives are ``all-reduce``, ``all-gather``,
``reduce-scatter``, ``all-to-all`` and ``collective-permute`` with their ``-start`` forms
(``-done`` only completes one); the same operation wrapped by ``async-start`` is read in its
wrapped computation. A collective whose shape, groups or pairs cannot be read is kept as
:class:`Unread` with the reason, never guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from jaxdbg_widgets.comms.groups import UnreadGroups, groups_at, pairs_at, parse_groups, parse_pairs
from jaxdbg_widgets.comms.hlo_syntax import (
    COMPUTATION,
    called_computations,
    closing_paren,
    file_name,
    source_metadata,
    unescape,
)
from jaxdbg_widgets.comms.shapes import ArrayShape, UnreadShape, flat_arrays, parse_shape, split_top

KINDS = ("all-reduce", "all-gather", "reduce-scatter", "all-to-all", "collective-permute")
_START = {f"{kind}-start": kind for kind in KINDS}
# Communication this reader counts as unread: sizes known only at run time, or point to point.
_KNOWN_OTHER = ("ragged-all-to-all", "collective-broadcast", "send", "recv")
_DONE = tuple(f"{kind}-done" for kind in KINDS)

_HEADER = re.compile(r"^HloModule\s+([^\s,]+)(.*)$")
_INSTRUCTION = re.compile(r"^\s*(?:ROOT\s+)?%?([^\s=]+)\s+=\s+(\S+)")
_TABLE_STRING = re.compile(r'^\s*(\d+)\s+"((?:[^"\\]|\\.)*)"\s*$')
_TABLE_FIELDS = re.compile(r"^\s*(\d+)\s+\{(.*)\}\s*$")
_FIELD = re.compile(r"(\w+)=(-?\d+)")
_BODY = re.compile(r"\bbody=%?([\w.\-]+)")
_CONDITION = re.compile(r"\bcondition=%?([\w.\-]+)")
_TRIP = re.compile(r'"known_trip_count"\s*:\s*\{\s*"n"\s*:\s*"?(\d+)"?')
_DIMENSIONS = re.compile(r"dimensions=\{(\d+)")
_TABLES = ("FileNames", "FunctionNames", "FileLocations", "StackFrames")


@dataclass(frozen=True)
class Frame:
    """One ``StackFrames`` entry resolved through the other tables; ``parent`` is a frame id."""

    file: str
    function: str
    line: int
    column: int
    parent: int | None


@dataclass(frozen=True)
class Loop:
    """A ``while`` around a computation: its instruction name and XLA's trip count, if written."""

    name: str
    trip_count: int | None


@dataclass(frozen=True)
class HloCollective:
    """One collective as written: per-device result and operand buffers, groups or pairs."""

    name: str
    opcode: str
    kind: str
    computation: str
    result: tuple[ArrayShape, ...]
    operands: tuple[ArrayShape | None, ...]
    groups: np.ndarray = field(repr=False, compare=False)
    groups_text: str
    dimension: int | None
    op_name: str
    stack_frame_id: int | None
    source_file: str | None
    source_line: int | None

    @property
    def asynchronous(self) -> bool:
        return self.opcode != self.kind

    @property
    def result_bytes(self) -> int:
        return sum(a.nbytes for a in self.result)


@dataclass(frozen=True)
class Unread:
    """An instruction the reader recognised as communication but could not read."""

    name: str
    opcode: str
    computation: str
    reason: str
    text: str


@dataclass(frozen=True)
class HloModuleText:
    """What one compiled module's text says about its communication."""

    name: str
    partitions: int
    replicas: int
    instructions: int
    collectives: tuple[HloCollective, ...]
    unread: tuple[Unread, ...]
    frames: dict[int, Frame]
    has_frame_tables: bool
    loops: dict[str, tuple[Loop, ...]]

    def loops_around(self, computation: str) -> tuple[Loop, ...]:
        """The ``while`` loops (outermost first) whose body runs ``computation``."""
        return self.loops.get(computation, ())


class NotAnHloModule(ValueError):
    """Text that is not one whole HLO module: empty, something else, or cut short."""


def read_hlo(text: str) -> HloModuleText:
    """Read a compiled module's text (``Compiled.as_text()``) into :class:`HloModuleText`.

    Raises :class:`NotAnHloModule` for text without a module header or an ``ENTRY``
    computation, or that ends inside a computation, so such text never reads as "no
    collectives".
    """
    return _Reader(text).read()


class _Reader:
    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.name, self.partitions, self.replicas = "", 1, 1
        self.tables: dict[str, dict[int, object]] = {t: {} for t in _TABLES}
        self.instructions = 0
        self.raw: list[
            tuple[str, str, str, dict[str, str]]
        ] = []  # (computation, name, line, shapes)
        self.calls: dict[str, list[tuple[str, Loop | None]]] = {}  # callee -> (caller, loop)
        self.entry = ""
        self.open: str | None = None  # the computation the text ended inside, if any
        self.header_seen = False
        self.group_cache: dict[tuple[str, int], np.ndarray | str] = {}

    def read(self) -> HloModuleText:
        self._scan()
        self._check_whole()
        collectives, unread = [], []
        for computation, name, line, shapes in self.raw:
            item = self._collective(computation, name, line, shapes)
            (collectives if isinstance(item, HloCollective) else unread).append(item)
        frames = self._frames()
        return HloModuleText(
            name=self.name,
            partitions=self.partitions,
            replicas=self.replicas,
            instructions=self.instructions,
            collectives=tuple(collectives),
            unread=tuple(unread),
            frames=frames,
            has_frame_tables=bool(self.tables["StackFrames"]),
            loops=self._loops(),
        )

    def _scan(self) -> None:
        table: str | None = None
        computation: str | None = None
        shapes: dict[str, str] = {}
        for line in self.lines:
            if computation is not None:  # the hot path: one instruction per line
                if line.startswith("}"):
                    computation = None
                else:
                    self._instruction(computation, line, shapes)
                continue
            stripped = line.strip()
            if not stripped:
                table = None
                continue
            if stripped in _TABLES:
                table = stripped
                continue
            if table is not None:
                self._table_row(table, stripped)
                continue
            header = _HEADER.match(stripped)
            if header:
                self.header_seen = True
                self.name = header.group(1)
                self.partitions = _header_int(header.group(2), "num_partitions")
                self.replicas = _header_int(header.group(2), "replica_count")
                continue
            opened = COMPUTATION.match(stripped)
            if opened:
                computation, shapes = opened.group(2), {}
                if opened.group(1):
                    self.entry = computation
        self.open = computation

    def _check_whole(self) -> None:
        """Raise unless the text held a module header and its ENTRY computation, closed."""
        if not self.header_seen:
            first = next((line.strip() for line in self.lines if line.strip()), "")
            seen = f"it starts with {first[:60]!r}" if first else "it is empty"
            if first.startswith("module @"):
                seen = "it is StableHLO (lowered.as_text()), not a compiled module"
            raise NotAnHloModule(
                "not HLO module text: no 'HloModule <name>' line, and "
                f"{seen}; pass the text of compiled.as_text()"
            )
        if self.open is not None:
            raise NotAnHloModule(
                f"HLO module {self.name!r} ends inside computation {self.open!r}: "
                "the text is cut short"
            )
        if not self.entry:
            raise NotAnHloModule(
                f"HLO module {self.name!r} has no ENTRY computation: the text is cut short "
                "or is not a compiled module"
            )

    def _instruction(self, computation: str, line: str, shapes: dict[str, str]) -> None:
        match = _INSTRUCTION.match(line)
        if match is None:
            return
        self.instructions += 1
        name, shape = match.groups()
        shapes[name] = shape
        if _communication_opcode(line, match.end()) is not None:
            self.raw.append((computation, name, line, shapes))  # its to_apply adds no loop
        elif (
            "calls=" in line
            or "body=" in line
            or "to_apply=" in line
            or "_computation=" in line
            or "branch_computations=" in line
        ):
            self._calls(computation, line)

    def _calls(self, computation: str, line: str) -> None:
        loop = None
        body = _BODY.search(line)
        if body and " while(" in line:
            trip = _TRIP.search(line)
            name = _INSTRUCTION.match(line).group(1)  # type: ignore[union-attr]
            loop = Loop(name, int(trip.group(1)) if trip else None)
            condition = _CONDITION.search(line)
            for callee in (body.group(1), condition.group(1) if condition else None):
                if callee:
                    self.calls.setdefault(callee, []).append((computation, loop))
            return
        for callee in called_computations(line):
            self.calls.setdefault(callee, []).append((computation, None))

    def _table_row(self, table: str, row: str) -> None:
        if table in ("FileNames", "FunctionNames"):
            match = _TABLE_STRING.match(row)
            if match:
                read = file_name if table == "FileNames" else unescape
                self.tables[table][int(match.group(1))] = read(match.group(2))
            return
        match = _TABLE_FIELDS.match(row)
        if match:
            fields = {k: int(v) for k, v in _FIELD.findall(match.group(2))}
            self.tables[table][int(match.group(1))] = fields

    def _frames(self) -> dict[int, Frame]:
        files, functions = self.tables["FileNames"], self.tables["FunctionNames"]
        locations, stack = self.tables["FileLocations"], self.tables["StackFrames"]
        shifted = _parents_shifted(stack)
        frames = {}
        for frame_id, fields in stack.items():
            location = locations.get(fields.get("file_location_id", -1))  # type: ignore[union-attr]
            if not isinstance(location, dict):
                continue
            parent = fields.get("parent_frame_id")  # type: ignore[union-attr]
            if parent is not None and shifted:
                parent -= 1
            frames[frame_id] = Frame(
                file=str(files.get(location.get("file_name_id", -1), "")),
                function=str(functions.get(location.get("function_name_id", -1), "")),
                line=int(location.get("line", 0)),
                column=int(location.get("column", 0)),
                parent=parent if parent and parent != frame_id and parent in stack else None,
            )
        return frames

    def _loops(self) -> dict[str, tuple[Loop, ...]]:
        """For each called computation, the loops around it on its first call path to ENTRY."""
        found: dict[str, tuple[Loop, ...]] = {}

        def around(computation: str, seen: frozenset[str]) -> tuple[Loop, ...]:
            if computation in found:
                return found[computation]
            callers = self.calls.get(computation)
            if not callers or computation == self.entry or computation in seen:
                return ()
            caller, loop = callers[0]
            outer = around(caller, seen | {computation})
            result = outer + ((loop,) if loop is not None else ())
            found[computation] = result
            return result

        for computation in self.calls:
            around(computation, frozenset())
        return {k: v for k, v in found.items() if v}

    def _collective(
        self, computation: str, name: str, line: str, shapes: dict[str, str]
    ) -> HloCollective | Unread:
        match = _INSTRUCTION.match(line)
        assert match is not None
        opcode, args, rest = _opcode_args(line, match.end())
        text = line.strip()[:240]
        kind = _START.get(opcode, opcode)
        if kind not in KINDS:
            return Unread(name, opcode, computation, "not a collective this reader sizes", text)
        try:
            shape_text = line[match.start(2) : line.index(" " + opcode + "(", match.start(2))]
            result = _result_buffers(opcode, parse_shape(shape_text))
            operands = tuple(_operand_shape(a, shapes) for a in split_top(args))
            if kind == "collective-permute":
                groups, groups_text = self._pairs(rest)
            else:
                groups, groups_text = self._groups(rest)
        except (UnreadShape, UnreadGroups, ValueError) as err:
            return Unread(name, opcode, computation, str(err), text)
        metadata = _attribute(rest, "metadata") or ""
        op_name, source_file, source_line, frame = source_metadata(metadata)
        at = rest.find(" dimensions={")
        dimension = _DIMENSIONS.match(rest, at + 1) if at >= 0 else None
        return HloCollective(
            name=name,
            opcode=opcode,
            kind=kind,
            computation=computation,
            result=result,
            operands=operands,
            groups=groups,
            groups_text=groups_text,
            dimension=int(dimension.group(1)) if dimension else None,
            op_name=unescape(op_name or ""),
            stack_frame_id=frame,
            source_file=None if source_file is None else file_name(source_file),
            source_line=source_line,
        )

    def _groups(self, rest: str) -> tuple[np.ndarray, str]:
        at = rest.find("replica_groups=")
        if at < 0:
            text = "{}"
        else:
            start = at + len("replica_groups=")
            text = groups_at(rest, start) or split_top(rest[start : start + 200])[0]
        key = (text, self.partitions * self.replicas)
        if key not in self.group_cache:
            try:
                self.group_cache[key] = parse_groups(text, key[1])
            except UnreadGroups as err:
                self.group_cache[key] = str(err)
        value = self.group_cache[key]
        if isinstance(value, str):
            raise UnreadGroups(value)
        return value, text

    def _pairs(self, rest: str) -> tuple[np.ndarray, str]:
        at = rest.find("source_target_pairs=")
        text = pairs_at(rest, at + len("source_target_pairs=")) if at >= 0 else None
        if text is None:
            raise UnreadGroups("collective-permute without readable source_target_pairs")
        return parse_pairs(text), text


def _communication_opcode(line: str, position: int) -> str | None:
    """The opcode when it is communication this reader knows of, else None (cheap test first)."""
    if (
        "all-" not in line
        and "collective-" not in line
        and "reduce-scatter" not in line
        and " send(" not in line
        and " recv(" not in line
    ):
        return None
    opcode = _opcode_args(line, position)[0]
    if opcode in _DONE:
        return None
    if opcode in KINDS or opcode in _START or opcode in _KNOWN_OTHER:
        return opcode
    return None


def _opcode_args(line: str, shape_end: int) -> tuple[str, str, str]:
    """``(opcode, operand text, attribute text)`` of one instruction line.

    ``shape_end`` is where the first token after ``=`` ends; a tuple shape continues to its
    closing parenthesis.
    """
    equals = line.index(" = ") + 3
    position = closing_paren(line, equals) + 1 if line.startswith("(", equals) else shape_end
    open_at = line.find("(", position)
    if open_at < 0:
        return "", "", ""
    opcode = line[position:open_at].strip()
    close = line.find(")", open_at)
    if close < 0 or "(" in line[open_at + 1 : close]:
        close = closing_paren(line, open_at)
    return opcode, line[open_at + 1 : close], line[close + 1 :]


def _result_buffers(opcode: str, shape: ArrayShape | tuple[object, ...]) -> tuple[ArrayShape, ...]:
    """The buffers a collective produces; a ``-start`` tuple also carries its operands."""
    if opcode == "all-gather-start" and isinstance(shape, tuple) and len(shape) == 2:
        return tuple(flat_arrays(shape[1]))  # type: ignore[arg-type]
    if opcode == "collective-permute-start" and isinstance(shape, tuple) and len(shape) >= 2:
        return tuple(flat_arrays(shape[1]))  # type: ignore[arg-type]
    arrays = [a for a in flat_arrays(shape) if a.dtype != "token"]
    if not arrays:
        raise UnreadShape("no array in the result")
    return tuple(arrays)


def _operand_shape(argument: str, shapes: dict[str, str]) -> ArrayShape | None:
    """An operand's shape: written before its name (older text) or its defining instruction's."""
    words = argument.split()
    name = words[-1].lstrip("%") if words else ""
    written = " ".join(words[:-1])
    for text in (written, shapes.get(name, "")):
        if text and not text.startswith("("):
            try:
                shape = parse_shape(text)
            except UnreadShape:
                continue
            if isinstance(shape, ArrayShape):
                return shape
    return None


def _attribute(rest: str, key: str) -> str | None:
    """The value of the last ``key=...`` up to the next top-level comma."""
    at = rest.rfind(f" {key}=")
    if at < 0:
        return None
    parts = split_top(rest[at + len(key) + 2 :])
    return parts[0] if parts else None


def _header_int(text: str, key: str) -> int:
    match = re.search(rf"\b{key}=(\d+)", text)
    return int(match.group(1)) if match else 1


def _parents_shifted(stack: dict[int, object]) -> bool:
    """Whether parent ids are written one above the frame they name.

    Frames that list themselves as parent only make sense in that encoding (0 there means
    "no parent"), so their presence is the check.
    """
    return any(
        isinstance(fields, dict) and fields.get("parent_frame_id") == frame_id
        for frame_id, fields in stack.items()
    )
