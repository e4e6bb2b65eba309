import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { shortcutCommand } from "../debugger_format.js";

const CSS = readFileSync(new URL("../debugger.css", import.meta.url), "utf8").replace(
  /\/\*[\s\S]*?\*\//g,
  "",
);

/** The declarations of every rule whose selector list holds `selector` exactly. */
function declarations(selector) {
  const found = [];
  for (const [, selectors, body] of CSS.matchAll(/([^{}]+)\{([^}]*)\}/g)) {
    if (selectors.split(",").some((s) => s.trim() === selector)) found.push(body);
  }
  return found.join(";");
}

test("a debugger focused by a click, not only by Tab, draws a visible outline", () => {
  const body = declarations(".jaxdbg-debugger:focus");
  const outline = /(?:^|;)\s*outline\s*:\s*([^;]+)/.exec(body);
  assert.ok(outline, "no outline on .jaxdbg-debugger:focus");
  assert.doesNotMatch(outline[1], /\bnone\b|\b0(px)?\b/);
});

test("the focused, waiting debugger names its one-key commands, and each of them works", () => {
  const body = declarations(".jaxdbg-debugger:focus:not(.jaxdbg-frozen) > .jaxdbg-dbg-header::after");
  const content = /content\s*:\s*"([^"]+)"/.exec(body);
  assert.ok(content, "no key hint on the focused debugger");
  const keys = /^keys: ([a-z ]+),/.exec(content[1])[1].split(" ");
  assert.ok(keys.length >= 5);
  for (const key of keys) assert.ok(shortcutCommand(key), `${key} is not a debugger key`);
});

test("a compare tile's label wraps between words and is never cut with an ellipsis", () => {
  const body = declarations(".jaxdbg-dbg-compare-tile-label");
  assert.match(body, /white-space\s*:\s*normal/);
  assert.doesNotMatch(body, /text-overflow\s*:\s*ellipsis|white-space\s*:\s*nowrap|overflow\s*:\s*hidden/);
});

test("a transcript holding a picture is tall enough for a whole one", () => {
  const plain = /max-height\s*:\s*([\d.]+)em/.exec(declarations(".jaxdbg-dbg-transcript"));
  const drawn = /max-height\s*:\s*([\d.]+)em/.exec(declarations(".jaxdbg-dbg-transcript.jaxdbg-drawn"));
  assert.ok(plain && drawn, "no max-height for the transcript with a picture");
  assert.ok(Number(drawn[1]) >= 40 && Number(drawn[1]) > Number(plain[1]));
});
