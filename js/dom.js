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
