import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";

import widget from "../printlog.js";
import { FakeEvent, installDom, outputElement } from "./fake_dom.mjs";
import { FakeModel } from "./fake_model.mjs";
import { assertEveryControlKeepsItsKeys } from "./shortcuts.mjs";

let dom;
beforeEach(() => {
  dom = installDom();
});
afterEach(() => dom.restore());

function row(index, text, cell = 3) {
  return {
    index,
    cell,
    time: "12:00:00.000",
    site: "In[3]:2 in f",
    text,
    values: `x=${index}`,
    arrays: 0,
    process: null,
  };
}

function stats(seen, matched = seen, dropped = 0) {
  return { seen, kept: seen - dropped, dropped, matched, capacity: 10000 };
}

function draw(state = {}) {
  const model = new FakeModel("PrintLogModel", {
    rows: [row(0, "x=0", null), row(1, "x=1")],
    stats: stats(2),
    query: "",
    limit: 200,
    expanded: -1,
    pictures: {},
    ...state,
  });
  const el = outputElement(dom.document);
  const close = widget.render({ model, el });
  return { model, el, close, root: el.querySelector(".jaxdbg-printlog") };
}

const cells = (root) =>
  root.querySelectorAll("tbody tr").map((tr) => tr.children.map((td) => td.textContent));

test("render draws the header, one row per print and the status line", () => {
  const { root } = draw();
  assert.deepEqual(root.querySelectorAll("th").map((th) => th.textContent),
    ["#", "cell", "time", "call site", "text", "values"]);
  assert.deepEqual(cells(root), [
    ["0", "", "12:00:00.000", "In[3]:2 in f", "x=0", "x=0"],
    ["1", "[3]", "12:00:00.000", "In[3]:2 in f", "x=1", "x=1"],
  ]);
  const status = root.querySelector(".jaxdbg-printlog-status");
  assert.equal(status.textContent, "2 matching · 2 printed");
});

test("new rows and counts from the kernel redraw the table, following the end if shown", () => {
  const { model, root } = draw();
  const scroller = root.querySelector(".jaxdbg-printlog-scroll");
  Object.assign(scroller, { scrollHeight: 100, clientHeight: 100, scrollTop: 0 });
  model.update("rows", [row(5, "x=5"), row(6, "x=6"), row(7, "x=7")]);
  model.update("stats", stats(12_000, 12_000, 2_000));
  assert.deepEqual(cells(root).map((c) => c[0]), ["5", "6", "7"]);
  assert.equal(root.querySelector(".jaxdbg-printlog-status").textContent,
    "newest 3 of 12,000 matching · 12,000 printed · 2,000 oldest dropped (keeps 10,000)");
  assert.equal(scroller.scrollTop, 100, "at the end: it follows");
  Object.assign(scroller, { scrollHeight: 900, scrollTop: 0 });
  model.update("rows", [row(8, "x=8")]);
  assert.equal(scroller.scrollTop, 0, "scrolled up to read: it stays");
});

test("typing in the filter sets the query once, after the typing stops", async () => {
  const { model, root } = draw();
  const filter = root.querySelector(".jaxdbg-printlog-filter");
  for (const text of ["x", "x=", "x=1"]) {
    filter.value = text;
    filter.dispatchEvent(new FakeEvent("input"));
  }
  assert.deepEqual(model.saved, []);
  await sleep(250);
  assert.deepEqual(model.saved, [{ query: "x=1" }]);
});

test("a query set from Python shows in the box unless the user is typing there", () => {
  const { model, root } = draw({ query: "start" });
  const filter = root.querySelector(".jaxdbg-printlog-filter");
  assert.equal(filter.value, "start");
  model.update("query", "site");
  assert.equal(filter.value, "site");
  filter.focus();
  filter.value = "typed";
  model.update("query", "other");
  assert.equal(filter.value, "typed");
});

test("closing drops every model listener", () => {
  const { model, close } = draw();
  assert.equal(model.listenerCount(), 5);
  close();
  assert.equal(model.listenerCount(), 0);
});

test("every focusable control keeps its keys from the notebook's shortcuts: the filter box", () => {
  const { root } = draw();
  assertEveryControlKeepsItsKeys(root, { atLeast: 1 });
});

test("a multi-process log gains a process column, and loses it when no row names one", () => {
  const { model, root } = draw();
  const headings = () => root.querySelectorAll("th").map((th) => th.textContent);
  assert.ok(!headings().includes("process"));
  model.set("rows", [{ ...row(0, "x=0"), process: 1 }, { ...row(1, "x=1"), process: 0 }]);
  assert.deepEqual(headings(), ["#", "cell", "time", "process", "call site", "text", "values"]);
  assert.deepEqual(cells(root).map((r) => r[3]), ["1", "0"]);
  model.set("rows", [row(2, "x=2")]);
  assert.deepEqual(headings(), ["#", "cell", "time", "call site", "text", "values"]);
});

test("a saved log with no kernel filters the rows it carries in the page", async () => {
  const rows = [row(0, "loss=1"), { ...row(1, "x=1"), site: "train.py:4 in step" }, row(2, "loss=0")];
  const model = new FakeModel("PrintLogModel", {
    rows,
    stats: stats(3),
    query: "",
    limit: 200,
    expanded: -1,
    pictures: {},
  });
  model.offline = true;
  const el = outputElement(dom.document);
  widget.render({ model, el });
  const root = el.querySelector(".jaxdbg-printlog");
  const filter = root.querySelector(".jaxdbg-printlog-filter");
  filter.value = "LOSS";
  filter.dispatchEvent(new FakeEvent("input"));
  await sleep(250);
  assert.deepEqual(cells(root).map((c) => c[0]), ["0", "2"]);
  assert.equal(root.querySelector(".jaxdbg-printlog-status").textContent, "2 matching · 3 printed");
  filter.value = "train.py";
  filter.dispatchEvent(new FakeEvent("input"));
  await sleep(250);
  assert.deepEqual(cells(root).map((c) => c[0]), ["1"]);
  filter.value = "";
  filter.dispatchEvent(new FakeEvent("input"));
  await sleep(250);
  assert.deepEqual(cells(root).map((c) => c[0]), ["0", "1", "2"]);
});
