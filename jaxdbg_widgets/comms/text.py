"""The terminal communication map: summary, one row per source line, axis totals, warnings."""

from __future__ import annotations

from typing import Any

from jaxdbg_widgets._rich_text import rich_string
from jaxdbg_widgets.comms.model import CommunicationModel
from jaxdbg_widgets.comms.view import collective_rows, comms_view, mesh_text

LINE_ROWS = 40


def text_renderable(comms: CommunicationModel) -> Any:
    """A ``rich`` renderable of the map."""
    import rich.console
    import rich.table
    import rich.text

    view = comms_view(comms)
    rows = collective_rows(view)
    parts: list[Any] = [rich.text.Text(view["head"], "bold")]
    parts.extend(rich.text.Text(line) for line in view["summary"])
    if view["lines"]:
        table = rich.table.Table(box=None, padding=(0, 1), show_header=True)
        for name in ("line", "function", "collectives", "sent/device/step", "axes"):
            table.add_column(name, no_wrap=True)
        for line in sorted(view["lines"], key=lambda item: -item["sent"])[:LINE_ROWS]:
            kinds: dict[str, int] = {}
            for i in line["collectives"]:
                kinds[rows[i]["kind"]] = kinds.get(rows[i]["kind"], 0) + 1
            axes = " ".join(sorted({rows[i]["axes"] for i in line["collectives"]}))
            table.add_row(
                line["label"],
                line["function"],
                ", ".join(f"{n}× {k}" for k, n in kinds.items()),
                line["human"],
                axes,
            )
        parts.append(table)
    if view["mesh"]:
        parts.append(rich.text.Text(mesh_text(view["mesh"])))
    if view["axis_totals"]:
        parts.append(
            rich.text.Text(
                "per device per step by axes: "
                + ", ".join(f"{label} {human}" for label, _, human in view["axis_totals"])
            )
        )
    for path, now, want in view["mismatches"]:
        parts.append(
            rich.text.Text(f"{path}: now {now}, the program expects {want}: copied every call")
        )
    for text, where in view["remat"]:
        parts.append(rich.text.Text(f"remat warning ({where or 'no line named'}): {text[:300]}"))
    if view["unread"]:
        parts.append(rich.text.Text(f"unread: {len(view['unread'])} instruction(s) not counted"))
        parts.extend(
            rich.text.Text(f"  {name} ({opcode}): {reason}")
            for name, opcode, reason in view["unread"][:10]
        )
    if view["memory"]:
        parts.append(
            rich.text.Text(
                "XLA memory per device: "
                + ", ".join(f"{k} {v}" for k, v in view["memory"]["rows"])
                + f"; peak estimate {view['memory']['peak']}"
            )
        )
    parts.extend(rich.text.Text(note, "dim") for note in view["notes"])
    return rich.console.Group(*parts)


def render_text(comms: CommunicationModel, *, use_color: bool = False) -> str:
    """The map as a string; with ``use_color`` it carries ANSI styles."""
    return rich_string(text_renderable(comms), use_color=use_color)
