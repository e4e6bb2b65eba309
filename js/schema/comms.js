// Generated from jaxdbg_widgets/comms/schema.py:
// its TypedDicts are the one definition of this JSON. Edit them, then run
// `python -m tests.unit.schema_js`.

/** @typedef {import("./sharding.js").ShardingView} ShardingView */

/**
 * One collective's operand and result sharding diagrams, or a note saying why there are none.
 * @typedef {Object} CollectiveDiagrams
 * @property {number} collective
 * @property {string} title
 * @property {string} note
 * @property {ShardingView|null} operand
 * @property {ShardingView|null} result
 */

/**
 * The bytes-sent heatmap: the memory map's grid, and each device as `[id, bytes, level]` with
 * `level` indexing `palette` and `text`.
 * @typedef {Object} CommsHeat
 * @property {number} rows
 * @property {number} cols
 * @property {string} row_label
 * @property {string} col_label
 * @property {string} title
 * @property {Array<Array<number>>} cells
 * @property {Array<[number, number, number]>} devices
 * @property {Array<string>} palette
 * @property {Array<string>} text
 * @property {[string, string, string]} ticks
 */

/**
 * One source line's collectives (positions in `collectives`), bytes per step and loops.
 * @typedef {Object} CommsLine
 * @property {string} file
 * @property {number|null} line
 * @property {string} function
 * @property {string} origin
 * @property {string} label
 * @property {Array<string>} callers
 * @property {number} sent
 * @property {string} human
 * @property {Array<number>} collectives
 * @property {Array<number>} loops
 */

/**
 * XLA's memory analysis per device as `[label, text]` rows, the peak and notes.
 * @typedef {Object} CommsMemory
 * @property {Array<[string, string]>} rows
 * @property {string} peak
 * @property {Array<string>} notes
 */

/**
 * The arguments' mesh: axis names, sizes and axis types.
 * @typedef {Object} CommsMesh
 * @property {Array<string>} axes
 * @property {Array<number>} shape
 * @property {Array<string>} types
 */

/**
 * The widget's synced state: the view, the selected line and its diagrams.
 * @typedef {Object} CommsModel
 * @property {CommsView} view
 * @property {number} line
 * @property {LineDiagrams|NoLine} line_view
 */

/**
 * One file's annotated lines with a little context, as `[number, text]`.
 * @typedef {Object} CommsSource
 * @property {string} file
 * @property {string} name
 * @property {Array<[number, string]>} lines
 */

/**
 * Everything the map draws. A collective is `[kind, name, result, sent, axes, group size,
 * executions per step (0 outside loops, null when unknown), line]`; kind and axes index the `kinds`
 * and `axes` tables; `head` is the one-line title.
 * @typedef {Object} CommsView
 * @property {string} head
 * @property {string} name
 * @property {number} partitions
 * @property {number} instructions
 * @property {Array<string>} summary
 * @property {Array<string>} kinds
 * @property {Array<string>} axes
 * @property {Array<[number, string, string, number, number, number, number|null, number]>} collectives
 * @property {Array<CommsLine>} lines
 * @property {Array<CommsSource>} sources
 * @property {Array<[string, number, string]>} axis_totals
 * @property {CommsHeat} heat
 * @property {Array<[string, string, string, string]>} inputs
 * @property {Array<[string, string, string, string]>} outputs
 * @property {Array<[string, string, string]>} mismatches
 * @property {CommsMemory|null} memory
 * @property {Array<[string, string]>} remat
 * @property {Array<[string, string, string]>} unread
 * @property {CommsMesh|null} mesh
 * @property {Array<string>} notes
 */

/**
 * The selected line's diagrams; `more` counts its collectives left out.
 * @typedef {Object} LineDiagrams
 * @property {number} line
 * @property {Array<CollectiveDiagrams>} items
 * @property {number} more
 */

/**
 * No line selected: an empty object.
 * @typedef {Object} NoLine
 */

// Each type as data: its keys (a `[key]` may be left out) with their types, or its
// type expression.
export const TYPES = {
  "CollectiveDiagrams": {"collective": "number", "title": "string", "note": "string", "operand": "ShardingView|null", "result": "ShardingView|null"},
  "CommsHeat": {"rows": "number", "cols": "number", "row_label": "string", "col_label": "string", "title": "string", "cells": "Array<Array<number>>", "devices": "Array<[number, number, number]>", "palette": "Array<string>", "text": "Array<string>", "ticks": "[string, string, string]"},
  "CommsLine": {"file": "string", "line": "number|null", "function": "string", "origin": "string", "label": "string", "callers": "Array<string>", "sent": "number", "human": "string", "collectives": "Array<number>", "loops": "Array<number>"},
  "CommsMemory": {"rows": "Array<[string, string]>", "peak": "string", "notes": "Array<string>"},
  "CommsMesh": {"axes": "Array<string>", "shape": "Array<number>", "types": "Array<string>"},
  "CommsModel": {"view": "CommsView", "line": "number", "line_view": "LineDiagrams|NoLine"},
  "CommsSource": {"file": "string", "name": "string", "lines": "Array<[number, string]>"},
  "CommsView": {"head": "string", "name": "string", "partitions": "number", "instructions": "number", "summary": "Array<string>", "kinds": "Array<string>", "axes": "Array<string>", "collectives": "Array<[number, string, string, number, number, number, number|null, number]>", "lines": "Array<CommsLine>", "sources": "Array<CommsSource>", "axis_totals": "Array<[string, number, string]>", "heat": "CommsHeat", "inputs": "Array<[string, string, string, string]>", "outputs": "Array<[string, string, string, string]>", "mismatches": "Array<[string, string, string]>", "memory": "CommsMemory|null", "remat": "Array<[string, string]>", "unread": "Array<[string, string, string]>", "mesh": "CommsMesh|null", "notes": "Array<string>"},
  "LineDiagrams": {"line": "number", "items": "Array<CollectiveDiagrams>", "more": "number"},
  "NoLine": {},
};
