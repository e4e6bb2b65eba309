// The find_nonfinite report widget: the headline, each origin's facts and its source with the
// line marked, the skipped callbacks, and a button that opens the debugger at the origin, drawn
// below the report by the debugger's own view.
import debuggerView from "./debugger.js";
import { element } from "./dom.js";
import { initialize } from "./live_link.js";
import { listen } from "./widget_model.js";

// The JSON the kernel sends (`view`): declared once, by the TypedDicts of
// jaxdbg_widgets/nans/schema.py; ./schema/nans.js is generated from them (`python -m
// tests.unit.schema_js`).

/** @typedef {import("./schema/nans.js").DebugMessage} DebugMessage */
/** @typedef {import("./schema/nans.js").NonfiniteMessage} NonfiniteMessage */
/** @typedef {import("./schema/nans.js").NonfiniteModel} NonfiniteModel */
/** @typedef {import("./schema/nans.js").NonfiniteView} NonfiniteView */
/** @typedef {import("./schema/nans.js").OriginView} OriginView */
/** @typedef {import("./schema/nans.js").SourceRow} SourceRow */
/** @typedef {import("./schema/nans.js").SourceView} SourceView */

/** @typedef {import("./schema/debugger.js").DebuggerView} DebuggerView */
/** @typedef {import("./schema/debugger.js").DebuggerMessage} DebuggerMessage */

/** Why a saved report's button is off. */
export const OFFLINE_DEBUG = "the debugger opens while the kernel that ran the search runs";

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
