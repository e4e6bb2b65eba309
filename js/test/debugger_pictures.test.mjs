// The debugger's pictures: an array local's thumbnail asks for `p name`, and a `p` result that
// is an array draws its picture under the text.
import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import widget from "../debugger.js";
import { FakeEvent, installDom, outputElement } from "./fake_dom.mjs";
import { FakeModel } from "./fake_model.mjs";

let dom;
beforeEach(() => {
  dom = installDom();
});
afterEach(() => dom.restore());

const PNG = "data:image/png;base64,iVBORw0KGgo=";

function picture() {
  return {
    path: "x",
    title: "x: float32[3, 4]",
    label: "picture of x: float32[3, 4], min 0, max 11",
    layout: "grid",
    shape: [3, 4],
    dtype: "float32",
    summary: ["min 0 · max 11 · mean 5.5", "NaN 1"],
    scalar: "",
    grid: [3, 4],
    factor: [1, 1],
    panels: [{ title: "", index: [], png: PNG, width: 4, height: 3, shards: [], marks: [], values: null }],
    hidden: 0,
    sliders: [],
    scale: { cmap: "viridis", vmin: 0, vmax: 11, low: "0", high: "11", stops: ["#440154"], diverging: false },
    specials: [
      { name: "NaN", color: "#ff00ff", count: 1 },
      { name: "+Inf", color: "#00ff00", count: 0 },
      { name: "-Inf", color: "#00ffff", count: 0 },
    ],
    histogram: { counts: [2, 3], low: "0", high: "11", step: 1 },
    shards: [],
    spec: "",
    line: null,
  };
}

function view(transcript) {
  return {
    status: "waiting",
    header: { file: "m.py", line: 3, function: "f", thread: "main thread", batch: null, stop: "breakpoint #1", location: "f (m.py:3)" },
    frames: [{ function: "f", file: "m.py", line: 3, internal: false }],
    selected: 0,
    show_internal: false,
    internal_count: 0,
    source: { first: 1, current: 0, lines: ["x = 1"] },
    locals: [
      {
        name: "x",
        type: "ndarray",
        batched: false,
        summary: { shape: [3, 4], dtype: "float32", min: 0, max: 11, nan: 1 },
        thumb: PNG,
      },
      { name: "y", type: "float", batched: false, repr: "6.0" },
    ],
    transcript,
    history: [],
  };
}

function mount(state) {
  const model = new FakeModel("DebuggerModel", { view: state }, { messageType: "DebuggerMessage" });
  const el = outputElement(dom.document);
  widget.render({ model, el });
  return { model, el };
}

test("an array local shows a thumbnail whose click asks for its picture", () => {
  const { model, el } = mount(view([]));
  const thumbs = el.querySelectorAll(".jaxdbg-dbg-thumb");
  assert.equal(thumbs.length, 1); // the float has none
  assert.equal(thumbs[0].getAttribute("aria-label"), "picture of x");
  assert.equal(thumbs[0].querySelector("img").src, PNG);
  thumbs[0].dispatchEvent(new FakeEvent("click"));
  assert.deepEqual(model.sent.at(-1), { type: "command", line: "p x" });
});

test("a p result that is an array draws its picture under the text", () => {
  const { el } = mount(
    view([
      { command: "p y", output: "6.0", error: false },
      { command: "p x", output: "array([[...]])", error: false, picture: picture() },
    ]),
  );
  const figures = el.querySelectorAll(".jaxdbg-dbg-transcript .jdw-pic-one");
  assert.equal(figures.length, 1);
  assert.equal(figures[0].querySelector(".jdw-pic-title").textContent, "x: float32[3, 4]");
  assert.equal(figures[0].querySelector("img").src, PNG);
  const frame = figures[0].querySelector(".jdw-pic-frame");
  assert.equal(frame.getAttribute("aria-label"), "picture of x: float32[3, 4], min 0, max 11");
  frame.dispatchEvent(new FakeEvent("mousemove", { offsetX: 30, offsetY: 30 }));
  assert.equal(frame.title, "[1, 1]");
  const specials = figures[0].querySelectorAll(".jdw-pic-special").map((row) => row.textContent);
  assert.deepEqual(specials, ["NaN 1", "+Inf 0", "-Inf 0"]);
});

test("a transcript holding a picture grows to show it whole, from the latest command's top", () => {
  const { el } = mount(
    view([
      { command: "p y", output: "6.0", error: false },
      { command: "p x", output: "array([[...]])", error: false, picture: picture() },
    ]),
  );
  const pane = el.querySelector(".jaxdbg-dbg-transcript");
  assert.ok(pane.classList.contains("jaxdbg-drawn"));
  const text = mount(view([{ command: "p y", output: "6.0", error: false }])).el;
  assert.ok(!text.querySelector(".jaxdbg-dbg-transcript").classList.contains("jaxdbg-drawn"));
});
