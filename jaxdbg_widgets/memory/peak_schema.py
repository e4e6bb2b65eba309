"""The peak report's JSON, declared once: the ``view`` model its page view draws.

``js/schema/peak.js`` is generated from these (``python -m tests.unit.schema_js``): the JSDoc
``@typedef``s ``js/peak.js`` imports, so TypeScript's checker holds it to them.
"""

from __future__ import annotations

from typing import TypedDict

__all__ = ["PeakBufferRow", "PeakFit", "PeakLine", "PeakModel", "PeakVariant", "PeakView"]


class PeakBufferRow(TypedDict):
    """One array live at the peak: its bytes (and as people read them), kind (``argument``,
    ``output``, ``temporary``, ``residual``, ``in a loop``, ``tuple table``), ``f32[8,512]`` and
    the line that made it."""

    bytes: int
    size: str
    kind: str
    shape: str
    line: str


class PeakLine(TypedDict):
    """One source line: its label, bytes at the peak, share of the peak, code (empty where its
    file cannot be read), its buffers (indices into the variant's ``buffers``, largest first)
    and how many more it holds than are carried."""

    label: str
    bytes: int
    size: str
    share: float
    code: str
    buffers: list[int]
    more: int


class PeakFit(TypedDict):
    """Whether the peak fits ``device_memory``: the capacity and one line that says by how
    much."""

    capacity: int
    fits: bool
    text: str


class PeakVariant(TypedDict):
    """One compiled variant: its peak (and XLA's, ``null`` where XLA gives none), FLOPs, fit,
    lines largest first, buffers live at the peak largest first (``top`` of them are the
    report's list), and the timeline as ``[step, bytes in use]`` points, the fullest step of each
    stretch where the program has more steps than points."""

    name: str
    peak: int
    peak_text: str
    xla_peak: int | None
    xla_text: str
    agreement: str
    agrees: bool | None
    flops: float | None
    flops_text: str
    devices: list[int]
    fit: PeakFit | None
    lines: list[PeakLine]
    more_lines: int
    buffers: list[PeakBufferRow]
    top: int
    more_buffers: int
    timeline: list[tuple[int, int]]
    steps: int
    peak_step: int
    notes: list[str]


class PeakView(TypedDict):
    """Every variant, in the order given."""

    variants: list[PeakVariant]


class PeakModel(TypedDict):
    """The page view's state: the report, the shown variant and its open line (-1: none)."""

    view: PeakView
    variant: int
    line: int
