// How Lumino (JupyterLab 4, Notebook 7) decides whether a key reaches an app shortcut, for the
// render tests: it walks from the key's target up, gives up at the first element carrying
// data-lm-suppress-shortcuts, and fires the shortcut at the first element its selector matches.
// Notebook 7's command-mode selectors match the focused element itself (`... :focus`).
import assert from "node:assert/strict";

/** True when a shortcut whose selector matches the focused element would take this key. */
export function shortcutTakes(target) {
  for (let at = target; at && at.dataset; at = at.parentElement) {
    if (at.dataset.lmSuppressShortcuts !== undefined) return false;
    if (at === target.ownerDocument.activeElement) return true;
  }
  return false;
}

/** Every element in `root` a user can focus: form controls, buttons and tab stops. */
export function focusables(root) {
  const found = [];
  const walk = (node) => {
    const control = ["INPUT", "SELECT", "TEXTAREA", "BUTTON"].includes(node.tagName);
    if (control || node.tabIndex >= 0) found.push(node);
    node.children.forEach(walk);
  };
  walk(root);
  return found;
}

/** Focuses each focusable element of `root` and checks no app shortcut takes its keys. */
export function assertEveryControlKeepsItsKeys(root, { atLeast = 1 } = {}) {
  const found = focusables(root);
  assert.ok(found.length >= atLeast, `only ${found.length} focusable elements`);
  for (const node of found) {
    node.focus();
    assert.equal(shortcutTakes(node), false, `${node.tagName}.${node.className} loses its keys`);
  }
}
