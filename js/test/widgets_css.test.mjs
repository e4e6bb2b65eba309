import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";

const DIR = new URL("../", import.meta.url);

/** Each rule of `name` as [selectors, properties], comments dropped. */
function rules(name) {
  const css = readFileSync(new URL(name, DIR), "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
  return [...css.matchAll(/([^{}]+)\{([^}]*)\}/g)].map(([, selectors, body]) => [
    selectors.split(",").map((s) => s.trim()),
    body.split(";").map((d) => d.split(":")[0].trim()).filter(Boolean),
  ]);
}

/** Properties named like a shorthand's parts that the shorthand does not set. */
const APART = new Set(["border-collapse", "border-radius", "border-spacing"]);

/** Whether setting `a` and `b` on one element can clash: the same, or a shorthand and its part. */
const overlaps = (a, b) =>
  a === b || (!APART.has(a) && !APART.has(b) && (a.startsWith(`${b}-`) || b.startsWith(`${a}-`)));

test("a shared rule sets nothing its widget's own rule for that selector sets again", () => {
  // A page holds a copy of widgets.css per widget kind, so a later copy would undo such a rule.
  const own = readdirSync(DIR)
    .filter((name) => name.endsWith(".css") && name !== "widgets.css")
    .flatMap((name) => rules(name).map((rule) => [name, ...rule]));
  for (const [selectors, shared] of rules("widgets.css")) {
    for (const selector of selectors) {
      for (const [name, theirs, properties] of own) {
        if (!theirs.includes(selector)) continue;
        const clash = properties.filter((p) => shared.some((q) => overlaps(p, q)));
        assert.deepEqual(clash, [], `${selector} in ${name} sets again what widgets.css sets`);
      }
    }
  }
});

test("the shared rules take their colours and fonts from the theme", () => {
  const css = readFileSync(new URL("widgets.css", DIR), "utf8");
  for (const [, body] of css.matchAll(/\{([^}]*)\}/g)) {
    for (const [, property, value] of body.matchAll(/([\w-]+)\s*:\s*([^;]+);/g)) {
      const painted = /^(color|background|font-family|font-size)$|^border/.test(property);
      if (painted && !APART.has(property)) {
        assert.match(value, /var\(--jp-/, `${property}: ${value} is not themed`);
      }
    }
  }
});
