// The sharding grid drawn on canvases, for views with more cells than the DOM grid keeps: each
// facet's canvas covers only the part of the grid the scroll box shows, so the page holds the
// same few elements at 4,096 devices as at 300, and a highlight or a tooltip redraws no more
// than what is in view. One focusable element per facet stands in for the focused cell.
import { textColorFor } from "./sharding_contrast.js";
import { PROCESS_BELOW, PROCESS_RIGHT, neighbourCell } from "./sharding_grid.js";
import { cellRect, facetGeometry, placeAt, placesIn, visiblePart } from "./sharding_geometry.js";
import { facetFrame } from "./sharding_cells.js";
import { element } from "./dom.js";

// Views with more cells than this are drawn on canvases; smaller ones keep an element per cell.
export const CANVAS_CELLS = 256;
// Drawn beyond each edge of the scroll box, so that a scroll shows cells already drawn.
const MARGIN_PX = 128;
// Labels smaller than this are not drawn (they could not be read): the cells keep their colours.
export const MIN_TEXT_PX = 6;
// Cells outside the highlight are drawn at this opacity, as the DOM grid dims them.
export const DIMMED = 0.25;

// The theme colours the canvas needs, each a custom property set in sharding.css from the
// --jp-* variables (with the same fallbacks as the DOM grid), read from the grid element; the
// process line reads the theme's own --jp-ui-font-color1, as the DOM grid's inline line does.
const PALETTE = {
  gap: ["--jdw-shw-gap", "#bdbdbd"],
  cell: ["--jdw-shw-cell", "#ffffff"],
  ink: ["--jdw-shw-ink", "#1f1f1f"],
  on: ["--jdw-shw-on", "#e65100"],
  bound: ["--jp-ui-font-color1", "#1f1f1f"],
};
// How wide the line between cells of different processes is drawn, inside the left cell.
export const PROCESS_LINE_PX = 3;

/** The theme colours for the canvas, read from the custom properties on `node`. */
export function readPalette(node) {
  const style = getComputedStyle(node);
  return Object.fromEntries(
    Object.entries(PALETTE).map(([key, [name, fallback]]) => [
      key,
      style.getPropertyValue(name).trim() || fallback,
    ]),
  );
}

function drawLabel(ctx, rect, lines, lineHeight) {
  const first = rect.y + rect.height / 2 - ((lines.length - 1) * lineHeight) / 2;
  lines.forEach((line, i) => {
    ctx.fillText(line, rect.x + rect.width / 2, first + i * lineHeight);
  });
}

/**
 * Draws the cells of one facet that `part` (a rectangle of the grid) shows, on `ctx` already
 * translated to grid coordinates: the gaps, each cell's colour, then the labels.
 */
export function paintCells(ctx, part, scene) {
  const { geometry, facet, cells, palette, fonts } = scene;
  const places = placesIn(geometry, part);
  ctx.fillStyle = palette.gap;
  ctx.fillRect(part.x, part.y, part.width, part.height);
  // Cells (and labels) of one colour are drawn together: a colour is parsed once, not per cell.
  const byColor = byStyle(places, (index) => (scene.useColor && cells[index].color) || palette.cell, facet);
  for (const [style, orders] of byColor) {
    ctx.fillStyle = style;
    for (const order of orders) {
      const rect = cellRect(geometry, facet, order);
      ctx.fillRect(rect.x, rect.y, rect.width, rect.height);
    }
  }
  paintProcessLines(ctx, places, scene);
  if (!fonts) return;
  ctx.font = fonts.normal;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  const inks = (index) => (scene.useColor && cells[index].color && scene.ink(index)) || palette.ink;
  for (const [style, orders] of byStyle(places, inks, facet)) {
    ctx.fillStyle = style;
    for (const order of orders) {
      drawLabel(ctx, cellRect(geometry, facet, order), geometry.lines[order], geometry.lineHeight);
    }
  }
}

/** `places` grouped by the style `styleOf` gives each one's cell, in first-seen order. */
function byStyle(places, styleOf, facet) {
  const groups = new Map();
  for (const order of places) {
    const style = styleOf(facet.cells[order][2]);
    const group = groups.get(style);
    if (group) group.push(order);
    else groups.set(style, [order]);
  }
  return groups;
}

/** Draws the process boundaries of the cells at `places`: a line inside their right or lower edge. */
function paintProcessLines(ctx, places, scene) {
  const { geometry, facet, cells, palette } = scene;
  ctx.fillStyle = palette.bound;
  for (const order of places) {
    const edge = cells[facet.cells[order][2]].edge;
    if (!edge) continue;
    const rect = cellRect(geometry, facet, order);
    const line = Math.min(PROCESS_LINE_PX, rect.width / 2, rect.height / 2);
    if (edge & PROCESS_RIGHT) ctx.fillRect(rect.x + rect.width - line, rect.y, line, rect.height);
    if (edge & PROCESS_BELOW) ctx.fillRect(rect.x, rect.y + rect.height - line, rect.width, line);
  }
}

/**
 * Draws the highlight over the cells, on a canvas of its own so that a click draws only this:
 * a veil of the gap colour that leaves each cell at DIMMED of its own colour (as the DOM grid's
 * opacity does), cut away over the highlighted cells, whose labels turn bold and which are
 * outlined outside their edges.
 */
export function paintHighlight(ctx, part, scene) {
  const { geometry, facet, cells, lit, palette, fonts } = scene;
  ctx.clearRect(part.x, part.y, part.width, part.height);
  if (lit.size === 0) return;
  const shown = placesIn(geometry, part).filter((order) => lit.has(facet.cells[order][2]));
  ctx.globalAlpha = 1 - DIMMED;
  ctx.fillStyle = palette.gap;
  ctx.fillRect(part.x, part.y, part.width, part.height);
  ctx.globalAlpha = 1;
  if (fonts) {
    ctx.font = fonts.bold;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
  }
  for (const order of shown) {
    const index = facet.cells[order][2];
    const rect = cellRect(geometry, facet, order);
    ctx.clearRect(rect.x, rect.y, rect.width, rect.height);
    if (!fonts) continue;
    ctx.fillStyle = (scene.useColor && cells[index].color) || palette.cell;
    ctx.fillRect(rect.x, rect.y, rect.width, rect.height);
    ctx.fillStyle = (scene.useColor && cells[index].color && scene.ink(index)) || palette.ink;
    drawLabel(ctx, rect, geometry.lines[order], geometry.lineHeight);
  }
  paintProcessLines(ctx, shown, scene);
  ctx.strokeStyle = palette.on;
  ctx.lineWidth = 2;
  for (const order of shown) {
    const rect = cellRect(geometry, facet, order);
    ctx.strokeRect(rect.x - 1, rect.y - 1, rect.width + 2, rect.height + 2);
  }
}

function layer(className) {
  const canvas = element("canvas", className);
  canvas.setAttribute("aria-hidden", "true");
  return { canvas, ctx: canvas.getContext?.("2d") };
}

function place(node, rect) {
  node.style.left = `${rect.x}px`;
  node.style.top = `${rect.y}px`;
  node.style.width = `${rect.width}px`;
  node.style.height = `${rect.height}px`;
}

/** The client-area rectangle of a scroll box (inside its borders, without its scroll bars). */
function clientBox(scroll) {
  const rect = scroll.getBoundingClientRect();
  return {
    left: rect.left + (scroll.clientLeft ?? 0),
    top: rect.top + (scroll.clientTop ?? 0),
    width: scroll.clientWidth,
    height: scroll.clientHeight,
  };
}

/**
 * Each facet's frame with its two canvases (cells, and the highlight over them) and its hover
 * box; its geometry and the part drawn come with the first layout and paint.
 * @param {*} view
 */
function buildFacets(view) {
  return view.facets.map((facet) => {
    const drawn = facetFrame(facet);
    const layers = [layer("jdw-shw-canvas"), layer("jdw-shw-canvas jdw-shw-marks")];
    const hover = element("div", "jdw-shw-hoverbox");
    hover.hidden = true;
    drawn.grid.classList.add("jdw-shw-canvasgrid");
    drawn.grid.setAttribute("aria-rowcount", String(facet.rows));
    drawn.grid.setAttribute("aria-colcount", String(facet.cols));
    drawn.grid.append(...layers.map(({ canvas }) => canvas), hover);
    const orderOf = new Map(facet.cells.map(([, , index], order) => [index, order]));
    const [cellsLayer, marks] = layers;
    return {
      ...drawn,
      layers,
      cellsLayer,
      marks,
      hover,
      orderOf,
      geometry: /** @type {*} */ (null),
      part: /** @type {*} */ (null),
      focus: /** @type {{node: HTMLElement, order: number}|undefined} */ (undefined),
    };
  });
}

/**
 * Everything the canvas surface's functions share, in one object: the cells and facets, the
 * highlight, the font and palette last used, and the animation frames asked for.
 * @param {*} view
 * @param {Array<*>} cells
 * @param {HTMLElement} scroll
 * @param {ReturnType<typeof buildFacets>} facets
 */
function newCanvasState(view, cells, scroll, facets) {
  const inks = new Array(cells.length);
  const s = {
    view,
    cells,
    scroll,
    facets,
    // Black or white, whichever reads better on a cell's colour, worked out when first drawn.
    ink(index) {
      inks[index] ??= textColorFor(cells[index].color);
      return inks[index];
    },
    compact: false,
    lit: new Set(),
    font: /** @type {{px: number, family: string, ch: number}|null} */ (null),
    fonts: /** @type {{normal: string, bold: string}|null} */ (null),
    palette: /** @type {*} */ (null),
    frame: /** @type {number|null} */ (null),
    marksFrame: /** @type {number|null} */ (null),
    schedule: () => {},
  };
  s.schedule = () => {
    s.frame ??= requestAnimationFrame(() => paint(s));
  };
  return s;
}

/**
 * The focusable stand-in for cell `order` of facet `f`: one tab stop per facet; arrows move it.
 * @param {ReturnType<typeof newCanvasState>} s
 * @param {*} f
 * @param {number} order
 */
function focusNode(s, f, order) {
  const index = f.facet.cells[order][2];
  const node = element("div", "jdw-shw-focus");
  node.setAttribute("role", "gridcell");
  node.setAttribute("aria-label", s.cells[index].tooltip.replaceAll("\n", ", "));
  node.setAttribute("aria-selected", String(s.lit.has(index)));
  node.dataset.cell = String(index);
  node.tabIndex = 0; // one tab stop per facet; arrows move it
  if (f.geometry) place(node, cellRect(f.geometry, f.facet, order));
  f.focus = { node, order };
  return node;
}

/**
 * The font the grid inherits at the current zoom (the code font, whose characters are all as
 * wide as its "0"), or null before the grid is in a page.
 * @param {ReturnType<typeof newCanvasState>} s
 */
function currentFont(s) {
  const style = getComputedStyle(s.facets[0].grid);
  const px = parseFloat(style.fontSize);
  if (!(px > 0)) return null;
  const family = style.fontFamily || "monospace";
  const { ctx } = s.facets[0].cellsLayer;
  ctx.font = `${px}px ${family}`;
  return { px, family, ch: ctx.measureText("0").width };
}

/**
 * Lays every facet out in the current font (and compactness), and picks the label fonts.
 * @param {ReturnType<typeof newCanvasState>} s
 */
function layout(s) {
  const { font } = s;
  for (const f of s.facets) {
    const measure = (text) => text.length * font.ch;
    f.geometry = facetGeometry(f.facet, s.cells, { ch: font.ch, em: font.px, compact: s.compact, measure });
    f.grid.style.width = `${f.geometry.width}px`;
    f.grid.style.height = `${f.geometry.height}px`;
    if (f.focus) place(f.focus.node, cellRect(f.geometry, f.facet, f.focus.order));
    f.hover.hidden = true;
    keepInside(f);
  }
  s.fonts =
    font.px >= MIN_TEXT_PX
      ? { normal: `${font.px}px ${font.family}`, bold: `bold ${font.px}px ${font.family}` }
      : null;
}

/**
 * Until the next frame draws them again, the canvases keep their old place; one that would
 * reach past a grid made smaller is cut to it (its picture squeezed for that frame), so that
 * the width a fit measures is the grid's own.
 * @param {*} f a facet
 */
function keepInside(f) {
  if (!f.part) return;
  const width = Math.min(f.part.width, f.geometry.width - f.part.x);
  const height = Math.min(f.part.height, f.geometry.height - f.part.y);
  f.part = width > 0 && height > 0 ? { ...f.part, width, height } : null;
  for (const { canvas } of f.layers) {
    canvas.hidden = f.part === null;
    if (f.part) place(canvas, f.part);
  }
}

/**
 * Draws the cells in view (after a scroll, a resize, a zoom or a theme change), then the
 * highlight; a new highlight alone draws only the highlight's layer.
 * @param {ReturnType<typeof newCanvasState>} s
 */
function paint(s) {
  s.frame = null;
  if (!s.font) return;
  const box = clientBox(s.scroll);
  s.palette = readPalette(s.facets[0].grid);
  const ratio = globalThis.devicePixelRatio || 1;
  for (const f of s.facets) {
    f.part = visiblePart(f.grid.getBoundingClientRect(), box, f.geometry, MARGIN_PX);
    for (const { canvas, ctx } of f.layers) {
      canvas.hidden = f.part === null;
      if (f.part === null) continue;
      place(canvas, f.part);
      canvas.width = Math.ceil(f.part.width * ratio);
      canvas.height = Math.ceil(f.part.height * ratio);
      ctx.setTransform(ratio, 0, 0, ratio, -f.part.x * ratio, -f.part.y * ratio);
    }
    if (f.part) paintCells(f.cellsLayer.ctx, f.part, scene(s, f));
  }
  paintMarks(s);
}

/**
 * Draws the highlight of every facet's part in view.
 * @param {ReturnType<typeof newCanvasState>} s
 */
function paintMarks(s) {
  s.marksFrame = null;
  for (const f of s.facets) {
    if (f.part) paintHighlight(f.marks.ctx, f.part, scene(s, f));
  }
}

/**
 * What `paintCells` and `paintHighlight` draw facet `f` with.
 * @param {ReturnType<typeof newCanvasState>} s
 * @param {*} f
 */
function scene(s, f) {
  const { cells, ink, lit, palette, fonts } = s;
  return { ...f, cells, ink, lit, palette, fonts, useColor: s.view.use_color };
}

/**
 * Asks for the highlight to be drawn in the next frame (all of it, before the first paint).
 * @param {ReturnType<typeof newCanvasState>} s
 */
function scheduleMarks(s) {
  if (s.palette) s.marksFrame ??= requestAnimationFrame(() => paintMarks(s));
  else s.schedule();
}

/**
 * The font follows the zoom: a new size lays the grid out again.
 * @param {ReturnType<typeof newCanvasState>} s
 */
function resize(s) {
  const now = currentFont(s);
  if (now && (now.px !== s.font?.px || now.family !== s.font?.family)) {
    s.font = now;
    layout(s);
  }
  s.schedule();
}

/**
 * The facet and cell (its order in the facet) under a pointer event, or null.
 * @param {ReturnType<typeof newCanvasState>} s
 * @param {*} event
 */
function hit(s, event) {
  const f = s.facets.find(({ grid }) => grid.contains(event.target));
  if (!f?.geometry) return null;
  const rect = f.grid.getBoundingClientRect();
  const order = placeAt(f.geometry, event.clientX - rect.left, event.clientY - rect.top);
  return order < 0 ? null : { f, order };
}

/**
 * Moves facet `f`'s stand-in to cell `order`, returning the new stand-in.
 * @param {ReturnType<typeof newCanvasState>} s
 * @param {*} f
 * @param {number} order
 */
function focusOn(s, f, order) {
  const old = f.focus?.node;
  const node = focusNode(s, f, order);
  old?.remove();
  f.grid.append(node);
  return node;
}

/**
 * Wires the surface to the page: theme changes (JupyterLab marks them on the body) recolour
 * the canvas, a scroll draws what came into view, a press on a cell focuses its stand-in.
 * Returns the function that unwires what outlives the surface's elements.
 * @param {ReturnType<typeof newCanvasState>} s
 * @returns {() => void}
 */
function wireCanvas(s) {
  const theme =
    typeof MutationObserver === "function" ? new MutationObserver(() => s.schedule()) : null;
  theme?.observe(document.body, {
    attributes: true,
    attributeFilter: ["data-jp-theme-name", "data-jp-theme-light"],
  });
  const { schedule } = s;
  s.scroll.addEventListener("scroll", schedule, { passive: true });
  const mousedown = (event) => {
    const found = hit(s, event);
    if (!found) return;
    event.preventDefault(); // the focus goes to the cell's stand-in, not to the widget
    focusOn(s, found.f, found.order).focus({ preventScroll: true });
  };
  for (const f of s.facets) f.grid.addEventListener("mousedown", mousedown);
  return () => {
    theme?.disconnect();
    s.scroll.removeEventListener("scroll", schedule);
  };
}

/**
 * The surface's methods the sharding widget calls (see GridSurface in sharding_cells.js).
 * @param {ReturnType<typeof newCanvasState>} s
 * @param {() => void} close
 * @returns {import("./sharding_cells.js").GridSurface}
 */
function surfaceOf(s, close) {
  const { facets } = s;
  return {
    figures: facets.map(({ figure }) => figure),
    cellAt(event) {
      const found = hit(s, event);
      return found ? found.f.facet.cells[found.order][2] : null;
    },
    hover(event) {
      const found = hit(s, event);
      for (const f of facets) {
        f.hover.hidden = f !== found?.f;
        if (found?.f === f) place(f.hover, cellRect(f.geometry, f.facet, found.order));
      }
    },
    select(on) {
      s.lit = on;
      for (const { focus } of facets) {
        focus?.node.setAttribute("aria-selected", String(s.lit.has(Number(focus.node.dataset.cell))));
      }
      scheduleMarks(s);
    },
    setCompact(on) {
      s.compact = on;
      if (s.font) layout(s);
      s.schedule();
    },
    resize: () => resize(s),
    move(node, key) {
      const f = facets.find((d) => d.focus?.node === node);
      const next = f ? neighbourCell(f.facet, Number(node.dataset.cell), key) : null;
      if (next === null) return null;
      const target = focusOn(s, f, f.orderOf.get(next));
      target.focus();
      return target;
    },
    close,
  };
}

/**
 * The canvas surface, or null where no 2-D canvas context is to be had; `scroll` is the box
 * whose visible part the canvases draw.
 * @returns {import("./sharding_cells.js").GridSurface | null}
 */
export function canvasSurface(view, cells, scroll) {
  const facets = buildFacets(view);
  if (facets.some(({ layers }) => layers.some(({ ctx }) => !ctx))) return null;
  const s = newCanvasState(view, cells, scroll, facets);
  for (const f of facets) {
    if (f.facet.cells.length > 0) f.grid.append(focusNode(s, f, 0));
  }
  return surfaceOf(s, wireCanvas(s));
}
