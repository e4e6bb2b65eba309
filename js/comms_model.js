// Pure helpers of the communication widget: rows from the compact view, line annotations and
// keyboard steps between annotated lines. No DOM here, so `node --test` covers them.

/** One object per collective from the view's compact rows and its `kinds`/`axes` tables. */
export function expandCollectives(view) {
  return view.collectives.map(([kind, name, result, sent, axes, group, executions, line]) => ({
    kind: view.kinds[kind],
    name,
    result,
    sent,
    axes: view.axes[axes],
    group,
    executions,
    line,
  }));
}

/** `2× all-gather, 1× all-reduce · 12.0 MiB/step · 'fsdp'` for one line of the view. */
export function lineAnnotation(line, rows) {
  const counts = new Map();
  const axes = new Set();
  for (const index of line.collectives) {
    const row = rows[index];
    counts.set(row.kind, (counts.get(row.kind) || 0) + 1);
    axes.add(row.axes);
  }
  const kinds = [...counts].map(([kind, n]) => `${n}× ${kind}`).join(", ");
  const loops = line.loops.length
    ? ` · in a loop (×${line.loops.map((n) => (n ? n : "?")).join("/")})`
    : "";
  return `${kinds} · ${line.human}/step · ${[...axes].sort().join(" ")}${loops}`;
}

/** `file:line` -> position in `view.lines`, for lines with a known file and number. */
export function linePositions(view) {
  const found = new Map();
  view.lines.forEach((line, index) => {
    if (line.line !== null && line.file) found.set(`${line.file}:${line.line}`, index);
  });
  return found;
}

/** `1234567` as `1,234,567`, without `toLocaleString` (slow when called for thousands of cells). */
export function groupDigits(count) {
  return String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** The position reached from `current` in `order` by an arrow, Home or End key; null otherwise. */
export function stepLine(order, current, key) {
  if (!order.length) return null;
  const at = order.indexOf(current);
  if (key === "Home") return order[0];
  if (key === "End") return order[order.length - 1];
  if (key === "ArrowDown") return order[Math.min(at + 1, order.length - 1)];
  if (key === "ArrowUp") return order[Math.max(at - 1, 0)];
  return null;
}

// The bytes-sent heatmap of a large mesh is one canvas: cells of at most HEAT_MAX_CELL_PX (at
// least HEAT_MIN_CELL_PX) CSS pixels, HEAT_GAP_PX apart, sized to fit HEAT_WIDTH_PX.
export const HEAT_GAP_PX = 1;
export const HEAT_MIN_CELL_PX = 3;
export const HEAT_MAX_CELL_PX = 10;
export const HEAT_WIDTH_PX = 860;

/** `device 3: 1,024 bytes sent per step`, the tooltip of one `[id, bytes, level]` device. */
export function deviceTip([id, sent]) {
  return `device ${id}: ${groupDigits(sent)} bytes sent per step`;
}

/** The side of one heatmap cell in CSS pixels for a grid of `cols` columns. */
export function heatCellPx(cols, width = HEAT_WIDTH_PX) {
  const fit = Math.floor(width / Math.max(cols, 1)) - HEAT_GAP_PX;
  return Math.max(HEAT_MIN_CELL_PX, Math.min(HEAT_MAX_CELL_PX, fit));
}

/** The device position (into `heat.devices`) at each place of the grid, row-major; -1 where none. */
export function heatPlaces(heat) {
  const places = new Int32Array(heat.rows * heat.cols).fill(-1);
  for (const [row, col, position] of heat.cells) places[row * heat.cols + col] = position;
  return places;
}

/** The row-major grid place under the point `(x, y)` (CSS pixels from the canvas's corner), or -1. */
export function heatPlaceAt(heat, x, y, cell) {
  const step = cell + HEAT_GAP_PX;
  const col = Math.floor(x / step);
  const row = Math.floor(y / step);
  if (col < 0 || row < 0 || col >= heat.cols || row >= heat.rows) return -1;
  return row * heat.cols + col;
}

/** Grid places of each heat level, `[[level, [place, ...]], ...]`: one fill colour per batch. */
export function placesByLevel(heat, places) {
  const batches = new Map();
  places.forEach((position, place) => {
    if (position < 0) return;
    const level = heat.devices[position][2];
    if (!batches.has(level)) batches.set(level, []);
    batches.get(level).push(place);
  });
  return [...batches];
}
