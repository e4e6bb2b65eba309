import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import widget from "../sharding.js";
import { mount } from "../standalone.js";
import { CANVAS_CELLS, DIMMED, MIN_TEXT_PX } from "../sharding_canvas.js";
import { FakeEvent, installDom, outputElement } from "./fake_dom.mjs";
import { FakeModel } from "./fake_model.mjs";
import { assertEveryControlKeepsItsKeys } from "./shortcuts.mjs";

const BASE_PX = 13;
const CH = 0.6; // the fake font's character width, in em

/** A canvas 2-D context that keeps every drawing call and measures text in a fixed-width font. */
class RecordingContext {
  constructor() {
    this.calls = [];
    this.font = "10px monospace";
    this.globalAlpha = 1;
  }

  measureText(text) {
    return { width: text.length * parseFloat(this.font.replace(/^bold /, "")) * CH };
  }

  setTransform(...matrix) {
    this.matrix = matrix;
  }

  fillRect(x, y, width, height) {
    const [style, alpha] = [this.fillStyle, this.globalAlpha];
    this.calls.push({ op: "fillRect", x, y, width, height, style, alpha });
  }

  clearRect(x, y, width, height) {
    this.calls.push({ op: "clearRect", x, y, width, height });
  }

  strokeRect(x, y, width, height) {
    this.calls.push({ op: "strokeRect", x, y, width, height, style: this.strokeStyle });
  }

  fillText(text, x, y) {
    this.calls.push({ op: "fillText", text, x, y, font: this.font, style: this.fillStyle });
  }
}

// The font size a node inherits: 13px times the zoom its `.jdw-shw-zoom` ancestor carries.
function fakeComputedStyle(node) {
  let zoom = 1;
  for (let at = node; at; at = at.parentElement) {
    const found = /\* ([\d.e-]+)\)$/.exec(at.style?.fontSize ?? "");
    if (found) {
      zoom = Number(found[1]);
      break;
    }
  }
  const vars = { "--jdw-shw-gap": "#101010", "--jdw-shw-on": "#ff8800" };
  return {
    fontSize: `${BASE_PX * zoom}px`,
    fontFamily: "monospace",
    getPropertyValue: (name) => vars[name] ?? "",
  };
}

let dom;
let contexts;
beforeEach(() => {
  dom = installDom();
  contexts = [];
  const create = dom.document.createElement.bind(dom.document);
  dom.document.createElement = (tag) => {
    const node = create(tag);
    if (tag === "canvas") {
      node.getContext = (kind) => {
        assert.equal(kind, "2d");
        node.context ??= new RecordingContext();
        if (!contexts.includes(node.context)) contexts.push(node.context);
        return node.context;
      };
    }
    return node;
  };
  globalThis.getComputedStyle = fakeComputedStyle;
});
afterEach(() => {
  delete globalThis.getComputedStyle;
  dom.restore();
});

/** A rows x cols pod, one device per shard, two processes. */
function podView(rows, cols) {
  const count = rows * cols;
  const ids = [...Array(count).keys()];
  return {
    kind: "GridSharding",
    summary: [`shape (${rows * 4}, ${cols * 4}) float32`, `${count} devices, ${count} shards`],
    use_color: true,
    facets: [
      {
        title: "",
        rows,
        cols,
        row_label: "dim 0",
        col_label: "dim 1",
        col_widths: new Array(cols).fill(14),
        row_heights: new Array(rows).fill(1),
        cells: ids.map((i) => [Math.floor(i / cols), i % cols, i]),
      },
    ],
    cells: {
      label: ids.map((i) => `TPU ${i} p${i < count / 2 ? 0 : 1}`),
      devices: ids.map((i) => [i]),
      index: ids.map((i) => {
        const [row, col] = [Math.floor(i / cols) * 4, (i % cols) * 4];
        return `[${row}:${row + 4}, ${col}:${col + 4}]`;
      }),
      tip: ids.map((i) => (i < count / 2 ? 0 : 1)),
      color: ids.map((i) => (i % 2 ? "#FFFFFF" : "#000080")),
    },
    tips: [
      ["TPU", "process 0", "shard shape (4, 4)"],
      ["TPU", "process 1", "shard shape (4, 4)"],
    ],
    processes: [
      [0, `0-${count / 2 - 1}`],
      [1, `${count / 2}-${count - 1}`],
    ],
  };
}

/** Draws a pod in a scroll box of `width` x `height` px and runs the frames that follow. */
function draw(view, { width = 600, height = 300 } = {}) {
  const model = new FakeModel("ShardingModel", { view, selected: [], zoom: 1 });
  const el = outputElement(dom.document);
  const close = widget.render({ model, el });
  const root = el.querySelector(".jdw-shw");
  const scroll = root.querySelector(".jdw-shw-scroll");
  scroll.clientWidth = width;
  scroll.clientHeight = height;
  dom.runFrames();
  return { model, root, scroll, close, grid: root.querySelector(".jdw-shw-grid") };
}

function nodeCount(node) {
  return node.childNodes.reduce((sum, child) => sum + nodeCount(child), 1);
}

const CELL_W = 14 * BASE_PX * CH;
const CELL_H = 1.25 * BASE_PX;
/** The point at the middle of the cell at `row`, `col` of a pod at 100%. */
function middle(row, col) {
  return {
    clientX: 1 + col * (CELL_W + 1) + CELL_W / 2,
    clientY: 1 + row * (CELL_H + 1) + CELL_H / 2,
  };
}

/** Asserts a CSS length in px is `expected` to within rounding. */
function assertPx(actual, expected) {
  assert.ok(Math.abs(parseFloat(actual) - expected) < 1e-6, `${actual} is not ${expected}px`);
}

const painted = (context, op) => context.calls.filter((call) => call.op === op);

test("past CANVAS_CELLS shards the grid is a canvas: as many nodes at 4,096 as at 1,024", () => {
  assert.equal(CANVAS_CELLS, 256);
  const big = draw(podView(64, 64));
  const medium = draw(podView(32, 32));
  assert.equal(big.root.querySelectorAll(".jdw-shw-cell").length, 0);
  assert.equal(big.root.querySelectorAll("canvas").length, 2, "the cells and the highlight");
  assert.equal(nodeCount(big.root), nodeCount(medium.root));
  assert.ok(nodeCount(big.root) < 60, `${nodeCount(big.root)} nodes`);
  const small = draw(podView(16, 16));
  assert.equal(small.root.querySelectorAll(".jdw-shw-cell").length, 256, "small grids: the DOM");
});

test("the grid is sized in px from the font, and only the cells in view are painted", () => {
  const { grid } = draw(podView(64, 64), { width: 600, height: 300 });
  assertPx(grid.style.width, 1 + 64 * (CELL_W + 1));
  assertPx(grid.style.height, 1 + 64 * (CELL_H + 1));
  const [context] = contexts;
  const cells = painted(context, "fillRect").slice(1); // after the gaps' background
  const columns = Math.ceil((600 + 128) / (CELL_W + 1));
  const rows = Math.ceil((300 + 128) / (CELL_H + 1));
  assert.ok(cells.length <= columns * rows, `${cells.length} cells painted`);
  assert.ok(cells.length >= (columns - 1) * (rows - 1), `${cells.length} cells painted`);
  assert.equal(painted(context, "fillRect")[0].style, "#101010", "gaps in the theme's colour");
  const at = (x, y) => cells.find((c) => Math.abs(c.x - x) < 1e-6 && Math.abs(c.y - y) < 1e-6);
  assert.deepEqual([at(1, 1).style, at(2 + CELL_W, 1).style], ["#000080", "#FFFFFF"]);
  const labels = painted(context, "fillText");
  assert.equal(labels[0].text, "TPU 0 p0");
  assert.equal(labels[0].font, `${BASE_PX}px monospace`);
});

test("the canvas draws a line inside each cell before a shard of another process", () => {
  const view = podView(64, 64);
  view.process_edges = Array.from({ length: 64 }, (_, col) => [31 * 64 + col, 2]);
  const { root } = draw(view, { width: 600, height: 1200 });
  const [context] = contexts;
  const lines = painted(context, "fillRect").filter((c) => c.style === "#1f1f1f");
  assert.ok(lines.length > 0, "the boundary between rows 31 and 32 is in view");
  const y = 1 + 31 * (CELL_H + 1) + CELL_H - 3;
  assert.ok(lines.every((line) => Math.abs(line.y - y) < 1e-6 && line.height === 3));
  assert.ok(lines.every((line) => Math.abs(line.width - CELL_W) < 1e-6));
  const canvas = root.querySelector(".jdw-shw-marks");
  const marks = contexts[1];
  canvas.dispatchEvent(new FakeEvent("mousedown", middle(31, 5)));
  canvas.dispatchEvent(new FakeEvent("click", middle(31, 5)));
  marks.calls = [];
  dom.runFrames();
  const kept = painted(marks, "fillRect").filter((c) => c.style === "#1f1f1f");
  assert.equal(kept.length, 1, "a highlighted cell keeps its process line");
  assert.ok(Math.abs(kept[0].y - y) < 1e-6);
});

test("a click on the canvas highlights the shards of its device, outlined, the rest dimmed", () => {
  const { model, root, grid } = draw(podView(64, 64));
  const canvas = grid.querySelector(".jdw-shw-marks");
  const [cellsLayer, marks] = contexts;
  cellsLayer.calls = [];
  canvas.dispatchEvent(new FakeEvent("mousedown", middle(2, 5)));
  canvas.dispatchEvent(new FakeEvent("click", middle(2, 5)));
  assert.deepEqual(model.get("selected"), [2 * 64 + 5]);
  const status = root.querySelector(".jdw-shw-status").textContent;
  assert.equal(status, "device 133: 1 shard [8:12, 20:24]");
  const focus = grid.querySelector('[role="gridcell"]');
  assert.equal(focus.dataset.cell, "133", "the focus follows the click");
  assert.equal(focus.getAttribute("aria-selected"), "true");
  marks.calls = [];
  dom.runFrames();
  assert.deepEqual(cellsLayer.calls, [], "the cells are not drawn again");
  const [veil] = painted(marks, "fillRect");
  assert.equal(veil.style, "#101010");
  assert.equal(veil.alpha, 1 - DIMMED, "every cell left at DIMMED of its colour");
  const cut = painted(marks, "clearRect").slice(1); // after clearing the layer
  assert.deepEqual(cut.map(({ x, y }) => [x, y]), [[1 + 5 * (CELL_W + 1), 1 + 2 * (CELL_H + 1)]]);
  const bold = painted(marks, "fillText");
  assert.deepEqual(
    bold.map((t) => [t.text, t.font, t.style]),
    [["TPU 133 p0", "bold 13px monospace", "#000000"]],
  );
  const outlines = painted(marks, "strokeRect");
  assert.equal(outlines.length, 1);
  assert.equal(outlines[0].style, "#ff8800");
  canvas.dispatchEvent(new FakeEvent("click", { clientX: 0.5, clientY: 0.5 }));
  assert.deepEqual(model.get("selected"), [0], "a click on the border selects the nearest cell");
  const gap = { clientX: 1 + 5 * (CELL_W + 1) - 0.3, clientY: 1 + 2 * (CELL_H + 1) + 1 };
  canvas.dispatchEvent(new FakeEvent("click", gap)); // the line just left of row 2, column 5
  assert.deepEqual(model.get("selected"), [133], "a click on a gap selects the nearest cell");
  root.dispatchEvent(new FakeEvent("keydown", { key: "Escape" }));
  assert.deepEqual(model.get("selected"), []);
  marks.calls = [];
  dom.runFrames();
  assert.deepEqual(marks.calls.map((c) => c.op), ["clearRect"], "the highlight is gone");
});

test("hovering the canvas shows the cell's tooltip and outlines it; leaving hides both", () => {
  const { root, grid, scroll } = draw(podView(64, 64));
  const canvas = grid.querySelector(".jdw-shw-marks");
  const tooltip = root.querySelector(".jdw-shw-tooltip");
  const hover = grid.querySelector(".jdw-shw-hoverbox");
  canvas.dispatchEvent(new FakeEvent("pointermove", middle(63, 63)));
  assert.equal(tooltip.hidden, false);
  assert.deepEqual(tooltip.textContent.split("\n"), [
    "TPU 4095",
    "process 1",
    "index [252:256, 252:256]",
    "shard shape (4, 4)",
  ]);
  assert.equal(hover.hidden, false);
  assertPx(hover.style.left, 1 + 63 * (CELL_W + 1));
  scroll.dispatchEvent(new FakeEvent("pointerleave", { bubbles: false }));
  assert.equal(tooltip.hidden, true);
  assert.equal(hover.hidden, true);
});

test("one stand-in cell takes the focus; arrows, Home and End move it, Enter selects", () => {
  const { model, root, grid } = draw(podView(64, 64));
  let notebookSaw = 0;
  dom.document.body.addEventListener("keydown", () => {
    notebookSaw += 1;
  });
  const focused = () => dom.document.activeElement;
  grid.querySelector('[role="gridcell"]').focus();
  assert.equal(focused().dataset.cell, "0");
  const key = (name) => focused().dispatchEvent(new FakeEvent("keydown", { key: name }));
  key("ArrowRight");
  key("ArrowDown");
  assert.equal(focused().dataset.cell, "65");
  assertPx(focused().style.left, 1 + (CELL_W + 1));
  assert.equal(grid.querySelectorAll('[role="gridcell"]').length, 1);
  const label = focused().getAttribute("aria-label");
  assert.equal(label, "TPU 65, process 0, index [4:8, 4:8], shard shape (4, 4)");
  const tooltip = root.querySelector(".jdw-shw-tooltip");
  assert.equal(tooltip.hidden, false);
  assert.equal(tooltip.textContent.split("\n")[0], "TPU 65");
  key("End");
  assert.equal(focused().dataset.cell, "4095");
  key("Enter");
  assert.deepEqual(model.get("selected"), [4095]);
  key("Escape");
  assert.deepEqual(model.get("selected"), []);
  assert.equal(notebookSaw, 0);
  assertEveryControlKeepsItsKeys(root, { atLeast: 5 });
});

test("zoom lays the canvas grid out again; fitting switches to compact labels", () => {
  const { model, root, grid } = draw(podView(64, 64));
  const [zoomOut, , , fit] = root.querySelector(".jdw-shw-bar").children;
  zoomOut.click();
  const px = BASE_PX * model.get("zoom");
  assertPx(grid.style.width, 1 + 64 * (14 * px * CH + 1));
  root.querySelector(".jdw-shw-zoom").scrollWidth = 800; // the box is 600px wide
  fit.click();
  assert.ok(root.classList.contains("jdw-shw-compact"));
  assert.equal(model.get("zoom"), 0.6, "fitted at once, without waiting for a frame");
  const compactWidth = 1 + 64 * ((String(4095).length + 1) * BASE_PX * 0.6 * CH + 1);
  assertPx(grid.style.width, compactWidth);
  const [context] = contexts;
  context.calls = [];
  dom.runFrames();
  const lines = painted(context, "fillText").map((t) => t.text);
  assert.equal(lines[0], "0 p0");
  assert.ok(!lines.some((line) => line.includes("TPU")), "the platform is in the header");
});

test("labels below the smallest readable size are not drawn; the colours are", () => {
  const { model } = draw(podView(64, 64));
  const [context] = contexts;
  model.update("zoom", (MIN_TEXT_PX - 0.5) / BASE_PX);
  context.calls = [];
  dom.runFrames();
  assert.equal(painted(context, "fillText").length, 0);
  assert.ok(painted(context, "fillRect").length > 1);
});

test("without a 2-D canvas context the grid falls back to one element per shard", () => {
  dom.document.createElement = ((create) => (tag) => {
    const node = create(tag);
    if (tag === "canvas") node.getContext = () => null;
    return node;
  })(dom.document.createElement);
  const { root } = draw(podView(32, 32));
  assert.equal(root.querySelectorAll(".jdw-shw-cell").length, 1024);
});

test("closing stops listening to the scroll box, the window and the model", () => {
  const { model, scroll, close } = draw(podView(64, 64));
  assert.equal(scroll.listenerCount("scroll"), 1);
  close();
  assert.equal(scroll.listenerCount("scroll"), 0);
  assert.equal(dom.window.listenerCount("keydown"), 0);
  assert.equal(model.listenerCount(), 0);
});

test("a smaller grid cuts its canvases at once, so that a fit measures the grid alone", () => {
  const { root, grid } = draw(podView(64, 64), { width: 600, height: 300 });
  const canvases = grid.querySelectorAll("canvas");
  assertPx(canvases[0].style.width, 600 + 128);
  root.querySelector(".jdw-shw-zoom").scrollWidth = 5000;
  root.querySelector(".jdw-shw-bar").children[3].click(); // fit, before any frame is drawn
  const width = parseFloat(grid.style.width);
  assert.ok(width < 600, `grid ${width}px`);
  for (const canvas of canvases) {
    assertPx(canvas.style.width, width - parseFloat(canvas.style.left));
  }
});

test("a saved output of a large view draws its canvas in place of the static twin", () => {
  const host = outputElement(dom.document);
  const twin = dom.document.createElement("div");
  twin.className = "jdw-standalone-static";
  const data = dom.document.createElement("script");
  data.setAttribute("type", "application/json");
  data.textContent = JSON.stringify({ state: { view: podView(32, 32), selected: [], zoom: 1 } });
  host.append(twin, data);
  const model = mount(host, widget);
  assert.equal(host.querySelector(".jdw-standalone-static"), null);
  const scroll = host.querySelector(".jdw-shw-scroll");
  scroll.clientWidth = 400;
  scroll.clientHeight = 200;
  dom.runFrames();
  assert.ok(painted(contexts[0], "fillRect").length > 1);
  host.querySelector(".jdw-shw-marks").dispatchEvent(new FakeEvent("click", middle(0, 3)));
  assert.deepEqual(model.get("selected"), [3]);
});
