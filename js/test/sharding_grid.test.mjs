import assert from "node:assert/strict";
import { test } from "node:test";

import {
  ZOOM_MAX,
  ZOOM_MIN,
  PROCESS_BELOW,
  PROCESS_RIGHT,
  cellRecords,
  cellsHolding,
  clampZoom,
  compactTracks,
  fitZoom,
  gridTracks,
  holdersText,
  labelWords,
  neighbourCell,
  refinedFit,
  selectionSummary,
  steppedZoom,
  tipText,
  toggledSelection,
  tooltipPosition,
} from "../sharding_grid.js";

const cells = [
  { devices: [0, 4], index: "[0:4, 0:8]" },
  { devices: [1, 5], index: "[4:8, 0:8]" },
  { devices: [2], index: "[8:12, 0:8]" },
];

test("grid tracks use characters across and lines of 1.25em down", () => {
  const tracks = gridTracks({ col_widths: [9, 25], row_heights: [5, null] });
  assert.equal(tracks.columns, "9ch 25ch");
  assert.equal(tracks.rows, "6.25em auto");
});

test("cell columns from the view model read back as one record per cell", () => {
  const tips = [
    ["CPU", "process 0", "shard shape (4,)\n16 bytes"],
    ["CPU", "process 0,1", "shard shape (4,)\n16 bytes"],
  ];
  const records = cellRecords(
    {
      label: ["CPU 0,4 p0,1", "CPU 2 p0"],
      devices: [[0, 4], [2]],
      index: ["[0:4]", "[4:8]"],
      tip: [1, 0],
      color: ["#000000", null],
    },
    tips,
  );
  assert.deepEqual(records[1], {
    label: "CPU 2 p0",
    devices: [2],
    index: "[4:8]",
    tooltip: "CPU 2\nprocess 0\nindex [4:8]\nshard shape (4,)\n16 bytes",
    color: null,
    edge: 0,
  });
  assert.equal(
    records[0].tooltip,
    "CPU 0, 4\nprocess 0,1\nindex [0:4]\nshard shape (4,)\n16 bytes",
  );
  assert.equal(records.length, 2);
});

test("cells at a process boundary carry its sides; the others none", () => {
  const columns = {
    label: ["CPU 0 p0", "CPU 1 p1", "CPU 2 p0", "CPU 3 p1"],
    devices: [[0], [1], [2], [3]],
    index: ["a", "b", "c", "d"],
    tip: [0, 0, 0, 0],
    color: [null, null, null, null],
  };
  const tips = [["CPU", "process 0", "shard shape (1,)"]];
  const records = cellRecords(columns, tips, [[0, PROCESS_RIGHT], [2, PROCESS_RIGHT | PROCESS_BELOW]]);
  assert.deepEqual(records.map((r) => r.edge), [1, 0, 3, 0]);
  assert.deepEqual(cellRecords(columns, tips).map((r) => r.edge), [0, 0, 0, 0]);
});

test("tooltip text joins the holders with a comma and a space", () => {
  assert.equal(
    tipText(["TPU", "process 3", "shard shape (2, 2)"], [7, 9], "[0:2, 0:2]"),
    "TPU 7, 9\nprocess 3\nindex [0:2, 0:2]\nshard shape (2, 2)",
  );
});

test("cell columns saved with a tooltip per cell still read", () => {
  const [, cell] = cellRecords({
    label: ["CPU 0,4", "CPU 2"],
    devices: [[0, 4], [2]],
    index: ["[0:4]", "[4:8]"],
    tooltip: ["a", "b"],
    color: ["#000000", null],
  });
  assert.equal(cell.tooltip, "b");
  assert.deepEqual(cell.devices, [2]);
});

test("cells saved as records by earlier versions still read", () => {
  const [cell] = cellRecords([
    { label: "CPU 0", devices: [0], index: "[0:4]", tooltip: ["CPU 0", "process 0"], color: null },
  ]);
  assert.equal(cell.tooltip, "CPU 0\nprocess 0");
  assert.deepEqual(cell.devices, [0]);
});

test("label words: platform, device ids, processes", () => {
  assert.deepEqual(labelWords("TPU 255 p3"), ["TPU", "255", "p3"]);
  assert.deepEqual(labelWords("CPU 0,4"), ["CPU", "0,4"]);
});

test("compact tracks fit the longest id or process word of each column", () => {
  const facet = { rows: 2, cols: 2, cells: [[0, 0, 0], [0, 1, 1], [1, 0, 2]] };
  const labels = [{ label: "TPU 255 p3" }, { label: "TPU 7" }, { label: "TPU 1000 p15" }];
  assert.deepEqual(compactTracks(facet, labels), { columns: "5ch 2ch", rows: "auto auto" });
});

test("arrow keys step to the nearest cell, skipping holes; Home and End jump", () => {
  const facet = { rows: 2, cols: 3, cells: [[0, 0, 0], [0, 2, 1], [1, 0, 2], [1, 1, 3]] };
  assert.equal(neighbourCell(facet, 0, "ArrowRight"), 1); // (0, 1) is empty
  assert.equal(neighbourCell(facet, 1, "ArrowRight"), null);
  assert.equal(neighbourCell(facet, 0, "ArrowDown"), 2);
  assert.equal(neighbourCell(facet, 3, "ArrowUp"), null);
  assert.equal(neighbourCell(facet, 3, "ArrowLeft"), 2);
  assert.equal(neighbourCell(facet, 3, "Home"), 0);
  assert.equal(neighbourCell(facet, 0, "End"), 3);
  assert.equal(neighbourCell(facet, 0, "Enter"), null);
});

test("cells holding any selected device", () => {
  assert.deepEqual(cellsHolding(cells, [5]), [1]);
  assert.deepEqual(cellsHolding(cells, [0, 2]), [0, 2]);
  assert.deepEqual(cellsHolding(cells, []), []);
});

test("clicking the same devices again clears the selection", () => {
  assert.deepEqual(toggledSelection([], [0, 4]), [0, 4]);
  assert.deepEqual(toggledSelection([4, 0], [0, 4]), []);
  assert.deepEqual(toggledSelection([1], [0, 4]), [0, 4]);
});

test("zoom stays in range and fit never enlarges", () => {
  assert.equal(clampZoom(100), ZOOM_MAX);
  assert.equal(clampZoom(0), ZOOM_MIN);
  assert.equal(clampZoom(Number.NaN), 1);
  assert.equal(steppedZoom(1, 1), 1.25);
  assert.equal(steppedZoom(1.25, -1), 1);
  assert.equal(steppedZoom(0.9, 1), 1, "a step across 100% stops there");
  assert.equal(steppedZoom(1.1, -1), 1);
  assert.equal(steppedZoom(0.79996, 1), 1, "a step to 99.995% is 100%");
  assert.equal(steppedZoom(0.5, 1), 0.625);
  assert.equal(fitZoom(1, 4000, 1000), 0.25);
  assert.equal(fitZoom(1, 500, 1000), 1);
  assert.equal(fitZoom(0.5, 0, 1000), 0.5);
});

test("selection summary names devices and their shards", () => {
  assert.equal(selectionSummary(cells, []), "click a shard to highlight its devices");
  assert.equal(selectionSummary(cells, [5]), "device 5: 1 shard [4:8, 0:8]");
  assert.equal(selectionSummary(cells, [0, 2]), "devices 0, 2: 2 shards [0:4, 0:8] [8:12, 0:8]");
});

test("tooltip flips to stay inside the widget", () => {
  const tip = { width: 100, height: 50 };
  const box = { width: 400, height: 300 };
  assert.deepEqual(tooltipPosition({ x: 10, y: 10 }, tip, box), { left: 22, top: 22 });
  assert.deepEqual(tooltipPosition({ x: 390, y: 290 }, tip, box), { left: 278, top: 228 });
});

test("a second measurement removes the fixed part from the fit", () => {
  // width = 80 + 7000 * zoom: at zoom 1 it is 7080; fitting 966 px needs zoom 0.1266
  const first = fitZoom(1, 7080, 966);
  const refined = refinedFit(1, 7080, first, 80 + 7000 * first, 966);
  assert.ok(Math.abs(80 + 7000 * refined - 966) < 1e-6);
  assert.equal(refinedFit(1, 500, 1, 500, 966), 1);
});

test("many holders fold into runs and a count, as the Python holders_text writes them", () => {
  const range = (start, count, step = 1) =>
    Array.from({ length: count }, (_, i) => start + i * step);
  assert.equal(holdersText([4, 0], ","), "0,4");
  assert.equal(holdersText(range(0, 8), ","), "0,1,2,3,4,5,6,7");
  assert.equal(holdersText(range(0, 256), ","), "0–255 ×256");
  assert.equal(holdersText([...range(0, 8), 20], ", "), "0–7, 20 ×9");
  assert.equal(holdersText(range(0, 256, 16), ", "), "0, 16, 32, … ×256");
  const cells = [{ devices: range(0, 256), index: "[0:8]" }];
  assert.equal(selectionSummary(cells, range(0, 256)), "devices 0–255 ×256: 1 shard [0:8]");
  assert.equal(
    tipText(["CPU", "process 0", "shard shape (8,)"], range(0, 256), "[0:8]"),
    "CPU 0–255 ×256\nprocess 0\nindex [0:8]\nshard shape (8,)",
  );
});
