import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import widget, { percent, stepText, timelineKey, timelineScale } from "../peak.js";
import { FakeEvent, installDom, outputElement } from "./fake_dom.mjs";
import { FakeModel } from "./fake_model.mjs";

let dom;
beforeEach(() => {
  dom = installDom();
});
afterEach(() => dom.restore());

const row = (bytes, size, kind, shape, line) => ({ bytes, size, kind, shape, line });

/** A scan's gradient, plain: lines out of order by label, largest first by bytes. */
function plain() {
  return {
    name: "plain", peak: 42991628, peak_text: "41.0 MiB", xla_peak: 42467328,
    xla_text: "40.5 MiB", agreement: "agrees with XLA's memory analysis (40.5 MiB, ratio 1.012)",
    agrees: true, flops: 806748160, flops_text: "0.81 GFLOPs", devices: [0],
    fit: { capacity: 25165824, fits: false, text: "does NOT fit in 24.0 MiB: 17.0 MiB over" },
    lines: [
      { label: "In[3]:10 (loss)", bytes: 31457292, size: "30.0 MiB", share: 0.732,
        code: "h, _ = jax.lax.scan(layer, x, ws)", buffers: [1, 2], more: 0 },
      { label: "arguments", bytes: 8912896, size: "8.50 MiB", share: 0.207, code: "",
        buffers: [0, 3], more: 0 },
      { label: "In[3]:6 (layer)", bytes: 2097152, size: "2.00 MiB", share: 0.049,
        code: "return jnp.tanh(jnp.tanh(h @ w) @ w), None", buffers: [4], more: 1 },
    ],
    more_lines: 0,
    buffers: [
      row(8388608, "8.00 MiB", "argument", "f32[8,512,512]", "ws"),
      row(8388608, "8.00 MiB", "output", "f32[8,512,512]", "In[3]:10 (loss)"),
      row(4194304, "4.00 MiB", "residual", "f32[8,256,512]", "In[3]:10 (loss)"),
      row(524288, "512 KiB", "argument", "f32[256,512]", "x"),
      row(1048576, "1.00 MiB", "in a loop", "f32[512,512]", "In[3]:6 (layer)"),
    ],
    top: 4, more_buffers: 2,
    timeline: [[0, 9437184], [1, 20971520], [2, 42991628], [3, 30000000]],
    steps: 4, peak_step: 2, notes: [],
  };
}

function remat() {
  return { ...plain(), name: "remat", peak: 26214400, peak_text: "25.0 MiB", flops_text: "1.08 GFLOPs",
    lines: [{ label: "In[3]:10 (loss)", bytes: 14155776, size: "13.5 MiB", share: 0.54,
      code: "h, _ = jax.lax.scan(layer, x, ws)", buffers: [1], more: 0 }],
    timeline: [[0, 9437184], [1, 26214400]], steps: 2, peak_step: 1, notes: ["a note"] };
}

function draw(variants = [plain(), remat()]) {
  const model = new FakeModel("PeakModel", { view: { variants }, variant: 0, line: -1 });
  const el = outputElement(dom.document);
  const close = widget.render({ model, el });
  return { model, el, close, root: el.querySelector(".jdw-pk") };
}

const labels = (root) => root.querySelectorAll(".jdw-pk-bar .jdw-pk-label").map((l) => l.textContent);

test("bars list the lines largest first, each with its share of the peak", () => {
  const { root } = draw([plain()]);
  assert.deepEqual(labels(root), ["In[3]:10 (loss)", "arguments", "In[3]:6 (layer)"]);
  const fills = root.querySelectorAll(".jdw-pk-fill").map((f) => parseFloat(f.style.width));
  assert.deepEqual(fills.map((f) => Math.round(f * 10) / 10), [73.2, 20.7, 4.9]);
  assert.equal(root.querySelectorAll(".jdw-pk-share")[0].textContent, "73.2% · 30.0 MiB");
  assert.equal(root.querySelector(".jdw-pk-variants"), null, "one variant: no selector");
  assert.match(root.querySelector(".jdw-pk-title").textContent, /^plain: peak 41.0 MiB per device \(devices 0\)/);
  assert.equal(root.querySelector(".jdw-pk-over").textContent, "does NOT fit in 24.0 MiB: 17.0 MiB over");
});

test("a click on a bar opens its code and buffers; a second click closes it", () => {
  const { model, root } = draw();
  assert.equal(root.querySelector(".jdw-pk-details"), null);
  root.querySelectorAll(".jdw-pk-bar")[0].click();
  assert.equal(model.get("line"), 0);
  assert.deepEqual(model.saved, [{ line: 0 }]);
  const details = root.querySelector(".jdw-pk-details");
  assert.equal(details.querySelector(".jdw-pk-code").textContent, "h, _ = jax.lax.scan(layer, x, ws)");
  const shapes = details.querySelectorAll("tbody tr").map((tr) => tr.children[2].textContent);
  assert.deepEqual(shapes, ["f32[8,512,512]", "f32[8,256,512]"]);
  assert.equal(root.querySelector(".jdw-pk-open").getAttribute("aria-expanded"), "true");
  root.querySelectorAll(".jdw-pk-bar")[0].click();
  assert.equal(model.get("line"), -1);
  assert.equal(root.querySelector(".jdw-pk-details"), null);
});

test("Enter or Space on a focused bar opens it and keeps the focus there", () => {
  const { model, root } = draw();
  const bar = root.querySelectorAll(".jdw-pk-bar")[2];
  assert.equal(bar.tabIndex, 0);
  bar.focus();
  const enter = new FakeEvent("keydown", { key: "Enter" });
  bar.dispatchEvent(enter);
  assert.ok(enter.defaultPrevented);
  assert.equal(model.get("line"), 2);
  assert.equal(dom.document.activeElement, root.querySelectorAll(".jdw-pk-bar")[2]);
  assert.match(root.querySelector(".jdw-pk-details").textContent, /and 1 more buffers/);
  root.querySelectorAll(".jdw-pk-bar")[1].dispatchEvent(new FakeEvent("keydown", { key: " " }));
  assert.equal(model.get("line"), 1);
  assert.match(root.querySelector(".jdw-pk-details").textContent, /no source code to show/);
});

test("the variant table compares peaks and FLOPs; a row switches the view", () => {
  const { model, root } = draw();
  const rows = root.querySelectorAll(".jdw-pk-variants tbody tr");
  assert.deepEqual(rows.map((r) => r.children.map((td) => td.textContent)), [
    ["plain", "41.0 MiB", "40.5 MiB", "0.81 GFLOPs", "over"],
    ["remat", "25.0 MiB", "40.5 MiB", "1.08 GFLOPs", "over"],
  ]);
  assert.equal(rows[0].getAttribute("aria-pressed"), "true");
  root.querySelectorAll(".jdw-pk-bar")[1].click();
  root.querySelectorAll(".jdw-pk-variants tbody tr")[1].click();
  assert.equal(model.get("variant"), 1);
  assert.equal(model.get("line"), -1, "a new variant opens with its lines closed");
  assert.deepEqual(labels(root), ["In[3]:10 (loss)"]);
  assert.match(root.querySelector(".jdw-pk-title").textContent, /^remat: peak 25.0 MiB/);
  assert.equal(root.querySelectorAll(".jdw-pk-variants tbody tr")[1].getAttribute("aria-pressed"), "true");
  assert.match(root.textContent, /note: a note/);
});

test("the timeline marks the peak and reads the bytes of the step under the pointer or keys", () => {
  const { root } = draw([plain()]);
  const bars = root.querySelectorAll(".jdw-pk-chart rect");
  assert.deepEqual(bars.slice(0, 4).map((b) => b.getAttribute("class")),
    ["jdw-pk-step", "jdw-pk-step", "jdw-pk-peak", "jdw-pk-step"]);
  assert.equal(root.querySelectorAll(".jdw-pk-fitline").length, 1); // 24 MiB is in scale
  const reader = root.querySelector(".jdw-pk-reader");
  assert.equal(reader.textContent, "step 3 of 4: 41.0 MiB in use (the peak)");
  const frame = root.querySelector(".jdw-pk-frame");
  frame.getBoundingClientRect = () => ({ left: 100, width: 400 });
  frame.dispatchEvent(new FakeEvent("mousemove", { clientX: 150 }));
  assert.equal(reader.textContent, "step 1 of 4: 9.00 MiB in use");
  frame.dispatchEvent(new FakeEvent("keydown", { key: "ArrowRight" }));
  assert.equal(reader.textContent, "step 2 of 4: 20.0 MiB in use");
  assert.equal(frame.getAttribute("aria-valuenow"), "2");
  frame.dispatchEvent(new FakeEvent("keydown", { key: "End" }));
  assert.match(reader.textContent, /^step 4 of 4/);
  frame.dispatchEvent(new FakeEvent("mouseleave", { bubbles: false }));
  assert.equal(reader.textContent, "step 3 of 4: 41.0 MiB in use (the peak)");
});

test("closing stops listening", () => {
  const { model, root, close } = draw();
  close();
  model.update("variant", 1);
  assert.match(root.querySelector(".jdw-pk-title").textContent, /^plain/);
  assert.equal(model.listenerCount(), 0);
});

test("helpers: shares, steps, keys and the scale", () => {
  assert.equal(percent(0.7317), "73.2%");
  assert.equal(stepText(plain(), 0), "step 1 of 4: 9.00 MiB in use");
  assert.equal(timelineKey("ArrowLeft", 0, 4, 2), 0);
  assert.equal(timelineKey("p", 0, 4, 2), 2);
  assert.equal(timelineKey("x", 0, 4, 2), null);
  const far = { ...plain(), fit: { capacity: 2 ** 34, fits: true, text: "" } };
  assert.deepEqual(timelineScale(far), { top: 42991628, fitShown: false });
  assert.deepEqual(timelineScale(plain()), { top: 42991628, fitShown: true });
});

test("the line of bytes between buffers opens to say no buffer holds them, with no table", () => {
  const gaps = { label: "between buffers (XLA's alignment and packing)", bytes: 1048660,
    size: "1.00 MiB", share: 0.024, code: "", buffers: [], more: 0 };
  const variant = { ...plain(), lines: [...plain().lines, gaps] };
  const { root } = draw([variant]);
  root.querySelectorAll(".jdw-pk-bar")[3].click();
  const details = root.querySelector(".jdw-pk-details");
  assert.equal(details.querySelector(".jdw-pk-dim").textContent, "(bytes no buffer holds)");
  assert.equal(details.querySelector("table"), null);
});
