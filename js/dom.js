// Building DOM nodes from text: every string is set as textContent, never parsed as HTML.

/** A new `tag` element with an optional class name and text content. */
export function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) {
    node.className = className;
  }
  if (text !== undefined) {
    node.textContent = text;
  }
  return node;
}

/**
 * Keys pressed in the widget stay the widget's in JupyterLab and Notebook 7. Lumino skips its
 * shortcuts for a key whose target, or an element between the target and the one a shortcut's
 * selector matches, carries `data-lm-suppress-shortcuts`; Notebook 7's selectors match the
 * focused element itself (`:focus`), so a mark on the root alone loses a focused <select>'s
 * keys. The root is marked, and every element inside it is marked as it takes focus.
 */
export function keepKeys(root) {
  root.dataset.lmSuppressShortcuts = "true";
  root.addEventListener("focusin", (event) => {
    event.target.dataset.lmSuppressShortcuts = "true";
  });
}
