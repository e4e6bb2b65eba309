import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import widget from "../comms.js";
import { FakeEvent, installDom, outputElement } from "./fake_dom.mjs";
import { FakeModel } from "./fake_model.mjs";
import { assertEveryControlKeepsItsKeys } from "./shortcuts.mjs";

let dom;
beforeEach(() => {
  dom = installDom();
});
afterEach(() => dom.restore());

const SPLIT = {
  kind: "NamedSharding",
  summary: ["shape (4, 2) float32", "mesh y=2", "P('y')", "2 devices, 2 shards"],
  use_color: true,
  facets: [
    {
      title: "",
      rows: 2,
      cols: 1,
      row_label: "dim 0: y",
      col_label: "dim 1",
      col_widths: [12],
      row_heights: [5, 5],
      cells: [
        [0, 0, 0],
        [1, 0, 1],
      ],
    },
  ],
  cells: {
    label: ["CPU 0", "CPU 1"],
    devices: [[0], [1]],
    index: ["[0:2, 0:2]", "[2:4, 0:2]"],
    tip: [0, 0],
    color: ["#393B79", "#DE9ED6"],
  },
  tips: [["CPU", "process 0", "shard shape (2, 2)\n16 bytes"]],
  processes: [[0, "0-1"]],
};

function line(number, collectives, extra = {}) {
  return {
    file: "/u/model.py",
    line: number,
    function: "step",
    origin: "stack frames",
    label: `line ${number} of model.py`,
    callers: [],
    sent: 100,
    human: "100 B",
    collectives,
    loops: [],
    ...extra,
  };
}

function mapView() {
  return {
    head: "communication map · jit_step · 2 devices · 2 collectives · 40 HLO instructions",
    name: "jit_step",
    partitions: 2,
    instructions: 40,
    summary: ["1 all-gather (100 B per device per step) on axis 'y', from line 41 of model.py"],
    kinds: ["all-gather", "all-reduce"],
    axes: ["'y'"],
    collectives: [
      [0, "ag", "f32[4,2]", 16, 0, 2, 0, 0],
      [1, "ar", "f32[2]", 8, 0, 2, 3, 1],
    ],
    lines: [
      line(41, [0]),
      line(43, [1], { loops: [3], callers: ["model.py:90 <module>"] }),
      line(7, [1], { file: "/gone/old.py", label: "line 7 of old.py" }),
      line(null, [0], { file: "", label: "op jit(step)/psum" }),
    ],
    sources: [
      {
        file: "/u/model.py",
        name: "model.py",
        lines: [
          [40, "def step(w):"],
          [41, "    w = gather(w)"],
          [42, "    y = w * 2"],
          [43, "    return psum(y)"],
        ],
      },
    ],
    axis_totals: [["'y'", 16, "16 B"]],
    heat: {
      rows: 1,
      cols: 2,
      row_label: "",
      col_label: "y",
      title: "mesh y=2",
      cells: [
        [0, 0, 0],
        [0, 1, 1],
      ],
      devices: [
        [0, 16, 1],
        [1, 0, 0],
      ],
      palette: ["#FFFFCC", "#800026"],
      text: ["#000000", "#FFFFFF"],
      ticks: ["0 B", "8 B", "16 B"],
    },
    inputs: [["args[0]", "(4, 2)", "float32", "P('y')"]],
    outputs: [["out", "(4, 2)", "float32", "P()"]],
    mismatches: [["args[1]", "device 0 only (uncommitted)", "P('y')"]],
    memory: { rows: [["argument", "32 B"]], peak: "64 B", notes: [] },
    remat: [],
    unread: [["bad", "all-reduce", "unknown replica group form"]],
    mesh: { axes: ["y"], shape: [2], types: ["Auto"] },
    notes: ["read from saved HLO text"],
  };
}

function draw() {
  const el = outputElement(document);
  const model = new FakeModel("CommsModel", { view: mapView(), line: -1, line_view: {} });
  const close = widget.render({ model, el });
  return { model, el, close, root: el.querySelector(".jdw-comms") };
}

test("source lines carry their collectives and only annotated lines take focus", () => {
  const { root } = draw();
  assert.match(root.querySelector(".jdw-comms-head").textContent, /· 2 collectives ·/);
  const lines = root.querySelectorAll(".jdw-comms-line");
  assert.equal(lines.length, 6);
  const hot = root.querySelectorAll(".jdw-comms-hot");
  assert.deepEqual(hot.map((n) => n.dataset.line), ["0", "1", "2", "3"]);
  assert.deepEqual(hot.map((n) => n.tabIndex), [0, -1, -1, -1]);
  assert.match(hot[2].textContent, /line 7 of old.py/); // its file is not readable here
  assert.match(hot[3].textContent, /op jit\(step\)\/psum \(no line in the HLO\)/);
  assert.match(hot[0].textContent, /1× all-gather · 100 B\/step · 'y'/);
  assert.match(hot[1].textContent, /in a loop \(×3\)/);
  assert.match(root.textContent, /unread: 1 instruction\(s\) not counted/);
  assert.match(root.textContent, /copied before every call/);
  const cells = root.querySelectorAll(".jdw-comms-cell");
  assert.equal(cells[0].style.background, "#800026");
  assert.match(cells[0].title, /device 0: 16 bytes sent per step/);
});

test("a click picks a line; its diagrams draw when they arrive; Escape clears", () => {
  const { model, root } = draw();
  root.querySelectorAll(".jdw-comms-hot")[0].click();
  assert.deepEqual(model.saved, [{ line: 0 }]);
  const detail = root.querySelector(".jdw-comms-detail");
  assert.match(detail.textContent, /line 41 of model.py \(step\)/);
  assert.match(detail.textContent, /drawing shardings/);
  model.set("line_view", {
    line: 0,
    items: [{ collective: 0, title: "all-gather ag", note: "operand split", operand: SPLIT, result: null }],
    more: 0,
  });
  assert.equal(detail.querySelectorAll(".jdw-comms-diagram").length, 1);
  assert.doesNotMatch(detail.textContent, /drawing shardings/);
  root.dispatchEvent(new FakeEvent("keydown", { key: "Escape" }));
  assert.equal(model.get("line"), -1);
  assert.equal(detail.children.length, 0);
});

test("arrow keys move focus between annotated lines and Enter picks", () => {
  const { model, root } = draw();
  const hot = root.querySelectorAll(".jdw-comms-hot");
  hot[0].dispatchEvent(new FakeEvent("keydown", { key: "ArrowDown" }));
  assert.deepEqual(hot.map((n) => n.tabIndex), [-1, 0, -1, -1]);
  hot[1].dispatchEvent(new FakeEvent("keydown", { key: "Enter" }));
  assert.equal(model.get("line"), 1);
  assert.match(root.querySelector(".jdw-comms-detail").textContent, /called from model.py:90/);
});

test("every focusable control keeps its keys from the notebook's shortcuts: the annotated source lines", () => {
  const { root } = draw();
  assertEveryControlKeepsItsKeys(root, { atLeast: 1 });
});

test("a heatmap listed row by row is placed by the grid; one with holes is placed cell by cell", () => {
  const { root } = draw();
  const cells = root.querySelectorAll(".jdw-comms-cell");
  assert.deepEqual(cells.map((c) => c.style.gridRow), [undefined, undefined]);
  dom.restore();
  dom = installDom();
  const el = outputElement(document);
  const view = mapView();
  view.heat.cells = [
    [0, 1, 0],
    [0, 0, 1],
  ];
  const model = new FakeModel("CommsModel", { view, line: -1, line_view: {} });
  widget.render({ model, el });
  const placed = el.querySelectorAll(".jdw-comms-cell");
  assert.deepEqual(placed.map((c) => [c.style.gridRow, c.style.gridColumn]), [["1", "2"], ["1", "1"]]);
});

/** A rows x cols mesh heatmap, one device per place, levels cycling through the palette. */
function bigHeat(rows, cols) {
  const count = rows * cols;
  return {
    rows,
    cols,
    row_label: "data",
    col_label: "model",
    title: `mesh data=${rows} model=${cols}`,
    cells: [...Array(count).keys()].map((i) => [Math.floor(i / cols), i % cols, i]),
    devices: [...Array(count).keys()].map((i) => [i, i * 1000, i % 2]),
    palette: ["#FFFFCC", "#800026"],
    text: ["#000000", "#FFFFFF"],
    ticks: ["0 B", "2 MiB", "4 MiB"],
  };
}

class FillRecorder {
  constructor() {
    this.fills = [];
  }

  scale(x, y) {
    this.scaled = [x, y];
  }

  fillRect(x, y, width, height) {
    this.fills.push([this.fillStyle, x, y, width, height]);
  }
}

test("a large mesh's heatmap is one canvas, filled once per device, with a tooltip per device", () => {
  const ctx = new FillRecorder();
  const create = document.createElement.bind(document);
  document.createElement = (tag) => {
    const node = create(tag);
    if (tag === "canvas") node.getContext = () => ctx;
    return node;
  };
  const el = outputElement(document);
  const view = mapView();
  view.heat = bigHeat(64, 64);
  widget.render({ model: new FakeModel("CommsModel", { view, line: -1, line_view: {} }), el });
  assert.equal(el.querySelectorAll(".jdw-comms-cell").length, 0);
  const canvas = el.querySelector(".jdw-comms-canvas");
  assert.equal(canvas.dataset.devices, "4096");
  assert.equal(canvas.style.width, "704px"); // 64 cells of 10 px, 1 px apart
  assert.equal(ctx.fills.length, 4096);
  const at = ctx.fills.find(([, x, y]) => x === 11 && y === 22); // row 2, column 1: device 129
  assert.deepEqual(at, ["#800026", 11, 22, 10, 10]);
  canvas.dispatchEvent(new FakeEvent("mousemove", { clientX: 12, clientY: 25 }));
  assert.equal(canvas.title, "device 129: 129,000 bytes sent per step");
  canvas.dispatchEvent(new FakeEvent("mousemove", { clientX: 800, clientY: 5 }));
  assert.equal(canvas.title, "");
});

test("a long program shardings table shows its first 200 rows and says how many there are", () => {
  const el = outputElement(document);
  const view = mapView();
  view.inputs = [...Array(250).keys()].map((i) => [`args[${i}]`, "(4,)", "float32", "P()"]);
  widget.render({ model: new FakeModel("CommsModel", { view, line: -1, line_view: {} }), el });
  const tables = el.querySelectorAll(".jdw-comms-table");
  const shardings = tables.find((t) => /args\[0\]/.test(t.textContent));
  assert.equal(shardings.querySelectorAll("tr").length, 201); // header and 200 rows
  assert.match(el.textContent, /the first 200 of 251 inputs and outputs/);
});
