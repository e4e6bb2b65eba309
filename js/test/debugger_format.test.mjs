import assert from "node:assert/strict";
import { test } from "node:test";

import {
  BUTTONS,
  commandWith,
  compareRows,
  compareTiles,
  compareVerdict,
  deviceOption,
  findDevice,
  expressionCommand,
  expressionHistory,
  formatNumber,
  formatSummary,
  frameLocation,
  hasNonFinite,
  headerDetails,
  historyStep,
  shardSummary,
  shortcutCommand,
  sourceRows,
} from "../debugger_format.js";

test("formatSummary shows dtype, shape, statistics and non-finite counts", () => {
  const text = formatSummary({
    dtype: "float32",
    shape: [2, 3],
    min: -1,
    max: 2.123456,
    mean: 0.5,
    std: 1,
    nan: 2,
    inf: 0,
  });
  assert.equal(text, "float32[2, 3] min=-1 max=2.123 mean=0.5 std=1 NAN=2");
  assert.equal(formatSummary({ dtype: "int8", shape: [] }), "int8[]");
  assert.equal(formatSummary(undefined), "");
});

test("formatNumber keeps integers and shortens floats", () => {
  assert.equal(formatNumber(12), "12");
  assert.equal(formatNumber(0.000123456), "0.0001235");
  assert.equal(formatNumber(Number.NaN), "NaN");
  assert.equal(formatNumber("x"), "x");
});

test("hasNonFinite is true only with NaN or Inf", () => {
  assert.equal(hasNonFinite({ nan: 0, inf: 0 }), false);
  assert.equal(hasNonFinite({ nan: 0, inf: 3 }), true);
  assert.equal(hasNonFinite(null), false);
});

test("headerDetails names thread, batch, breakpoint number and status", () => {
  const header = { thread: "thread 7", batch: { index: 1, size: 4 }, stop: "breakpoint #3" };
  assert.equal(headerDetails(header, "waiting"), "thread 7 · batch 1 of 4 · breakpoint #3 · waiting");
  const filtered = { thread: "main thread", batch: { index: 0, size: 2, element: 5 }, stop: "breakpoint #1" };
  assert.equal(headerDetails(filtered, "waiting"),
    "main thread · batch 0 of 2 (element 5) · breakpoint #1 · waiting");
  assert.equal(headerDetails({ thread: "main thread", stop: "post-mortem" }, "continue_all"),
    "main thread · post-mortem · continued, rest skipped");
});

test("frameLocation names the selected frame, else the breakpoint", () => {
  assert.equal(frameLocation({ function: "f", file: "In[3]", line: 4, location: "g (x.py:1)" }),
    "f (In[3]:4)");
  assert.equal(frameLocation({ file: "", location: "g (x.py:1)" }), "g (x.py:1)");
  assert.equal(frameLocation(undefined), "");
});

test("sourceRows numbers lines from `first` and marks the current one", () => {
  const rows = sourceRows({ first: 10, current: 1, lines: ["a", "b", "c"] });
  assert.deepEqual(rows.map((r) => r.number), [10, 11, 12]);
  assert.deepEqual(rows.map((r) => r.current), [false, true, false]);
  assert.deepEqual(sourceRows(null), []);
  assert.deepEqual(sourceRows({ first: 1, current: null, lines: [] }), []);
});

test("historyStep walks back and forth and restores the draft", () => {
  const history = ["p x", "u", "p y"];
  let step = historyStep(history, 3, "up", "draft");
  assert.deepEqual(step, { position: 2, text: "p y" });
  step = historyStep(history, step.position, "up", "draft");
  assert.deepEqual(step, { position: 1, text: "u" });
  step = historyStep(history, 0, "up", "draft");
  assert.deepEqual(step, { position: 0, text: "p x" });
  step = historyStep(history, 2, "down", "draft");
  assert.deepEqual(step, { position: 3, text: "draft" });
  step = historyStep(history, 3, "down", "draft");
  assert.deepEqual(step, { position: 3, text: "draft" });
  assert.deepEqual(historyStep([], 0, "up", "x"), { position: 0, text: "x" });
});

test("shortcutCommand maps keys to jdb commands unless typing or modified", () => {
  assert.equal(shortcutCommand("c"), "c");
  assert.equal(shortcutCommand("a"), "ca");
  assert.equal(shortcutCommand("u"), "u");
  assert.equal(shortcutCommand("q"), "q");
  assert.equal(shortcutCommand("c", { typing: true }), null);
  assert.equal(shortcutCommand("c", { ctrl: true }), null);
  assert.equal(shortcutCommand("z"), null);
});

test("expressionCommand wraps bare expressions in p and keeps p/pp", () => {
  assert.equal(expressionCommand(" x + 1 "), "p x + 1");
  assert.equal(expressionCommand("pp y"), "pp y");
  assert.equal(expressionCommand("p y"), "p y");
  assert.equal(expressionCommand("pretty"), "p pretty");
  assert.equal(expressionCommand("   "), null);
});

test("BUTTONS send the CLI's commands", () => {
  assert.deepEqual(BUTTONS.map(([label, command]) => [label, command]), [
    ["Up", "u"],
    ["Down", "d"],
    ["Continue", "c"],
    ["Continue all", "ca"],
    ["Quit", "q"],
  ]);
});

test("commandWith gives a command's typed line with its argument, and refuses an unknown key", () => {
  assert.equal(commandWith("continue", 3), "c 3");
  assert.equal(commandWith("continue_process", 1), "cp 1");
  assert.throws(() => commandWith("resume", 0), /no debugger command has the key resume/);
});

test("expressionHistory keeps only the p/pp expressions, without the command", () => {
  assert.deepEqual(expressionHistory(["help", "p x", "l", "pp y.sum()", "p x", "p x", "w"]), [
    "x",
    "y.sum()",
    "x",
  ]);
  assert.deepEqual(expressionHistory(undefined), []);
});

const SHARDS = {
  expected: 4,
  arrived: 4,
  waiting: 3,
  selected: 2,
  devices: [
    { label: "CPU 0 (x=0)", index: 0, state: "continue" },
    { label: "CPU 1 (x=1)", index: 1, state: "waiting" },
    { label: "CPU 2 (x=2)", index: 2, state: "waiting", element: 1 },
    { label: "CPU 3 (x=3)", index: 3, state: "waiting" },
  ],
  compare: {
    expression: "y.sum()",
    rows: [
      { value: "1.0", error: false, differs: false },
      { value: "1.0", error: false, differs: false },
      { value: "nan", error: false, differs: true },
      { value: "1.0", error: false, differs: false },
    ],
    differing: 1,
    groups: [],
    verdict: "shard 2 differs: nan, 3 others 1.0",
    pictures: null,
  },
};

test("shardSummary and deviceOption name the shards and their state", () => {
  assert.equal(shardSummary(SHARDS), "4 of 4 shards · 3 waiting");
  assert.equal(shardSummary(null), "");
  assert.equal(deviceOption(SHARDS.devices[0]), "shard 0 · CPU 0 (x=0) · continued");
  assert.equal(deviceOption(SHARDS.devices[2]), "shard 2 · CPU 2 (x=2) · element 1");
});

test("compareRows marks the differing and the selected shard; compareVerdict is the session's", () => {
  const rows = compareRows(SHARDS);
  assert.equal(rows.length, 4);
  assert.deepEqual(rows.map((row) => row.position), [2, 0, 1, 3], "the differing shard first");
  assert.deepEqual(rows[0], {
    position: 2,
    label: "CPU 2 (x=2)",
    value: "nan",
    error: false,
    differs: true,
    selected: true,
  });
  assert.equal(compareVerdict(SHARDS), "shard 2 differs: nan, 3 others 1.0");
  assert.equal(compareVerdict({ ...SHARDS, compare: null }), "");
  assert.deepEqual(compareRows({ ...SHARDS, compare: null }), []);
});

test("compareTiles captions groups with their size and marks the selected shard's tile", () => {
  assert.equal(compareTiles(SHARDS), null, "no pictures: the table only");
  assert.equal(compareTiles(null), null);
  const scale = { cmap: "gray", low: "0", high: "1", stops: [], text: "one scale: min 0 … max 1" };
  const tile = { png: "data:image/png;base64,", summary: "bool[2]", differs: false };
  const shards = {
    ...SHARDS,
    compare: {
      ...SHARDS.compare,
      pictures: {
        scale,
        tiles: [
          { ...tile, position: 2, label: "CPU 2 (x=2)", count: 1 },
          { ...tile, position: 0, label: "shards 0–1, 3", count: 3 },
        ],
        more: "",
      },
    },
  };
  const row = compareTiles(shards);
  assert.equal(row.scale, scale);
  assert.deepEqual(row.tiles.map((t) => [t.caption, t.selected]), [
    ["CPU 2 (x=2)", true],
    ["shards 0–1, 3 (3)", false],
  ]);
  assert.equal(row.more, "");
  const empty = { ...shards, compare: { ...shards.compare, pictures: { scale, tiles: [], more: "" } } };
  assert.equal(compareTiles(empty), null);
});

test("findDevice takes a shard number, a label, a device or a mesh position", () => {
  const mesh = {
    devices: [
      { label: "CPU 215 (data=13, model=7)", index: 215, state: "waiting" },
      { label: "CPU 216 (data=13, model=8)", index: 216, state: "waiting" },
      { label: "i=3", index: 3, state: "waiting" },
    ],
  };
  for (const text of ["216", "CPU 216", "cpu216", "data=13, model=8", "CPU 216 (data=13, model=8)"]) {
    assert.equal(findDevice(mesh, text), 1, text);
  }
  assert.equal(findDevice(mesh, "i=3"), 2);
  assert.equal(findDevice(mesh, "CPU 9"), null);
  assert.equal(findDevice(mesh, "  "), null);
  assert.equal(findDevice(null, "1"), null);
});
