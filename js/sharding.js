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
} from "./sharding_grid.js";
import { element, keepKeys, showTooltip } from "./dom.js";
import { listen } from "./widget_model.js";

// The JSON the kernel sends (`view`) and the traits the widget sets: declared once, by the
// TypedDicts of jaxdbg_widgets/sharding/schema.py; ./schema/sharding.js is generated from them
// (`python -m tests.unit.schema_js`).

/** @typedef {import("./schema/sharding.js").CellColumns} CellColumns */
/** @typedef {import("./schema/sharding.js").FacetView} FacetView */
/** @typedef {import("./schema/sharding.js").ShardingModel} ShardingModel */
/** @typedef {import("./schema/sharding.js").ShardingView} ShardingView */

/** anywidget's model of this widget, typed by {@link ShardingModel} (see widget_model.js). */
/** @typedef {import("./widget_model.js").Model<ShardingModel>} ShardingWidget */

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

/** The zoom bar: −, the zoom, +, fit, and the selection's status line. */
function buildBar() {
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
  return { bar, zoomOut, zoomLabel, zoomIn, fit, status };
}

/**
 * The widget's parts: head, zoom bar, the grid's surface (elements, or canvases past
 * CANVAS_CELLS shards) in its scroll box, the legend and the tooltip.
 * @param {ShardingView} view
 * @param {Array<*>} cells the shards' records ({@link cellRecords})
 */
function buildParts(view, cells) {
  const root = element("div", "jdw-shw");
  keepKeys(root);
  root.tabIndex = 0;
  const head = element("div", "jdw-shw-head", [view.kind, ...view.summary].join(" · "));
  const bar = buildBar();
  const scroll = element("div", "jdw-shw-scroll");
  const zoomed = element("div", "jdw-shw-zoom");
  const surface =
    (cells.length > CANVAS_CELLS && canvasSurface(view, cells, scroll)) ||
    cellSurface(view, cells);
  zoomed.append(...surface.figures);
  scroll.append(zoomed);
  const tooltip = element("div", "jdw-shw-tooltip");
  tooltip.hidden = true;
  const legend = drawLegend(view, cells);
  root.append(head, bar.bar, scroll, legend, tooltip);
  const chips = [...legend.querySelectorAll("[data-cell]")];
  return { ...bar, root, scroll, zoomed, surface, tooltip, chips };
}

/**
 * Lights the shards of the selected devices (`selected`) in the grid and the legend.
 * @param {ShardingWidget} model
 * @param {Array<*>} cells
 * @param {ReturnType<typeof buildParts>} parts
 */
function showSelection(model, cells, parts) {
  const selected = model.get("selected");
  const lit = new Set(cellsHolding(cells, selected));
  parts.root.classList.toggle("jdw-shw-selecting", selected.length > 0);
  for (const chip of parts.chips) {
    chip.classList.toggle("jdw-shw-on", lit.has(Number(chip.dataset.cell)));
  }
  parts.surface.select(lit);
  parts.status.textContent = selectionSummary(cells, selected);
}

/**
 * Sizes the grid at the model's `zoom`.
 * @param {ShardingWidget} model
 * @param {ReturnType<typeof buildParts>} parts
 * @param {{sizedOnce: boolean}} state
 */
function showZoom(model, parts, state) {
  const zoom = model.get("zoom");
  parts.zoomed.style.fontSize = `calc(var(--jp-code-font-size, 13px) * ${zoom})`;
  parts.zoomLabel.textContent = `${Math.round(zoom * 100)}%`;
  // Until the output's first size is known the grid is neither laid out nor drawn: that
  // first size fits it, so nothing is drawn at a zoom about to change.
  if (state.sizedOnce) parts.surface.resize();
}

/**
 * Setting the zoom: a step in or out, compact labels, and the zoom that fits the width.
 * @param {ShardingWidget} model
 * @param {ReturnType<typeof buildParts>} parts
 * @param {{compact: boolean}} state
 */
function zoomActions(model, parts, state) {
  const { root, surface, zoomed, scroll } = parts;
  const setZoom = (zoom) => {
    model.set("zoom", zoom);
    model.save_changes();
  };
  // Zoomed out to fit, labels wrap at spaces so columns stay narrow and text stays readable.
  const setCompact = (on) => {
    if (on === state.compact) return;
    state.compact = on;
    root.classList.toggle("jdw-shw-compact", on);
    surface.setCompact(on);
  };
  const stepZoom = (direction) => {
    const zoom = steppedZoom(model.get("zoom"), direction);
    if (zoom >= 1) setCompact(false);
    setZoom(zoom);
  };
  // Two widths measured at two zooms give the zoom that fits (see `refinedFit`); each reading
  // lays out the grid at once, so the fitted grid is drawn in the next frame.
  const fitWidth = () => {
    if (zoomed.scrollWidth > scroll.clientWidth) setCompact(true);
    const before = { zoom: model.get("zoom"), width: zoomed.scrollWidth };
    const first = fitZoom(before.zoom, before.width, scroll.clientWidth);
    setZoom(first);
    const width = zoomed.scrollWidth;
    if (width <= scroll.clientWidth) return;
    setZoom(refinedFit(before.zoom, before.width, first, width, scroll.clientWidth));
  };
  return { stepZoom, fitWidth };
}

/**
 * Selecting: a shard's devices toggled in `selected`, or none.
 * @param {ShardingWidget} model
 * @param {Array<*>} cells
 */
function selectActions(model, cells) {
  return {
    toggle(index) {
      model.set("selected", toggledSelection(model.get("selected"), cells[index].devices));
      model.save_changes();
    },
    clear() {
      model.set("selected", []);
      model.save_changes();
    },
  };
}

/**
 * The tooltip of a shard at a client point, or beside a focused cell.
 * @param {Array<*>} cells
 * @param {ReturnType<typeof buildParts>} parts
 */
function tooltips(cells, parts) {
  const at = (index, x, y) => showTooltip(parts.tooltip, parts.root, cells[index].tooltip, x, y);
  const beside = (node) => {
    const rect = node.getBoundingClientRect();
    at(Number(node.dataset.cell), rect.right, rect.bottom);
  };
  return { at, beside };
}

/**
 * Whether `node` is a grid cell of this widget.
 * @param {HTMLElement} root
 * @param {*} node
 */
function isCell(root, node) {
  if (!(node instanceof Element) || !root.contains(node)) return false;
  return node.getAttribute("role") === "gridcell";
}

/**
 * Clicks select (a legend entry or a cell), Escape clears; focus and pointer show the tooltip.
 * @param {ReturnType<typeof buildParts>} parts
 * @param {ReturnType<typeof selectActions>} select
 * @param {ReturnType<typeof tooltips>} tip
 */
function wirePointer(parts, select, tip) {
  const { root, scroll, surface, tooltip, chips } = parts;
  // The shard a click or a pointer is on: a legend entry, or a cell of the grid.
  const cellOf = (event) => {
    const chip = event.target.closest?.(".jdw-shw-chip");
    if (chip && chips.includes(chip)) return Number(chip.dataset.cell);
    return surface.cellAt(event);
  };
  root.addEventListener("click", (event) => {
    const index = cellOf(event);
    if (index !== null) select.toggle(index);
  });
  root.addEventListener("keydown", (event) => {
    if (event.key === "Escape") select.clear();
  });
  scroll.addEventListener("focusin", (event) => {
    if (isCell(root, event.target)) tip.beside(event.target);
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
    tip.at(index, event.clientX, event.clientY);
  });
  scroll.addEventListener("pointerleave", (event) => {
    tooltip.hidden = true;
    surface.hover(event);
  });
}

/**
 * Keys on a focused cell are the grid's: taken at the window, before the notebook's own
 * shortcuts (Notebook 7 binds the arrows and Enter for its cells) can act on them. Returns the
 * listener, for the cleanup to remove.
 * @param {ReturnType<typeof buildParts>} parts
 * @param {ReturnType<typeof selectActions>} select
 * @param {ReturnType<typeof tooltips>} tip
 * @returns {(event: KeyboardEvent) => void}
 */
function wireCellKeys(parts, select, tip) {
  function onCellKey(event) {
    const node = event.target;
    if (!isCell(parts.root, node)) return;
    if (event.key === "Enter" || event.key === " ") {
      select.toggle(Number(node.dataset.cell));
    } else if (event.key === "Escape") {
      select.clear();
    } else {
      const next = parts.surface.move(node, event.key);
      if (next === null) return;
      tip.beside(next);
    }
    event.preventDefault();
    event.stopPropagation();
  }
  window.addEventListener("keydown", onCellKey, true);
  return onCellKey;
}

/**
 * The zoom controls: ctrl + wheel, the − and + buttons, fit.
 * @param {ReturnType<typeof buildParts>} parts
 * @param {ReturnType<typeof zoomActions>} zoom
 */
function wireZoom(parts, zoom) {
  parts.scroll.addEventListener(
    "wheel",
    (event) => {
      if (!event.ctrlKey) return;
      event.preventDefault();
      zoom.stepZoom(-Math.sign(event.deltaY));
    },
    { passive: false },
  );
  parts.zoomIn.addEventListener("click", () => zoom.stepZoom(1));
  parts.zoomOut.addEventListener("click", () => zoom.stepZoom(-1));
  parts.fit.addEventListener("click", zoom.fitWidth);
}

/**
 * Watches the scroll box's size: a new size (the output's first width included) is measured
 * and drawn again. Fitted to the width by default: once the output has a width, a grid wider
 * than it is zoomed out as the fit button does, unless a zoom other than 100% was already
 * chosen. The fit runs as a task of its own: laying a large grid out at two zooms should not
 * add to the task that first laid it out. Returns the observer, or null without one.
 * @param {ShardingWidget} model
 * @param {ReturnType<typeof buildParts>} parts
 * @param {{sizedOnce: boolean, fitted: boolean}} state
 * @param {ReturnType<typeof zoomActions>} zoom
 * @returns {ResizeObserver|null}
 */
function watchSize(model, parts, state, zoom) {
  const { scroll, zoomed, surface } = parts;
  function fitByDefault() {
    if (state.fitted || scroll.clientWidth === 0) return;
    state.fitted = true;
    if (model.get("zoom") === 1 && zoomed.scrollWidth > scroll.clientWidth) zoom.fitWidth();
  }
  function sized() {
    state.sizedOnce = true;
    surface.resize();
    if (!state.fitted) setTimeout(fitByDefault, 0);
  }
  if (typeof ResizeObserver === "function") {
    const watch = new ResizeObserver(sized);
    watch.observe(scroll);
    return watch;
  }
  requestAnimationFrame(sized);
  return null;
}

/**
 * Draws the model's `view` ({@link ShardingModel}) in `el`; clicks and zoom set its traits.
 * @param {{model: ShardingWidget, el: HTMLElement}} props
 * @returns {() => void}
 */
function render({ model, el }) {
  const view = model.get("view");
  const cells = cellRecords(view.cells, view.tips, view.process_edges ?? []);
  const parts = buildParts(view, cells);
  el.append(parts.root);
  const state = { compact: false, sizedOnce: false, fitted: false };
  const select = selectActions(model, cells);
  const tip = tooltips(cells, parts);
  const zoom = zoomActions(model, parts, state);
  wirePointer(parts, select, tip);
  const onCellKey = wireCellKeys(parts, select, tip);
  wireZoom(parts, zoom);
  const watch = watchSize(model, parts, state, zoom);
  const onSelected = () => showSelection(model, cells, parts);
  const onZoom = () => showZoom(model, parts, state);
  const stop = listen(model, [
    ["change:selected", onSelected],
    ["change:zoom", onZoom],
  ]);
  onSelected();
  onZoom();
  return () => {
    watch?.disconnect();
    parts.surface.close();
    window.removeEventListener("keydown", onCellKey, true);
    stop();
  };
}

export default { render };
