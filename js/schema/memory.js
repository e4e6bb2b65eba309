// Generated from jaxdbg_widgets/memory/schema.py:
// its TypedDicts are the one definition of this JSON. Edit them, then run
// `python -m tests.unit.schema_js`.

/** @typedef {import("./sharding.js").CellColumns} CellColumns */
/** @typedef {import("./sharding.js").FacetView} FacetView */

/**
 * The heatmap's grid: its size, labels and `[row, col, device position]` places.
 * @typedef {Object} HeatGrid
 * @property {number} rows
 * @property {number} cols
 * @property {string} row_label
 * @property {string} col_label
 * @property {string} title
 * @property {Array<Array<number>>} cells
 */

/**
 * The position of the leaf a diagram belongs to.
 * @typedef {Object} LeafTag
 * @property {number} leaf
 */

/**
 * The selected leaf's sharding diagram, tagged with the leaf's position.
 * @typedef {Object} LeafView
 * @property {Array<Array<number>>} [process_edges]
 * @property {string} kind
 * @property {Array<string>} summary
 * @property {boolean} use_color
 * @property {Array<FacetView>} facets
 * @property {CellColumns} cells
 * @property {Array<[string, string, string]>} tips
 * @property {Array<Array<number|string>>} processes
 * @property {number} leaf
 */

/**
 * The colour bar's stops and its low, middle and high byte labels.
 * @typedef {Object} Legend
 * @property {Array<string>} colors
 * @property {Array<string>} ticks
 */

/**
 * One device's bytes, fill and text colours, and tooltip lines.
 * @typedef {Object} MemoryDevice
 * @property {number} id
 * @property {number} process
 * @property {string} platform
 * @property {number} bytes
 * @property {string} human
 * @property {string} color
 * @property {string} text
 * @property {Array<string>} tooltip
 */

/**
 * What the leaves of one sharding and shape share; `set` indexes `device_sets`, and `elements` is
 * one count for every device or one per device of the set.
 * @typedef {Object} MemoryGroup
 * @property {number} set
 * @property {number|Array<number>} elements
 * @property {string} shape
 * @property {string} spec
 * @property {string} shard_shape
 * @property {number} replication
 * @property {number} total_elements
 * @property {number} max_elements
 */

/**
 * The widget's synced state: the view, the selected device and leaf, the leaf's diagram.
 * @typedef {Object} MemoryModel
 * @property {MemoryView} view
 * @property {number} device
 * @property {number} leaf
 * @property {LeafView|NoLeaf} leaf_view
 */

/**
 * Everything the map draws; each leaf is `[path, dtype number, group number]`, each process
 * `[process, bytes, text]` and each dtype `[name, itemsize]`.
 * @typedef {Object} MemoryView
 * @property {string} source
 * @property {Array<string>} summary
 * @property {HeatGrid} grid
 * @property {Array<MemoryDevice>} devices
 * @property {Legend} legend
 * @property {Array<Array<number|string>>} processes
 * @property {string} limits
 * @property {Array<Array<string|number>>} leaves
 * @property {Array<Array<string|number>>} dtypes
 * @property {Array<number>} flagged
 * @property {Array<MemoryGroup>} groups
 * @property {Array<Array<number>>} device_sets
 * @property {string} flag_note
 * @property {ProgramView|null} program
 * @property {Array<string>} notes
 */

/**
 * No leaf selected: an empty object.
 * @typedef {Object} NoLeaf
 */

/**
 * XLA's memory analysis: `[label, bytes or None, text]` rows, the peak and notes; the positions of
 * the devices running the program, and the `[label, bytes, text]` rows each holds beyond its leaves
 * (aliased bytes negative).
 * @typedef {Object} ProgramView
 * @property {Array<[string, number|null, string]>} rows
 * @property {[number, string]} peak
 * @property {Array<string>} notes
 * @property {Array<number>} devices
 * @property {Array<[string, number, string]>} device_rows
 */

// Each type as data: its keys (a `[key]` may be left out) with their types, or its
// type expression.
export const TYPES = {
  "HeatGrid": {"rows": "number", "cols": "number", "row_label": "string", "col_label": "string", "title": "string", "cells": "Array<Array<number>>"},
  "LeafTag": {"leaf": "number"},
  "LeafView": {"[process_edges]": "Array<Array<number>>", "kind": "string", "summary": "Array<string>", "use_color": "boolean", "facets": "Array<FacetView>", "cells": "CellColumns", "tips": "Array<[string, string, string]>", "processes": "Array<Array<number|string>>", "leaf": "number"},
  "Legend": {"colors": "Array<string>", "ticks": "Array<string>"},
  "MemoryDevice": {"id": "number", "process": "number", "platform": "string", "bytes": "number", "human": "string", "color": "string", "text": "string", "tooltip": "Array<string>"},
  "MemoryGroup": {"set": "number", "elements": "number|Array<number>", "shape": "string", "spec": "string", "shard_shape": "string", "replication": "number", "total_elements": "number", "max_elements": "number"},
  "MemoryModel": {"view": "MemoryView", "device": "number", "leaf": "number", "leaf_view": "LeafView|NoLeaf"},
  "MemoryView": {"source": "string", "summary": "Array<string>", "grid": "HeatGrid", "devices": "Array<MemoryDevice>", "legend": "Legend", "processes": "Array<Array<number|string>>", "limits": "string", "leaves": "Array<Array<string|number>>", "dtypes": "Array<Array<string|number>>", "flagged": "Array<number>", "groups": "Array<MemoryGroup>", "device_sets": "Array<Array<number>>", "flag_note": "string", "program": "ProgramView|null", "notes": "Array<string>"},
  "NoLeaf": {},
  "ProgramView": {"rows": "Array<[string, number|null, string]>", "peak": "[number, string]", "notes": "Array<string>", "devices": "Array<number>", "device_rows": "Array<[string, number, string]>"},
};
