"""The debugger widget's JSON, declared once: the ``view`` state the kernel sends and the
messages the browser sends back.

``js/schema/debugger.js`` is generated from these (``python -m tests.unit.schema_js``): the JSDoc
``@typedef``s ``js/debugger.js`` imports, so TypeScript's checker holds it to them. Keys a state may
lack live in a ``total=False`` class above the keys it always has (``NotRequired`` needs Python
3.11).
"""

from __future__ import annotations

from typing import Literal, TypedDict

from jaxdbg_widgets.pictures.schema import PictureView

__all__ = [
    "ArraySummary",
    "BatchMessage",
    "BatchPosition",
    "CellOutput",
    "CellResult",
    "CommandMessage",
    "Compare",
    "CompareGroup",
    "CompareMessage",
    "ComparePictureRow",
    "CompareRow",
    "CompareScale",
    "CompareTile",
    "DebuggerMessage",
    "DebuggerModel",
    "DebuggerView",
    "DeviceMessage",
    "DeviceRow",
    "FrameMessage",
    "FrameRow",
    "Header",
    "InternalMessage",
    "LocalRow",
    "OutputChunk",
    "RenderedMessage",
    "Shards",
    "Source",
    "Status",
    "TranscriptEntry",
]

Status = Literal["waiting", "continue", "continue_all", "quit", "interrupted", "typed prompt"]
"""Where a session or a shard stands: waiting, how it ended (a ``Resume`` value), interrupted,
or handed to the typed prompt because no view drew."""


class _ArrayFacts(TypedDict):
    shape: list[int] | None
    dtype: str


class ArrayStatistics(TypedDict, total=False):
    """Min, max, mean and std of an array's finite values, and its NaN and Inf counts."""

    min: float
    max: float
    mean: float
    std: float
    nan: int
    inf: int


class ArraySummary(_ArrayFacts, ArrayStatistics, total=False):
    """An array local reduced to statistics, so the state stays small whatever its size."""

    size: int
    preview: str
    error: str


class BatchPosition(TypedDict):
    """The selected ``vmap`` element: its index in the batch, the batch size, its element."""

    index: int
    size: int
    element: int | None


class Header(TypedDict):
    """The selected frame's place, the thread or device, the batch and what stopped there."""

    file: str
    line: int
    function: str
    thread: str
    batch: BatchPosition | None
    stop: str
    location: str


class FrameRow(TypedDict):
    """One frame of the stack, as the frame list shows it."""

    function: str
    file: str
    line: int
    internal: bool


class Source(TypedDict):
    """Highlighted lines around the current one; ``current`` indexes ``lines``."""

    first: int
    current: int | None
    lines: list[str]


class _LocalName(TypedDict):
    name: str
    type: str


class LocalRow(_LocalName, total=False):
    """One local: a summary (and a thumbnail PNG) for arrays, a short repr otherwise; ``more``
    counts the rest."""

    batched: bool
    summary: ArraySummary
    thumb: str
    repr: str
    more: int


class _Printed(TypedDict):
    command: str
    output: str
    error: bool


class TranscriptEntry(_Printed, total=False):
    """One command and what it printed; a ``p`` result that is an array has its picture."""

    picture: PictureView


class _DeviceFacts(TypedDict):
    label: str
    index: int
    state: Status


class DeviceRow(_DeviceFacts, total=False):
    """One shard in the device selector; ``element`` is its ``vmap`` element, if any."""

    element: int


class CompareRow(TypedDict):
    """One shard's value of the last compare."""

    value: str
    error: bool
    differs: bool


class CompareGroup(TypedDict):
    """Shards that gave one value: their indices as ranges (``shards 0–215, 217–255``)."""

    shards: str
    count: int
    value: str
    error: bool
    differs: bool


class CompareScale(TypedDict):
    """The one colour scale of a compare's pictures: its map, its ends and the line saying so
    (``one scale: min 0 … max 10``)."""

    cmap: str
    low: str
    high: str
    stops: list[str]
    text: str


class CompareTile(TypedDict):
    """One picture of a compare: a shard, or a group of shards with equal values (``count``),
    the shard a click selects (``position`` in ``devices``) and what a screen reader says."""

    position: int
    label: str
    count: int
    png: str
    summary: str
    differs: bool


class ComparePictureRow(TypedDict):
    """A compare of arrays of one shape as a row of pictures on one scale; ``more`` says how
    many groups were left out past the cap."""

    scale: CompareScale
    tiles: list[CompareTile]
    more: str


class Compare(TypedDict):
    """The last ``compare``: the expression, one row per gathered shard, the groups of equal
    values (largest first), the verdict line, and the pictures when the values are arrays."""

    expression: str
    rows: list[CompareRow]
    differing: int
    groups: list[CompareGroup]
    verdict: str
    pictures: ComparePictureRow | None


class Shards(TypedDict):
    """A shard session's device selector and last compare."""

    expected: int | None
    arrived: int
    waiting: int
    selected: int
    devices: list[DeviceRow]
    compare: Compare | None


class _SessionView(TypedDict):
    status: Status
    header: Header
    frames: list[FrameRow]
    selected: int
    show_internal: bool
    internal_count: int
    source: Source | None
    locals: list[LocalRow]
    transcript: list[TranscriptEntry]
    history: list[str]


class OutputChunk(TypedDict):
    """Text the cell sent after its debugger ended: printed, displayed, or an error line."""

    kind: Literal["stdout", "stderr", "display", "error"]
    text: str


class CellResult(TypedDict):
    """The cell's result as ``Out[count]`` shows it."""

    count: int | None
    text: str


class CellOutput(TypedDict):
    """The rest of the cell's output after the session ended, for a page reloaded while it
    waited; ``omitted`` counts the earliest characters left out."""

    chunks: list[OutputChunk]
    omitted: int
    result: CellResult | None


class DebuggerView(_SessionView, total=False):
    """Everything the widget draws; ``shards`` only in a shard session, ``cell_output`` only in
    an ended one whose page was reloaded while it waited."""

    shards: Shards
    cell_output: CellOutput


class DebuggerModel(TypedDict):
    """The widget's synced state."""

    view: DebuggerView


class CommandMessage(TypedDict):
    """Run a jdb command line."""

    type: Literal["command"]
    line: str


class FrameMessage(TypedDict):
    """Select a frame of the stack."""

    type: Literal["frame"]
    index: int


class BatchMessage(TypedDict):
    """Select a ``vmap`` element."""

    type: Literal["batch"]
    index: int


class InternalMessage(TypedDict):
    """Show or hide internal frames."""

    type: Literal["internal"]
    show: bool


class DeviceMessage(TypedDict):
    """Select a shard (its position in ``shards.devices``)."""

    type: Literal["device"]
    index: int


class CompareMessage(TypedDict):
    """Evaluate an expression on every shard."""

    type: Literal["compare"]
    expression: str


class RenderedMessage(TypedDict):
    """The view has drawn: the breakpoint need not offer the typed prompt."""

    type: Literal["rendered"]


DebuggerMessage = (
    CommandMessage
    | FrameMessage
    | BatchMessage
    | InternalMessage
    | DeviceMessage
    | CompareMessage
    | RenderedMessage
)
"""Any message the widget sends (``model.send``)."""
