import assert from "node:assert/strict";
import { test } from "node:test";

import widget from "../memory.js";

test("the memory widget module loads with its helpers and exports render", () => {
  assert.equal(typeof widget.render, "function");
});
