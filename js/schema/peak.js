// Generated from jaxdbg_widgets/memory/peak_schema.py:
// its TypedDicts are the one definition of this JSON. Edit them, then run
// `python -m tests.unit.schema_js`.

/**
 * One array live at the peak: its bytes (and as people read them), kind (`argument`, `output`,
 * `temporary`, `residual`, `in a loop`, `tuple table`), `f32[8,512]` and the line that made it.
 * @typedef {Object} PeakBufferRow
 * @property {number} bytes
 * @property {string} size
 * @property {string} kind
 * @property {string} shape
 * @property {string} line
 */

/**
 * Whether the peak fits `device_memory`: the capacity and one line that says by how much.
 * @typedef {Object} PeakFit
 * @property {number} capacity
 * @property {boolean} fits
 * @property {string} text
 */

/**
 * One source line: its label, bytes at the peak, share of the peak, code (empty where its file
 * cannot be read), its buffers (indices into the variant's `buffers`, largest first) and how many
 * more it holds than are carried.
 * @typedef {Object} PeakLine
 * @property {string} label
 * @property {number} bytes
 * @property {string} size
 * @property {number} share
 * @property {string} code
 * @property {Array<number>} buffers
 * @property {number} more
 */

/**
 * The page view's state: the report, the shown variant and its open line (-1: none).
 * @typedef {Object} PeakModel
 * @property {PeakView} view
 * @property {number} variant
 * @property {number} line
 */

/**
 * One compiled variant: its peak (and XLA's, `null` where XLA gives none), FLOPs, fit, lines
 * largest first, buffers live at the peak largest first (`top` of them are the report's list), and
 * the timeline as `[step, bytes in use]` points, the fullest step of each stretch where the program
 * has more steps than points.
 * @typedef {Object} PeakVariant
 * @property {string} name
 * @property {number} peak
 * @property {string} peak_text
 * @property {number|null} xla_peak
 * @property {string} xla_text
 * @property {string} agreement
 * @property {boolean|null} agrees
 * @property {number|null} flops
 * @property {string} flops_text
 * @property {Array<number>} devices
 * @property {PeakFit|null} fit
 * @property {Array<PeakLine>} lines
 * @property {number} more_lines
 * @property {Array<PeakBufferRow>} buffers
 * @property {number} top
 * @property {number} more_buffers
 * @property {Array<[number, number]>} timeline
 * @property {number} steps
 * @property {number} peak_step
 * @property {Array<string>} notes
 */

/**
 * Every variant, in the order given.
 * @typedef {Object} PeakView
 * @property {Array<PeakVariant>} variants
 */

// Each type as data: its keys (a `[key]` may be left out) with their types, or its
// type expression.
export const TYPES = {
  "PeakBufferRow": {"bytes": "number", "size": "string", "kind": "string", "shape": "string", "line": "string"},
  "PeakFit": {"capacity": "number", "fits": "boolean", "text": "string"},
  "PeakLine": {"label": "string", "bytes": "number", "size": "string", "share": "number", "code": "string", "buffers": "Array<number>", "more": "number"},
  "PeakModel": {"view": "PeakView", "variant": "number", "line": "number"},
  "PeakVariant": {"name": "string", "peak": "number", "peak_text": "string", "xla_peak": "number|null", "xla_text": "string", "agreement": "string", "agrees": "boolean|null", "flops": "number|null", "flops_text": "string", "devices": "Array<number>", "fit": "PeakFit|null", "lines": "Array<PeakLine>", "more_lines": "number", "buffers": "Array<PeakBufferRow>", "top": "number", "more_buffers": "number", "timeline": "Array<[number, number]>", "steps": "number", "peak_step": "number", "notes": "Array<string>"},
  "PeakView": {"variants": "Array<PeakVariant>"},
};
