// A print that carried arrays expands into their pictures, drawn from the values it holds.
import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import widget from "../printlog.js";
import { FakeEvent, installDom, outputElement } from "./fake_dom.mjs";
import { FakeModel } from "./fake_model.mjs";

let dom;
beforeEach(() => {
  dom = installDom();
});
afterEach(() => dom.restore());

const PNG = "data:image/png;base64,iVBORw0KGgo=";

function row(index, arrays) {
  return { index, cell: 3, time: "12:00:00.000", site: "In[3]:2 in f", text: "x", values: "x=…", arrays, process: null };
}

function picture(path) {
  return {
    path,
    title: `${path}: float32[8]`,
    label: `picture of ${path}: float32[8], min 0, max 7`,
    layout: "strip",
    shape: [8],
    dtype: "float32",
    summary: ["min 0 · max 7 · mean 3.5"],
    scalar: "",
    grid: [1, 8],
    factor: [1, 1],
    panels: [{ title: "", index: [], png: PNG, width: 8, height: 1, shards: [], marks: [], values: null }],
    hidden: 0,
    sliders: [],
    scale: { cmap: "viridis", vmin: 0, vmax: 7, low: "0", high: "7", stops: ["#440154"], diverging: false },
    specials: [
      { name: "NaN", color: "#ff00ff", count: 0 },
      { name: "+Inf", color: "#00ff00", count: 0 },
      { name: "-Inf", color: "#00ffff", count: 0 },
    ],
    histogram: { counts: [8], low: "0", high: "7", step: 1 },
    shards: [],
    spec: "",
    line: null,
  };
}

function draw() {
  const model = new FakeModel("PrintLogModel", {
    rows: [row(0, 0), row(1, 2)],
    stats: { seen: 2, kept: 2, dropped: 0, matched: 2, capacity: 10000 },
    query: "",
    limit: 200,
    expanded: -1,
    pictures: {},
  });
  const el = outputElement(dom.document);
  widget.render({ model, el });
  return { model, el };
}

test("only a print that carried arrays offers its pictures, and a click expands it", () => {
  const { model, el } = draw();
  const buttons = el.querySelectorAll(".jaxdbg-printlog-expand");
  assert.equal(buttons.length, 1);
  assert.equal(buttons[0].textContent, "▸ 2 pictures");
  assert.equal(buttons[0].getAttribute("aria-expanded"), "false");
  buttons[0].dispatchEvent(new FakeEvent("click"));
  assert.deepEqual(model.saved.at(-1), { expanded: 1 });
});

test("the kernel's pictures draw under their row, and a second click folds them", () => {
  const { model, el } = draw();
  model.update("expanded", 1);
  model.update("pictures", { index: 1, view: { pictures: [picture("x"), picture("y")], skipped: [] } });
  const rows = el.querySelectorAll("tbody tr");
  assert.equal(rows.length, 3);
  assert.equal(rows[2].className, "jaxdbg-printlog-pictures");
  const titles = rows[2].querySelectorAll(".jdw-pic-title").map((t) => t.textContent);
  assert.deepEqual(titles, ["x: float32[8]", "y: float32[8]"]);
  const button = el.querySelector(".jaxdbg-printlog-expand");
  assert.equal(button.textContent, "▾ 2 pictures");
  button.dispatchEvent(new FakeEvent("click"));
  assert.deepEqual(model.saved.at(-1), { expanded: -1 });
});

test("an expanded print gets a pane tall enough for its pictures, and a folded one the plain pane", () => {
  const { model, el } = draw();
  const scroller = el.querySelector(".jaxdbg-printlog-scroll");
  assert.ok(!scroller.classList.contains("jaxdbg-drawn"));
  model.update("expanded", 1);
  model.update("pictures", { index: 1, view: { pictures: [picture("x"), picture("y")], skipped: [] } });
  assert.ok(scroller.classList.contains("jaxdbg-drawn"));
  model.update("expanded", -1);
  model.update("pictures", {});
  assert.ok(!scroller.classList.contains("jaxdbg-drawn"));
});
