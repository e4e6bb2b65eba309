// The sharding grid as one element per shard, on CSS grids: what small views draw (every cell
// is in the DOM, for screen readers and for the browser's own hover and focus outlines).
import { textColorFor } from "./sharding_contrast.js";
import {
  PROCESS_BELOW,
  PROCESS_RIGHT,
  compactTracks,
  gridTracks,
  labelWords,
  neighbourCell,
} from "./sharding_grid.js";
import { element } from "./dom.js";

/** One `<figure>` per facet: a caption, the axis labels and a grid element for its cells. */
export function facetFrame(facet) {
  const figure = element("figure", "jdw-shw-facet");
  if (facet.title) figure.append(element("figcaption", "", facet.title));
  const frame = element("div", "jdw-shw-frame");
  frame.append(element("div", "jdw-shw-collabel", facet.col_label ? `${facet.col_label} →` : ""));
  frame.append(element("div", "jdw-shw-rowlabel", facet.row_label ? `${facet.row_label} →` : ""));
  const grid = element("div", "jdw-shw-grid");
  grid.setAttribute("role", "grid");
  grid.setAttribute("aria-label", facet.title ? `shards ${facet.title}` : "shards");
  frame.append(grid);
  figure.append(frame);
  return { figure, grid, facet };
}

// A process boundary: a line inside the cell's right or lower edge, before the next process's
// cells, drawn inline so the shared style stays that of one-process grids.
const PROCESS_LINE = "var(--jp-ui-font-color1, #1f1f1f)";
function processLines(edge) {
  const lines = [];
  if (edge & PROCESS_RIGHT) lines.push(`inset -3px 0 0 ${PROCESS_LINE}`);
  if (edge & PROCESS_BELOW) lines.push(`inset 0 -3px 0 ${PROCESS_LINE}`);
  return lines.join(", ");
}

function drawFacet(facet, cells, useColor) {
  const drawn = facetFrame(facet);
  facet.cells.forEach(([row, col, index], order) => {
    const cell = cells[index];
    const box = element("div", "jdw-shw-cell");
    const label = element("span", "jdw-shw-label");
    for (const [i, word] of labelWords(cell.label).entries()) {
      if (i > 0) label.append(" ");
      label.append(element("span", i === 0 ? "jdw-shw-platform" : "", word));
    }
    box.append(label);
    box.dataset.cell = String(index);
    box.style.gridRow = String(row + 1);
    box.style.gridColumn = String(col + 1);
    box.setAttribute("role", "gridcell");
    box.setAttribute("aria-label", cell.tooltip.replaceAll("\n", ", "));
    if (cell.edge) box.style.boxShadow = processLines(cell.edge);
    box.tabIndex = order === 0 ? 0 : -1; // one tab stop per facet; arrows move within it
    if (useColor && cell.color) {
      box.style.background = cell.color;
      box.style.color = textColorFor(cell.color);
    }
    drawn.grid.append(box);
  });
  return drawn;
}

/**
 * What the widget asks of a grid surface, drawn as elements (here) or on canvases
 * (`sharding_canvas.js`). Cells are named by their index in the view's cells.
 * @typedef {Object} GridSurface
 * @property {Array<Element>} figures one per facet, in order
 * @property {Function} cellAt (event) => the cell under a pointer event, or null
 * @property {Function} hover (event) => marks the cell under the pointer, if the surface must
 * @property {Function} select (lit: Set of cells) => draws them highlighted, the rest dimmed
 * @property {Function} setCompact (on) => switches to the compact layout used to fit
 * @property {Function} resize () => the zoom or the box changed
 * @property {Function} move (node, key) => focuses the cell a key moves to from the focused
 *   cell `node`, and returns it, or null
 * @property {Function} close () => stops listening
 */

/** The grid surface of elements: one per shard, on CSS grids. @returns {GridSurface} */
export function cellSurface(view, cells) {
  const drawn = view.facets.map((facet) => drawFacet(facet, cells, view.use_color));
  const grids = drawn.map(({ grid }) => grid);
  const nodes = grids.flatMap((grid) => [...grid.querySelectorAll(".jdw-shw-cell")]);

  function setCompact(compact) {
    for (const { grid, facet } of drawn) {
      const tracks = compact ? compactTracks(facet, cells) : gridTracks(facet);
      grid.style.gridTemplateColumns = tracks.columns;
      grid.style.gridTemplateRows = tracks.rows;
    }
  }
  setCompact(false);

  return {
    figures: drawn.map(({ figure }) => figure),
    cellAt(event) {
      const node = event.target.closest?.(".jdw-shw-cell");
      return node && grids.includes(node.parentElement) ? Number(node.dataset.cell) : null;
    },
    hover() {}, // the cell's :hover outline
    select(lit) {
      for (const node of nodes) {
        const on = lit.has(Number(node.dataset.cell));
        node.classList.toggle("jdw-shw-on", on);
        node.setAttribute("aria-selected", String(on));
      }
    },
    setCompact,
    resize() {}, // tracks in ch and em follow the zoom by themselves
    move(node, key) {
      const facet = drawn.find((d) => d.grid === node.parentElement)?.facet;
      const next = facet ? neighbourCell(facet, Number(node.dataset.cell), key) : null;
      if (next === null) return null;
      const target = node.parentElement.querySelector(`[data-cell="${next}"]`);
      node.tabIndex = -1;
      target.tabIndex = 0;
      target.focus();
      return target;
    },
    close() {},
  };
}
