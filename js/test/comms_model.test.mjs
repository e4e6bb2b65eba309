import assert from "node:assert/strict";
import { test } from "node:test";

import {
  HEAT_MAX_CELL_PX,
  HEAT_MIN_CELL_PX,
  deviceTip,
  expandCollectives,
  groupDigits,
  heatCellPx,
  heatPlaceAt,
  heatPlaces,
  placesByLevel,
  lineAnnotation,
  linePositions,
  stepLine,
} from "../comms_model.js";

const view = {
  kinds: ["all-gather", "all-reduce"],
  axes: ["'fsdp'", "'data'"],
  collectives: [
    [0, "ag.1", "f32[128,32]", 12288, 0, 4, 6, 0],
    [1, "ar.2", "f32[32]", 224, 1, 8, 0, 1],
    [0, "ag.3", "f32[64]", 192, 0, 4, null, 0],
  ],
  lines: [
    { file: "/u/m.py", line: 41, human: "72.0 KiB", collectives: [0, 2], loops: [0, 6] },
    { file: "", line: null, human: "224 B", collectives: [1], loops: [] },
  ],
};

test("rows come back from the compact tables", () => {
  const rows = expandCollectives(view);
  assert.deepEqual(rows[1], {
    kind: "all-reduce",
    name: "ar.2",
    result: "f32[32]",
    sent: 224,
    axes: "'data'",
    group: 8,
    executions: 0,
    line: 1,
  });
  assert.equal(rows[2].executions, null);
});

test("a line's note counts kinds, bytes, axes and its loops", () => {
  const rows = expandCollectives(view);
  assert.equal(lineAnnotation(view.lines[0], rows), "2× all-gather · 72.0 KiB/step · 'fsdp' · in a loop (×?/6)");
  assert.equal(lineAnnotation(view.lines[1], rows), "1× all-reduce · 224 B/step · 'data'");
});

test("only lines with a file and number have a place in the source", () => {
  assert.deepEqual([...linePositions(view)], [["/u/m.py:41", 0]]);
});

test("arrow, Home and End keys step through the annotated lines", () => {
  const order = [3, 0, 5];
  assert.equal(stepLine(order, 0, "ArrowDown"), 5);
  assert.equal(stepLine(order, 5, "ArrowDown"), 5);
  assert.equal(stepLine(order, 0, "ArrowUp"), 3);
  assert.equal(stepLine(order, 5, "Home"), 3);
  assert.equal(stepLine(order, 3, "End"), 5);
  assert.equal(stepLine(order, 3, "a"), null);
  assert.equal(stepLine([], 3, "End"), null);
});

test("digits are grouped by thousands", () => {
  assert.deepEqual([0, 999, 1000, 1234567, 619708416].map(groupDigits), [
    "0",
    "999",
    "1,000",
    "1,234,567",
    "619,708,416",
  ]);
});

// A 2 x 3 grid with a hole at (0, 1): devices [id, bytes, level] placed out of order.
const heat = {
  rows: 2,
  cols: 3,
  cells: [
    [1, 2, 0],
    [0, 0, 1],
    [0, 2, 2],
    [1, 0, 3],
    [1, 1, 4],
  ],
  devices: [
    [10, 5000, 2],
    [11, 0, 0],
    [12, 1234, 1],
    [13, 5000, 2],
    [14, 0, 0],
  ],
};

test("heat places map each row-major place to its device, -1 for a hole", () => {
  assert.deepEqual([...heatPlaces(heat)], [1, -1, 2, 3, 4, 0]);
});

test("the place under a point counts cells and their gaps; outside the grid there is none", () => {
  // cells of 4 px, 1 px apart: columns start at 0, 5, 10
  assert.equal(heatPlaceAt(heat, 0, 0, 4), 0);
  assert.equal(heatPlaceAt(heat, 5, 0, 4), 1);
  assert.equal(heatPlaceAt(heat, 14.9, 9.9, 4), 5);
  assert.equal(heatPlaceAt(heat, 15, 0, 4), -1);
  assert.equal(heatPlaceAt(heat, 0, 10, 4), -1);
  assert.equal(heatPlaceAt(heat, -1, 0, 4), -1);
});

test("places are batched by heat level, holes left out", () => {
  const batches = new Map(placesByLevel(heat, heatPlaces(heat)));
  assert.deepEqual([...batches.keys()].sort(), [0, 1, 2]);
  assert.deepEqual(batches.get(0), [0, 4]);
  assert.deepEqual(batches.get(1), [2]);
  assert.deepEqual(batches.get(2), [3, 5]);
});

test("cells shrink to fit wide meshes within their bounds", () => {
  assert.equal(heatCellPx(8), HEAT_MAX_CELL_PX);
  assert.equal(heatCellPx(64), HEAT_MAX_CELL_PX); // 64 x 13 px fit; 10 is the most
  assert.equal(heatCellPx(172), 4);
  assert.equal(heatCellPx(4096), HEAT_MIN_CELL_PX);
});

test("a device's tooltip gives its id and grouped bytes", () => {
  assert.equal(deviceTip([7, 1234567, 3]), "device 7: 1,234,567 bytes sent per step");
});
