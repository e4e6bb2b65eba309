// Pixel geometry of a facet drawn on a canvas: where each track starts, what each label says on
// which lines, which cell a point falls in and which cells a rectangle shows. No DOM here.
import { LINE_HEIGHT_EM, compactWidths, labelWords } from "./sharding_grid.js";

// The lines between cells and around the grid, as the DOM grid's 1px gap and border.
export const GAP_PX = 1;
// Space kept free on each side of a label, as the DOM cell's padding.
export const PAD_PX = 2;
// Zoomed out to fit, wrapped label lines sit closer together, as in the compact DOM layout.
export const COMPACT_LINE_EM = 1.1;

/** Left (or top) edges of tracks of the given sizes, each after a gap, and the total length. */
export function trackStarts(sizes) {
  const starts = new Array(sizes.length);
  let at = GAP_PX;
  sizes.forEach((size, i) => {
    starts[i] = at;
    at += size + GAP_PX;
  });
  return { starts, length: at };
}

/** `text`, or as much of it as fits in `width` followed by an ellipsis. */
export function fittedText(text, width, measure) {
  if (measure(text) <= width) return text;
  for (let keep = text.length - 1; keep > 0; keep -= 1) {
    const cut = `${text.slice(0, keep)}…`;
    if (measure(cut) <= width) return cut;
  }
  return "";
}

// A label's lines: the whole label on one line, or zoomed out to fit, the words after the
// platform (named in the header) joined while they fit the width, each line cut to fit.
export function labelLines(label, compact, width, measure) {
  if (!compact) return [fittedText(label, width, measure)];
  const lines = [];
  for (const word of labelWords(label).slice(1)) {
    const last = lines.length - 1;
    const joined = last >= 0 ? `${lines[last]} ${word}` : word;
    if (last >= 0 && measure(joined) <= width) lines[last] = joined;
    else lines.push(word);
  }
  return lines.map((line) => fittedText(line, width, measure));
}

/**
 * Everything the canvas needs to draw `facet` with font metrics `ch` and `em` (px):
 * track starts and sizes, the grid's size, each placed cell's label lines, and a table from grid
 * position to the cell's place in `facet.cells` (-1 where no cell is).
 */
export function facetGeometry(facet, cells, { ch, em, compact, measure }) {
  const widths = (compact ? compactWidths(facet, cells) : facet.col_widths).map((w) => w * ch);
  const lines = facet.cells.map(([, col, index]) =>
    labelLines(cells[index].label, compact, widths[col] - 2 * PAD_PX, measure),
  );
  const oneLine = LINE_HEIGHT_EM * em;
  const heights = compact
    ? new Array(facet.rows).fill(oneLine)
    : facet.row_heights.map((h) => (h === null ? oneLine : h * oneLine));
  const at = new Int32Array(facet.rows * facet.cols).fill(-1);
  facet.cells.forEach(([row, col], order) => {
    at[row * facet.cols + col] = order;
    if (compact) heights[row] = Math.max(heights[row], lines[order].length * COMPACT_LINE_EM * em);
  });
  const across = trackStarts(widths);
  const down = trackStarts(heights);
  return {
    cols: facet.cols,
    rows: facet.rows,
    colX: across.starts,
    colW: widths,
    rowY: down.starts,
    rowH: heights,
    width: across.length,
    height: down.length,
    lineHeight: (compact ? COMPACT_LINE_EM : LINE_HEIGHT_EM) * em,
    lines,
    at,
  };
}

/** The rectangle of the cell at place `order` of `facet.cells`. */
export function cellRect(geometry, facet, order) {
  const [row, col] = facet.cells[order];
  return {
    x: geometry.colX[col],
    y: geometry.rowY[row],
    width: geometry.colW[col],
    height: geometry.rowH[row],
  };
}

// The track whose span holds `point`, or -1 when it falls on a gap or outside; with
// `nearest`, the track starting at or before it (for the edges of a rectangle).
function trackAt(starts, sizes, point, nearest) {
  let lo = 0;
  let hi = starts.length - 1;
  if (hi < 0 || point < starts[0]) return nearest ? 0 : -1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= point) lo = mid;
    else hi = mid - 1;
  }
  return nearest || point < starts[lo] + sizes[lo] ? lo : -1;
}

// The track nearest to `point` within a grid of `length` px: the one holding it, else the
// closer of the two a gap (or the border) separates; -1 outside the grid.
function nearestTrack(starts, sizes, point, length) {
  if (point < 0 || point >= length || !starts.length) return -1;
  const at = trackAt(starts, sizes, point, true);
  if (point < starts[at]) return at; // the border before the first track
  const end = starts[at] + sizes[at];
  if (point < end || at + 1 >= starts.length) return at;
  return point - end < starts[at + 1] - point ? at : at + 1;
}

/**
 * The place in `facet.cells` of the cell under point (x, y) of the grid, or -1. A point on the
 * 1-px lines between cells (or on the border) takes the nearest cell, so every click on small
 * cells selects one; outside the grid, or where no cell is, -1.
 */
export function placeAt(geometry, x, y) {
  const col = nearestTrack(geometry.colX, geometry.colW, x, geometry.width);
  const row = nearestTrack(geometry.rowY, geometry.rowH, y, geometry.height);
  if (col < 0 || row < 0) return -1;
  return geometry.at[row * geometry.cols + col];
}

/** The places of the cells that a rectangle of the grid ({x, y, width, height}) shows. */
export function placesIn(geometry, rect) {
  const c0 = trackAt(geometry.colX, geometry.colW, rect.x, true);
  const c1 = trackAt(geometry.colX, geometry.colW, rect.x + rect.width, true);
  const r0 = trackAt(geometry.rowY, geometry.rowH, rect.y, true);
  const r1 = trackAt(geometry.rowY, geometry.rowH, rect.y + rect.height, true);
  const found = [];
  for (let row = r0; row <= r1; row += 1) {
    for (let col = c0; col <= c1; col += 1) {
      const order = geometry.at[row * geometry.cols + col];
      if (order >= 0) found.push(order);
    }
  }
  return found;
}

/**
 * The part of a grid worth drawing: the scroll box's client area (both as client rects) grown by
 * `margin` on each side, in the grid's coordinates and within its bounds; null when none shows.
 */
export function visiblePart(grid, box, size, margin) {
  const x0 = Math.max(0, box.left - grid.left - margin);
  const y0 = Math.max(0, box.top - grid.top - margin);
  const x1 = Math.min(size.width, box.left + box.width - grid.left + margin);
  const y1 = Math.min(size.height, box.top + box.height - grid.top + margin);
  if (x1 <= x0 || y1 <= y0) return null;
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}
