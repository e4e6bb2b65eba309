// Generated from jaxdbg_widgets/debugger/schema.py:
// its TypedDicts are the one definition of this JSON. Edit them, then run
// `python -m tests.unit.schema_js`.

/** @typedef {import("./pictures.js").PictureView} PictureView */

/**
 * An array local reduced to statistics, so the state stays small whatever its size.
 * @typedef {Object} ArraySummary
 * @property {Array<number>|null} shape
 * @property {string} dtype
 * @property {number} [min]
 * @property {number} [max]
 * @property {number} [mean]
 * @property {number} [std]
 * @property {number} [nan]
 * @property {number} [inf]
 * @property {number} [size]
 * @property {string} [preview]
 * @property {string} [error]
 */

/**
 * Select a `vmap` element.
 * @typedef {Object} BatchMessage
 * @property {"batch"} type
 * @property {number} index
 */

/**
 * The selected `vmap` element: its index in the batch, the batch size, its element.
 * @typedef {Object} BatchPosition
 * @property {number} index
 * @property {number} size
 * @property {number|null} element
 */

/**
 * The rest of the cell's output after the session ended, for a page reloaded while it waited;
 * `omitted` counts the earliest characters left out.
 * @typedef {Object} CellOutput
 * @property {Array<OutputChunk>} chunks
 * @property {number} omitted
 * @property {CellResult|null} result
 */

/**
 * The cell's result as `Out[count]` shows it.
 * @typedef {Object} CellResult
 * @property {number|null} count
 * @property {string} text
 */

/**
 * Run a jdb command line.
 * @typedef {Object} CommandMessage
 * @property {"command"} type
 * @property {string} line
 */

/**
 * The last `compare`: the expression, one row per gathered shard, the groups of equal values
 * (largest first), the verdict line, and the pictures when the values are arrays.
 * @typedef {Object} Compare
 * @property {string} expression
 * @property {Array<CompareRow>} rows
 * @property {number} differing
 * @property {Array<CompareGroup>} groups
 * @property {string} verdict
 * @property {ComparePictureRow|null} pictures
 */

/**
 * Shards that gave one value: their indices as ranges (`shards 0–215, 217–255`).
 * @typedef {Object} CompareGroup
 * @property {string} shards
 * @property {number} count
 * @property {string} value
 * @property {boolean} error
 * @property {boolean} differs
 */

/**
 * Evaluate an expression on every shard.
 * @typedef {Object} CompareMessage
 * @property {"compare"} type
 * @property {string} expression
 */

/**
 * A compare of arrays of one shape as a row of pictures on one scale; `more` says how many groups
 * were left out past the cap.
 * @typedef {Object} ComparePictureRow
 * @property {CompareScale} scale
 * @property {Array<CompareTile>} tiles
 * @property {string} more
 */

/**
 * One shard's value of the last compare.
 * @typedef {Object} CompareRow
 * @property {string} value
 * @property {boolean} error
 * @property {boolean} differs
 */

/**
 * The one colour scale of a compare's pictures: its map, its ends and the line saying so (`one
 * scale: min 0 … max 10`).
 * @typedef {Object} CompareScale
 * @property {string} cmap
 * @property {string} low
 * @property {string} high
 * @property {Array<string>} stops
 * @property {string} text
 */

/**
 * One picture of a compare: a shard, or a group of shards with equal values (`count`), the shard a
 * click selects (`position` in `devices`) and what a screen reader says.
 * @typedef {Object} CompareTile
 * @property {number} position
 * @property {string} label
 * @property {number} count
 * @property {string} png
 * @property {string} summary
 * @property {boolean} differs
 */

/**
 * Any message the widget sends (`model.send`).
 * @typedef {CommandMessage|FrameMessage|BatchMessage|InternalMessage|DeviceMessage|CompareMessage|RenderedMessage} DebuggerMessage
 */

/**
 * The widget's synced state.
 * @typedef {Object} DebuggerModel
 * @property {DebuggerView} view
 */

/**
 * Everything the widget draws; `shards` only in a shard session, `cell_output` only in an ended one
 * whose page was reloaded while it waited.
 * @typedef {Object} DebuggerView
 * @property {"waiting"|"continue"|"continue_all"|"quit"|"interrupted"|"typed prompt"} status
 * @property {Header} header
 * @property {Array<FrameRow>} frames
 * @property {number} selected
 * @property {boolean} show_internal
 * @property {number} internal_count
 * @property {Source|null} source
 * @property {Array<LocalRow>} locals
 * @property {Array<TranscriptEntry>} transcript
 * @property {Array<string>} history
 * @property {Shards} [shards]
 * @property {CellOutput} [cell_output]
 */

/**
 * Select a shard (its position in `shards.devices`).
 * @typedef {Object} DeviceMessage
 * @property {"device"} type
 * @property {number} index
 */

/**
 * One shard in the device selector; `element` is its `vmap` element, if any.
 * @typedef {Object} DeviceRow
 * @property {string} label
 * @property {number} index
 * @property {"waiting"|"continue"|"continue_all"|"quit"|"interrupted"|"typed prompt"} state
 * @property {number} [element]
 */

/**
 * Select a frame of the stack.
 * @typedef {Object} FrameMessage
 * @property {"frame"} type
 * @property {number} index
 */

/**
 * One frame of the stack, as the frame list shows it.
 * @typedef {Object} FrameRow
 * @property {string} function
 * @property {string} file
 * @property {number} line
 * @property {boolean} internal
 */

/**
 * The selected frame's place, the thread or device, the batch and what stopped there.
 * @typedef {Object} Header
 * @property {string} file
 * @property {number} line
 * @property {string} function
 * @property {string} thread
 * @property {BatchPosition|null} batch
 * @property {string} stop
 * @property {string} location
 */

/**
 * Show or hide internal frames.
 * @typedef {Object} InternalMessage
 * @property {"internal"} type
 * @property {boolean} show
 */

/**
 * One local: a summary (and a thumbnail PNG) for arrays, a short repr otherwise; `more` counts the
 * rest.
 * @typedef {Object} LocalRow
 * @property {string} name
 * @property {string} type
 * @property {boolean} [batched]
 * @property {ArraySummary} [summary]
 * @property {string} [thumb]
 * @property {string} [repr]
 * @property {number} [more]
 */

/**
 * Text the cell sent after its debugger ended: printed, displayed, or an error line.
 * @typedef {Object} OutputChunk
 * @property {"stdout"|"stderr"|"display"|"error"} kind
 * @property {string} text
 */

/**
 * The view has drawn: the breakpoint need not offer the typed prompt.
 * @typedef {Object} RenderedMessage
 * @property {"rendered"} type
 */

/**
 * A shard session's device selector and last compare.
 * @typedef {Object} Shards
 * @property {number|null} expected
 * @property {number} arrived
 * @property {number} waiting
 * @property {number} selected
 * @property {Array<DeviceRow>} devices
 * @property {Compare|null} compare
 */

/**
 * Highlighted lines around the current one; `current` indexes `lines`.
 * @typedef {Object} Source
 * @property {number} first
 * @property {number|null} current
 * @property {Array<string>} lines
 */

/**
 * Where a session or a shard stands: waiting, how it ended (a `Resume` value), interrupted, or
 * handed to the typed prompt because no view drew.
 * @typedef {"waiting"|"continue"|"continue_all"|"quit"|"interrupted"|"typed prompt"} Status
 */

/**
 * One command and what it printed; a `p` result that is an array has its picture.
 * @typedef {Object} TranscriptEntry
 * @property {string} command
 * @property {string} output
 * @property {boolean} error
 * @property {PictureView} [picture]
 */

// Each type as data: its keys (a `[key]` may be left out) with their types, or its
// type expression.
export const TYPES = {
  "ArraySummary": {"shape": "Array<number>|null", "dtype": "string", "[min]": "number", "[max]": "number", "[mean]": "number", "[std]": "number", "[nan]": "number", "[inf]": "number", "[size]": "number", "[preview]": "string", "[error]": "string"},
  "BatchMessage": {"type": "\"batch\"", "index": "number"},
  "BatchPosition": {"index": "number", "size": "number", "element": "number|null"},
  "CellOutput": {"chunks": "Array<OutputChunk>", "omitted": "number", "result": "CellResult|null"},
  "CellResult": {"count": "number|null", "text": "string"},
  "CommandMessage": {"type": "\"command\"", "line": "string"},
  "Compare": {"expression": "string", "rows": "Array<CompareRow>", "differing": "number", "groups": "Array<CompareGroup>", "verdict": "string", "pictures": "ComparePictureRow|null"},
  "CompareGroup": {"shards": "string", "count": "number", "value": "string", "error": "boolean", "differs": "boolean"},
  "CompareMessage": {"type": "\"compare\"", "expression": "string"},
  "ComparePictureRow": {"scale": "CompareScale", "tiles": "Array<CompareTile>", "more": "string"},
  "CompareRow": {"value": "string", "error": "boolean", "differs": "boolean"},
  "CompareScale": {"cmap": "string", "low": "string", "high": "string", "stops": "Array<string>", "text": "string"},
  "CompareTile": {"position": "number", "label": "string", "count": "number", "png": "string", "summary": "string", "differs": "boolean"},
  "DebuggerMessage": "CommandMessage|FrameMessage|BatchMessage|InternalMessage|DeviceMessage|CompareMessage|RenderedMessage",
  "DebuggerModel": {"view": "DebuggerView"},
  "DebuggerView": {"status": "\"waiting\"|\"continue\"|\"continue_all\"|\"quit\"|\"interrupted\"|\"typed prompt\"", "header": "Header", "frames": "Array<FrameRow>", "selected": "number", "show_internal": "boolean", "internal_count": "number", "source": "Source|null", "locals": "Array<LocalRow>", "transcript": "Array<TranscriptEntry>", "history": "Array<string>", "[shards]": "Shards", "[cell_output]": "CellOutput"},
  "DeviceMessage": {"type": "\"device\"", "index": "number"},
  "DeviceRow": {"label": "string", "index": "number", "state": "\"waiting\"|\"continue\"|\"continue_all\"|\"quit\"|\"interrupted\"|\"typed prompt\"", "[element]": "number"},
  "FrameMessage": {"type": "\"frame\"", "index": "number"},
  "FrameRow": {"function": "string", "file": "string", "line": "number", "internal": "boolean"},
  "Header": {"file": "string", "line": "number", "function": "string", "thread": "string", "batch": "BatchPosition|null", "stop": "string", "location": "string"},
  "InternalMessage": {"type": "\"internal\"", "show": "boolean"},
  "LocalRow": {"name": "string", "type": "string", "[batched]": "boolean", "[summary]": "ArraySummary", "[thumb]": "string", "[repr]": "string", "[more]": "number"},
  "OutputChunk": {"kind": "\"stdout\"|\"stderr\"|\"display\"|\"error\"", "text": "string"},
  "RenderedMessage": {"type": "\"rendered\""},
  "Shards": {"expected": "number|null", "arrived": "number", "waiting": "number", "selected": "number", "devices": "Array<DeviceRow>", "compare": "Compare|null"},
  "Source": {"first": "number", "current": "number|null", "lines": "Array<string>"},
  "Status": "\"waiting\"|\"continue\"|\"continue_all\"|\"quit\"|\"interrupted\"|\"typed prompt\"",
  "TranscriptEntry": {"command": "string", "output": "string", "error": "boolean", "[picture]": "PictureView"},
};
