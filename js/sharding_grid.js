// Pure helpers for the sharding widget: grid tracks, selection, zoom. No DOM here.

export const LINE_HEIGHT_EM = 1.25;
export const ZOOM_MIN = 0.1;
export const ZOOM_MAX = 4;
const ZOOM_FACTOR = 1.25;

export function gridTracks(facet) {
  const columns = facet.col_widths.map((w) => `${w}ch`).join(" ");
  const rows = facet.row_heights
    .map((h) => (h === null ? "auto" : `${+(h * LINE_HEIGHT_EM).toFixed(4)}em`))
    .join(" ");
  return { columns, rows };
}

// Up to this many holders a shard lists every device id, as JAX's labels do.
export const HOLDERS_LISTED = 8;
const RUNS_SHOWN = 3;

// The holders of one shard as the Python `holders_text` writes them: `0, 4` for a few; past
// HOLDERS_LISTED, runs of consecutive ids and the count (`0–255 ×256`, `0, 16, 32, … ×256`).
export function holdersText(devices, separator) {
  const ordered = [...devices].sort((a, b) => a - b);
  if (ordered.length <= HOLDERS_LISTED) return ordered.join(separator);
  const runs = [];
  for (const id of ordered) {
    const last = runs[runs.length - 1];
    if (last && id === last[1] + 1) last[1] = id;
    else runs.push([id, id]);
  }
  let parts = runs.map(([a, b]) => (b > a ? `${a}–${b}` : `${a}`));
  if (parts.length > RUNS_SHOWN + 1) parts = [...parts.slice(0, RUNS_SHOWN), "…"];
  return `${parts.join(separator)} ×${ordered.length}`;
}

// A cell's tooltip from its entry of the view's tips table ([platform, process line, shape
// lines]), its devices and its index, as the static HTML writes it.
export function tipText([platform, process, shape], devices, index) {
  return `${platform} ${holdersText(devices, ", ")}\n${process}\nindex ${index}\n${shape}`;
}

// The view model sends cells as one array per field, each tooltip as a number into `tips`; the
// widget reads them as records. Notebooks saved by earlier versions hold a tooltip per cell
// (one array per field), or one record per cell with the tooltip as lines.
// `edges` lists [cell, sides] for the cells at a process boundary (PROCESS_RIGHT | PROCESS_BELOW
// where the next cell of the facet is held by other processes); each record's `edge` is 0 elsewhere.
export function cellRecords(columns, tips = [], edges = []) {
  const records = plainRecords(columns, tips);
  for (const [index, sides] of edges) records[index].edge = sides;
  return records;
}

export const PROCESS_RIGHT = 1;
export const PROCESS_BELOW = 2;

function plainRecords(columns, tips) {
  if (Array.isArray(columns)) {
    return columns.map((cell) => ({
      ...cell,
      tooltip: Array.isArray(cell.tooltip) ? cell.tooltip.join("\n") : cell.tooltip,
      edge: 0,
    }));
  }
  return columns.label.map((label, i) => ({
    edge: 0,
    label,
    devices: columns.devices[i],
    index: columns.index[i],
    tooltip: columns.tooltip
      ? columns.tooltip[i]
      : tipText(tips[columns.tip[i]], columns.devices[i], columns.index[i]),
    color: columns.color[i],
  }));
}

// A label's words: the platform, then the device ids, then the processes when it names them
// ("TPU 255 p3"). Zoomed out, the platform (shown in the header and tooltip) is hidden and each
// other word may take its own line.
export function labelWords(label) {
  return label.split(" ");
}

// Column widths (characters) for the compact layout used when zoomed out to fit: each column as
// wide as the longest id or process word in it, plus one character.
export function compactWidths(facet, cells) {
  const widths = new Array(facet.cols).fill(1);
  for (const [, col, index] of facet.cells) {
    const words = labelWords(cells[index].label).slice(1);
    const longest = Math.max(0, ...words.map((word) => word.length));
    widths[col] = Math.max(widths[col], longest + 1);
  }
  return widths;
}

// Tracks for the compact layout: columns of `compactWidths`, rows as tall as their lines.
export function compactTracks(facet, cells) {
  return {
    columns: compactWidths(facet, cells).map((w) => `${w}ch`).join(" "),
    rows: new Array(facet.rows).fill("auto").join(" "),
  };
}

const STEPS = {
  ArrowRight: [0, 1],
  ArrowLeft: [0, -1],
  ArrowDown: [1, 0],
  ArrowUp: [-1, 0],
};

// The cell a key moves to from cell `index` in a facet: arrows step to the nearest cell in that
// direction (skipping empty grid positions), Home and End go to the first and last cell; null
// when the key does not move or there is nowhere to go.
export function neighbourCell(facet, index, key) {
  const placed = facet.cells;
  if (placed.length === 0) return null;
  if (key === "Home") return placed[0][2];
  if (key === "End") return placed[placed.length - 1][2];
  const step = STEPS[key];
  const here = placed.find((p) => p[2] === index);
  if (!step || !here) return null;
  const at = new Map(placed.map(([row, col, i]) => [`${row},${col}`, i]));
  let [row, col] = here;
  for (;;) {
    row += step[0];
    col += step[1];
    if (row < 0 || col < 0 || row >= facet.rows || col >= facet.cols) return null;
    const found = at.get(`${row},${col}`);
    if (found !== undefined) return found;
  }
}

export function cellsHolding(cells, deviceIds) {
  const wanted = new Set(deviceIds);
  const found = [];
  cells.forEach((cell, index) => {
    if (cell.devices.some((id) => wanted.has(id))) found.push(index);
  });
  return found;
}

export function toggledSelection(current, deviceIds) {
  const same =
    current.length === deviceIds.length && deviceIds.every((id) => current.includes(id));
  return same ? [] : [...deviceIds];
}

export function clampZoom(zoom) {
  if (!Number.isFinite(zoom)) return 1;
  return Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, zoom));
}

export function steppedZoom(zoom, direction) {
  const next = direction > 0 ? zoom * ZOOM_FACTOR : zoom / ZOOM_FACTOR;
  // A step across 100%, or to within 2% of it, stops there, so the full-size layout is always
  // one step away (and a zoom shown as "100%" is 100%).
  if ((zoom < 1 && next > 0.98) || (zoom > 1 && next < 1.02)) return 1;
  return clampZoom(next);
}

export function fitZoom(zoom, contentWidth, availableWidth) {
  if (contentWidth <= 0 || availableWidth <= 0) return clampZoom(zoom);
  return clampZoom(Math.min(1, (zoom * availableWidth) / contentWidth));
}

// Content width is a fixed part (gaps, borders, padding) plus a part that scales with zoom;
// two measurements give both, and so the zoom at which the content exactly fits.
export function refinedFit(zoomA, widthA, zoomB, widthB, availableWidth) {
  if (zoomA === zoomB || widthA === widthB) return clampZoom(zoomB);
  const perZoom = (widthA - widthB) / (zoomA - zoomB);
  const fixed = widthA - perZoom * zoomA;
  return clampZoom(Math.min(zoomB, (availableWidth - fixed) / perZoom));
}

export function selectionSummary(cells, deviceIds) {
  if (deviceIds.length === 0) return "click a shard to highlight its devices";
  const held = cellsHolding(cells, deviceIds);
  const who = `${deviceIds.length === 1 ? "device" : "devices"} ${holdersText(deviceIds, ", ")}`;
  const where = held.map((i) => cells[i].index).join(" ");
  return `${who}: ${held.length} ${held.length === 1 ? "shard" : "shards"} ${where}`;
}

export function tooltipPosition(pointer, tip, box) {
  const gap = 12;
  let left = pointer.x + gap;
  let top = pointer.y + gap;
  if (left + tip.width > box.width) left = Math.max(0, pointer.x - gap - tip.width);
  if (top + tip.height > box.height) top = Math.max(0, pointer.y - gap - tip.height);
  return { left, top };
}
