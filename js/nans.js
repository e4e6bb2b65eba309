// The find_nonfinite report widget: the headline, each origin's facts and its source with the
// line marked, the skipped callbacks, and a button that opens the debugger at the origin, drawn
// below the report by the debugger's own view.
import debuggerView from "./debugger.js";
import { element } from "./dom.js";
import { initialize } from "./live_link.js";
import { listen } from "./widget_model.js";

// The JSON the kernel sends (`view`), declared once here and once in
// jaxdbg_widgets/nans/schema.py under the same names; a unit test checks that they agree.

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
 * @property {SourceRow[]} lines
 */

/**
 * One origin: its heading line, its facts, its source (null without a user frame).
 * @typedef {Object} OriginView
 * @property {string} heading
 * @property {string[]} facts
 * @property {SourceView|null} source
 */

/**
 * The whole report as the widget and the static HTML draw it.
 * @typedef {Object} NonfiniteView
 * @property {string} function
 * @property {string} headline
 * @property {string[]} arguments
 * @property {OriginView[]} origins
 * @property {number} checked
 * @property {string[]} skipped
 * @property {boolean} debuggable
 */

/** @typedef {import("./debugger.js").DebuggerView} DebuggerView */
/** @typedef {import("./debugger.js").DebuggerMessage} DebuggerMessage */

/**
 * The widget's synced state: the report, the debugger opened at the origin (or null), and the
 * key its saved output links to it by (live_link.js).
 * @typedef {Object} NonfiniteModel
 * @property {NonfiniteView} view
 * @property {DebuggerView|null} debugger
 * @property {string} link
 */

/** Why a saved report's button is off. */
export const OFFLINE_DEBUG = "the debugger opens while the kernel that ran the search runs";

/**
 * The button: open the debugger at the origin (a fresh session if one was open).
 * @typedef {Object} DebugMessage
 * @property {"debug"} type
 */

/**
 * Any message the widget sends: the button's, or one of the opened debugger's.
 * @typedef {DebugMessage|DebuggerMessage} NonfiniteMessage
 */

/** anywidget's model of this widget, typed by {@link NonfiniteModel} (see widget_model.js). */
/** @typedef {import("./widget_model.js").Model<NonfiniteModel, NonfiniteMessage>} NonfiniteWidget */

/** Draw one origin: its heading, its facts and its marked source. */
function drawOrigin(origin) {
  const block = element("div", "jdw-nan-origin");
  block.append(element("div", "jdw-nan-heading", origin.heading));
  const facts = element("ul", "jdw-nan-facts");
  for (const fact of origin.facts) facts.append(element("li", "", fact));
  block.append(facts);
  if (origin.source) {
    block.append(
      element("div", "jdw-nan-note", `${origin.source.filename} in ${origin.source.function}`),
    );
    const pre = element("pre", "jdw-nan-source");
    for (const row of origin.source.lines) {
      const marker = row.marked ? ">" : " ";
      const text = `${String(row.lineno).padStart(5)} ${marker} ${row.text}`;
      pre.append(element("div", row.marked ? "jdw-nan-mark" : "", text));
    }
    block.append(pre);
  }
  return block;
}

function drawReport(pane, view) {
  const root = element("div", "jdw-nan");
  root.append(
    element("div", "jdw-nan-head", `find_nonfinite(${view.function}): ${view.headline}`),
  );
  for (const argument of view.arguments) root.append(element("div", "", argument));
  for (const origin of view.origins) root.append(drawOrigin(origin));
  if (view.skipped.length) {
    root.append(
      element(
        "div",
        "jdw-nan-note",
        `${view.skipped.length} debug print/callback call(s) skipped, not run: ${view.skipped.join("; ")}`,
      ),
    );
  }
  pane.replaceChildren(root);
}

/**
 * The report's model seen as a debugger model: its `debugger` trait is the debugger's `view`.
 * @param {NonfiniteWidget} model
 * @returns {import("./debugger.js").DebuggerWidget}
 */
function debuggerModel(model) {
  const event = (name) => (name === "change:view" ? "change:debugger" : name);
  return {
    get: (name) => (name === "view" ? model.get("debugger") : model.get(name)),
    on: (name, listener) => model.on(event(name), listener),
    off: (name, listener) => model.off(event(name), listener),
    send: (message) => model.send(message),
  };
}

/**
 * The widget: its model offered to saved outputs (live_link.js); `render` draws the report
 * ({@link NonfiniteModel}) in `el`, and the debugger once one is open.
 * @type {{initialize: typeof initialize, render: (props: {model: NonfiniteWidget, el: HTMLElement}) => () => void}}
 */
export default {
  initialize,
  render({ model, el }) {
    const report = element("div", "jdw-nan-report");
    const button = element("button", "jdw-nan-debug", "Debug at this line");
    button.type = "button";
    button.title = "Open the debugger at the origin, its inputs and outputs as locals";
    /** @type {DebugMessage} */
    const debug = { type: "debug" };
    button.addEventListener("click", () => model.send(debug));
    const pane = element("div", "jdw-nan-debugger");
    el.replaceChildren(report, button, pane);
    let closeDebugger = null;
    const update = () => {
      const view = model.get("view");
      drawReport(report, view);
      const session = model.get("debugger");
      button.hidden = !view.debuggable;
      button.disabled = Boolean(model.offline) || session?.status === "waiting";
      if (model.offline) button.title = OFFLINE_DEBUG;
      if (session && !closeDebugger) {
        closeDebugger = debuggerView.render({ model: debuggerModel(model), el: pane });
      }
    };
    const stop = listen(model, [
      ["change:view", update],
      ["change:debugger", update],
    ]);
    update();
    return () => {
      stop();
      closeDebugger?.();
    };
  },
};
