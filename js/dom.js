// Building DOM nodes from text (every string is set as textContent, never parsed as HTML), and
// the DOM habits the widgets share: delegated item events, a roving tab stop, a placed tooltip.
import { tooltipPosition } from "./sharding_grid.js";

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

/**
 * The number in `data-${key}` of the `selector` element around `target`, if that element is
 * inside `root`, else null: which item a delegated event hit.
 * @param {Element} root
 * @param {*} target an event's target (not always an Element)
 * @param {string} selector
 * @param {string} key
 * @returns {number|null}
 */
export function itemIndex(root, target, selector, key) {
  const node = target.closest?.(selector);
  return node && root.contains(node) ? Number(node.dataset[key]) : null;
}

/**
 * Runs `handler(index, event)` for each `type` event on `container` that hits one of its items
 * (`indexOf(target)` not null): one listener for every item of a list.
 * @param {EventTarget} container
 * @param {string} type
 * @param {(target: *) => (number|null)} indexOf
 * @param {(index: number, event: *) => void} handler
 */
export function onItem(container, type, indexOf, handler) {
  container.addEventListener(type, (event) => {
    const index = indexOf(event.target);
    if (index !== null) handler(index, event);
  });
}

/**
 * Moves a list's one tab stop from `from` to `to` and focuses it, so Tab leaves the list and
 * arrow keys move within it.
 * @param {HTMLElement} from
 * @param {HTMLElement} to
 */
export function moveTabStop(from, to) {
  to.tabIndex = 0;
  from.tabIndex = -1;
  to.focus();
}

/**
 * Shows `tooltip` holding `text` beside the client point (x, y), kept inside `root` (or the
 * window below its top, where the root is shorter).
 * @param {HTMLElement} tooltip
 * @param {Element} root
 * @param {string} text
 * @param {number} x
 * @param {number} y
 */
export function showTooltip(tooltip, root, text, x, y) {
  tooltip.textContent = text;
  tooltip.hidden = false;
  const box = root.getBoundingClientRect();
  const place = tooltipPosition(
    { x: x - box.left, y: y - box.top },
    { width: tooltip.offsetWidth, height: tooltip.offsetHeight },
    { width: box.width, height: Math.max(box.height, window.innerHeight - box.top) },
  );
  tooltip.style.left = `${place.left}px`;
  tooltip.style.top = `${place.top}px`;
}
