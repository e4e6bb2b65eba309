// Generated from jaxdbg_widgets/notebook/printlog_schema.py:
// its TypedDicts are the one definition of this JSON. Edit them, then run
// `python -m tests.unit.schema_js`.

/** @typedef {import("./pictures.js").PicturesView} PicturesView */

/**
 * No print expanded: an empty object.
 * @typedef {Object} NoPictures
 */

/**
 * The widget's synced state: the newest matching rows, the counts, the filter, the limit, the
 * expanded print (-1: none), its pictures, and the key its saved output links to it by
 * (`js/live_link.js`).
 * @typedef {Object} PrintLogModel
 * @property {Array<PrintRow>} rows
 * @property {PrintStats} stats
 * @property {string} query
 * @property {number} limit
 * @property {number} expanded
 * @property {PrintPictures|NoPictures} pictures
 * @property {string} link
 */

/**
 * The pictures of the arrays one print carried; `index` is the print's.
 * @typedef {Object} PrintPictures
 * @property {number} index
 * @property {PicturesView} view
 */

/**
 * One print as the table shows it; `cell` is None outside a cell, `process` (the JAX process that
 * printed) None outside a multi-process job.
 * @typedef {Object} PrintRow
 * @property {number} index
 * @property {number|null} cell
 * @property {string} time
 * @property {string} site
 * @property {string} text
 * @property {string} values
 * @property {number} arrays
 * @property {number|null} process
 */

/**
 * How many prints were seen, kept, dropped and matched, and the log's capacity.
 * @typedef {Object} PrintStats
 * @property {number} seen
 * @property {number} kept
 * @property {number} dropped
 * @property {number} matched
 * @property {number} capacity
 */

// Each type as data: its keys (a `[key]` may be left out) with their types, or its
// type expression.
export const TYPES = {
  "NoPictures": {},
  "PrintLogModel": {"rows": "Array<PrintRow>", "stats": "PrintStats", "query": "string", "limit": "number", "expanded": "number", "pictures": "PrintPictures|NoPictures", "link": "string"},
  "PrintPictures": {"index": "number", "view": "PicturesView"},
  "PrintRow": {"index": "number", "cell": "number|null", "time": "string", "site": "string", "text": "string", "values": "string", "arrays": "number", "process": "number|null"},
  "PrintStats": {"seen": "number", "kept": "number", "dropped": "number", "matched": "number", "capacity": "number"},
};
