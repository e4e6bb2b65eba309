// The debugger widget: header, frames, source, locals, transcript, expression box, buttons.
// Every string from the program is set as text; only source lines, escaped by the kernel's
// highlighter, are set as HTML.
import {
  BUTTONS,
  compareTiles,
  compareRows,
  compareVerdict,
  findDevice,
  deviceOption,
  expressionCommand,
  expressionHistory,
  formatSummary,
  hasNonFinite,
  headerDetails,
  historyStep,
  shardSummary,
  shortcutCommand,
  frameLocation,
  sourceRows,
} from "./debugger_format.js";
import { element, keepKeys } from "./dom.js";
import { markDrawn, watchForUnshownWait } from "./debugger_waiting.js";
import { showExecutionCount, whenAttached } from "./host_cell.js";
import { drawPicture } from "./pictures.js";

// The JSON the kernel sends (`view`) and the messages sent back, declared once here and once in
// jaxdbg_widgets/debugger/schema.py under the same names; a unit test checks that they agree.

/**
 * Where a session or a shard stands: waiting, how it ended, interrupted, or handed to the typed
 * prompt because no view drew.
 * @typedef {"waiting"|"continue"|"continue_all"|"quit"|"interrupted"|"typed prompt"} Status
 */

/**
 * An array local reduced to statistics.
 * @typedef {Object} ArraySummary
 * @property {Array<number>|null} shape
 * @property {string} dtype
 * @property {number} [size]
 * @property {number} [min]
 * @property {number} [max]
 * @property {number} [mean]
 * @property {number} [std]
 * @property {number} [nan]
 * @property {number} [inf]
 * @property {string} [preview]
 * @property {string} [error]
 */

/**
 * The selected `vmap` element: its index in the batch, the batch size, its element.
 * @typedef {Object} BatchPosition
 * @property {number} index
 * @property {number} size
 * @property {number|null} element
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
 * One frame of the stack.
 * @typedef {Object} FrameRow
 * @property {string} function
 * @property {string} file
 * @property {number} line
 * @property {boolean} internal
 */

/**
 * Highlighted lines (escaped by the kernel) around the current one; `current` indexes `lines`.
 * @typedef {Object} Source
 * @property {number} first
 * @property {number|null} current
 * @property {Array<string>} lines
 */

/**
 * One local: a summary (and a thumbnail PNG) for arrays, a short repr otherwise; `more`
 * counts the rest.
 * @typedef {Object} LocalRow
 * @property {string} name
 * @property {string} type
 * @property {boolean} [batched]
 * @property {ArraySummary} [summary]
 * @property {string} [thumb]
 * @property {string} [repr]
 * @property {number} [more]
 */

/** @typedef {import("./pictures.js").PictureView} PictureView */

/**
 * One command and what it printed; a `p` result that is an array has its picture.
 * @typedef {Object} TranscriptEntry
 * @property {string} command
 * @property {string} output
 * @property {boolean} error
 * @property {PictureView} [picture]
 */

/**
 * One shard in the device selector; `element` is its `vmap` element, if any.
 * @typedef {Object} DeviceRow
 * @property {string} label
 * @property {number} index
 * @property {Status} state
 * @property {number} [element]
 */

/**
 * One shard's value of the last compare.
 * @typedef {Object} CompareRow
 * @property {string} value
 * @property {boolean} error
 * @property {boolean} differs
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
 * The one colour scale of a compare's pictures: its map, its ends and the line saying so
 * (`one scale: min 0 … max 10`).
 * @typedef {Object} CompareScale
 * @property {string} cmap
 * @property {string} low
 * @property {string} high
 * @property {Array<string>} stops
 * @property {string} text
 */

/**
 * One picture of a compare: a shard, or a group of shards with equal values (`count`), the
 * shard a click selects (`position` in `devices`) and what a screen reader says.
 * @typedef {Object} CompareTile
 * @property {number} position
 * @property {string} label
 * @property {number} count
 * @property {string} png
 * @property {string} summary
 * @property {boolean} differs
 */

/**
 * A compare of arrays of one shape as a row of pictures on one scale; `more` says how many
 * groups were left out past the cap.
 * @typedef {Object} ComparePictureRow
 * @property {CompareScale} scale
 * @property {Array<CompareTile>} tiles
 * @property {string} more
 */

/**
 * The last `compare`: the expression, one row per gathered shard, the groups of equal
 * values (largest first), the verdict line, and the pictures when the values are arrays.
 * @typedef {Object} Compare
 * @property {string} expression
 * @property {Array<CompareRow>} rows
 * @property {number} differing
 * @property {Array<CompareGroup>} groups
 * @property {string} verdict
 * @property {ComparePictureRow|null} pictures
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
 * Text the cell sent after its debugger ended: printed, displayed, or an error line.
 * @typedef {Object} OutputChunk
 * @property {"stdout"|"stderr"|"display"|"error"} kind
 * @property {string} text
 */

/**
 * The cell's result as `Out[count]` shows it.
 * @typedef {Object} CellResult
 * @property {number|null} count
 * @property {string} text
 */

/**
 * The rest of the cell's output after the session ended, for a page reloaded while it
 * waited; `omitted` counts the earliest characters left out.
 * @typedef {Object} CellOutput
 * @property {Array<OutputChunk>} chunks
 * @property {number} omitted
 * @property {CellResult|null} result
 */

/**
 * Everything the widget draws; `shards` only in a shard session, `cell_output` only in
 * an ended one whose page was reloaded while it waited.
 * @typedef {Object} DebuggerView
 * @property {Status} status
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
 * The widget's synced state.
 * @typedef {Object} DebuggerModel
 * @property {DebuggerView} view
 */

/**
 * Run a jdb command line.
 * @typedef {Object} CommandMessage
 * @property {"command"} type
 * @property {string} line
 */

/**
 * Select a frame of the stack.
 * @typedef {Object} FrameMessage
 * @property {"frame"} type
 * @property {number} index
 */

/**
 * Select a `vmap` element.
 * @typedef {Object} BatchMessage
 * @property {"batch"} type
 * @property {number} index
 */

/**
 * Show or hide internal frames.
 * @typedef {Object} InternalMessage
 * @property {"internal"} type
 * @property {boolean} show
 */

/**
 * Select a shard (its position in `shards.devices`).
 * @typedef {Object} DeviceMessage
 * @property {"device"} type
 * @property {number} index
 */

/**
 * Evaluate an expression on every shard.
 * @typedef {Object} CompareMessage
 * @property {"compare"} type
 * @property {string} expression
 */

/**
 * Release one shard; the others keep waiting.
 * @typedef {Object} ContinueMessage
 * @property {"continue"} type
 * @property {number} index
 */

/**
 * The view has drawn: the breakpoint need not offer the typed prompt.
 * @typedef {Object} RenderedMessage
 * @property {"rendered"} type
 */

/**
 * Any message the widget sends (`model.send`).
 * @typedef {CommandMessage|FrameMessage|BatchMessage|InternalMessage|DeviceMessage|CompareMessage
 *   |ContinueMessage|RenderedMessage} DebuggerMessage
 */

function historyInput(className, placeholder, onSubmit, getHistory) {
  const input = element("input", className);
  input.type = "text";
  input.placeholder = placeholder;
  input.spellcheck = false;
  let position = null;
  let draft = "";
  input.addEventListener("keydown", (event) => {
    const history = getHistory();
    if (event.key === "Enter") {
      event.preventDefault();
      if (onSubmit(input.value)) {
        input.value = "";
      }
      position = null;
    } else if (event.key === "ArrowUp" || event.key === "ArrowDown") {
      event.preventDefault();
      if (position === null) {
        position = history.length;
        draft = input.value;
      }
      const step = historyStep(history, position, event.key === "ArrowUp" ? "up" : "down", draft);
      position = step.position;
      input.value = step.text;
    }
    event.stopPropagation();
  });
  return input;
}

function renderFrames(list, view, send) {
  const waiting = view.status === "waiting";
  list.replaceChildren(
    ...(view.frames ?? []).map((frame, index) => {
      const item = element("li", "jaxdbg-dbg-frame");
      item.dataset.index = String(index);
      if (index === view.selected) {
        item.classList.add("jaxdbg-selected");
      }
      if (frame.internal) {
        item.classList.add("jaxdbg-internal");
      }
      item.append(
        element("span", "jaxdbg-dbg-frame-function", frame.function),
        element("span", "jaxdbg-dbg-frame-where", `${frame.file}:${frame.line}`),
      );
      item.title = `${frame.function} (${frame.file}:${frame.line})`;
      if (waiting) {
        item.addEventListener("click", () => send({ type: "frame", index }));
      }
      return item;
    }),
  );
}

function renderSource(pane, source) {
  const rows = sourceRows(source);
  if (rows.length === 0) {
    pane.replaceChildren(element("div", "jaxdbg-dbg-nosource", "<no source>"));
    return;
  }
  let current = null;
  pane.replaceChildren(
    ...rows.map((row) => {
      const line = element("div", "jaxdbg-dbg-line");
      const code = element("span", "jaxdbg-dbg-code");
      code.innerHTML = row.html || " ";
      line.append(element("span", "jaxdbg-dbg-lineno", String(row.number)), code);
      if (row.current) {
        line.classList.add("jaxdbg-current");
        current = line;
      }
      return line;
    }),
  );
  if (current) {
    const offset = current.offsetTop - pane.clientHeight / 2 + current.clientHeight / 2;
    pane.scrollTop = Math.max(0, offset);
  }
}

/** The locals table; an array's thumbnail, clicked, asks for `p name` (its full picture). */
function renderLocals(body, rows, expand) {
  body.replaceChildren(
    ...(rows ?? []).map((row) => {
      const tr = element("tr");
      const value = row.summary ? formatSummary(row.summary) : (row.repr ?? "");
      const valueCell = element("td", "jaxdbg-dbg-value", row.thumb ? undefined : value);
      if (row.thumb) {
        const button = element("button", "jaxdbg-dbg-thumb");
        button.setAttribute("aria-label", `picture of ${row.name}`);
        button.title = `p ${row.name}: draw its picture`;
        const img = element("img", "");
        img.src = row.thumb;
        img.alt = "";
        button.append(img);
        button.addEventListener("click", () => expand(row.name));
        valueCell.append(button, element("span", "", value));
      }
      if (row.summary?.preview) {
        valueCell.appendChild(element("div", "jaxdbg-dbg-preview", row.summary.preview));
      }
      if (hasNonFinite(row.summary)) {
        tr.classList.add("jaxdbg-nonfinite");
      }
      tr.append(
        element("td", "jaxdbg-dbg-name", row.batched ? `${row.name} ⋮` : row.name),
        element("td", "jaxdbg-dbg-type", row.type),
        valueCell,
      );
      return tr;
    }),
  );
}

function renderDevices(select, shards) {
  select.replaceChildren(
    ...shards.devices.map((device, position) => {
      const option = element("option", null, deviceOption(device));
      option.value = String(position);
      return option;
    }),
  );
  select.value = String(shards.selected);
}

function renderComparePictures(strip, shards, send) {
  const row = compareTiles(shards);
  strip.hidden = !row;
  if (!row) {
    strip.replaceChildren();
    return;
  }
  const bar = element("span", "jaxdbg-dbg-compare-scale-bar");
  bar.style.background = `linear-gradient(to right, ${row.scale.stops.join(", ")})`;
  const scale = element("div", "jaxdbg-dbg-compare-scale");
  scale.append(element("span", null, row.scale.text), bar);
  const tiles = row.tiles.map((tile) => {
    const button = element("button", "jaxdbg-dbg-compare-tile");
    button.type = "button";
    button.dataset.position = String(tile.position);
    button.classList.toggle("jaxdbg-differs", tile.differs);
    button.classList.toggle("jaxdbg-selected", tile.selected);
    button.setAttribute("aria-pressed", String(tile.selected));
    button.setAttribute("aria-label", `select ${tile.label}: ${tile.summary}`);
    button.title = `${tile.label}: ${tile.summary}`;
    const img = element("img", "jaxdbg-dbg-compare-picture");
    img.src = tile.png;
    img.alt = "";
    button.append(img, element("span", "jaxdbg-dbg-compare-tile-label", tile.caption));
    button.addEventListener("click", () => send({ type: "device", index: tile.position }));
    return button;
  });
  const list = element("div", "jaxdbg-dbg-compare-tiles");
  list.append(...tiles);
  if (row.more) {
    list.appendChild(element("span", "jaxdbg-dbg-compare-more", row.more));
  }
  strip.replaceChildren(scale, list);
}

function renderCompare(pane, pictures, table, verdict, shards, send) {
  const rows = compareRows(shards);
  pane.hidden = rows.length === 0;
  if (rows.length === 0) {
    return;
  }
  renderComparePictures(pictures, shards, send);
  table.caption.textContent = `compare ${shards.compare.expression}`;
  table.tBodies[0].replaceChildren(
    ...rows.map((row) => {
      const tr = element("tr");
      tr.classList.toggle("jaxdbg-differs", row.differs);
      tr.classList.toggle("jaxdbg-selected", row.selected);
      tr.dataset.position = String(row.position);
      tr.append(
        element("td", null, `${row.differs ? "! " : ""}${shards.devices[row.position]?.index ?? row.position}`),
        element("td", null, row.label),
        element("td", "jaxdbg-dbg-compare-value", row.value),
      );
      tr.title = `select ${row.label}`;
      tr.addEventListener("click", () => send({ type: "device", index: row.position }));
      return tr;
    }),
  );
  verdict.textContent = compareVerdict(shards);
}

function renderTranscript(pane, entries) {
  let last = null;
  pane.replaceChildren(
    ...(entries ?? []).flatMap((entry) => {
      const nodes = [element("div", "jaxdbg-dbg-command", `(jdb) ${entry.command}`)];
      last = { command: nodes[0], drawn: Boolean(entry.picture) };
      if (entry.output) {
        const out = element("pre", "jaxdbg-dbg-output", entry.output);
        if (entry.error) {
          out.classList.add("jaxdbg-error");
        }
        nodes.push(out);
      }
      if (entry.picture) nodes.push(drawPicture(entry.picture));
      return nodes;
    }),
  );
  // A pane holding a picture grows to show one whole (title, grid, legend); the latest
  // command's picture is scrolled into view from its top, never cut above its title.
  pane.classList.toggle("jaxdbg-drawn", (entries ?? []).some((entry) => entry.picture));
  pane.scrollTop = last?.drawn ? last.command.offsetTop - pane.offsetTop : pane.scrollHeight;
}

/**
 * The cell's output after Continue, copied for a page reloaded while the breakpoint waited
 * (that page shows no other output of the cell): its text, then `Out[n]:` and the result.
 */
export function renderCellOutput(pane, output) {
  pane.hidden = !output;
  if (!output) {
    pane.replaceChildren();
    return;
  }
  const nodes = [element("div", "jaxdbg-dbg-heading", "cell output after continue:")];
  if (output.omitted) {
    const more = `… ${output.omitted.toLocaleString("en-US")} earlier characters left out`;
    nodes.push(element("div", "jaxdbg-dbg-cell-omitted", more));
  }
  for (const chunk of output.chunks ?? []) {
    const text = element("pre", `jaxdbg-dbg-cell-text jaxdbg-dbg-cell-${chunk.kind}`, chunk.text);
    if (chunk.kind === "stderr" || chunk.kind === "error") {
      text.classList.add("jaxdbg-error");
    }
    nodes.push(text);
  }
  if (output.result) {
    const result = element("div", "jaxdbg-dbg-cell-result");
    const prompt = `Out[${output.result.count ?? " "}]:`;
    result.append(
      element("span", "jaxdbg-dbg-cell-prompt", prompt),
      element("pre", "jaxdbg-dbg-cell-text", output.result.text),
    );
    nodes.push(result);
  }
  pane.replaceChildren(...nodes);
}

export const KERNEL_GONE =
  "kernel gone (restarted or shut down): this breakpoint no longer runs; run the cell again";

/** Draws the model's `view` ({@link DebuggerModel}) in `el`; clicks and keys send messages. */
function render({ model, el }) {
  markDrawn(model, el);
  // Set once the kernel that ran this breakpoint is gone (restarted or shut down): the
  // widget manager then marks every model's comm dead, and a send would throw.
  let kernelGone = false;
  let countShown = null;
  /** @param {DebuggerMessage} message */
  const send = (message) => {
    if (kernelGone) {
      return;
    }
    root.classList.add("jaxdbg-busy");
    try {
      model.send(message);
    } catch {
      loseKernel();
    }
  };
  const sendLine = (line) => {
    if (kernelGone || model.get("view")?.status !== "waiting") {
      return false;
    }
    send({ type: "command", line });
    return true;
  };
  const history = () => model.get("view")?.history ?? [];
  const expressions = () => expressionHistory(history());

  const root = element("div", "jaxdbg-debugger");
  root.tabIndex = 0;
  keepKeys(root);
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

  const shardsBar = element("div", "jaxdbg-dbg-shards");
  const deviceLabel = element("label", "jaxdbg-dbg-device", "device ");
  const deviceSelect = element("select", "jaxdbg-dbg-device-select");
  deviceLabel.appendChild(deviceSelect);
  deviceSelect.addEventListener("change", () =>
    send({ type: "device", index: Number.parseInt(deviceSelect.value, 10) }),
  );
  deviceSelect.addEventListener("keydown", (event) => event.stopPropagation());
  const shardCount = element("span", "jaxdbg-dbg-shard-summary");
  const continueOne = element("button", "jaxdbg-dbg-button", "Continue this device");
  continueOne.type = "button";
  continueOne.dataset.command = "continue-device";
  continueOne.title = "Release only the selected device; the others keep waiting";
  continueOne.addEventListener("click", () =>
    send({ type: "continue", index: Number.parseInt(deviceSelect.value, 10) }),
  );
  const compareInput = historyInput(
    "jaxdbg-dbg-compare-input",
    "compare an expression across shards",
    (text) => {
      if (!text.trim() || model.get("view")?.status !== "waiting") {
        return false;
      }
      send({ type: "compare", expression: text.trim() });
      return true;
    },
    () => [],
  );
  const deviceSearch = element("input", "jaxdbg-dbg-device-search");
  deviceSearch.placeholder = "find: 216, CPU 216, data=13, model=8";
  deviceSearch.addEventListener("keydown", (event) => {
    event.stopPropagation();
    if (event.key !== "Enter") {
      return;
    }
    const position = findDevice(model.get("view")?.shards, deviceSearch.value);
    deviceSearch.classList.toggle("jaxdbg-error", position === null);
    deviceSearch.title = position === null ? `no shard is named ${deviceSearch.value}` : "";
    if (position !== null) {
      send({ type: "device", index: position });
    }
  });
  shardsBar.append(deviceLabel, deviceSearch, shardCount, continueOne, compareInput);
  const comparePane = element("div", "jaxdbg-dbg-compare-pane");
  const compareTable = element("table", "jaxdbg-dbg-compare");
  compareTable.createCaption();
  compareTable.appendChild(element("tbody"));
  const compareVerdictLine = element("div", "jaxdbg-dbg-compare-verdict");
  const comparePictures = element("div", "jaxdbg-dbg-compare-pictures");
  comparePictures.setAttribute("role", "group");
  comparePictures.setAttribute("aria-label", "the compared value in each shard, on one colour scale");
  comparePane.append(comparePictures, compareTable, compareVerdictLine);

  const body = element("div", "jaxdbg-dbg-body");
  const framesPane = element("div", "jaxdbg-dbg-frames");
  const framesList = element("ol", "jaxdbg-dbg-frame-list");
  const internalLabel = element("label", "jaxdbg-dbg-internal");
  const internalBox = element("input");
  internalBox.type = "checkbox";
  const internalText = element("span");
  internalLabel.append(internalBox, internalText);
  internalBox.addEventListener("change", () =>
    send({ type: "internal", show: internalBox.checked }),
  );
  framesPane.append(element("div", "jaxdbg-dbg-heading", "Frames"), framesList, internalLabel);
  const sourcePane = element("div", "jaxdbg-dbg-source");
  body.append(framesPane, sourcePane);

  const localsTable = element("table", "jaxdbg-dbg-locals");
  const localsBody = element("tbody");
  localsTable.appendChild(localsBody);
  const localsPane = element("div", "jaxdbg-dbg-locals-pane");
  localsPane.append(element("div", "jaxdbg-dbg-heading", "Locals"), localsTable);

  const transcript = element("div", "jaxdbg-dbg-transcript");
  const cellOutput = element("div", "jaxdbg-dbg-cell-output");
  const expression = historyInput(
    "jaxdbg-dbg-expression",
    "expression (Enter evaluates; ↑/↓ history)",
    (text) => {
      const line = expressionCommand(text);
      return line !== null && sendLine(line);
    },
    expressions,
  );
  const command = historyInput(
    "jaxdbg-dbg-command-line",
    "(jdb) command, e.g. help",
    (text) => sendLine(text),
    history,
  );
  const inputs = element("div", "jaxdbg-dbg-inputs");
  inputs.append(expression, command);
  const buttons = element("div", "jaxdbg-dbg-buttons");
  for (const [label, line, tip] of BUTTONS) {
    const button = element("button", "jaxdbg-dbg-button", label);
    button.type = "button";
    button.title = tip;
    button.dataset.command = line;
    button.addEventListener("click", () => sendLine(line));
    buttons.appendChild(button);
  }

  root.append(
    header,
    shardsBar,
    comparePane,
    body,
    localsPane,
    transcript,
    cellOutput,
    inputs,
    buttons,
  );
  el.appendChild(root);

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

  let lastSourceKey = null;
  let lastDevicesKey = null;
  const update = () => {
    const view = model.get("view") ?? {};
    const waiting = view.status === "waiting" && !kernelGone;
    root.classList.remove("jaxdbg-busy");
    root.classList.toggle("jaxdbg-frozen", !waiting);
    root.dataset.status = kernelGone ? "kernel-gone" : (view.status ?? "");
    location.textContent = frameLocation(view.header);
    details.textContent = kernelGone ? KERNEL_GONE : headerDetails(view.header, view.status);
    const batch = view.header?.batch;
    batchLabel.hidden = !batch;
    if (batch) {
      batchInput.max = String(batch.size - 1);
      batchInput.value = String(batch.index);
      batchInput.disabled = !waiting;
    }
    const shards = view.shards;
    shardsBar.hidden = !shards;
    if (shards) {
      const devicesKey = JSON.stringify([shards.devices, shards.selected]);
      if (devicesKey !== lastDevicesKey) {
        renderDevices(deviceSelect, shards);
        lastDevicesKey = devicesKey;
      }
      shardCount.textContent = shardSummary(shards);
      const selected = shards.devices[shards.selected];
      continueOne.disabled = !waiting || selected?.state !== "waiting";
      deviceSelect.disabled = !waiting;
      deviceSearch.disabled = !waiting;
      compareInput.disabled = !waiting;
      renderCompare(comparePane, comparePictures, compareTable, compareVerdictLine, shards, send);
    } else {
      comparePane.hidden = true;
    }
    renderFrames(framesList, view, send);
    internalBox.checked = Boolean(view.show_internal);
    internalBox.disabled = !waiting;
    internalText.textContent = ` internal frames (${view.internal_count ?? 0})`;
    internalLabel.hidden = !view.internal_count;
    const sourceKey = JSON.stringify([view.header?.file, view.header?.line, view.source?.first]);
    if (sourceKey !== lastSourceKey) {
      renderSource(sourcePane, view.source);
      lastSourceKey = sourceKey;
    }
    renderLocals(localsBody, view.locals, (name) => sendLine(`p ${name}`));
    renderTranscript(transcript, view.transcript);
    renderCellOutput(cellOutput, view.cell_output);
    const count = view.cell_output?.result?.count;
    if (Number.isInteger(count) && count !== countShown) {
      countShown = count; // this page did not run the cell, so its prompt shows no count yet
      whenAttached(el, () => showExecutionCount(el, count));
    }
    for (const node of [expression, command, ...buttons.children]) {
      node.disabled = !waiting;
    }
  };
  function loseKernel() {
    if (kernelGone || model.get("view")?.status !== "waiting") {
      return; // an ended session's record stays as it is
    }
    kernelGone = true;
    update();
  }
  model.on("change:view", update);
  model.on("comm_live_update", loseKernel);
  update();
  // Tells the kernel a view exists; without it the breakpoint also offers the typed prompt.
  try {
    model.send({ type: "rendered" });
  } catch {
    loseKernel();
  }
  return () => {
    model.off("change:view", update);
    model.off("comm_live_update", loseKernel);
  };
}

// A page reloaded while the breakpoint waits shows it even where no output draws it.
const initialize = ({ model }) => watchForUnshownWait(model, render);

export default { initialize, render };
