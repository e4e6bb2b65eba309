import assert from "node:assert/strict";
import { test } from "node:test";

import {
  GAP_PX,
  PAD_PX,
  cellRect,
  facetGeometry,
  fittedText,
  labelLines,
  placeAt,
  placesIn,
  trackStarts,
  visiblePart,
} from "../sharding_geometry.js";

const mono = (text) => text.length * 10; // 10 px per character

/** A 2 x 3 facet with no cell at row 1, column 1. */
const facet = {
  rows: 2,
  cols: 3,
  col_widths: [4, 6, 4],
  row_heights: [2, null],
  cells: [
    [0, 0, 0],
    [0, 1, 1],
    [0, 2, 2],
    [1, 0, 3],
    [1, 2, 4],
  ],
};
const cells = ["TPU 0 p0", "TPU 1 p0", "TPU 2 p1", "TPU 3 p1", "TPU 4095 p15"].map((label) => ({
  label,
}));

test("tracks start after a gap each, and the grid ends with one", () => {
  assert.deepEqual(trackStarts([10, 20, 5]), { starts: [1, 12, 33], length: 39 });
  assert.deepEqual(trackStarts([]), { starts: [], length: GAP_PX });
});

test("a label too wide for its cell is cut with an ellipsis; one that fits is kept", () => {
  assert.equal(fittedText("TPU 4095", 80, mono), "TPU 4095");
  assert.equal(fittedText("TPU 4095", 50, mono), "TPU …");
  assert.equal(fittedText("TPU 4095", 5, mono), "");
});

test("zoomed out, a label drops its platform and wraps its words to the width", () => {
  assert.deepEqual(labelLines("TPU 4095 p15", false, 200, mono), ["TPU 4095 p15"]);
  assert.deepEqual(labelLines("TPU 4095 p15", true, 50, mono), ["4095", "p15"]);
  assert.deepEqual(labelLines("TPU 4095 p15", true, 80, mono), ["4095 p15"]);
  assert.deepEqual(labelLines("CPU 0,4", true, 20, mono), ["0…"]);
});

test("the geometry sizes columns in characters and rows in lines of 1.25em, 1px apart", () => {
  const g = facetGeometry(facet, cells, { ch: 10, em: 16, compact: false, measure: mono });
  assert.deepEqual(g.colX, [1, 42, 103]);
  assert.deepEqual(g.colW, [40, 60, 40]);
  assert.deepEqual(g.rowY, [1, 42]);
  assert.deepEqual(g.rowH, [40, 20]);
  assert.equal(g.width, 144);
  assert.equal(g.height, 63);
  assert.deepEqual(cellRect(g, facet, 4), { x: 103, y: 42, width: 40, height: 20 });
  assert.deepEqual(g.lines[4], ["TP…"], `cut to ${40 - 2 * PAD_PX}px`);
  assert.deepEqual([...g.at], [0, 1, 2, 3, -1, 4]);
});

test("compact rows grow to hold their wrapped lines", () => {
  const g = facetGeometry(facet, cells, { ch: 10, em: 10, compact: true, measure: mono });
  assert.deepEqual(g.colW, [30, 30, 50], "longest word plus one character");
  assert.deepEqual(g.lines[0], ["0", "p0"]);
  assert.deepEqual(g.lines[4], ["4095", "p15"]);
  assert.deepEqual(g.rowH, [22, 22], "two lines of 1.1em, above the one line of 1.25em");
  const wide = facetGeometry(facet, cells, { ch: 20, em: 10, compact: true, measure: mono });
  assert.deepEqual(wide.lines[0], ["0 p0"]);
  assert.deepEqual(wide.lines[4], ["4095 p15"]);
  assert.deepEqual(wide.rowH, [12.5, 12.5]);
});

test("a point finds the cell it is on, a gap or the border the nearest; holes and the outside none", () => {
  const g = facetGeometry(facet, cells, { ch: 10, em: 16, compact: false, measure: mono });
  assert.equal(placeAt(g, 1, 1), 0);
  assert.equal(placeAt(g, 50, 10), 1);
  assert.equal(placeAt(g, 142, 61), 4);
  assert.equal(g.colX[1], 42); // column 0 spans 1..41, the gap is 41..42
  assert.equal(placeAt(g, 41.2, 10), 0, "the gap's left half: the cell to its left");
  assert.equal(placeAt(g, 41.8, 10), 1, "the gap's right half: the cell to its right");
  assert.equal(placeAt(g, 0, 0), 0, "the border: the corner cell");
  assert.equal(placeAt(g, g.width - 0.5, g.height - 0.5), 4, "the far border: the far cell");
  assert.equal(placeAt(g, 60, 50), -1, "no cell at row 1, column 1");
  assert.equal(placeAt(g, 500, 10), -1);
  assert.equal(placeAt(g, -1, 10), -1);
});

test("a rectangle lists the cells it shows", () => {
  const g = facetGeometry(facet, cells, { ch: 10, em: 16, compact: false, measure: mono });
  assert.deepEqual(placesIn(g, { x: 0, y: 0, width: 30, height: 30 }), [0]);
  assert.deepEqual(placesIn(g, { x: 50, y: 0, width: 100, height: 60 }), [1, 2, 4]);
  assert.deepEqual(placesIn(g, { x: 0, y: 0, width: g.width, height: g.height }), [0, 1, 2, 3, 4]);
});

test("the part of a grid to draw is what the box shows plus a margin, within the grid", () => {
  const box = { left: 100, top: 50, width: 300, height: 200 };
  const size = { width: 1000, height: 1000 };
  assert.deepEqual(visiblePart({ left: 100, top: 50 }, box, size, 10), {
    x: 0,
    y: 0,
    width: 310,
    height: 210,
  });
  assert.deepEqual(visiblePart({ left: -400, top: 50 }, box, size, 0), {
    x: 500,
    y: 0,
    width: 300,
    height: 200,
  });
  assert.equal(visiblePart({ left: 100, top: 900 }, box, size, 10), null);
});
