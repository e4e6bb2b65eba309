// Generated from jaxdbg_widgets/sharding/schema.py:
// its TypedDicts are the one definition of this JSON. Edit them, then run
// `python -m tests.unit.schema_js`.

/**
 * One list per field, each in cell order; `tip` indexes the view's `tips` table.
 * @typedef {Object} CellColumns
 * @property {Array<string>} label
 * @property {Array<Array<number>>} devices
 * @property {Array<string>} index
 * @property {Array<number>} tip
 * @property {Array<string|null>} color
 */

/**
 * One grid of cells: its title, axis labels, track sizes and `[row, col, cell]` places.
 * @typedef {Object} FacetView
 * @property {string} title
 * @property {number} rows
 * @property {number} cols
 * @property {string} row_label
 * @property {string} col_label
 * @property {Array<number>} col_widths
 * @property {Array<number|null>} row_heights
 * @property {Array<[number, number, number]>} cells
 */

/**
 * The widget's synced state: the view, the highlighted device ids and the zoom.
 * @typedef {Object} ShardingModel
 * @property {ShardingView} view
 * @property {Array<number>} selected
 * @property {number} zoom
 */

/**
 * Everything the diagram draws: header, facets, cells, tooltip table and processes (each `[process,
 * device ids]`).
 * @typedef {Object} ShardingView
 * @property {Array<Array<number>>} [process_edges]
 * @property {string} kind
 * @property {Array<string>} summary
 * @property {boolean} use_color
 * @property {Array<FacetView>} facets
 * @property {CellColumns} cells
 * @property {Array<[string, string, string]>} tips
 * @property {Array<Array<number|string>>} processes
 */

// Each type as data: its keys (a `[key]` may be left out) with their types, or its
// type expression.
export const TYPES = {
  "CellColumns": {"label": "Array<string>", "devices": "Array<Array<number>>", "index": "Array<string>", "tip": "Array<number>", "color": "Array<string|null>"},
  "FacetView": {"title": "string", "rows": "number", "cols": "number", "row_label": "string", "col_label": "string", "col_widths": "Array<number>", "row_heights": "Array<number|null>", "cells": "Array<[number, number, number]>"},
  "ShardingModel": {"view": "ShardingView", "selected": "Array<number>", "zoom": "number"},
  "ShardingView": {"[process_edges]": "Array<Array<number>>", "kind": "string", "summary": "Array<string>", "use_color": "boolean", "facets": "Array<FacetView>", "cells": "CellColumns", "tips": "Array<[string, string, string]>", "processes": "Array<Array<number|string>>"},
};
