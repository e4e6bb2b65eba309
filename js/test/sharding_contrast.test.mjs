import assert from "node:assert/strict";
import { test } from "node:test";

import { contrastRatio, parseHex, relativeLuminance, textColorFor } from "../sharding_contrast.js";

test("parses #RRGGBB and rejects other strings", () => {
  assert.deepEqual(parseHex("#393B79"), [57, 59, 121]);
  assert.throws(() => parseHex("red"), /not a #RRGGBB colour/);
});

test("luminance and contrast follow WCAG 2", () => {
  assert.equal(relativeLuminance("#000000"), 0);
  assert.equal(relativeLuminance("#ffffff"), 1);
  assert.equal(contrastRatio("#000000", "#ffffff"), 21);
  assert.equal(contrastRatio("#777777", "#777777"), 1);
});

test("text colour is the one with the higher contrast", () => {
  assert.equal(textColorFor("#FFFF00"), "#000000");
  assert.equal(textColorFor("#393B79"), "#ffffff");
  for (const bg of ["#D6616B", "#8CA252", "#6B6ECF", "#8C6D31", "#E7CB94"]) {
    const chosen = textColorFor(bg);
    const other = chosen === "#000000" ? "#ffffff" : "#000000";
    assert.ok(contrastRatio(bg, chosen) >= contrastRatio(bg, other));
  }
});
