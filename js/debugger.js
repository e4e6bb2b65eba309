// The debugger widget: header, frames, source, locals, transcript, expression box, buttons.
// Every string from the program is set as text; only source lines, escaped by the kernel's
// highlighter, are set as HTML.
import {
  BUTTONS,
  expressionCommand,
  expressionHistory,
  frameLocation,
  headerDetails,
  shortcutCommand,
} from "./debugger_format.js";
import {
  renderCellOutput,
  renderFrames,
  renderLocals,
  renderSource,
  renderTranscript,
} from "./debugger_panes.js";
import { buildComparePane, buildShardsBar, showShards } from "./debugger_shards.js";
import { markDrawn, watchForUnshownWait } from "./debugger_waiting.js";
import { element, keepKeys } from "./dom.js";
import { historyInput } from "./history_input.js";
import { showExecutionCount, whenAttached } from "./host_cell.js";
import { listen } from "./widget_model.js";

// The JSON the kernel sends (`view`) and the messages sent back: declared once, by the TypedDicts
// of jaxdbg_widgets/debugger/schema.py; ./schema/debugger.js is generated from them (`python -m
// tests.unit.schema_js`).

/** @typedef {import("./schema/debugger.js").ArraySummary} ArraySummary */
/** @typedef {import("./schema/debugger.js").BatchMessage} BatchMessage */
/** @typedef {import("./schema/debugger.js").BatchPosition} BatchPosition */
/** @typedef {import("./schema/debugger.js").CellOutput} CellOutput */
/** @typedef {import("./schema/debugger.js").CellResult} CellResult */
/** @typedef {import("./schema/debugger.js").CommandMessage} CommandMessage */
/** @typedef {import("./schema/debugger.js").Compare} Compare */
/** @typedef {import("./schema/debugger.js").CompareGroup} CompareGroup */
/** @typedef {import("./schema/debugger.js").CompareMessage} CompareMessage */
/** @typedef {import("./schema/debugger.js").ComparePictureRow} ComparePictureRow */
/** @typedef {import("./schema/debugger.js").CompareRow} CompareRow */
/** @typedef {import("./schema/debugger.js").CompareScale} CompareScale */
/** @typedef {import("./schema/debugger.js").CompareTile} CompareTile */
/** @typedef {import("./schema/debugger.js").DebuggerMessage} DebuggerMessage */
/** @typedef {import("./schema/debugger.js").DebuggerModel} DebuggerModel */
/** @typedef {import("./schema/debugger.js").DebuggerView} DebuggerView */
/** @typedef {import("./schema/debugger.js").DeviceMessage} DeviceMessage */
/** @typedef {import("./schema/debugger.js").DeviceRow} DeviceRow */
/** @typedef {import("./schema/debugger.js").FrameMessage} FrameMessage */
/** @typedef {import("./schema/debugger.js").FrameRow} FrameRow */
/** @typedef {import("./schema/debugger.js").Header} Header */
/** @typedef {import("./schema/debugger.js").InternalMessage} InternalMessage */
/** @typedef {import("./schema/debugger.js").LocalRow} LocalRow */
/** @typedef {import("./schema/debugger.js").OutputChunk} OutputChunk */
/** @typedef {import("./schema/debugger.js").RenderedMessage} RenderedMessage */
/** @typedef {import("./schema/debugger.js").Shards} Shards */
/** @typedef {import("./schema/debugger.js").Source} Source */
/** @typedef {import("./schema/debugger.js").Status} Status */
/** @typedef {import("./schema/debugger.js").TranscriptEntry} TranscriptEntry */
/** @typedef {import("./schema/pictures.js").PictureView} PictureView */

/**
 * anywidget's model of this widget, typed by {@link DebuggerModel} (see widget_model.js): the
 * part the view uses, which nans.js's report provides too.
 */
/** @typedef {import("./widget_model.js").Model<DebuggerModel, DebuggerMessage, "get" | "on" | "off" | "send">} DebuggerWidget */

export const KERNEL_GONE =
  "kernel gone (restarted or shut down): this breakpoint no longer runs; run the cell again";

/**
 * The state one drawn debugger shares between its sends and its updates, kept in one object:
 * its model and root, whether the kernel is gone, and the keys of what was last drawn.
 * @param {DebuggerWidget} model anywidget's model of a {@link DebuggerModel}
 * @param {HTMLElement} el
 */
function newSession(model, el) {
  return {
    model,
    el,
    root: element("div", "jaxdbg-debugger"),
    // Set once the kernel that ran this breakpoint is gone (restarted or shut down): the
    // widget manager then marks every model's comm dead, and a send would throw.
    kernelGone: false,
    countShown: /** @type {number|null} */ (null),
    lastSourceKey: /** @type {string|null} */ (null),
    lastDevicesKey: /** @type {string|null} */ (null),
    update: () => {},
  };
}

/**
 * A send that marks the widget busy until the next update, and sends nothing once the kernel
 * is gone (a dead comm throws, which is how it is found gone).
 * @param {ReturnType<typeof newSession>} session
 * @returns {(message: DebuggerMessage) => void}
 */
function sender(session) {
  return (message) => {
    if (session.kernelGone) {
      return;
    }
    session.root.classList.add("jaxdbg-busy");
    try {
      session.model.send(message);
    } catch {
      loseKernel(session);
    }
  };
}

/**
 * A jdb command line's send: only while the session waits, saying whether it sent.
 * @param {ReturnType<typeof newSession>} session
 * @param {(message: DebuggerMessage) => void} send
 * @returns {(line: string) => boolean}
 */
function lineSender(session, send) {
  return (line) => {
    if (session.kernelGone || session.model.get("view")?.status !== "waiting") {
      return false;
    }
    send({ type: "command", line });
    return true;
  };
}

/**
 * Marks a waiting session's kernel gone and draws it so; an ended session's record stays.
 * @param {ReturnType<typeof newSession>} session
 */
function loseKernel(session) {
  if (session.kernelGone || session.model.get("view")?.status !== "waiting") {
    return; // an ended session's record stays as it is
  }
  session.kernelGone = true;
  session.update();
}

/**
 * The header: title, location, details and the batch-index box a `vmap` shows.
 * @param {(message: DebuggerMessage) => void} send
 */
function buildHeader(send) {
  const header = element("div", "jaxdbg-dbg-header");
  const title = element("span", "jaxdbg-dbg-title", "jaxdbg");
  const location = element("span", "jaxdbg-dbg-location");
  const details = element("span", "jaxdbg-dbg-details");
  const batchLabel = element("label", "jaxdbg-dbg-batch", "batch index ");
  const batchInput = element("input", "jaxdbg-dbg-batch-input");
  batchInput.type = "number";
  batchInput.min = "0";
  batchLabel.appendChild(batchInput);
  batchInput.addEventListener("change", () => {
    const index = Number.parseInt(batchInput.value, 10);
    if (Number.isInteger(index)) {
      send({ type: "batch", index });
    }
  });
  batchInput.addEventListener("keydown", (event) => event.stopPropagation());
  header.append(title, location, details, batchLabel);
  return { header, location, details, batchLabel, batchInput };
}

/**
 * The frames pane: the stack and the box that shows or hides internal frames.
 * @param {(message: DebuggerMessage) => void} send
 */
function buildFramesPane(send) {
  const pane = element("div", "jaxdbg-dbg-frames");
  const list = element("ol", "jaxdbg-dbg-frame-list");
  const internalLabel = element("label", "jaxdbg-dbg-internal");
  const internalBox = element("input");
  internalBox.type = "checkbox";
  const internalText = element("span");
  internalLabel.append(internalBox, internalText);
  internalBox.addEventListener("change", () =>
    send({ type: "internal", show: internalBox.checked }),
  );
  pane.append(element("div", "jaxdbg-dbg-heading", "Frames"), list, internalLabel);
  return { pane, list, internalLabel, internalBox, internalText };
}

/** The locals pane: a heading over the locals table, whose body each update fills. */
function buildLocalsPane() {
  const table = element("table", "jaxdbg-dbg-locals");
  const body = element("tbody");
  table.appendChild(body);
  const pane = element("div", "jaxdbg-dbg-locals-pane");
  pane.append(element("div", "jaxdbg-dbg-heading", "Locals"), table);
  return { pane, body };
}

/**
 * The expression box and the jdb command line, each with its history on ↑/↓.
 * @param {DebuggerWidget} model
 * @param {(line: string) => boolean} sendLine
 */
function buildInputs(model, sendLine) {
  const history = () => model.get("view")?.history ?? [];
  const expression = historyInput(
    "jaxdbg-dbg-expression",
    "expression (Enter evaluates; ↑/↓ history)",
    (text) => {
      const line = expressionCommand(text);
      return line !== null && sendLine(line);
    },
    () => expressionHistory(history()),
  );
  const command = historyInput(
    "jaxdbg-dbg-command-line",
    "(jdb) command, e.g. help",
    (text) => sendLine(text),
    history,
  );
  const inputs = element("div", "jaxdbg-dbg-inputs");
  inputs.append(expression, command);
  return { inputs, expression, command };
}

/**
 * One button per jdb command in BUTTONS (step, next, continue, ...).
 * @param {(line: string) => boolean} sendLine
 */
function buildButtons(sendLine) {
  const buttons = element("div", "jaxdbg-dbg-buttons");
  for (const [label, line, tip] of BUTTONS) {
    const button = element("button", "jaxdbg-dbg-button", label);
    button.type = "button";
    button.title = tip;
    button.dataset.command = line;
    button.addEventListener("click", () => sendLine(line));
    buttons.appendChild(button);
  }
  return buttons;
}

/**
 * Every part of the widget, built once; each update fills them from the view.
 * @param {DebuggerWidget} model
 * @param {(message: DebuggerMessage) => void} send
 * @param {(line: string) => boolean} sendLine
 */
function buildParts(model, send, sendLine) {
  return {
    header: buildHeader(send),
    shards: buildShardsBar(model, send),
    compare: buildComparePane(),
    frames: buildFramesPane(send),
    source: element("div", "jaxdbg-dbg-source"),
    locals: buildLocalsPane(),
    transcript: element("div", "jaxdbg-dbg-transcript"),
    cellOutput: element("div", "jaxdbg-dbg-cell-output"),
    inputs: buildInputs(model, sendLine),
    buttons: buildButtons(sendLine),
  };
}

/**
 * Puts the parts in the root, top to bottom; the root takes the focus and keeps its keys.
 * @param {HTMLElement} root
 * @param {ReturnType<typeof buildParts>} parts
 */
function assemble(root, parts) {
  root.tabIndex = 0;
  keepKeys(root);
  const body = element("div", "jaxdbg-dbg-body");
  body.append(parts.frames.pane, parts.source);
  root.append(
    parts.header.header,
    parts.shards.bar,
    parts.compare.pane,
    body,
    parts.locals.pane,
    parts.transcript,
    parts.cellOutput,
    parts.inputs.inputs,
    parts.buttons,
  );
}

/**
 * Keys on the focused root: `/` focuses the expression box, the others run their shortcut.
 * @param {HTMLElement} root
 * @param {HTMLElement} expression
 * @param {(line: string) => boolean} sendLine
 */
function wireShortcuts(root, expression, sendLine) {
  root.addEventListener("keydown", (event) => {
    if (event.key === "/" && event.target === root) {
      event.preventDefault();
      expression.focus();
      return;
    }
    const line = shortcutCommand(event.key, {
      typing: event.target !== root,
      ctrl: event.ctrlKey,
      alt: event.altKey,
      meta: event.metaKey,
    });
    if (line !== null && sendLine(line)) {
      event.preventDefault();
    }
  });
}

/**
 * The header's place and details, and the batch box where the stop is in a `vmap`.
 * @param {ReturnType<typeof buildHeader>} header
 * @param {Partial<DebuggerView>} view
 * @param {boolean} waiting
 * @param {boolean} kernelGone
 */
function showHeader(header, view, waiting, kernelGone) {
  header.location.textContent = frameLocation(view.header);
  header.details.textContent = kernelGone ? KERNEL_GONE : headerDetails(view.header, view.status);
  const batch = view.header?.batch;
  header.batchLabel.hidden = !batch;
  if (batch) {
    header.batchInput.max = String(batch.size - 1);
    header.batchInput.value = String(batch.index);
    header.batchInput.disabled = !waiting;
  }
}

/**
 * The stack and the internal-frames box (its count; hidden when there are none).
 * @param {ReturnType<typeof buildFramesPane>} frames
 * @param {Partial<DebuggerView>} view
 * @param {boolean} waiting
 * @param {(message: DebuggerMessage) => void} send
 */
function showFrames(frames, view, waiting, send) {
  renderFrames(frames.list, view, send);
  frames.internalBox.checked = Boolean(view.show_internal);
  frames.internalBox.disabled = !waiting;
  frames.internalText.textContent = ` internal frames (${view.internal_count ?? 0})`;
  frames.internalLabel.hidden = !view.internal_count;
}

/**
 * The source, redrawn only for another place (a redraw would lose the pane's scroll).
 * @param {ReturnType<typeof newSession>} session
 * @param {HTMLElement} pane
 * @param {Partial<DebuggerView>} view
 */
function showSource(session, pane, view) {
  const sourceKey = JSON.stringify([view.header?.file, view.header?.line, view.source?.first]);
  if (sourceKey !== session.lastSourceKey) {
    renderSource(pane, view.source);
    session.lastSourceKey = sourceKey;
  }
}

/**
 * The cell's execution count in its prompt, once known: this page did not run the cell, so
 * its prompt shows no count yet.
 * @param {ReturnType<typeof newSession>} session
 * @param {Partial<DebuggerView>} view
 */
function showCount(session, view) {
  const count = view.cell_output?.result?.count;
  if (Number.isInteger(count) && count !== session.countShown) {
    session.countShown = count;
    whenAttached(session.el, () => showExecutionCount(session.el, count));
  }
}

/**
 * Draws the model's current `view` in the parts; controls work only while the session waits.
 * @param {ReturnType<typeof newSession>} session
 * @param {ReturnType<typeof buildParts>} parts
 * @param {(message: DebuggerMessage) => void} send
 * @param {(line: string) => boolean} sendLine
 */
function update(session, parts, send, sendLine) {
  /** @type {Partial<DebuggerView>} */
  const view = session.model.get("view") ?? {};
  const waiting = view.status === "waiting" && !session.kernelGone;
  const { root, kernelGone } = session;
  root.classList.remove("jaxdbg-busy");
  root.classList.toggle("jaxdbg-frozen", !waiting);
  root.dataset.status = kernelGone ? "kernel-gone" : (view.status ?? "");
  showHeader(parts.header, view, waiting, kernelGone);
  showShards(session, parts, view.shards, waiting, send);
  showFrames(parts.frames, view, waiting, send);
  showSource(session, parts.source, view);
  renderLocals(parts.locals.body, view.locals, (name) => sendLine(`p ${name}`));
  renderTranscript(parts.transcript, view.transcript);
  renderCellOutput(parts.cellOutput, view.cell_output);
  showCount(session, view);
  for (const node of [parts.inputs.expression, parts.inputs.command, ...parts.buttons.children]) {
    node.disabled = !waiting;
  }
}

/**
 * Draws the model's `view` ({@link DebuggerModel}) in `el`; clicks and keys send messages.
 * @param {{model: DebuggerWidget, el: HTMLElement}} props
 * @returns {() => void}
 */
function render({ model, el }) {
  markDrawn(model, el);
  const session = newSession(model, el);
  const send = sender(session);
  const sendLine = lineSender(session, send);
  const parts = buildParts(model, send, sendLine);
  assemble(session.root, parts);
  el.appendChild(session.root);
  wireShortcuts(session.root, parts.inputs.expression, sendLine);
  session.update = () => update(session, parts, send, sendLine);
  const stop = listen(model, [
    ["change:view", session.update],
    ["comm_live_update", () => loseKernel(session)],
  ]);
  session.update();
  // Tells the kernel a view exists; without it the breakpoint also offers the typed prompt.
  try {
    model.send({ type: "rendered" });
  } catch {
    loseKernel(session);
  }
  return stop;
}

// A page reloaded while the breakpoint waits shows it even where no output draws it.
const initialize = ({ model }) => watchForUnshownWait(model, render);

export default { initialize, render };
