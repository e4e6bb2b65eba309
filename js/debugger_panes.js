// The debugger's panes, each redrawn from the view: the stack, the source, the locals, the
// transcript of commands and the cell's output after Continue.
import { formatSummary, hasNonFinite, sourceRows } from "./debugger_format.js";
import { element } from "./dom.js";
import { drawPicture } from "./pictures.js";

/** @typedef {import("./schema/debugger.js").CellOutput} CellOutput */
/** @typedef {import("./schema/debugger.js").DebuggerMessage} DebuggerMessage */
/** @typedef {import("./schema/debugger.js").DebuggerView} DebuggerView */
/** @typedef {import("./schema/debugger.js").LocalRow} LocalRow */
/** @typedef {import("./schema/debugger.js").Source} Source */
/** @typedef {import("./schema/debugger.js").TranscriptEntry} TranscriptEntry */

/**
 * The call stack, the selected frame marked; a click picks a frame while the session waits.
 * @param {HTMLElement} list
 * @param {Partial<DebuggerView>} view
 * @param {(message: DebuggerMessage) => void} send
 */
export function renderFrames(list, view, send) {
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

/**
 * The frame's source, scrolled to centre its current line.
 * @param {HTMLElement} pane
 * @param {Source|null} source
 */
export function renderSource(pane, source) {
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

/**
 * The locals table; an array's thumbnail, clicked, asks for `p name` (its full picture).
 * @param {HTMLElement} body
 * @param {Array<LocalRow>|undefined} rows
 * @param {(name: string) => void} expand
 */
export function renderLocals(body, rows, expand) {
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

/**
 * The session's jdb commands and their output, pictures drawn.
 * @param {HTMLElement} pane
 * @param {Array<TranscriptEntry>|undefined} entries
 */
export function renderTranscript(pane, entries) {
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
 * @param {HTMLElement} pane
 * @param {CellOutput|undefined} output
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
