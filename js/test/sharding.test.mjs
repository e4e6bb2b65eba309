import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import widget from "../sharding.js";
import { FakeEvent, installDom, outputElement } from "./fake_dom.mjs";
import { FakeModel } from "./fake_model.mjs";
import { assertEveryControlKeepsItsKeys } from "./shortcuts.mjs";

let dom;
beforeEach(() => {
  dom = installDom();
});
afterEach(() => dom.restore());

/** A (4, 4) array over 4 devices in a 2 x 2 grid, with replicas of shard 3 on devices 3 and 4. */
function gridView() {
  return {
    kind: "NamedSharding",
    summary: ["shape (4, 4) float32", "mesh x=2 y=2", "5 devices, 4 shards"],
    use_color: true,
    facets: [
      {
        title: "",
        rows: 2,
        cols: 2,
        row_label: "dim 0",
        col_label: "dim 1",
        col_widths: [10, 12],
        row_heights: [2, null],
        cells: [
          [0, 0, 0],
          [0, 1, 1],
          [1, 0, 2],
          [1, 1, 3],
        ],
      },
    ],
    cells: {
      label: ["CPU 0", "CPU 1", "CPU 2", "CPU 3,4"],
      devices: [[0], [1], [2], [3, 4]],
      index: ["[0:2, 0:2]", "[0:2, 2:4]", "[2:4, 0:2]", "[2:4, 2:4]"],
      tip: [0, 0, 0, 0],
      color: ["#FF0000", "#00FF00", "#0000FF", "#FFFFFF"],
    },
    tips: [["CPU", "process 0", "shard shape (2, 2)"]],
    processes: [[0, "0-4"]],
  };
}

function draw(view = gridView()) {
  const model = new FakeModel("ShardingModel", { view, selected: [], zoom: 1 });
  const el = outputElement(dom.document);
  const close = widget.render({ model, el });
  return { model, el, close, root: el.querySelector(".jdw-shw") };
}

const cellsOf = (root) => root.querySelectorAll('[role="gridcell"]');

test("render draws the header, one grid cell per shard with its colour, and the legend", () => {
  const { root } = draw();
  assert.equal(root.querySelector(".jdw-shw-head").textContent,
    "NamedSharding · shape (4, 4) float32 · mesh x=2 y=2 · 5 devices, 4 shards");
  const cells = cellsOf(root);
  assert.deepEqual(cells.map((c) => c.textContent), ["CPU 0", "CPU 1", "CPU 2", "CPU 3,4"]);
  assert.deepEqual(cells.map((c) => [c.style.gridRow, c.style.gridColumn]),
    [["1", "1"], ["1", "2"], ["2", "1"], ["2", "2"]]);
  assert.equal(cells[0].style.background, "#FF0000");
  assert.equal(cells[3].style.color, "#000000", "dark text on a white cell");
  assert.equal(cells[3].getAttribute("aria-label"),
    "CPU 3, 4, process 0, index [2:4, 2:4], shard shape (2, 2)");
  assert.deepEqual(cells.map((c) => c.tabIndex), [0, -1, -1, -1]);
  const grid = root.querySelector(".jdw-shw-grid");
  assert.equal(grid.style.gridTemplateColumns, "10ch 12ch");
  assert.equal(grid.style.gridTemplateRows, "2.5em auto");
  assert.equal(root.querySelectorAll(".jdw-shw-chip").length, 4);
  assert.equal(root.querySelector(".jdw-shw-zoomval").textContent, "100%");
});

test("a line marks where the next shard is held by another process", () => {
  const view = gridView();
  view.cells.label = ["CPU 0 p0", "CPU 1 p1", "CPU 2 p0", "CPU 3,4 p1"];
  view.processes = [[0, "0, 2"], [1, "1, 3-4"]];
  view.process_edges = [[0, 1], [2, 1]];
  const cells = cellsOf(draw(view).root);
  const line = "inset -3px 0 0 var(--jp-ui-font-color1, #1f1f1f)";
  assert.deepEqual(cells.map((c) => c.style.boxShadow ?? ""), [line, "", line, ""]);
  const plain = cellsOf(draw().root).map((c) => c.style.boxShadow ?? "");
  assert.deepEqual(plain, ["", "", "", ""], "one process: no lines");
});

test("a click highlights every shard the device holds, and Escape clears it", () => {
  const { model, root } = draw();
  cellsOf(root)[3].click();
  assert.deepEqual(model.saved, [{ selected: [3, 4] }]);
  const on = cellsOf(root).map((c) => c.classList.contains("jdw-shw-on"));
  assert.deepEqual(on, [false, false, false, true]);
  assert.equal(cellsOf(root)[3].getAttribute("aria-selected"), "true");
  assert.equal(root.querySelector(".jdw-shw-status").textContent,
    "devices 3, 4: 1 shard [2:4, 2:4]");
  root.dispatchEvent(new FakeEvent("keydown", { key: "Escape" }));
  assert.deepEqual(model.get("selected"), []);
  assert.ok(!root.classList.contains("jdw-shw-selecting"));
});

test("a selection set from Python is drawn", () => {
  const { model, root } = draw();
  model.update("selected", [1]);
  assert.deepEqual(cellsOf(root).map((c) => c.classList.contains("jdw-shw-on")),
    [false, true, false, false]);
});

test("arrow keys move the focus between cells before the notebook sees them; Enter selects", () => {
  const { model, root } = draw();
  let notebookSaw = 0;
  dom.document.body.addEventListener("keydown", () => {
    notebookSaw += 1;
  });
  const cells = cellsOf(root);
  cells[0].focus();
  const right = new FakeEvent("keydown", { key: "ArrowRight" });
  cells[0].dispatchEvent(right);
  assert.equal(dom.document.activeElement, cells[1]);
  assert.deepEqual(cells.map((c) => c.tabIndex), [-1, 0, -1, -1]);
  assert.ok(right.defaultPrevented);
  cells[1].dispatchEvent(new FakeEvent("keydown", { key: "ArrowDown" }));
  assert.equal(dom.document.activeElement, cells[3]);
  cells[3].dispatchEvent(new FakeEvent("keydown", { key: "Enter" }));
  assert.deepEqual(model.get("selected"), [3, 4]);
  assert.equal(notebookSaw, 0);
  const tooltip = root.querySelector(".jdw-shw-tooltip");
  assert.equal(tooltip.hidden, false, "a focused cell shows its tooltip");
});

test("hovering shows the tooltip; leaving hides it", () => {
  const { root } = draw();
  const scroll = root.querySelector(".jdw-shw-scroll");
  const tooltip = root.querySelector(".jdw-shw-tooltip");
  cellsOf(root)[2].querySelector(".jdw-shw-label").dispatchEvent(
    new FakeEvent("pointermove", { clientX: 5, clientY: 5 }),
  );
  assert.equal(tooltip.hidden, false);
  assert.equal(tooltip.textContent, "CPU 2\nprocess 0\nindex [2:4, 0:2]\nshard shape (2, 2)");
  scroll.dispatchEvent(new FakeEvent("pointerleave", { bubbles: false }));
  assert.equal(tooltip.hidden, true);
});

test("zoom buttons and ctrl+wheel step the zoom; fit shrinks a grid wider than its box", () => {
  const { model, root } = draw();
  const [zoomOut, , zoomIn, fit] = root.querySelector(".jdw-shw-bar").children;
  zoomIn.click();
  const zoomed = model.get("zoom");
  assert.ok(zoomed > 1);
  assert.equal(root.querySelector(".jdw-shw-zoomval").textContent, `${Math.round(zoomed * 100)}%`);
  zoomOut.click();
  assert.equal(model.get("zoom"), 1);
  const scroll = root.querySelector(".jdw-shw-scroll");
  const wheel = new FakeEvent("wheel", { ctrlKey: true, deltaY: 100 });
  scroll.dispatchEvent(wheel);
  assert.ok(wheel.defaultPrevented);
  assert.ok(model.get("zoom") < 1);
  const grid = root.querySelector(".jdw-shw-zoom");
  grid.scrollWidth = 800;
  scroll.clientWidth = 400;
  fit.click();
  assert.ok(root.classList.contains("jdw-shw-compact"));
  dom.runFrames();
  assert.ok(model.get("zoom") <= 0.5 + 1e-9, `fit zoom ${model.get("zoom")}`);
  assert.ok(model.saved.every((batch) => Object.keys(batch).every((k) => k === "zoom")));
});

test("a grid wider than its output is fitted to the width by default", async () => {
  const wide = draw();
  wide.root.querySelector(".jdw-shw-zoom").scrollWidth = 900;
  wide.root.querySelector(".jdw-shw-scroll").clientWidth = 300;
  const narrow = draw();
  narrow.root.querySelector(".jdw-shw-zoom").scrollWidth = 200;
  narrow.root.querySelector(".jdw-shw-scroll").clientWidth = 300;
  const chosen = draw();
  chosen.model.update("zoom", 2);
  chosen.root.querySelector(".jdw-shw-zoom").scrollWidth = 900;
  chosen.root.querySelector(".jdw-shw-scroll").clientWidth = 300;
  dom.runFrames();
  await new Promise((resolve) => setTimeout(resolve, 0)); // the fit is a task of its own
  assert.ok(wide.model.get("zoom") <= 1 / 3 + 1e-9, `default zoom ${wide.model.get("zoom")}`);
  assert.ok(wide.root.classList.contains("jdw-shw-compact"));
  assert.equal(narrow.model.get("zoom"), 1);
  assert.deepEqual(narrow.model.saved, []);
  assert.equal(chosen.model.get("zoom"), 2, "a chosen zoom is kept");
});

test("closing removes the window key listener and the model listeners", () => {
  const { model, close } = draw();
  assert.equal(dom.window.listenerCount("keydown"), 1);
  close();
  assert.equal(dom.window.listenerCount("keydown"), 0);
  assert.equal(model.listenerCount(), 0);
});

test("every focusable control keeps its keys from the notebook's shortcuts: the grid's cells and buttons", () => {
  const { root } = draw();
  assertEveryControlKeepsItsKeys(root, { atLeast: 2 });
});
