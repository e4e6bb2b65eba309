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

// The view model sends cells as one array per field; the widget reads them as records.
export function cellRecords(columns) {
  return columns.label.map((label, i) => ({
    label,
    devices: columns.devices[i],
    index: columns.index[i],
    tooltip: columns.tooltip[i],
    color: columns.color[i],
  }));
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
  return clampZoom(direction > 0 ? zoom * ZOOM_FACTOR : zoom / ZOOM_FACTOR);
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
  const who = `${deviceIds.length === 1 ? "device" : "devices"} ${deviceIds.join(", ")}`;
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
