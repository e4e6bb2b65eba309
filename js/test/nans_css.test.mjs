import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

const CSS = readFileSync(new URL("../nans.css", import.meta.url), "utf8").replace(/\/\*[\s\S]*?\*\//g, "");

/** The declarations of every rule whose selector list holds `selector` exactly. */
function declarations(selector) {
  const found = [];
  for (const [, selectors, body] of CSS.matchAll(/([^{}]+)\{([^}]*)\}/g)) {
    if (selectors.split(",").some((s) => s.trim() === selector)) found.push(body);
  }
  return found.join(";");
}

test("the facts' bullets sit inside the list's own left padding, never past the output's edge", () => {
  const body = declarations(".jdw-nan-facts");
  const padding = /(?:^|;)\s*padding\s*:\s*([^;]+)/.exec(body);
  assert.ok(padding, "no padding on the facts list");
  const left = padding[1].trim().split(/\s+/).at(-1);
  assert.match(left, /^[1-9][\d.]*(em|px)$/, `left padding ${left} leaves the bullets outside`);
});

test("source lines never wrap, so a long line keeps its indentation and scrolls", () => {
  assert.match(declarations(".jdw-nan-source"), /white-space\s*:\s*pre\s*(;|$)/);
  assert.match(declarations(".jdw-nan-source > div"), /white-space\s*:\s*pre\s*(;|$)/);
  assert.match(declarations(".jdw-nan-source"), /overflow-x\s*:\s*auto/);
});

test("the Debug button takes the theme's colours, so it reads in a dark theme", () => {
  const body = declarations(".jdw-nan-debug");
  for (const property of ["color", "background", "border"]) {
    assert.match(body, new RegExp(`(?:^|;)\\s*${property}\\s*:[^;]*var\\(--jp-`), `${property} is not themed`);
  }
});
