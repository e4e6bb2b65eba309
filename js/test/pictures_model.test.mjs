import assert from "node:assert/strict";
import { test } from "node:test";

import {
  cellAt,
  cellPixels,
  indexText,
  inlineValue,
  lineRuns,
  moveCell,
  panelSize,
  pointOf,
  shardAt,
  shardDevices,
  shardText,
} from "../pictures_model.js";

function picture(panels, extra = {}) {
  return { layout: "grid", grid: [1000, 1000], factor: [3, 3], panels, shards: [], ...extra };
}

const panel = (width, height, more = {}) => ({ width, height, index: [], shards: [], values: null, ...more });

test("cell size: a small array grows to about 400 px, capped at 24 px a cell", () => {
  assert.equal(cellPixels(picture([panel(4, 4)])), 24);
  assert.equal(cellPixels(picture([panel(40, 20)])), 10);
  assert.equal(cellPixels(picture([panel(334, 334)])), 1);
  // four facets share 900 px
  assert.equal(cellPixels(picture([panel(50, 50), panel(50, 50), panel(50, 50), panel(50, 50)])), 4);
  assert.deepEqual(panelSize(picture([panel(10, 1)], { layout: "strip" }), panel(10, 1)), {
    width: 240,
    height: 24,
  });
});

test("the pointer maps to the full-resolution cell, clamped to the grid", () => {
  assert.deepEqual(cellAt(0, 0, 334, 334, [1000, 1000]), [0, 0]);
  assert.deepEqual(cellAt(333.9, 333.9, 334, 334, [1000, 1000]), [999, 999]);
  assert.deepEqual(cellAt(167, 100, 334, 334, [1000, 1000]), [299, 500]);
  assert.deepEqual(cellAt(400, -5, 334, 334, [1000, 1000]), [0, 999]);
  const [x, y] = pointOf([299, 500], 334, 334, [1000, 1000]);
  assert.deepEqual(cellAt(x, y, 334, 334, [1000, 1000]), [299, 500]);
});

test("arrow keys move one reduced cell; Home and End jump; other keys do nothing", () => {
  assert.deepEqual(moveCell([0, 0], "ArrowRight", [1000, 1000], [3, 3]), [0, 3]);
  assert.deepEqual(moveCell([0, 0], "ArrowUp", [1000, 1000], [3, 3]), [0, 0]);
  assert.deepEqual(moveCell([998, 5], "ArrowDown", [1000, 1000], [3, 3]), [999, 5]);
  assert.deepEqual(moveCell([5, 5], "End", [10, 20], [1, 1]), [9, 19]);
  assert.deepEqual(moveCell([5, 5], "Home", [10, 20], [1, 1]), [0, 0]);
  assert.equal(moveCell([5, 5], "a", [10, 20], [1, 1]), null);
});

test("index text includes the leading index; a strip has one index", () => {
  assert.equal(indexText(picture([]), { index: [2, 1] }, [5, 6]), "[2, 1, 5, 6]");
  assert.equal(indexText({ layout: "strip" }, { index: [] }, [0, 7]), "[7]");
});

test("inline values are read row-major; without them the kernel is asked", () => {
  const small = { grid: [2, 3] };
  assert.equal(inlineValue(small, { values: ["0", "1", "2", "3", "4", "5"] }, [1, 2]), "5");
  assert.equal(inlineValue(small, { values: null }, [1, 2]), null);
});

test("the shard under a cell, and every device of the shards once", () => {
  const shards = [
    { rows: [0, 500], cols: [0, 1000], label: "CPU 0,2", devices: [0, 2] },
    { rows: [500, 1000], cols: [0, 1000], label: "CPU 1,3", devices: [1, 3] },
  ];
  const sharded = picture([], { shards });
  const both = { index: [], shards: [0, 1] };
  assert.equal(shardAt(sharded, both, [499, 10]), 0);
  assert.equal(shardAt(sharded, both, [500, 10]), 1);
  assert.equal(shardAt(sharded, { index: [], shards: [0] }, [700, 0]), -1);
  assert.deepEqual(shardDevices(sharded), [0, 1, 2, 3]);
  assert.equal(shardText(shards[1]), "CPU 1,3: rows 500:1000, columns 0:1000");
});

test("the line breaks at gaps and spans the height", () => {
  const runs = lineRuns([0, 1, null, 2, 2], 50, 80);
  assert.equal(runs.length, 2);
  assert.equal(runs[0], "5.0,78.0 15.0,40.0");
  assert.equal(runs[1], "35.0,2.0 45.0,2.0");
  assert.deepEqual(lineRuns([null], 10, 10), []);
});
