// The sharding widget: draws the view model sent from Python, as an element per shard for small
// views and on canvases past CANVAS_CELLS shards, with a hover tooltip, click-to-highlight of a
// device's shards, keyboard moves, zoom and scrolling.
import { CANVAS_CELLS, canvasSurface } from "./sharding_canvas.js";
import { cellSurface } from "./sharding_cells.js";
import {
  cellRecords,
  cellsHolding,
  fitZoom,
  refinedFit,
  selectionSummary,
  steppedZoom,
  toggledSelection,
  tooltipPosition,
} from "./sharding_grid.js";
import { element, keepKeys } from "./dom.js";

// The JSON the kernel sends (`view`) and the traits the widget sets, declared once here and once
// in jaxdbg_widgets/sharding/schema.py under the same names; a unit test checks that they agree.

/**
 * One list per field, each in cell order; `tip` indexes the view's `tips` table.
 * @typedef {Object} CellColumns
 * @property {Array<string>} label
 * @property {Array<Array<number>>} devices
 * @property {Array<string>} index
 * @property {Array<number>} tip
 * @property {Array<string|null>} color
 */

/**
 * One grid of cells: its title, axis labels, track sizes and `[row, col, cell]` places.
 * @typedef {Object} FacetView
 * @property {string} title
 * @property {number} rows
 * @property {number} cols
 * @property {string} row_label
 * @property {string} col_label
 * @property {Array<number>} col_widths
 * @property {Array<number|null>} row_heights
 * @property {Array<[number, number, number]>} cells
 */

/**
 * Everything the diagram draws: header, facets, cells, tooltip table and processes.
 * @typedef {Object} ShardingView
 * @property {string} kind
 * @property {Array<string>} summary
 * @property {boolean} use_color
 * @property {Array<FacetView>} facets
 * @property {CellColumns} cells
 * @property {Array<[string, string, string]>} tips
 * @property {Array<[number, string]>} processes
 * @property {Array<[number, number]>} [process_edges] cells at a process boundary, with
 *   their sides (absent from views saved by earlier versions)
 */

/**
 * The widget's synced state: the view, the highlighted device ids and the zoom.
 * @typedef {Object} ShardingModel
 * @property {ShardingView} view
 * @property {Array<number>} selected
 * @property {number} zoom
 */

const LEGEND_LIMIT = 64;

function drawLegend(view, cells) {
  const legend = element("div", "jdw-shw-legend");
  if (view.use_color && cells.length <= LEGEND_LIMIT) {
    cells.forEach((cell, index) => {
      const chip = element("button", "jdw-shw-chip");
      chip.dataset.cell = String(index);
      const swatch = element("i");
      swatch.style.background = cell.color;
      chip.append(swatch, cell.label);
      legend.append(chip);
    });
  } else if (view.use_color) {
    legend.append(element("span", "", `one colour per shard (${cells.length} colours)`));
  }
  if (view.processes.length > 1) {
    for (const [process, ids] of view.processes) {
      legend.append(element("span", "jdw-shw-process", `process ${process}: ${ids}`));
    }
  }
  return legend;
}

/** Draws the model's `view` ({@link ShardingModel}) in `el`; clicks and zoom set its traits. */
function render({ model, el }) {
  const view = model.get("view");
  const cells = cellRecords(view.cells, view.tips, view.process_edges ?? []);
  const root = element("div", "jdw-shw");
  keepKeys(root);
  root.tabIndex = 0;
  const head = element("div", "jdw-shw-head", [view.kind, ...view.summary].join(" · "));
  const bar = element("div", "jdw-shw-bar");
  const zoomOut = element("button", "", "−");
  const zoomLabel = element("span", "jdw-shw-zoomval");
  const zoomIn = element("button", "", "+");
  const fit = element("button", "", "fit");
  const status = element("span", "jdw-shw-status");
  zoomOut.title = "zoom out (ctrl + wheel)";
  zoomIn.title = "zoom in (ctrl + wheel)";
  fit.title = "fit the width";
  bar.append(zoomOut, zoomLabel, zoomIn, fit, status);
  const scroll = element("div", "jdw-shw-scroll");
  const zoomed = element("div", "jdw-shw-zoom");
  const surface =
    (cells.length > CANVAS_CELLS && canvasSurface(view, cells, scroll)) ||
    cellSurface(view, cells);
  zoomed.append(...surface.figures);
  scroll.append(zoomed);
  let compact = false;
  const tooltip = element("div", "jdw-shw-tooltip");
  tooltip.hidden = true;
  const legend = drawLegend(view, cells);
  root.append(head, bar, scroll, legend, tooltip);
  el.append(root);

  const chips = [...legend.querySelectorAll("[data-cell]")];

  function showSelection() {
    const selected = model.get("selected");
    const lit = new Set(cellsHolding(cells, selected));
    root.classList.toggle("jdw-shw-selecting", selected.length > 0);
    for (const chip of chips) {
      chip.classList.toggle("jdw-shw-on", lit.has(Number(chip.dataset.cell)));
    }
    surface.select(lit);
    status.textContent = selectionSummary(cells, selected);
  }

  let sizedOnce = false;
  function showZoom() {
    const zoom = model.get("zoom");
    zoomed.style.fontSize = `calc(var(--jp-code-font-size, 13px) * ${zoom})`;
    zoomLabel.textContent = `${Math.round(zoom * 100)}%`;
    // Until the output's first size is known the grid is neither laid out nor drawn: that
    // first size fits it, so nothing is drawn at a zoom about to change.
    if (sizedOnce) surface.resize();
  }

  function setZoom(zoom) {
    model.set("zoom", zoom);
    model.save_changes();
  }

  // Zoomed out to fit, labels wrap at spaces so columns stay narrow and text stays readable.
  function setCompact(on) {
    if (on === compact) return;
    compact = on;
    root.classList.toggle("jdw-shw-compact", on);
    surface.setCompact(on);
  }

  function stepZoom(direction) {
    const zoom = steppedZoom(model.get("zoom"), direction);
    if (zoom >= 1) setCompact(false);
    setZoom(zoom);
  }

  function toggle(index) {
    model.set("selected", toggledSelection(model.get("selected"), cells[index].devices));
    model.save_changes();
  }

  function clear() {
    model.set("selected", []);
    model.save_changes();
  }

  function showTooltip(index, x, y) {
    tooltip.textContent = cells[index].tooltip;
    tooltip.hidden = false;
    const box = root.getBoundingClientRect();
    const place = tooltipPosition(
      { x: x - box.left, y: y - box.top },
      { width: tooltip.offsetWidth, height: tooltip.offsetHeight },
      { width: box.width, height: Math.max(box.height, window.innerHeight - box.top) },
    );
    tooltip.style.left = `${place.left}px`;
    tooltip.style.top = `${place.top}px`;
  }

  function showTooltipAt(node) {
    const rect = node.getBoundingClientRect();
    showTooltip(Number(node.dataset.cell), rect.right, rect.bottom);
  }

  // The shard a click or a pointer is on: a legend entry, or a cell of the grid.
  function cellOf(event) {
    const chip = event.target.closest?.(".jdw-shw-chip");
    if (chip && chips.includes(chip)) return Number(chip.dataset.cell);
    return surface.cellAt(event);
  }

  function isCell(node) {
    if (!(node instanceof Element) || !root.contains(node)) return false;
    return node.getAttribute("role") === "gridcell";
  }

  root.addEventListener("click", (event) => {
    const index = cellOf(event);
    if (index !== null) toggle(index);
  });
  root.addEventListener("keydown", (event) => {
    if (event.key === "Escape") clear();
  });
  // Keys on a focused cell are the grid's: taken at the window, before the notebook's own
  // shortcuts (Notebook 7 binds the arrows and Enter for its cells) can act on them.
  function onCellKey(event) {
    const node = event.target;
    if (!isCell(node)) return;
    if (event.key === "Enter" || event.key === " ") {
      toggle(Number(node.dataset.cell));
    } else if (event.key === "Escape") {
      clear();
    } else {
      const next = surface.move(node, event.key);
      if (next === null) return;
      showTooltipAt(next);
    }
    event.preventDefault();
    event.stopPropagation();
  }
  window.addEventListener("keydown", onCellKey, true);
  scroll.addEventListener("focusin", (event) => {
    if (isCell(event.target)) showTooltipAt(event.target);
  });
  scroll.addEventListener("focusout", () => {
    tooltip.hidden = true;
  });
  scroll.addEventListener("pointermove", (event) => {
    const index = surface.cellAt(event);
    surface.hover(event);
    if (index === null) {
      tooltip.hidden = true;
      return;
    }
    showTooltip(index, event.clientX, event.clientY);
  });
  scroll.addEventListener("pointerleave", (event) => {
    tooltip.hidden = true;
    surface.hover(event);
  });
  scroll.addEventListener(
    "wheel",
    (event) => {
      if (!event.ctrlKey) return;
      event.preventDefault();
      stepZoom(-Math.sign(event.deltaY));
    },
    { passive: false },
  );
  zoomIn.addEventListener("click", () => stepZoom(1));
  zoomOut.addEventListener("click", () => stepZoom(-1));
  // Two widths measured at two zooms give the zoom that fits (see `refinedFit`); each reading
  // lays out the grid at once, so the fitted grid is drawn in the next frame.
  function fitWidth() {
    if (zoomed.scrollWidth > scroll.clientWidth) setCompact(true);
    const before = { zoom: model.get("zoom"), width: zoomed.scrollWidth };
    const first = fitZoom(before.zoom, before.width, scroll.clientWidth);
    setZoom(first);
    const width = zoomed.scrollWidth;
    if (width <= scroll.clientWidth) return;
    setZoom(refinedFit(before.zoom, before.width, first, width, scroll.clientWidth));
  }
  fit.addEventListener("click", fitWidth);

  // Fitted to the width by default: once the output has a width, a grid wider than it is
  // zoomed out as the fit button does, unless a zoom other than 100% was already chosen.
  let fitted = false;
  function fitByDefault() {
    if (fitted || scroll.clientWidth === 0) return;
    fitted = true;
    if (model.get("zoom") === 1 && zoomed.scrollWidth > scroll.clientWidth) fitWidth();
  }
  // A new size of the box (the output's first width included) is measured and drawn again.
  // The fit runs as a task of its own: laying a large grid out at two zooms should not add to
  // the task that first laid it out.
  function sized() {
    sizedOnce = true;
    surface.resize();
    if (!fitted) setTimeout(fitByDefault, 0);
  }
  let watch = null;
  if (typeof ResizeObserver === "function") {
    watch = new ResizeObserver(sized);
    watch.observe(scroll);
  } else {
    requestAnimationFrame(sized);
  }

  model.on("change:selected", showSelection);
  model.on("change:zoom", showZoom);
  showSelection();
  showZoom();
  return () => {
    watch?.disconnect();
    surface.close();
    window.removeEventListener("keydown", onCellKey, true);
    model.off("change:selected", showSelection);
    model.off("change:zoom", showZoom);
  };
}

export default { render };
