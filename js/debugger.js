// The debugger widget: header, frames, source, locals, transcript, expression box, buttons.
// Every string from the program is set as text; only source lines, escaped by the kernel's
// highlighter, are set as HTML.
import {
  BUTTONS,
  compareRows,
  compareVerdict,
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
import { element } from "./dom.js";

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

function renderLocals(body, rows) {
  body.replaceChildren(
    ...(rows ?? []).map((row) => {
      const tr = element("tr");
      const value = row.summary ? formatSummary(row.summary) : (row.repr ?? "");
      const valueCell = element("td", "jaxdbg-dbg-value", value);
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

function renderCompare(pane, table, verdict, shards, send) {
  const rows = compareRows(shards);
  pane.hidden = rows.length === 0;
  if (rows.length === 0) {
    return;
  }
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
  pane.replaceChildren(
    ...(entries ?? []).flatMap((entry) => {
      const nodes = [element("div", "jaxdbg-dbg-command", `(jdb) ${entry.command}`)];
      if (entry.output) {
        const out = element("pre", "jaxdbg-dbg-output", entry.output);
        if (entry.error) {
          out.classList.add("jaxdbg-error");
        }
        nodes.push(out);
      }
      return nodes;
    }),
  );
  pane.scrollTop = pane.scrollHeight;
}

function render({ model, el }) {
  const send = (message) => {
    root.classList.add("jaxdbg-busy");
    model.send(message);
  };
  const sendLine = (line) => {
    if (model.get("view")?.status !== "waiting") {
      return false;
    }
    send({ type: "command", line });
    return true;
  };
  const history = () => model.get("view")?.history ?? [];
  const expressions = () => expressionHistory(history());

  const root = element("div", "jaxdbg-debugger");
  root.tabIndex = 0;
  // Keys pressed in the widget are its own: the app's shortcuts (Notebook 7 matches them
  // before the widget sees the key, so "c" would copy the cell) skip this element.
  root.dataset.lmSuppressShortcuts = "true";
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
  shardsBar.append(deviceLabel, shardCount, continueOne, compareInput);
  const comparePane = element("div", "jaxdbg-dbg-compare-pane");
  const compareTable = element("table", "jaxdbg-dbg-compare");
  compareTable.createCaption();
  compareTable.appendChild(element("tbody"));
  const compareVerdictLine = element("div", "jaxdbg-dbg-compare-verdict");
  comparePane.append(compareTable, compareVerdictLine);

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

  root.append(header, shardsBar, comparePane, body, localsPane, transcript, inputs, buttons);
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
    const waiting = view.status === "waiting";
    root.classList.remove("jaxdbg-busy");
    root.classList.toggle("jaxdbg-frozen", !waiting);
    root.dataset.status = view.status ?? "";
    location.textContent = frameLocation(view.header);
    details.textContent = headerDetails(view.header, view.status);
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
      compareInput.disabled = !waiting;
      renderCompare(comparePane, compareTable, compareVerdictLine, shards, send);
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
    renderLocals(localsBody, view.locals);
    renderTranscript(transcript, view.transcript);
    for (const node of [expression, command, ...buttons.children]) {
      node.disabled = !waiting;
    }
  };
  model.on("change:view", update);
  update();
  // Tells the kernel a view exists; without it the breakpoint also offers the typed prompt.
  model.send({ type: "rendered" });
  return () => model.off("change:view", update);
}

export default { render };
