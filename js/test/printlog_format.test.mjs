import assert from "node:assert/strict";
import { test } from "node:test";

import { COLUMNS, cellLabel, columnsFor, debounce, formatCount, rowCells, statusLine } from "../printlog_format.js";

test("formatCount groups thousands and tolerates junk", () => {
  assert.equal(formatCount(100000), "100,000");
  assert.equal(formatCount(7), "7");
  assert.equal(formatCount(undefined), "0");
});

test("cellLabel shows the execution count or nothing", () => {
  assert.equal(cellLabel(3), "[3]");
  assert.equal(cellLabel(0), "[0]");
  assert.equal(cellLabel(null), "");
  assert.equal(cellLabel(undefined), "");
});

test("rowCells fills one cell per column, in order", () => {
  const cells = rowCells({ index: 12, cell: 4, time: "10:00:00.001", site: "In[4]:2 in f", text: "x=1", values: "x=f32[]" });
  assert.equal(cells.length, COLUMNS.length);
  assert.deepEqual(cells, ["12", "[4]", "10:00:00.001", "In[4]:2 in f", "x=1", "x=f32[]"]);
});

test("rowCells leaves missing fields empty", () => {
  assert.deepEqual(rowCells({ index: 1, cell: null }), ["1", "", "", "", "", ""]);
});

test("statusLine before any print", () => {
  assert.equal(statusLine({ seen: 0 }, 0), "no prints yet");
  assert.equal(statusLine(undefined, 0), "no prints yet");
});

test("statusLine says when only the newest matches are shown and what was dropped", () => {
  const stats = { seen: 100000, kept: 10000, dropped: 90000, matched: 5312, capacity: 10000 };
  assert.equal(
    statusLine(stats, 200),
    "newest 200 of 5,312 matching · 100,000 printed · 90,000 oldest dropped (keeps 10,000)",
  );
});

test("statusLine when everything matching is shown and nothing dropped", () => {
  assert.equal(statusLine({ seen: 3, dropped: 0, matched: 3, capacity: 10 }, 3), "3 matching · 3 printed");
});

test("debounce runs once with the last arguments after the calls stop", () => {
  const pending = new Map();
  let next = 1;
  const timers = {
    setTimeout(fn) {
      pending.set(next, fn);
      return next++;
    },
    clearTimeout(handle) {
      pending.delete(handle);
    },
  };
  const calls = [];
  const debounced = debounce((value) => calls.push(value), 100, timers);
  debounced("a");
  debounced("ab");
  debounced("abc");
  assert.equal(pending.size, 1);
  for (const fn of pending.values()) fn();
  assert.deepEqual(calls, ["abc"]);
});

test("columnsFor adds the process column after time only when a row names a process", () => {
  assert.equal(columnsFor([{ process: null }]), COLUMNS);
  const columns = columnsFor([{ process: null }, { process: 0 }]);
  assert.deepEqual(columns.map(([key]) => key), ["index", "cell", "time", "process", "site", "text", "values"]);
  assert.deepEqual(rowCells({ index: 1, cell: 2, process: 0, text: "t" }, columns), ["1", "[2]", "", "0", "", "t", ""]);
});
