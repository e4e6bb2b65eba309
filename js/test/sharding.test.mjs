import assert from "node:assert/strict";
import { test } from "node:test";

import widget from "../sharding.js";

test("the widget module loads with its helpers and exports render", () => {
  assert.equal(typeof widget.render, "function");
});
