import assert from "node:assert/strict";
import { test } from "node:test";

import { cellModelHolding, showExecutionCount, whenAttached } from "../host_cell.js";

/** A DOM node that holds itself and the nodes in `held`. */
function nodeHolding(...held) {
  const self = { isConnected: true };
  self.contains = (other) => other === self || held.includes(other);
  return self;
}

/** A JupyterLab-like app with one notebook of `cells` ({node, model}). */
function app(cells) {
  return { shell: { widgets: (area) => (area === "main" ? [{ content: { widgets: cells } }] : []) } };
}

test("the cell found is the one whose node holds the widget", () => {
  const widgetEl = { isConnected: true };
  const first = { node: nodeHolding(), model: { type: "code", executionCount: 1 } };
  const second = { node: nodeHolding(widgetEl), model: { type: "code", executionCount: null } };
  assert.equal(cellModelHolding(widgetEl, app([first, second])), second.model);
  assert.equal(cellModelHolding({}, app([first, second])), null);
});

test("the holding code cell's prompt gets the count once", () => {
  const widgetEl = { isConnected: true };
  const cell = { node: nodeHolding(widgetEl), model: { type: "code", executionCount: null } };
  const host = app([cell]);
  assert.equal(showExecutionCount(widgetEl, 7, host), true);
  assert.equal(cell.model.executionCount, 7);
  assert.equal(showExecutionCount(widgetEl, 7, host), false, "already shown");
});

test("nothing changes without a host app, in a markdown cell, or for a missing count", () => {
  const widgetEl = { isConnected: true };
  const markdown = { node: nodeHolding(widgetEl), model: { type: "markdown" } };
  assert.equal(showExecutionCount(widgetEl, 3, undefined), false);
  assert.equal(showExecutionCount(widgetEl, 3, {}), false);
  assert.equal(showExecutionCount(widgetEl, 3, app([markdown])), false);
  assert.deepEqual(markdown.model, { type: "markdown" });
  const code = { node: nodeHolding(widgetEl), model: { type: "code", executionCount: null } };
  assert.equal(showExecutionCount(widgetEl, null, app([code])), false);
  assert.equal(code.model.executionCount, null);
});

test("a host app that throws leaves the widget working", () => {
  const broken = {
    shell: {
      widgets() {
        throw new Error("changed API");
      },
    },
  };
  assert.equal(showExecutionCount({ isConnected: true }, 2, broken), false);
});

test("the action waits until the node is attached, and gives up after its tries", async () => {
  const later = { isConnected: false };
  let ran = 0;
  whenAttached(later, () => ran++, 10, 1);
  assert.equal(ran, 0);
  later.isConnected = true;
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.equal(ran, 1);

  const never = { isConnected: false };
  let tried = 0;
  whenAttached(never, () => tried++, 3, 1);
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.equal(tried, 0);
});
