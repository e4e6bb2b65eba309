// Pure helpers of the picture widget: cell size, which full-resolution cell the pointer is on,
// keyboard moves, the shard under a cell and its text, index and value text, and the strip's
// line points.

export const WIDTH = 900;
export const LONG_SIDE = 400;
export const MAX_CELL = 24;
export const STRIP_HEIGHT = 24;

/** Px per reduced cell, as jaxdbg_widgets/pictures/html.py's cell_pixels computes it. */
export function cellPixels(picture) {
  const panels = picture.panels;
  if (!panels.length) return 1;
  const { width, height } = panels[0];
  const across = Math.min(panels.length, 4);
  const room = Math.floor((WIDTH - 8 * (across - 1)) / across);
  const target = across === 1 ? LONG_SIDE : room;
  const fit = Math.max(
    1,
    Math.min(Math.floor(room / Math.max(1, width)), Math.floor(target / Math.max(1, width, height))),
  );
  return Math.min(MAX_CELL, fit);
}

/** The drawn size in px of one panel of a picture. */
export function panelSize(picture, panel) {
  const px = cellPixels(picture);
  const height = picture.layout === "strip" ? STRIP_HEIGHT : panel.height * px;
  return { width: panel.width * px, height };
}

/** The full-resolution [row, col] under a point (x, y) of a panel drawn width by height. */
export function cellAt(x, y, width, height, grid) {
  const [rows, cols] = grid;
  const clamp = (v, n) => Math.min(n - 1, Math.max(0, v));
  return [clamp(Math.floor((y / height) * rows), rows), clamp(Math.floor((x / width) * cols), cols)];
}

/** The point (x, y) at the middle of full-resolution cell [row, col] of a drawn panel. */
export function pointOf(cell, width, height, grid) {
  const [rows, cols] = grid;
  return [((cell[1] + 0.5) / cols) * width, ((cell[0] + 0.5) / rows) * height];
}

const STEPS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

/** The cell an arrow key moves to, one reduced cell (a block of `factor`) at a time; null for
 * other keys. Home goes to the first cell, End to the last. */
export function moveCell(cell, key, grid, factor) {
  const [rows, cols] = grid;
  if (key === "Home") return [0, 0];
  if (key === "End") return [rows - 1, cols - 1];
  const step = STEPS[key];
  if (!step) return null;
  const row = Math.min(rows - 1, Math.max(0, cell[0] + step[0] * factor[0]));
  const col = Math.min(cols - 1, Math.max(0, cell[1] + step[1] * factor[1]));
  return [row, col];
}

/** The array index of [row, col] of a panel, as text: `[3, 812, 4]`. */
export function indexText(picture, panel, cell) {
  const index = picture.layout === "strip" ? [cell[1]] : [...panel.index, cell[0], cell[1]];
  return `[${index.join(", ")}]`;
}

/** The exact value of a cell when the panel carries every value, else null (ask the kernel). */
export function inlineValue(picture, panel, cell) {
  if (!panel.values) return null;
  return panel.values[cell[0] * picture.grid[1] + cell[1]] ?? null;
}

/** The number (into picture.shards) of the panel's shard holding [row, col], or -1. */
export function shardAt(picture, panel, cell) {
  for (const number of panel.shards) {
    const { rows, cols } = picture.shards[number];
    if (rows[0] <= cell[0] && cell[0] < rows[1] && cols[0] <= cell[1] && cell[1] < cols[1]) {
      return number;
    }
  }
  return -1;
}

/** Every device id of a picture's shards, sorted, each once. */
export function shardDevices(picture) {
  const ids = new Set();
  for (const shard of picture.shards) for (const id of shard.devices) ids.add(id);
  return [...ids].sort((a, b) => a - b);
}

/** A shard as one line: its label, rows and columns, as the static twin's tooltip says it. */
export function shardText(shard) {
  const [r0, r1] = shard.rows;
  const [c0, c1] = shard.cols;
  return `${shard.label}: rows ${r0}:${r1}, columns ${c0}:${c1}`;
}

/** The strip's line as SVG polyline point lists, broken at gaps (null: NaN or Inf). */
export function lineRuns(points, width, height) {
  const finite = points.filter((p) => p !== null);
  if (!finite.length) return [];
  const lo = Math.min(...finite);
  const span = Math.max(...finite) - lo || 1;
  const step = width / Math.max(1, points.length);
  const runs = [];
  let run = [];
  points.forEach((p, i) => {
    if (p === null) {
      if (run.length) runs.push(run);
      run = [];
      return;
    }
    const y = height - 2 - ((height - 4) * (p - lo)) / span;
    run.push(`${((i + 0.5) * step).toFixed(1)},${y.toFixed(1)}`);
  });
  if (run.length) runs.push(run);
  return runs.map((r) => r.join(" "));
}
