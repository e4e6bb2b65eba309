import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

const CSS = readFileSync(new URL("../printlog.css", import.meta.url), "utf8").replace(/\/\*[\s\S]*?\*\//g, "");

/** The declarations of every rule whose selector list holds `selector` exactly. */
function declarations(selector) {
  const found = [];
  for (const [, selectors, body] of CSS.matchAll(/([^{}]+)\{([^}]*)\}/g)) {
    if (selectors.split(",").some((s) => s.trim() === selector)) found.push(body);
  }
  return found.join(";");
}

test("the sticky header paints above the pictures' positioned frames and shard boxes", () => {
  const body = declarations(".jaxdbg-printlog-table th");
  assert.match(body, /position\s*:\s*sticky/);
  const z = /z-index\s*:\s*(\d+)/.exec(body);
  assert.ok(z && Number(z[1]) >= 1, "a sticky header without a z-index is overprinted");
  assert.match(body, /background\s*:\s*var\(--jp-layout-color/);
});

test("the printed text keeps a readable width and long summaries wrap instead", () => {
  assert.match(declarations(".jaxdbg-printlog-table td.jaxdbg-printlog-col-text"), /min-width\s*:\s*\d+ch/);
  const values = declarations(".jaxdbg-printlog-table td.jaxdbg-printlog-col-values");
  assert.match(values, /max-width\s*:\s*\d+ch/);
  assert.match(values, /overflow-wrap\s*:\s*anywhere/);
});

test("a pane with an expanded print is taller than the plain one", () => {
  const height = (selector) => Number(/max-height\s*:\s*(\d+)px/.exec(declarations(selector))?.[1]);
  assert.ok(height(".jaxdbg-printlog-scroll.jaxdbg-drawn") > height(".jaxdbg-printlog-scroll"));
});
