"""The pure result of a search: where the first NaN or infinity appeared, and how it was found.

No renderer is imported here; the text, HTML and widget views read this model.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from jaxdbg_widgets._kernel import cell_files
from jaxdbg_widgets.nans.summary import ValueSummary


@dataclass(frozen=True)
class SourceLine:
    """One user frame of an equation: file, line, function and the line's text."""

    filename: str
    lineno: int
    function: str
    text: str

    @property
    def shown_lineno(self) -> int:
        """The line as the user counts it (see :func:`cell_files.cell_line`)."""
        return cell_files.cell_line(self.filename, self.lineno)

    def describe(self) -> str:
        """``file.py:12 in loss: return jnp.sum(...)``, or ``In[3]:12 ...`` for a cell's code."""
        where = cell_files.cell_name(self.filename) or self.filename
        return f"{where}:{self.shown_lineno} in {self.function}: {self.text.strip()}"


@dataclass(frozen=True)
class Shard:
    """One device of a ``shard_map`` whose outputs went non-finite at the origin."""

    position: int
    device_id: int
    coords: tuple[tuple[str, int], ...]

    def describe(self) -> str:
        """``device 3 (a=0, b=3)``."""
        where = ", ".join(f"{axis}={index}" for axis, index in self.coords)
        return f"device {self.device_id} ({where})"


@dataclass(frozen=True)
class Batch:
    """Under ``vmap``: the axis the (outermost) batch runs along in the origin's bad outputs
    and the batch elements whose values went bad. ``axis`` is ``None`` with ``elements``
    ``()`` for a value that does not vary along the batch (every element alike), and with
    ``elements`` ``None`` where the batch axis is not known; it is never guessed."""

    axis: int | None
    elements: tuple[int, ...] | None

    def describe(self) -> str:
        """``batch elements (vmap, axis 1): 3``, or why no element can be named."""
        if self.elements is None:
            return (
                "batch elements (vmap): not known (where this value's batch axis is was not seen)"
            )
        if self.axis is None:
            return "batch elements (vmap): all alike (this value does not vary along the batch)"
        return f"batch elements (vmap, axis {self.axis}): " + ", ".join(map(str, self.elements))

    def short(self) -> str:
        """``batch elements 3`` for an error's first line."""
        if self.elements is None:
            return "batch elements not known"
        if self.axis is None:
            return "all batch elements alike"
        return "batch elements " + ", ".join(map(str, self.elements))


@dataclass(frozen=True)
class Origin:
    """The first equation whose inputs were all finite and whose outputs were not."""

    primitive: str
    params: tuple[tuple[str, str], ...]
    frames: tuple[SourceLine, ...]
    direction: str
    path: tuple[str, ...]
    inputs: tuple[ValueSummary, ...]
    outputs: tuple[ValueSummary, ...]
    shards: tuple[Shard, ...] = ()
    shard_count: int = 0
    batch: Batch | None = None
    rule: str | None = None
    notes: tuple[str, ...] = ()
    forward_line: SourceLine | None = None
    """For a backward-pass equation, the forward line it differentiates (JAX gives a
    transposed equation the source of the forward equation it came from)."""
    values: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def batch_elements(self) -> tuple[int, ...] | None:
        """Under ``vmap``, the bad batch elements along their batch axis; ``None`` elsewhere and
        where they are not known or the value does not vary along the batch."""
        return (
            self.batch.elements if self.batch is not None and self.batch.axis is not None else None
        )

    @property
    def source(self) -> SourceLine | None:
        """The innermost user frame: the line that produced the equation."""
        return self.frames[0] if self.frames else None

    def equation_text(self) -> str:
        """``integer_pow[y=2]``: the primitive and its short parameters."""
        if not self.params:
            return self.primitive
        return f"{self.primitive}[" + ", ".join(f"{k}={v}" for k, v in self.params) + "]"


HEADINGS = {
    "nonfinite": "first non-finite value",
    "nan": "first NaN",
    "constant": "first non-finite value (from a constant)",
}
"""The heading of a report's origin, per the definition it answers (``NonfiniteReport.lead``)."""


@dataclass(frozen=True)
class NonfiniteReport:
    """What ``find_nonfinite`` found: the origin, or that everything was finite."""

    function: str
    equations_checked: int
    equations_total: int
    origin: Origin | None = None
    nonfinite_arguments: tuple[ValueSummary, ...] = ()
    skipped_callbacks: tuple[SourceLine, ...] = ()
    nan_origin: Origin | None = None
    """Where the first NaN appeared, when the first non-finite value was an infinity."""
    lead: str = "nonfinite"
    """What ``origin`` is: ``nonfinite``, the first NaN or Inf computed from finite inputs;
    ``nan``, where every infinity came from a constant (the ``-inf`` of a mask), the first NaN
    computed from inputs without NaN; ``constant``, where every bad value came from a
    constant, the first equation that held one."""

    dead: int = 0
    """Equations left out because their values reach no output (dead code): the search looks
    for the first bad value among those the program uses."""

    @property
    def heading(self) -> str:
        """What the origin is called in every view, after the definition it answers."""
        return HEADINGS[self.lead]

    @property
    def found(self) -> bool:
        """Whether a NaN or an infinity was found (in an argument or an equation)."""
        return self.origin is not None or bool(self.nonfinite_arguments)

    def __repr__(self) -> str:
        if self.origin is None:
            return f"NonfiniteReport({self.function}: finite, {self.equations_checked} equations)"
        where = self.origin.source.describe() if self.origin.source else "a line not known"
        return f"NonfiniteReport({self.function}: {self.origin.primitive} at {where})"
