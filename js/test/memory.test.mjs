import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import widget from "../memory.js";
import { FakeEvent, installDom, outputElement } from "./fake_dom.mjs";
import { FakeModel } from "./fake_model.mjs";
import { assertEveryControlKeepsItsKeys } from "./shortcuts.mjs";

let dom;
beforeEach(() => {
  dom = installDom();
});
afterEach(() => dom.restore());

function device(id, bytes, human) {
  return {
    id,
    process: 0,
    platform: "CPU",
    bytes,
    human,
    color: id === 0 ? "#800026" : "#FFFFCC",
    text: id === 0 ? "#FFFFFF" : "#000000",
    tooltip: [`device ${id} · CPU · process 0`, `${human} (${bytes} bytes) in 2 leaves`],
  };
}

/** Three leaves on four devices (2 x 2): `w` split over all, `embed` replicated, `b` uneven. */
function mapView() {
  return {
    source: "pytree",
    summary: ["3 leaves", "6.00 KiB on 4 devices"],
    grid: {
      rows: 2,
      cols: 2,
      row_label: "data",
      col_label: "model",
      title: "mesh data=2 model=2",
      cells: [
        [0, 0, 0],
        [0, 1, 1],
        [1, 0, 2],
        [1, 1, 3],
      ],
    },
    devices: [device(0, 2048, "2.00 KiB"), device(1, 1536, "1.50 KiB"), device(2, 1280, "1.25 KiB"),
      device(3, 1280, "1.25 KiB")],
    legend: { colors: ["#FFFFCC", "#FD8D3C", "#800026"], ticks: ["0 B", "1.00 KiB", "2.00 KiB"] },
    processes: [[0, 6144, "6.00 KiB"]],
    limits: "device memory limits: not reported by CPU devices",
    leaves: [
      ["w", 0, 0],
      ["embed", 0, 1],
      ["b", 1, 2],
    ],
    dtypes: [
      ["float32", 4],
      ["int8", 1],
    ],
    flagged: [1],
    groups: [
      { set: 0, elements: 64, shape: "(16, 16)", spec: "P('data', 'model')", shard_shape: "(8, 8)",
        replication: 1, total_elements: 256, max_elements: 64 },
      { set: 0, elements: 256, shape: "(256,)", spec: "P()", shard_shape: "(256,)",
        replication: 4, total_elements: 1024, max_elements: 256 },
      { set: 1, elements: [512, 256], shape: "(768,)", spec: "P('x')", shard_shape: "(512,)",
        replication: 1, total_elements: 768, max_elements: 512 },
    ],
    device_sets: [
      [0, 1, 2, 3],
      [0, 1],
    ],
    flag_note: "fully replicated and at least 20% of the fullest device",
    program: null,
    notes: ["skipped 1 leaf: not a device array (1)"],
  };
}

/** The sharding diagram Python sends for leaf 1 (`embed`, replicated on the four devices). */
function embedDiagram() {
  return {
    leaf: 1,
    kind: "NamedSharding",
    summary: ["shape (256,) float32", "4 devices, 1 shard", "fully replicated"],
    use_color: true,
    facets: [
      { title: "", rows: 1, cols: 1, row_label: "", col_label: "", col_widths: [14],
        row_heights: [null], cells: [[0, 0, 0]] },
    ],
    cells: { label: ["CPU 0-3"], devices: [[0, 1, 2, 3]], index: ["[0:256]"], tip: [0],
      color: ["#EEEEEE"] },
    tips: [["CPU", "process 0", "shard shape (256,)\n1,024 bytes"]],
    processes: [[0, "0-3"]],
  };
}

function draw(view = mapView()) {
  const model = new FakeModel("MemoryModel", { view, device: -1, leaf: -1, leaf_view: {} });
  const el = outputElement(dom.document);
  const close = widget.render({ model, el });
  return { model, el, close, root: el.querySelector(".jdw-mem") };
}

const tablePaths = (box) =>
  box.querySelectorAll("tr[data-leaf] .jdw-mem-leaf").map((button) => button.textContent);

test("render draws the heatmap, notes and the leaf table, most bytes per device first", () => {
  const { root } = draw();
  assert.equal(root.querySelector(".jdw-mem-head").textContent,
    "memory map · pytree · 3 leaves · 6.00 KiB on 4 devices");
  const cells = root.querySelectorAll(".jdw-mem-cell");
  const texts = cells.map((c) => c.textContent);
  assert.deepEqual(texts, ["02.00 KiB", "11.50 KiB", "21.25 KiB", "31.25 KiB"]);
  assert.equal(cells[0].style.background, "#800026");
  assert.deepEqual(cells.map((c) => c.tabIndex), [0, -1, -1, -1]);
  const notes = root.querySelector(".jdw-mem-notes").textContent;
  assert.match(notes, /not reported by CPU devices/);
  assert.match(notes, /skipped 1 leaf/);
  assert.equal(root.querySelector(".jdw-mem-program"), null);
  const table = root.querySelector(".jdw-mem-leaves");
  assert.deepEqual(tablePaths(table), ["embed", "b", "w"]);
  const embed = table.querySelector('tr[data-leaf="1"]');
  assert.ok(embed.classList.contains("jdw-mem-flag"));
  assert.match(embed.textContent, /4 ⚠ replicated/);
  assert.match(table.textContent, /leaves \(3 of 3\)/);
});

test("sort buttons and the filter box reorder and narrow the table", () => {
  const { root } = draw();
  const table = root.querySelector(".jdw-mem-leaves");
  table.querySelector('[data-sort="path"]').click();
  assert.deepEqual(tablePaths(root.querySelector(".jdw-mem-leaves")), ["b", "embed", "w"]);
  root.querySelector('.jdw-mem-leaves [data-sort="path"]').click();
  assert.deepEqual(tablePaths(root.querySelector(".jdw-mem-leaves")), ["w", "embed", "b"]);
  const filter = root.querySelector(".jdw-mem-filter");
  filter.value = "EM";
  filter.dispatchEvent(new FakeEvent("input"));
  assert.deepEqual(tablePaths(root.querySelector(".jdw-mem-leaves")), ["embed"]);
  assert.match(root.querySelector(".jdw-mem-leaves").textContent, /leaves \(1 of 3\)/);
});

test("a device click selects it and lists its leaves; a second click unselects", () => {
  const { model, root } = draw();
  const cells = root.querySelectorAll(".jdw-mem-cell");
  cells[2].click();
  assert.deepEqual(model.saved, [{ device: 2 }]);
  assert.ok(cells[2].classList.contains("jdw-mem-on"));
  const panel = root.querySelector(".jdw-mem-device");
  assert.equal(panel.querySelector(".jdw-mem-title").textContent,
    "device 2 · CPU · process 0: 1.25 KiB in 2 leaves");
  assert.deepEqual(tablePaths(panel), ["embed", "w"], "b is not on device 2");
  cells[0].click();
  assert.deepEqual(tablePaths(root.querySelector(".jdw-mem-device")), ["embed", "b", "w"]);
  cells[0].click();
  assert.equal(model.get("device"), -1);
  assert.equal(root.querySelector(".jdw-mem-device").children.length, 0);
});

test("arrow keys walk the heatmap and hovering describes a device", () => {
  const { root } = draw();
  const cells = root.querySelectorAll(".jdw-mem-cell");
  cells[0].focus();
  assert.match(root.querySelector(".jdw-mem-status").textContent, /^device 0 · CPU/);
  cells[0].dispatchEvent(new FakeEvent("keydown", { key: "ArrowDown" }));
  assert.equal(dom.document.activeElement, cells[2]);
  assert.deepEqual(cells.map((c) => c.tabIndex), [-1, -1, 0, -1]);
  cells[3].dispatchEvent(new FakeEvent("pointermove", { clientX: 1, clientY: 1 }));
  const tooltip = root.querySelector(".jdw-shw-tooltip");
  assert.equal(tooltip.hidden, false);
  const lines = "device 3 · CPU · process 0\n1.25 KiB (1280 bytes) in 2 leaves";
  assert.equal(tooltip.textContent, lines);
});

test("a leaf click asks for its diagram, which is drawn when the kernel sends it", () => {
  const { model, root } = draw();
  root.querySelector('.jdw-mem-leaves tr[data-leaf="1"] .jdw-mem-leaf').click();
  assert.deepEqual(model.saved, [{ leaf: 1 }]);
  const diagram = root.querySelector(".jdw-mem-diagram");
  assert.equal(diagram.children.length, 0, "no diagram before the kernel sends one");
  model.update("leaf_view", embedDiagram());
  assert.equal(diagram.querySelector(".jdw-mem-title").textContent, "sharding of embed");
  const shard = diagram.querySelectorAll('.jdw-shw [role="gridcell"]');
  assert.deepEqual(shard.map((c) => c.textContent), ["CPU 0-3"]);
  shard[0].click();
  assert.deepEqual(model.saved, [{ leaf: 1 }], "the diagram's own clicks stay in the page");
  root.dispatchEvent(new FakeEvent("keydown", { key: "Escape" }));
  assert.deepEqual(model.saved.at(-1), { device: -1, leaf: -1 });
  assert.equal(diagram.children.length, 0);
});

test("a compiled program's analysis is drawn, and closing drops every listener", () => {
  const view = mapView();
  view.program = {
    rows: [["arguments", 4096, "4.00 KiB"], ["temporaries", null, "not reported"]],
    peak: [4096, "4.00 KiB"],
    notes: ["host memory not counted"],
    devices: [0, 1, 2, 3],
    device_rows: [],
  };
  const { model, root, close } = draw(view);
  const program = root.querySelector(".jdw-mem-program");
  assert.deepEqual(program.querySelectorAll("tr").map((r) => r.textContent),
    ["arguments4.00 KiB", "temporariesnot reported", "peak estimate4.00 KiB"]);
  model.update("leaf", 1);
  model.update("leaf_view", embedDiagram());
  close();
  assert.equal(model.listenerCount(), 0);
  assert.equal(dom.window.listenerCount("keydown"), 0, "the nested diagram is closed too");
});

test("a device running a program lists its temporaries and aliased bytes, adding up to its total", () => {
  const view = mapView();
  view.program = {
    rows: [["temporary", 512, "512 B"]],
    peak: [2560, "2.50 KiB"],
    notes: [],
    devices: [0],
    device_rows: [
      ["XLA temporaries", 512, "512 B"],
      ["aliased: outputs reusing donated arguments, counted once", -256, "−256 B"],
    ],
  };
  const { root } = draw(view);
  const cells = root.querySelectorAll(".jdw-mem-cell");
  cells[0].click();
  const extra = root.querySelector(".jdw-mem-device").querySelectorAll("tr.jdw-mem-extra");
  assert.deepEqual(extra.map((r) => r.textContent),
    ["XLA temporaries512 B", "aliased: outputs reusing donated arguments, counted once−256 B"]);
  cells[1].click();
  assert.equal(root.querySelector(".jdw-mem-device").querySelectorAll("tr.jdw-mem-extra").length,
    0, "device 1 does not run the program");
});

test("Escape still clears the selection after a sort click redraws the table", () => {
  const { model, root } = draw();
  root.querySelectorAll(".jdw-mem-cell")[0].click();
  root.querySelector('.jdw-mem-leaves [data-sort="path"]').click();
  const focused = dom.document.activeElement;
  assert.equal(focused.dataset.sort, "path", "the redrawn sort button has the focus");
  assert.ok(root.contains(focused));
  focused.dispatchEvent(new FakeEvent("keydown", { key: "Escape" }));
  assert.equal(model.get("device"), -1);
});

test("every focusable control keeps its keys from the notebook's shortcuts: the heatmap cells, sort buttons and leaf rows", () => {
  const { root } = draw();
  assertEveryControlKeepsItsKeys(root, { atLeast: 2 });
});
