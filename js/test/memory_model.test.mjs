import assert from "node:assert/strict";
import { test } from "node:test";

import {
  deviceLeaves,
  expandLeaves,
  gridStep,
  humanBytes,
  localModel,
  matchesFilter,
  processLine,
  sortedLeaves,
} from "../memory_model.js";

const view = {
  devices: [{ id: 0 }, { id: 1 }, { id: 2 }, { id: 3 }],
  device_sets: [
    [0, 1, 2, 3],
    [2, 3],
  ],
  groups: [
    { set: 0, elements: 4 },
    { set: 1, elements: [10, 0] },
  ],
  leaves: [
    { path: "['b']", group: 0, itemsize: 4, total: 64, per_device: 16, replication: 4 },
    { path: "['a']", group: 0, itemsize: 2, total: 32, per_device: 8, replication: 4 },
    { path: "['w']", group: 1, itemsize: 4, total: 40, per_device: 40, replication: 1 },
  ],
};

test("human bytes match the Python rendering", () => {
  assert.deepEqual(
    [0, 1023, 1024, 1536, 10 * 1024, 3 * 2 ** 20, 5 * 2 ** 40, 2 ** 60, 2 ** 82].map(humanBytes),
    [
      "0 B",
      "1023 B",
      "1.00 KiB",
      "1.50 KiB",
      "10.0 KiB",
      "3.00 MiB",
      "5.00 TiB",
      "1.00 EiB",
      "4.00 YiB",
    ],
  );
});

test("the per-process line gives each process's total, devices and fullest device", () => {
  const devices = [
    { process: 0, bytes: 24 },
    { process: 0, bytes: 8 },
    { process: 1, bytes: 32 },
    { process: 1, bytes: 8 },
  ];
  const processes = [
    [0, 32, "32 B"],
    [1, 40, "40 B"],
  ];
  assert.equal(
    processLine(processes, devices),
    "per process: process 0: 32 B on 2 devices, fullest 24 B; " +
      "process 1: 40 B on 2 devices, fullest 32 B",
  );
  assert.equal(processLine([[0, 32, "32 B"]], devices.slice(0, 2)), null);
});

test("leaves are expanded from triples and their group's facts", () => {
  const sent = {
    dtypes: [
      ["float32", 4],
      ["bfloat16", 2],
    ],
    groups: [
      {
        shape: "(8,)",
        spec: "P()",
        shard_shape: "(8,)",
        replication: 4,
        total_elements: 32,
        max_elements: 8,
      },
    ],
    leaves: [
      ["['a']", 0, 0],
      ["['b']", 1, 0],
    ],
    flagged: [1],
  };
  const [a, b] = expandLeaves(sent);
  assert.deepEqual(a, {
    path: "['a']",
    shape: "(8,)",
    dtype: "float32",
    spec: "P()",
    shard_shape: "(8,)",
    replication: 4,
    total: 128,
    per_device: 32,
    itemsize: 4,
    group: 0,
    flagged: false,
  });
  assert.equal(b.total, 64);
  assert.equal(b.flagged, true);
});

test("a device's leaves come from its groups, largest first", () => {
  assert.deepEqual(deviceLeaves(view, 2), [
    { leaf: 2, bytes: 40 },
    { leaf: 0, bytes: 16 },
    { leaf: 1, bytes: 8 },
  ]);
  assert.deepEqual(
    deviceLeaves(view, 3).map((e) => e.leaf),
    [0, 1],
  );
  assert.deepEqual(
    deviceLeaves(view, 0).map((e) => e.leaf),
    [0, 1],
  );
});

test("leaves sort by bytes, path or replication, ties by path", () => {
  assert.deepEqual(sortedLeaves(view.leaves, "total", true), [0, 2, 1]);
  assert.deepEqual(sortedLeaves(view.leaves, "per_device", true), [2, 0, 1]);
  assert.deepEqual(sortedLeaves(view.leaves, "path", false), [1, 0, 2]);
  assert.deepEqual(sortedLeaves(view.leaves, "replication", true), [1, 0, 2]);
});

test("the path filter ignores case and blanks", () => {
  assert.ok(matchesFilter("['Layers'][0]['w']", " layers "));
  assert.ok(matchesFilter("x", ""));
  assert.ok(!matchesFilter("['b']", "w"));
});

test("arrow keys walk the heatmap grid and stop at its edges", () => {
  const grid = {
    rows: 2,
    cols: 3,
    cells: [
      [0, 0, 0],
      [0, 1, 1],
      [0, 2, 2],
      [1, 0, 3],
      [1, 1, 4],
    ],
  };
  assert.equal(gridStep(grid, 0, "ArrowRight"), 1);
  assert.equal(gridStep(grid, 1, "ArrowDown"), 4);
  assert.equal(gridStep(grid, 2, "ArrowDown"), 2);
  assert.equal(gridStep(grid, 0, "ArrowLeft"), 0);
  assert.equal(gridStep(grid, 0, "Enter"), null);
});

test("the local model notifies listeners of changes until they leave", () => {
  const model = localModel({ zoom: 1 });
  const seen = [];
  const listener = () => seen.push(model.get("zoom"));
  model.on("change:zoom", listener);
  model.set("zoom", 2);
  model.off("change:zoom", listener);
  model.set("zoom", 3);
  assert.deepEqual(seen, [2]);
});
