"""The report as plain text: what a terminal prints and what ``str(report)`` gives."""

from __future__ import annotations

from jaxdbg_widgets.nans.report import NonfiniteReport, Origin

SHARDS_LISTED = 16
"""Shards named one by one; more are counted."""


def origin_lines(origin: Origin, heading: str) -> list[str]:
    """The facts of one origin, one per line, under ``heading``."""
    lines = [f"{heading}: {origin.equation_text()}"]
    source = origin.source
    lines.append(f"  line: {source.describe()}" if source else "  line: (no user frame)")
    direction = origin.direction
    if origin.forward_line is not None:
        direction += f" (differentiates line {origin.forward_line.shown_lineno})"
    lines.append(f"  pass: {direction}")
    if origin.rule:
        lines.append(f"  rule: {origin.rule}")
    if origin.path:
        lines.append("  where: " + " > ".join(origin.path))
    if origin.shard_count:
        named = ", ".join(s.describe() for s in origin.shards[:SHARDS_LISTED])
        more = (
            f" and {len(origin.shards) - SHARDS_LISTED} more"
            if len(origin.shards) > SHARDS_LISTED
            else ""
        )
        lines.append(
            f"  shards: {len(origin.shards)} of {origin.shard_count} went non-finite: {named}{more}"
        )
    if origin.batch is not None:
        lines.append(f"  {origin.batch.describe()}")
    lines.extend(f"  input  {s.describe()}" for s in origin.inputs)
    lines.extend(f"  output {s.describe()}" for s in origin.outputs)
    lines.extend(f"  note: {note}" for note in origin.notes)
    for frame in origin.frames[1:]:
        lines.append(f"  called from {frame.describe()}")
    return lines


def render_text(report: NonfiniteReport) -> str:
    """Every fact of the report as lines of plain text."""
    lines = [f"find_nonfinite({report.function})"]
    if report.nonfinite_arguments:
        lines.append("an argument is already non-finite:")
        lines.extend(f"  {s.describe()}" for s in report.nonfinite_arguments)
    elif report.origin is None:
        lines.append(
            f"all finite: {report.equations_checked} equations checked "
            f"({report.equations_total} in the program)"
        )
    else:
        lines.extend(origin_lines(report.origin, report.heading))
        if report.nan_origin is not None:
            lines.extend(origin_lines(report.nan_origin, "first NaN"))
        if report.equations_total:
            lines.append(f"{report.equations_checked} equations checked before it")
    if report.dead and not report.found:
        lines.append(
            f"{report.dead} equation(s) whose values reach no output left out (dead code is "
            "not searched)"
        )
    if report.skipped_callbacks:
        lines.append(
            f"{len(report.skipped_callbacks)} debug print/callback call(s) skipped, not run:"
        )
        lines.extend(f"  {line.describe()}" for line in report.skipped_callbacks)
    return "\n".join(lines)
