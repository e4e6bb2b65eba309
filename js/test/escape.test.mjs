import assert from "node:assert/strict";
import { test } from "node:test";

import { escapeHtml, truncate } from "../escape.js";

test("escapeHtml turns markup into inert text", () => {
  assert.equal(escapeHtml('<img src=x onerror="alert(1)">'), "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
  assert.equal(escapeHtml("a & 'b'"), "a &amp; &#39;b&#39;");
});

test("escapeHtml accepts non-strings", () => {
  assert.equal(escapeHtml(42), "42");
  assert.equal(escapeHtml(null), "null");
});

test("truncate keeps short text and marks cuts", () => {
  assert.equal(truncate("abc", 5), "abc");
  assert.equal(truncate("abcdef", 4), "abc…");
  assert.equal(truncate("abcdef", 4).length, 4);
});
