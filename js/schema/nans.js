// Generated from jaxdbg_widgets/nans/schema.py:
// its TypedDicts are the one definition of this JSON. Edit them, then run
// `python -m tests.unit.schema_js`.

/** @typedef {import("./debugger.js").BatchMessage} BatchMessage */
/** @typedef {import("./debugger.js").CommandMessage} CommandMessage */
/** @typedef {import("./debugger.js").CompareMessage} CompareMessage */
/** @typedef {import("./debugger.js").DebuggerView} DebuggerView */
/** @typedef {import("./debugger.js").DeviceMessage} DeviceMessage */
/** @typedef {import("./debugger.js").FrameMessage} FrameMessage */
/** @typedef {import("./debugger.js").InternalMessage} InternalMessage */
/** @typedef {import("./debugger.js").RenderedMessage} RenderedMessage */

/**
 * The button: open the debugger at the origin (a fresh session if one was open).
 * @typedef {Object} DebugMessage
 * @property {"debug"} type
 */

/**
 * Any message the widget sends: the button's, or one of the opened debugger's.
 * @typedef {DebugMessage|CommandMessage|FrameMessage|BatchMessage|InternalMessage|DeviceMessage|CompareMessage|RenderedMessage} NonfiniteMessage
 */

/**
 * The widget's synced state: the report, the debugger opened at the origin (or `None`), and the key
 * its saved output links to it by (`js/live_link.js`).
 * @typedef {Object} NonfiniteModel
 * @property {NonfiniteView} view
 * @property {DebuggerView|null} debugger
 * @property {string} link
 */

/**
 * The whole report as the widget and the static HTML draw it.
 * @typedef {Object} NonfiniteView
 * @property {string} function
 * @property {string} headline
 * @property {Array<string>} arguments
 * @property {Array<OriginView>} origins
 * @property {number} checked
 * @property {Array<string>} skipped
 * @property {boolean} debuggable
 */

/**
 * One origin: its heading line, its facts, its source (`None` without a user frame).
 * @typedef {Object} OriginView
 * @property {string} heading
 * @property {Array<string>} facts
 * @property {SourceView|null} source
 */

/**
 * One source line around the origin; `marked` on the origin's own line.
 * @typedef {Object} SourceRow
 * @property {number} lineno
 * @property {string} text
 * @property {boolean} marked
 */

/**
 * The origin's file, function and the lines around its line.
 * @typedef {Object} SourceView
 * @property {string} filename
 * @property {string} function
 * @property {Array<SourceRow>} lines
 */

// Each type as data: its keys (a `[key]` may be left out) with their types, or its
// type expression.
export const TYPES = {
  "DebugMessage": {"type": "\"debug\""},
  "NonfiniteMessage": "DebugMessage|CommandMessage|FrameMessage|BatchMessage|InternalMessage|DeviceMessage|CompareMessage|RenderedMessage",
  "NonfiniteModel": {"view": "NonfiniteView", "debugger": "DebuggerView|null", "link": "string"},
  "NonfiniteView": {"function": "string", "headline": "string", "arguments": "Array<string>", "origins": "Array<OriginView>", "checked": "number", "skipped": "Array<string>", "debuggable": "boolean"},
  "OriginView": {"heading": "string", "facts": "Array<string>", "source": "SourceView|null"},
  "SourceRow": {"lineno": "number", "text": "string", "marked": "boolean"},
  "SourceView": {"filename": "string", "function": "string", "lines": "Array<SourceRow>"},
};
