"""The communication view model: a JSON-ready map that the HTML and the widget draw.

Repeated strings are sent once: kinds and axis labels are tables that rows point into, and a
collective is a short row. Devices carry a heat level (0..LEVELS-1) into one palette, so the
payload grows with collectives plus devices. Source text is sent for annotated lines and a
little context around them.
"""

from __future__ import annotations

import linecache
from typing import Any

import numpy as np

from jaxdbg_widgets._kernel import cell_files
from jaxdbg_widgets.comms.model import CommunicationModel
from jaxdbg_widgets.memory.grid import device_grid
from jaxdbg_widgets.memory.units import human_bytes
from jaxdbg_widgets.memory.view import heat_grid
from jaxdbg_widgets.sharding.colors import text_color

HEAT_MAP = "YlOrRd"
LEVELS = 24
CONTEXT = 2
SOURCE_LINE_LIMIT = 600


def comms_view(comms: CommunicationModel) -> dict[str, Any]:
    """Everything a front end needs: summary, lines with source, collectives, axes, heatmap."""
    kinds: dict[str, int] = {}
    axes: dict[str, int] = {}
    line_of = {i: n for n, group in enumerate(comms.lines) for i in group.collectives}
    rows = []
    for c in comms.collectives:
        rows.append(
            [
                kinds.setdefault(c.kind, len(kinds)),
                c.name,
                c.result,
                c.sent,
                axes.setdefault(_axes_text(c), len(axes)),
                c.group_size,
                c.executions if c.in_loop else 0,
                line_of[c.index],
            ]
        )
    count = len(rows)
    return {
        "head": (
            f"communication map · {comms.name} · {comms.partitions} devices · {count} "
            f"collective{'' if count == 1 else 's'} · {comms.instructions:,} HLO instructions"
        ),
        "name": comms.name,
        "partitions": comms.partitions,
        "instructions": comms.instructions,
        "summary": comms.summary(),
        "kinds": list(kinds),
        "axes": list(axes),
        "collectives": rows,
        "lines": [_line(comms, group) for group in comms.lines],
        "sources": _sources(comms),
        "axis_totals": [[label, b, human_bytes(b)] for label, b in comms.axis_totals],
        "heat": _heat(comms),
        "inputs": [[a.path, _shape(a.shape), a.dtype, a.spec] for a in comms.inputs],
        "outputs": [[a.path, _shape(a.shape), a.dtype, a.spec] for a in comms.outputs],
        "mismatches": [[m.path, m.current, m.expected] for m in comms.mismatches],
        "memory": _memory(comms),
        "remat": [[w.text, w.source.label if w.source else ""] for w in comms.remat],
        "unread": [[u.name, u.opcode, u.reason] for u in comms.unread],
        "mesh": _mesh(comms),
        "notes": list(comms.notes),
    }


def collective_rows(view: dict[str, Any]) -> list[dict[str, Any]]:
    """One dict per collective from a view (the widget's ``expand`` does the same in JS)."""
    out = []
    for kind, name, result, sent, axes, group, executions, line in view["collectives"]:
        out.append(
            {
                "kind": view["kinds"][kind],
                "name": name,
                "result": result,
                "sent": sent,
                "human": human_bytes(sent),
                "axes": view["axes"][axes],
                "group": group,
                "executions": executions,
                "line": line,
            }
        )
    return out


def _axes_text(c: Any) -> str:
    if not c.span.axes:
        return f"groups of {c.group_size}" if c.kind != "collective-permute" else "pairs"
    return c.span.label + ("" if c.span.whole else f" ({c.span.note})")


def _line(comms: CommunicationModel, group: Any) -> dict[str, Any]:
    source = group.source
    loops = sorted({c.executions or 0 for c in comms.on_line(group) if c.in_loop})
    return {
        "file": source.file,
        "line": source.shown_line,
        "function": source.function,
        "origin": source.origin,
        "label": source.label,
        "callers": [f"{_base(f)}:{cell_files.cell_line(f, n)} {fn}" for f, n, fn in source.callers],
        "sent": group.sent_per_step,
        "human": human_bytes(group.sent_per_step),
        "collectives": list(group.collectives),
        "loops": loops,
    }


def _sources(comms: CommunicationModel) -> list[dict[str, Any]]:
    """Each file's annotated lines with a little context: ``{file, lines: [[number, text]]}``."""
    wanted: dict[str, set[int]] = {}
    for group in comms.lines:
        if group.source.line is not None and group.source.file:
            wanted.setdefault(group.source.file, set()).add(group.source.line)
    files, budget = [], SOURCE_LINE_LIMIT
    for file in sorted(wanted):
        numbers: set[int] = set()
        for n in wanted[file]:
            numbers.update(range(max(1, n - CONTEXT), n + CONTEXT + 1))
        lines = []
        for n in sorted(numbers):
            text = linecache.getline(file, n)
            if text and budget > 0:
                lines.append([cell_files.cell_line(file, n), text.rstrip("\n")])
                budget -= 1
        files.append({"file": file, "name": _base(file), "lines": lines})
    return files


def _heat(comms: CommunicationModel) -> dict[str, Any]:
    if comms.mesh is not None and comms.mesh.mesh is None:
        grid = _named_grid(comms)
    else:
        grid = device_grid(list(comms.device_ids), comms.mesh.mesh if comms.mesh else None, [])
    index_of = {d: i for i, d in enumerate(comms.device_ids)}
    top = max(comms.device_sent, default=0)
    values = np.asarray(comms.device_sent, dtype=np.float64)
    levels = (
        np.zeros(len(values), dtype=np.int64)
        if not top
        else np.minimum((values / top * (LEVELS - 1)).round().astype(np.int64), LEVELS - 1)
    )
    palette = _palette()
    return {
        **heat_grid(grid, index_of),
        "devices": [
            [d, b, int(level)]
            for d, b, level in zip(comms.device_ids, comms.device_sent, levels, strict=True)
        ],
        "palette": palette,
        "text": [text_color(color) for color in palette],
        "ticks": [human_bytes(0), human_bytes(top / 2), human_bytes(top)],
    }


def _named_grid(comms: CommunicationModel) -> Any:
    """A mesh grid from axis names and sizes alone (saved text has no device objects)."""
    from jaxdbg_widgets.memory.grid import DeviceGrid

    mesh = comms.mesh
    assert mesh is not None
    cols = mesh.shape[-1]
    rows = len(mesh.device_ids) // cols
    cells = tuple((i // cols, i % cols, d) for i, d in enumerate(mesh.device_ids))
    row_axes = mesh.axis_names[:-1]
    row_label = row_axes[0] if len(row_axes) == 1 else "(" + ", ".join(row_axes) + ")"
    title = "mesh " + " ".join(f"{a}={n}" for a, n in zip(mesh.axis_names, mesh.shape, strict=True))
    return DeviceGrid(rows, cols, cells, row_label if row_axes else "", mesh.axis_names[-1], title)


def _palette() -> list[str]:
    import matplotlib as mpl

    lookup = mpl.colormaps[HEAT_MAP]
    rgb = np.asarray(lookup(np.linspace(0.0, 1.0, LEVELS)))[:, :3]
    channels = np.rint(np.clip(rgb, 0, 1) * 255).astype(int)
    return [f"#{r:02X}{g:02X}{b:02X}" for r, g, b in channels.tolist()]


def _memory(comms: CommunicationModel) -> dict[str, Any] | None:
    memory = comms.memory
    if memory is None:
        return None
    rows = [
        [label, human_bytes(value) if value is not None else "not reported"]
        for label, value in memory.sizes
    ]
    return {"rows": rows, "peak": human_bytes(memory.peak), "notes": list(memory.notes)}


def _mesh(comms: CommunicationModel) -> dict[str, Any] | None:
    mesh = comms.mesh
    if mesh is None:
        return None
    return {
        "axes": list(mesh.axis_names),
        "shape": list(mesh.shape),
        "types": list(mesh.axis_types),
    }


def mesh_text(mesh: dict[str, Any]) -> str:
    """``mesh data=2 fsdp=4 (Auto, Auto)``: the axes, their sizes and their types."""
    axes = " ".join(f"{a}={n}" for a, n in zip(mesh["axes"], mesh["shape"], strict=True))
    return f"mesh {axes}" + (f" ({', '.join(mesh['types'])})" if mesh["types"] else "")


def _shape(shape: tuple[int, ...]) -> str:
    return "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def _base(path: str) -> str:
    """``model.py``, or ``In[5]`` for a notebook cell's code."""
    return cell_files.short_name(path)
