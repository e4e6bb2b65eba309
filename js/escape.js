// Escaping for text that comes from the user's program (names, reprs, file names, source).

const ENTITIES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escape a string for use as HTML text or a quoted attribute value. */
export function escapeHtml(value) {
  return String(value).replace(/[&<>"']/g, (ch) => ENTITIES[ch]);
}

/** Shorten a string to at most `max` characters, marking the cut with an ellipsis. */
export function truncate(value, max) {
  const text = String(value);
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}
