// Generated from jaxdbg_widgets/pictures/schema.py:
// its TypedDicts are the one definition of this JSON. Edit them, then run
// `python -m tests.unit.schema_js`.

/**
 * Counts of finite values per bin, the range's ends as text, the sampling step.
 * @typedef {Object} HistogramView
 * @property {Array<number>} counts
 * @property {string} low
 * @property {string} high
 * @property {number} step
 */

/**
 * No cell asked about yet: an empty object.
 * @typedef {Object} NoProbe
 */

/**
 * One image: its title, leading index, PNG, reduced size, its shards (numbers into the picture's
 * `shards`), `[row, col, special]` rings around a few NaN (0), +Inf (1) or -Inf (2) cells so one
 * such pixel is seen at once, and, when small and unreduced, every cell's exact value.
 * @typedef {Object} PanelView
 * @property {string} title
 * @property {Array<number>} index
 * @property {string} png
 * @property {number} width
 * @property {number} height
 * @property {Array<number>} shards
 * @property {Array<[number, number, number]>} marks
 * @property {Array<string>|null} values
 */

/**
 * What the browser sends: `probe` asks for the value at `[row, col]` of a panel (full resolution);
 * `slide` shows leading index `index` of a picture drawn with sliders.
 * @typedef {Object} PictureMessage
 * @property {"probe"|"slide"} event
 * @property {number} picture
 * @property {number} panel
 * @property {Array<number>} index
 */

/**
 * One array's picture: what it is, how it is laid out and reduced, and its legend.
 * @typedef {Object} PictureView
 * @property {string} path
 * @property {string} title
 * @property {string} label
 * @property {"scalar"|"strip"|"grid"} layout
 * @property {Array<number>} shape
 * @property {string} dtype
 * @property {Array<string>} summary
 * @property {string} scalar
 * @property {[number, number]} grid
 * @property {[number, number]} factor
 * @property {Array<PanelView>} panels
 * @property {number} hidden
 * @property {Array<SliderView>} sliders
 * @property {ScaleView} scale
 * @property {Array<SpecialView>} specials
 * @property {HistogramView} histogram
 * @property {Array<ShardView>} shards
 * @property {string} spec
 * @property {Array<number|null>|null} line
 */

/**
 * The widget's synced state: the view, the last probe's answer, and the key its saved output links
 * to it by (`js/live_link.js`).
 * @typedef {Object} PicturesModel
 * @property {PicturesView} view
 * @property {Probe|NoProbe} probe
 * @property {string} link
 */

/**
 * Every picture of one `show` call, and the leaves that were not drawn.
 * @typedef {Object} PicturesView
 * @property {Array<PictureView>} pictures
 * @property {Array<string>} skipped
 */

/**
 * The kernel's answer to a hovered cell: where, and the exact value there.
 * @typedef {Object} Probe
 * @property {number} picture
 * @property {number} panel
 * @property {Array<number>} index
 * @property {string} text
 */

/**
 * The colour map, its two ends as numbers and text, and colour-bar stops.
 * @typedef {Object} ScaleView
 * @property {string} cmap
 * @property {number} vmin
 * @property {number} vmax
 * @property {string} low
 * @property {string} high
 * @property {Array<string>} stops
 * @property {boolean} diverging
 */

/**
 * A shard's rows and columns (`[start, stop)` in full-resolution cells), label, devices and their
 * platform (`CPU`), which names each device as the label does (`CPU 6`).
 * @typedef {Object} ShardView
 * @property {[number, number]} rows
 * @property {[number, number]} cols
 * @property {string} label
 * @property {Array<number>} devices
 * @property {string} platform
 */

/**
 * A leading axis drawn as a slider: its dimension, size and shown index.
 * @typedef {Object} SliderView
 * @property {number} dim
 * @property {number} size
 * @property {number} value
 */

/**
 * NaN, +Inf or -Inf: its name, colour and count.
 * @typedef {Object} SpecialView
 * @property {string} name
 * @property {string} color
 * @property {number} count
 */

// Each type as data: its keys (a `[key]` may be left out) with their types, or its
// type expression.
export const TYPES = {
  "HistogramView": {"counts": "Array<number>", "low": "string", "high": "string", "step": "number"},
  "NoProbe": {},
  "PanelView": {"title": "string", "index": "Array<number>", "png": "string", "width": "number", "height": "number", "shards": "Array<number>", "marks": "Array<[number, number, number]>", "values": "Array<string>|null"},
  "PictureMessage": {"event": "\"probe\"|\"slide\"", "picture": "number", "panel": "number", "index": "Array<number>"},
  "PictureView": {"path": "string", "title": "string", "label": "string", "layout": "\"scalar\"|\"strip\"|\"grid\"", "shape": "Array<number>", "dtype": "string", "summary": "Array<string>", "scalar": "string", "grid": "[number, number]", "factor": "[number, number]", "panels": "Array<PanelView>", "hidden": "number", "sliders": "Array<SliderView>", "scale": "ScaleView", "specials": "Array<SpecialView>", "histogram": "HistogramView", "shards": "Array<ShardView>", "spec": "string", "line": "Array<number|null>|null"},
  "PicturesModel": {"view": "PicturesView", "probe": "Probe|NoProbe", "link": "string"},
  "PicturesView": {"pictures": "Array<PictureView>", "skipped": "Array<string>"},
  "Probe": {"picture": "number", "panel": "number", "index": "Array<number>", "text": "string"},
  "ScaleView": {"cmap": "string", "vmin": "number", "vmax": "number", "low": "string", "high": "string", "stops": "Array<string>", "diverging": "boolean"},
  "ShardView": {"rows": "[number, number]", "cols": "[number, number]", "label": "string", "devices": "Array<number>", "platform": "string"},
  "SliderView": {"dim": "number", "size": "number", "value": "number"},
  "SpecialView": {"name": "string", "color": "string", "count": "number"},
};
