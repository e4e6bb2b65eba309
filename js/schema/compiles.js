// Generated from jaxdbg_widgets/compiles/schema.py:
// its TypedDicts are the one definition of this JSON. Edit them, then run
// `python -m tests.unit.schema_js`.

/**
 * One user line of a program: its label, jaxpr equations, StableHLO operations (0: not counted) and
 * code (`equations` 0: a constant).
 * @typedef {Object} CompileLine
 * @property {string} label
 * @property {number} equations
 * @property {number} hlo
 * @property {string} code
 */

/**
 * One program: where it was called, its stage counts and seconds, cause and biggest lines.
 * @typedef {Object} CompileProgram
 * @property {number} index
 * @property {string} call_site
 * @property {Array<number>} stages
 * @property {number} seconds
 * @property {string} cause
 * @property {Array<CompileLine>} lines
 */

/**
 * One function at one call site: counts and seconds per stage, and its programs.
 * @typedef {Object} CompileRow
 * @property {string} name
 * @property {string} defined
 * @property {string} call_site
 * @property {Array<number>} counts
 * @property {Array<number>} seconds
 * @property {Array<number>} programs
 */

/**
 * The page view's state: the report and the open row (-1: none).
 * @typedef {Object} CompilesModel
 * @property {CompilesView} view
 * @property {number} row
 */

/**
 * The whole report: a headline, the rows worst first, and every program by index.
 * @typedef {Object} CompilesView
 * @property {string} headline
 * @property {Array<CompileRow>} rows
 * @property {Array<CompileProgram>} programs
 */

// Each type as data: its keys (a `[key]` may be left out) with their types, or its
// type expression.
export const TYPES = {
  "CompileLine": {"label": "string", "equations": "number", "hlo": "number", "code": "string"},
  "CompileProgram": {"index": "number", "call_site": "string", "stages": "Array<number>", "seconds": "number", "cause": "string", "lines": "Array<CompileLine>"},
  "CompileRow": {"name": "string", "defined": "string", "call_site": "string", "counts": "Array<number>", "seconds": "Array<number>", "programs": "Array<number>"},
  "CompilesModel": {"view": "CompilesView", "row": "number"},
  "CompilesView": {"headline": "string", "rows": "Array<CompileRow>", "programs": "Array<CompileProgram>"},
};
