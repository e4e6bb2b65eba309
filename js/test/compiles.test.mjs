import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import widget, { seconds, sortedRows } from "../compiles.js";
import { installDom, outputElement } from "./fake_dom.mjs";
import { FakeModel } from "./fake_model.mjs";

let dom;
beforeEach(() => {
  dom = installDom();
});
afterEach(() => dom.restore());

/** Two functions: `step` traced twice at one line (a new batch shape), `loss` once. */
function reportView() {
  return {
    headline: "compiles · 3 traced, 3 lowered, 3 compiled · 90.0 ms in all · 1 after a function's first",
    rows: [
      { name: "step", defined: "In[2]:1", call_site: "In[3]:4", counts: [2, 2, 2],
        seconds: [0.002, 0.01, 0.06], programs: [0, 1] },
      { name: "loss", defined: "In[2]:9", call_site: "In[3]:7", counts: [1, 1, 1],
        seconds: [0.001, 0.004, 0.013], programs: [2] },
    ],
    programs: [
      { index: 0, call_site: "In[3]:4", stages: [1, 1, 1], seconds: 0.03, cause: "first call",
        lines: [{ label: "In[2]:3", equations: 40, hlo: 52, code: "for i in range(20): x = f(x)" }] },
      { index: 1, call_site: "In[3]:4", stages: [1, 1, 1], seconds: 0.042,
        cause: "batch: f32[32,3] → f32[7,3]",
        lines: [
          { label: "In[2]:3", equations: 40, hlo: 0, code: "for i in range(20): x = f(x)" },
          { label: "In[2]:5", equations: 0, hlo: 0,
            code: "constant float32[1000], 4,000 bytes captured" },
        ] },
      { index: 2, call_site: "In[3]:7", stages: [1, 1, 1], seconds: 0.018, cause: "first call",
        lines: [] },
    ],
  };
}

function draw(view = reportView()) {
  const model = new FakeModel("CompilesModel", { view, row: -1 });
  const el = outputElement(dom.document);
  const close = widget.render({ model, el });
  return { model, el, close, root: el.querySelector(".jdw-cmp") };
}

const names = (root) =>
  root.querySelectorAll("table.jdw-cmp-rows tbody tr").map((tr) => tr.children[0].textContent);

test("the table lists each function and call site, worst first, with counts and seconds", () => {
  const { root } = draw();
  assert.match(root.querySelector(".jdw-cmp-head").textContent, /^compiles · 3 traced/);
  assert.deepEqual(names(root), ["step", "loss"]);
  const cells = root.querySelectorAll("tbody tr")[0].children.map((td) => td.textContent);
  assert.deepEqual(cells, ["step", "In[2]:1", "In[3]:4", "2", "2", "2", "2.0 ms", "10.0 ms",
    "60.0 ms", "72.0 ms"]);
});

test("a header click sorts by its column, a second click reverses it", () => {
  const { root } = draw();
  const header = () => root.querySelectorAll("th")[0];
  header().click();
  assert.deepEqual(names(root), ["step", "loss"]);  // descending by name
  header().click();
  assert.deepEqual(names(root), ["loss", "step"]);
  assert.match(header().textContent, /▲$/);
});

test("a row click opens its programs with their causes; a line click shows its code", () => {
  const { model, root } = draw();
  root.querySelectorAll("tbody tr")[0].click();
  assert.equal(model.get("row"), 0);
  const causes = root.querySelectorAll(".jdw-cmp-cause").map((c) => c.textContent);
  assert.deepEqual(causes, ["first call", "batch: f32[32,3] → f32[7,3]"]);
  assert.equal(root.querySelector(".jdw-cmp-code"), null);
  const lines = root.querySelectorAll(".jdw-cmp-line");
  assert.deepEqual(lines.map((l) => l.textContent), ["In[2]:3 · 40 equations · 52 HLO ops",
    "In[2]:3 · 40 equations", "In[2]:5 · constant"]);
  lines[2].click();
  assert.equal(root.querySelector(".jdw-cmp-code").textContent,
    "constant float32[1000], 4,000 bytes captured");
  root.querySelectorAll("tbody tr")[0].click();  // a second click closes the row
  assert.equal(model.get("row"), -1);
  assert.equal(root.querySelector(".jdw-cmp-details"), null);
});

test("an empty report says so, and closing stops listening", () => {
  const { model, root, close } = draw({ headline: "compiles · 0 traced", rows: [], programs: [] });
  assert.match(root.textContent, /nothing was traced or compiled/);
  close();
  model.set("view", reportView());
  assert.match(root.textContent, /nothing was traced or compiled/);
});

test("seconds and sorting helpers", () => {
  assert.equal(seconds(1.234), "1.23 s");
  assert.equal(seconds(0.0456), "45.6 ms");
  const rows = reportView().rows;
  assert.deepEqual(sortedRows(rows, -1, true), [0, 1]);
  assert.deepEqual(sortedRows(rows, 9, false), [1, 0]);
});
