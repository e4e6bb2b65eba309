"""The terminal memory map: ``rich`` text with a coloured device grid and the largest leaves."""

from __future__ import annotations

from typing import Any

from jaxdbg_widgets._rich_text import rich_string
from jaxdbg_widgets.memory.model import MemoryLayout
from jaxdbg_widgets.memory.view import leaf_rows, memory_view, process_line

LEAF_ROWS = 20
GRID_LIMIT = 256


def text_renderable(memory: MemoryLayout, *, use_color: bool = True) -> Any:
    """A ``rich`` renderable: header, device grid (up to 256 devices), program, largest leaves."""
    import rich.console
    import rich.text

    view = memory_view(memory)
    parts: list[Any] = [
        rich.text.Text(f"memory map · {view['source']} · " + " · ".join(view["summary"]), "bold")
    ]
    if view["devices"] and len(view["devices"]) <= GRID_LIMIT:
        parts.extend(_grid(view, use_color))
    per_process = process_line(view)
    if per_process is not None:
        parts.append(rich.text.Text(per_process))
    parts.append(rich.text.Text(view["limits"]))
    if view["program"] is not None:
        parts.append(rich.text.Text("XLA memory analysis, per device", "bold"))
        parts.append(_program(view["program"]))
        parts.extend(rich.text.Text(note, "dim") for note in view["program"]["notes"])
    parts.append(_leaves(view))
    parts.extend(rich.text.Text(line) for line in view["notes"])
    return rich.console.Group(*parts)


def render_text(memory: MemoryLayout, *, use_color: bool = False) -> str:
    """The map as a string; with ``use_color`` it carries 24-bit ANSI colour codes."""
    return rich_string(text_renderable(memory, use_color=use_color), use_color=use_color)


def _grid(view: dict[str, Any], use_color: bool) -> list[Any]:
    """The grid's title as a line of its own (a table title would wrap to the table's width),
    then the device grid."""
    import rich.table
    import rich.text

    grid, devices = view["grid"], view["devices"]
    title = grid["title"] + (f" · {grid['col_label']} →" if grid["col_label"] else "")
    table = rich.table.Table(show_header=False, box=None, padding=(0, 1))
    at = {(r, c): devices[i] for r, c, i in grid["cells"]}
    for _ in range(grid["cols"]):
        table.add_column(justify="center", no_wrap=True)
    for r in range(grid["rows"]):
        row = []
        for c in range(grid["cols"]):
            device = at.get((r, c))
            row.append(_device_cell(device, use_color, len(devices)) if device else "")
        table.add_row(*row)
    return [rich.text.Text(title), table] if title else [table]


def _device_cell(device: dict[str, Any], use_color: bool, count: int) -> Any:
    import rich.text

    label = f"{device['id']}" if count > 16 else f"{device['id']}: {device['human']}"
    style = f"{device['text']} on {device['color']}" if use_color else ""
    return rich.text.Text(label, style=style)


def _program(program: dict[str, Any]) -> Any:
    import rich.table

    table = rich.table.Table(show_header=False)
    table.add_column()
    table.add_column(justify="right")
    for label, _, human in program["rows"]:
        table.add_row(label, human)
    table.add_row("peak estimate", program["peak"][1], style="bold")
    return table


def _leaves(view: dict[str, Any]) -> Any:
    import rich.table

    from jaxdbg_widgets.memory.units import human_bytes

    leaves = sorted(
        leaf_rows(view), key=lambda leaf: (-leaf["per_device"], -leaf["total"], leaf["path"])
    )
    shown = leaves[:LEAF_ROWS]
    caption = (
        f"the {len(shown)} largest of {len(leaves):,} leaves" if len(leaves) > len(shown) else None
    )
    table = rich.table.Table(caption=caption)
    numbers = ("copies", "per device", "on all devices")
    for name in ("path", "shape", "dtype", "spec", "shard", *numbers):
        # paths and specs wrap rather than lose their ends: mlp/up and mlp/down stay apart
        table.add_column(
            name,
            justify="right" if name in numbers else "left",
            overflow="fold",
            no_wrap=name in numbers,
        )
    for leaf in shown:
        table.add_row(
            leaf["path"],
            leaf["shape"],
            leaf["dtype"],
            leaf["spec"],
            leaf["shard_shape"],
            f"{leaf['replication']}" + (" !" if leaf["flagged"] else ""),
            human_bytes(leaf["per_device"]),
            human_bytes(leaf["total"]),
            style="bold" if leaf["flagged"] else None,
        )
    return table
