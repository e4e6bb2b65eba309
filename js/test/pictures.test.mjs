import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import widget, { deviceName, OFFLINE_SLIDER, OFFLINE_VALUE } from "../pictures.js";
import { FakeEvent, installDom, outputElement } from "./fake_dom.mjs";
import { FakeModel } from "./fake_model.mjs";
import { assertEveryControlKeepsItsKeys } from "./shortcuts.mjs";

let dom;
beforeEach(() => {
  dom = installDom();
});
afterEach(() => dom.restore());

const PNG = "data:image/png;base64,iVBORw0KGgo=";

function pictureView(extra = {}) {
  return {
    path: "['x']",
    title: "['x']: float32[1000, 1000]",
    label: "picture of ['x']: float32[1000, 1000], min -1, max 2",
    layout: "grid",
    shape: [1000, 1000],
    dtype: "float32",
    summary: ["min -1 · max 2 · mean 0.5", "reduced 3×3: each cell is a block's mean"],
    scalar: "",
    grid: [1000, 1000],
    factor: [3, 3],
    panels: [{ title: "", index: [], png: PNG, width: 334, height: 334, shards: [0, 1], marks: [], values: null }],
    hidden: 0,
    sliders: [],
    scale: { cmap: "RdBu_r", vmin: -2, vmax: 2, low: "-2", high: "2", stops: ["#000000", "#ffffff"], diverging: true },
    specials: [
      { name: "NaN", color: "#ff00ff", count: 1 },
      { name: "+Inf", color: "#00ff00", count: 0 },
      { name: "-Inf", color: "#00ffff", count: 0 },
    ],
    histogram: { counts: [1, 0, 3], low: "-1", high: "2", step: 1 },
    shards: [
      { rows: [0, 500], cols: [0, 1000], label: "CPU 0,2", devices: [0, 2], platform: "CPU" },
      { rows: [500, 1000], cols: [0, 1000], label: "CPU 1,3", devices: [1, 3], platform: "CPU" },
    ],
    spec: "P('x')",
    line: null,
    ...extra,
  };
}

function mount(view) {
  const model = new FakeModel("PicturesModel", { view, probe: {} }, { messageType: "PictureMessage" });
  const el = outputElement(dom.document);
  widget.render({ model, el });
  return { model, el };
}

test("draws the title, image, legend, specials, histogram and an aria label", () => {
  const { el } = mount({ pictures: [pictureView()], skipped: [] });
  assert.equal(el.querySelector(".jdw-pic-title").textContent, "['x']: float32[1000, 1000]");
  const frame = el.querySelector(".jdw-pic-frame");
  assert.equal(frame.getAttribute("aria-label"), "picture of ['x']: float32[1000, 1000], min -1, max 2");
  assert.equal(frame.tabIndex, 0);
  assert.equal(el.querySelector("img").src, PNG);
  assert.equal(el.querySelectorAll(".jdw-pic-shard").length, 2);
  assert.equal(el.querySelectorAll("rect").length, 2); // empty bins draw nothing
  const specials = el.querySelectorAll(".jdw-pic-special").map((row) => row.textContent);
  assert.deepEqual(specials, ["NaN 1", "+Inf 0", "-Inf 0"]);
});

test("hovering a reduced cell asks the kernel, and its answer fills the tooltip", () => {
  const { model, el } = mount({ pictures: [pictureView()], skipped: [] });
  const frame = el.querySelector(".jdw-pic-frame");
  frame.dispatchEvent(new FakeEvent("mousemove", { offsetX: 167, offsetY: 100 }));
  assert.deepEqual(model.sent, [{ event: "probe", picture: 0, panel: 0, index: [299, 500] }]);
  const tip = el.querySelector(".jdw-pic-tip");
  assert.equal(tip.textContent, "[299, 500] = …");
  model.set("probe", { picture: 0, panel: 0, index: [299, 500], text: "0.3125" });
  assert.equal(tip.textContent, "[299, 500] = 0.3125");
  model.set("probe", { picture: 0, panel: 0, index: [1, 1], text: "9" }); // a stale answer
  assert.equal(tip.textContent, "[299, 500] = 0.3125");
  frame.dispatchEvent(new FakeEvent("mouseleave"));
  assert.equal(tip.hidden, true);
});

test("a panel with its values shows them at once without asking", () => {
  const small = pictureView({
    grid: [2, 2],
    factor: [1, 1],
    shards: [],
    panels: [{ title: "", index: [], png: PNG, width: 2, height: 2, shards: [], marks: [], values: ["1", "2", "3", "4"] }],
  });
  const { model, el } = mount({ pictures: [small], skipped: [] });
  const frame = el.querySelector(".jdw-pic-frame");
  frame.dispatchEvent(new FakeEvent("mousemove", { offsetX: 30, offsetY: 30 })); // 24 px cells
  assert.equal(el.querySelector(".jdw-pic-tip").textContent, "[1, 1] = 4");
  assert.deepEqual(model.sent, []);
});

test("arrow keys walk the cells from the keyboard", () => {
  const small = pictureView({
    grid: [2, 2],
    factor: [1, 1],
    shards: [],
    panels: [{ title: "", index: [], png: PNG, width: 2, height: 2, shards: [], marks: [], values: ["1", "2", "3", "4"] }],
  });
  const { el } = mount({ pictures: [small], skipped: [] });
  const frame = el.querySelector(".jdw-pic-frame");
  frame.dispatchEvent(new FakeEvent("keydown", { key: "ArrowRight" }));
  assert.equal(el.querySelector(".jdw-pic-tip").textContent, "[0, 0] = 1");
  frame.dispatchEvent(new FakeEvent("keydown", { key: "ArrowRight" }));
  frame.dispatchEvent(new FakeEvent("keydown", { key: "ArrowDown" }));
  assert.equal(el.querySelector(".jdw-pic-tip").textContent, "[1, 1] = 4");
});

test("clicking a shard lights its devices and only its own box", () => {
  const { el } = mount({ pictures: [pictureView()], skipped: [] });
  const frame = el.querySelector(".jdw-pic-frame");
  frame.dispatchEvent(new FakeEvent("click", { offsetX: 10, offsetY: 300 })); // row 898: shard 1
  const lit = el.querySelectorAll(".jdw-pic-lit").map((chip) => chip.textContent);
  assert.deepEqual(lit, ["CPU 1", "CPU 3"]); // named as the shard labels name them
  const picked = el.querySelectorAll(".jdw-pic-picked").map((box) => box.dataset.shard);
  assert.deepEqual(picked, ["1"]);
});

test("past 32 devices the strip names the clicked shard and draws only its devices", () => {
  const shards = Array.from({ length: 64 }, (_, i) => ({
    rows: [0, 1000],
    cols: [i * 16, i * 16 + 16],
    label: `CPU ${i}`,
    devices: [i],
    platform: "CPU",
  }));
  const many = pictureView({
    grid: [1000, 1024],
    shards,
    panels: [{ ...pictureView().panels[0], width: 342, shards: shards.map((_, i) => i) }],
  });
  const { el } = mount({ pictures: [many], skipped: [] });
  const strip = el.querySelector(".jdw-pic-devices");
  assert.equal(strip.textContent, "64 devices: click a shard to name its devices");
  assert.equal(el.querySelectorAll(".jdw-pic-device").length, 0);
  const frame = el.querySelector(".jdw-pic-frame");
  frame.dispatchEvent(new FakeEvent("click", { offsetX: 200, offsetY: 10 })); // col 598: shard 37
  const lit = el.querySelectorAll(".jdw-pic-device.jdw-pic-lit").map((chip) => chip.textContent);
  assert.deepEqual(lit, ["CPU 37"]);
  assert.equal(strip.querySelector(".jdw-pic-hint").textContent, "CPU 37: rows 0:1000, columns 592:608");
  frame.dispatchEvent(new FakeEvent("click", { offsetX: 200, offsetY: 10 }));
  assert.equal(el.querySelectorAll(".jdw-pic-device").length, 1);
});

test("a slider asks for another slice, and a new view redraws", () => {
  const sliced = pictureView({
    shape: [4, 1000, 1000],
    sliders: [{ dim: 0, size: 4, value: 0 }],
    panels: [{ title: "[0, :, :]", index: [0], png: PNG, width: 334, height: 334, shards: [], marks: [], values: null }],
  });
  const { model, el } = mount({ pictures: [sliced], skipped: [] });
  const input = el.querySelector("input");
  input.value = "2";
  input.dispatchEvent(new FakeEvent("change"));
  assert.deepEqual(model.sent, [{ event: "slide", picture: 0, panel: 0, index: [2] }]);
  const next = { ...sliced, panels: [{ ...sliced.panels[0], title: "[2, :, :]", index: [2] }] };
  model.set("view", { pictures: [next], skipped: [] });
  assert.equal(el.querySelector(".jdw-pic-ptitle").textContent, "[2, :, :]");
});

test("a scalar shows its value, focusable with its label", () => {
  const scalar = pictureView({ layout: "scalar", scalar: "2.5", panels: [], shards: [] });
  const { el } = mount({ pictures: [scalar], skipped: ["['s'] (str)"] });
  const value = el.querySelector(".jdw-pic-scalar");
  assert.equal(value.textContent, "2.5");
  assert.equal(value.tabIndex, 0);
  assert.match(el.textContent, /not drawn: \['s'\] \(str\)/);
});

test("every focusable control keeps its keys from the notebook's shortcuts: the picture frames", () => {
  const { el } = mount({ pictures: [pictureView()], skipped: [] });
  assertEveryControlKeepsItsKeys(el, { atLeast: 1 });
});

test("a lone special cell is ringed in its special value's colour", () => {
  const marked = pictureView({
    shards: [],
    panels: [{ title: "", index: [], png: PNG, width: 334, height: 334, shards: [], marks: [[270, 1, 0]], values: null }],
  });
  const { el } = mount({ pictures: [marked], skipped: [] });
  const rings = el.querySelectorAll(".jdw-pic-mark");
  assert.equal(rings.length, 1);
  assert.equal(rings[0].style.borderColor, "#ff00ff");
  assert.equal(rings[0].style.top, `${(100 * 270.5) / 334}%`);
});

test("a bool picture is framed and its legend has no histogram and no special values", () => {
  const bool = pictureView({
    dtype: "bool",
    scale: { cmap: "gray", vmin: 0, vmax: 1, low: "False", high: "True", stops: ["#000000", "#ffffff"], diverging: false },
    specials: [],
    histogram: { counts: [], low: "", high: "", step: 1 },
    shards: [],
    panels: [{ title: "", index: [], png: PNG, width: 4, height: 4, shards: [], marks: [], values: null }],
  });
  const { el } = mount({ pictures: [bool, pictureView()], skipped: [] });
  const [framed, plain] = el.querySelectorAll("img");
  assert.match(framed.style.outline, /^1px solid/);
  assert.equal(plain.style.outline ?? "", "");
  const [boolSide] = el.querySelectorAll(".jdw-pic-side");
  assert.equal(boolSide.querySelectorAll("rect").length, 0);
  assert.equal(boolSide.querySelectorAll(".jdw-pic-special").length, 0);
  assert.deepEqual(
    boolSide.querySelectorAll(".jdw-pic-ends")[0].children.map((span) => span.textContent),
    ["False", "gray", "True"],
  );
});

test("a device of a shard with no platform keeps its plain name", () => {
  const view = pictureView();
  assert.equal(deviceName(view, 2), "CPU 2");
  assert.equal(deviceName({ ...view, shards: [{ ...view.shards[0], platform: "" }] }, 2), "device 2");
});

test("a saved picture with no kernel says so instead of asking, and its sliders are off", () => {
  const sliced = pictureView({
    shape: [4, 1000, 1000],
    sliders: [{ dim: 0, size: 4, value: 0 }],
    panels: [{ title: "[0, :, :]", index: [0], png: PNG, width: 334, height: 334, shards: [], marks: [], values: null }],
  });
  const model = new FakeModel("PicturesModel", { view: { pictures: [sliced], skipped: [] }, probe: {} }, { messageType: "PictureMessage" });
  model.offline = true;
  const el = outputElement(dom.document);
  widget.render({ model, el });
  el.querySelector(".jdw-pic-frame").dispatchEvent(new FakeEvent("mousemove", { offsetX: 167, offsetY: 100 }));
  assert.deepEqual(model.sent, []);
  assert.equal(el.querySelector(".jdw-pic-tip").textContent, `[0, 299, 500]: ${OFFLINE_VALUE}`);
  const input = el.querySelector("input");
  assert.equal(input.disabled, true);
  assert.equal(input.title, OFFLINE_SLIDER);
});
