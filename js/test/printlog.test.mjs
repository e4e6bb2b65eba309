import assert from "node:assert/strict";
import { test } from "node:test";

import widget from "../printlog.js";

test("the widget module exports an anywidget render function", () => {
  assert.equal(typeof widget.render, "function");
});
