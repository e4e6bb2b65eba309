// The sharding widget: draws the view model sent from Python as CSS grids, with a hover
// tooltip, click-to-highlight of a device's shards, zoom and scrolling.
import { textColorFor } from "./sharding_contrast.js";
import {
  cellRecords,
  cellsHolding,
  compactTracks,
  fitZoom,
  gridTracks,
  labelWords,
  neighbourCell,
  refinedFit,
  selectionSummary,
  steppedZoom,
  toggledSelection,
  tooltipPosition,
} from "./sharding_grid.js";
import { element } from "./dom.js";

const LEGEND_LIMIT = 64;

function drawFacet(facet, cells, useColor) {
  const figure = element("figure", "jdw-shw-facet");
  if (facet.title) figure.append(element("figcaption", "", facet.title));
  const frame = element("div", "jdw-shw-frame");
  frame.append(element("div", "jdw-shw-collabel", facet.col_label ? `${facet.col_label} →` : ""));
  frame.append(element("div", "jdw-shw-rowlabel", facet.row_label ? `${facet.row_label} →` : ""));
  const grid = element("div", "jdw-shw-grid");
  grid.setAttribute("role", "grid");
  grid.setAttribute("aria-label", facet.title ? `shards ${facet.title}` : "shards");
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
    box.tabIndex = order === 0 ? 0 : -1; // one tab stop per facet; arrows move within it
    if (useColor && cell.color) {
      box.style.background = cell.color;
      box.style.color = textColorFor(cell.color);
    }
    grid.append(box);
  });
  frame.append(grid);
  figure.append(frame);
  return { figure, grid, facet };
}

function setTracks(drawn, cells, compact) {
  for (const { grid, facet } of drawn) {
    const tracks = compact ? compactTracks(facet, cells) : gridTracks(facet);
    grid.style.gridTemplateColumns = tracks.columns;
    grid.style.gridTemplateRows = tracks.rows;
  }
}

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

function render({ model, el }) {
  const view = model.get("view");
  const cells = cellRecords(view.cells, view.tips);
  const root = element("div", "jdw-shw");
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
  const drawn = view.facets.map((facet) => drawFacet(facet, cells, view.use_color));
  for (const { figure } of drawn) zoomed.append(figure);
  scroll.append(zoomed);
  let compact = false;
  setTracks(drawn, cells, compact);
  const tooltip = element("div", "jdw-shw-tooltip");
  tooltip.hidden = true;
  root.append(head, bar, scroll, drawLegend(view, cells), tooltip);
  el.append(root);

  const cellNodes = [...root.querySelectorAll("[data-cell]")];

  function showSelection() {
    const selected = model.get("selected");
    const lit = new Set(cellsHolding(cells, selected));
    root.classList.toggle("jdw-shw-selecting", selected.length > 0);
    for (const node of cellNodes) {
      const on = lit.has(Number(node.dataset.cell));
      node.classList.toggle("jdw-shw-on", on);
      if (node.getAttribute("role") === "gridcell") node.setAttribute("aria-selected", String(on));
    }
    status.textContent = selectionSummary(cells, selected);
  }

  function showZoom() {
    const zoom = model.get("zoom");
    zoomed.style.fontSize = `calc(var(--jp-code-font-size, 13px) * ${zoom})`;
    zoomLabel.textContent = `${Math.round(zoom * 100)}%`;
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
    setTracks(drawn, cells, on);
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

  function cellOf(target) {
    const node = target.closest?.("[data-cell]");
    return node && root.contains(node) ? Number(node.dataset.cell) : null;
  }

  root.addEventListener("click", (event) => {
    const index = cellOf(event.target);
    if (index !== null) toggle(index);
  });
  root.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    model.set("selected", []);
    model.save_changes();
  });
  // Keys on a focused cell are the grid's: taken at the window, before the notebook's own
  // shortcuts (Notebook 7 binds the arrows and Enter for its cells) can act on them.
  function onCellKey(event) {
    const node = event.target;
    if (!(node instanceof Element) || !root.contains(node)) return;
    if (node.getAttribute("role") !== "gridcell") return;
    const index = Number(node.dataset.cell);
    if (event.key === "Enter" || event.key === " ") {
      toggle(index);
    } else if (event.key === "Escape") {
      model.set("selected", []);
      model.save_changes();
    } else {
      const grid = node.parentElement;
      const facet = drawn.find((d) => d.grid === grid)?.facet;
      const next = facet ? neighbourCell(facet, index, event.key) : null;
      if (next === null) return;
      const target = grid.querySelector(`[data-cell="${next}"]`);
      node.tabIndex = -1;
      target.tabIndex = 0;
      target.focus();
    }
    event.preventDefault();
    event.stopPropagation();
  }
  window.addEventListener("keydown", onCellKey, true);
  scroll.addEventListener("focusin", (event) => {
    const index = event.target.getAttribute?.("role") === "gridcell" ? cellOf(event.target) : null;
    if (index === null) return;
    const rect = event.target.getBoundingClientRect();
    showTooltip(index, rect.right, rect.bottom);
  });
  scroll.addEventListener("focusout", () => {
    tooltip.hidden = true;
  });
  scroll.addEventListener("pointermove", (event) => {
    const index = event.target.closest?.(".jdw-shw-cell") ? cellOf(event.target) : null;
    if (index === null) {
      tooltip.hidden = true;
      return;
    }
    showTooltip(index, event.clientX, event.clientY);
  });
  scroll.addEventListener("pointerleave", () => {
    tooltip.hidden = true;
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
  fit.addEventListener("click", () => {
    if (zoomed.scrollWidth > scroll.clientWidth) setCompact(true);
    requestAnimationFrame(() => {
      const before = { zoom: model.get("zoom"), width: zoomed.scrollWidth };
      const first = fitZoom(before.zoom, before.width, scroll.clientWidth);
      setZoom(first);
      requestAnimationFrame(() => {
        const width = zoomed.scrollWidth;
        if (width <= scroll.clientWidth) return;
        setZoom(refinedFit(before.zoom, before.width, first, width, scroll.clientWidth));
      });
    });
  });

  model.on("change:selected", showSelection);
  model.on("change:zoom", showZoom);
  showSelection();
  showZoom();
  return () => {
    window.removeEventListener("keydown", onCellKey, true);
    model.off("change:selected", showSelection);
    model.off("change:zoom", showZoom);
  };
}

export default { render };
