// The communication widget: the user's source with each line annotated by its collectives, a
// click (or Enter) on a line lists them and draws their operand and result shardings, and a
// heatmap shows the bytes each device sends per step.
import sharding from "./sharding.js";
import {
  HEAT_GAP_PX,
  deviceTip,
  expandCollectives,
  heatCellPx,
  heatPlaceAt,
  heatPlaces,
  lineAnnotation,
  linePositions,
  placesByLevel,
  stepLine,
} from "./comms_model.js";
import { element, itemIndex, keepKeys, moveTabStop, onItem } from "./dom.js";
import { humanBytes, localModel } from "./memory_model.js";
import { listen, togglePick } from "./widget_model.js";

// The JSON the kernel sends (`view`, `line_view`) and the traits the widget sets: declared once, by
// the TypedDicts of jaxdbg_widgets/comms/schema.py; ./schema/comms.js is generated from them
// (`python -m tests.unit.schema_js`).

/** @typedef {import("./schema/sharding.js").ShardingView} ShardingView */

/** @typedef {import("./schema/comms.js").CollectiveDiagrams} CollectiveDiagrams */
/** @typedef {import("./schema/comms.js").CommsHeat} CommsHeat */
/** @typedef {import("./schema/comms.js").CommsLine} CommsLine */
/** @typedef {import("./schema/comms.js").CommsMemory} CommsMemory */
/** @typedef {import("./schema/comms.js").CommsMesh} CommsMesh */
/** @typedef {import("./schema/comms.js").CommsModel} CommsModel */
/** @typedef {import("./schema/comms.js").CommsSource} CommsSource */
/** @typedef {import("./schema/comms.js").CommsView} CommsView */
/** @typedef {import("./schema/comms.js").LineDiagrams} LineDiagrams */
/** @typedef {import("./schema/comms.js").NoLine} NoLine */

/** anywidget's model of this widget, typed by {@link CommsModel} (see widget_model.js). */
/** @typedef {import("./widget_model.js").Model<CommsModel>} CommsWidget */

const ROW_LIMIT = 200;
const LABEL_LIMIT = 64;

function table(headers, rows) {
  const node = element("table", "jdw-comms-table");
  const head = element("tr");
  for (const name of headers) head.append(element("th", "", name));
  node.append(head);
  for (const row of rows) {
    const tr = element("tr");
    for (const cell of row) tr.append(element("td", "", String(cell)));
    node.append(tr);
  }
  return node;
}

function lineButton(view, index, rows, text, number) {
  const line = view.lines[index];
  const node = element("div", "jdw-comms-line jdw-comms-hot");
  node.dataset.line = String(index);
  node.tabIndex = -1;
  node.setAttribute("role", "button");
  node.title = `${line.label}: click for its collectives and shardings`;
  node.append(
    element("span", "jdw-comms-no", number === null ? "" : String(number)),
    element("span", "jdw-comms-code", text),
    element("span", "jdw-comms-note", lineAnnotation(line, rows)),
  );
  return node;
}

function drawSource(view, rows) {
  const box = element("div", "jdw-comms-source");
  const places = linePositions(view);
  const drawn = new Set();
  for (const source of view.sources) {
    box.append(element("div", "jdw-comms-title", source.name));
    const listing = element("div", "jdw-comms-listing");
    for (const [number, text] of source.lines) {
      const index = places.get(`${source.file}:${number}`);
      if (index === undefined) {
        const plain = element("div", "jdw-comms-line");
        plain.append(
          element("span", "jdw-comms-no", String(number)),
          element("span", "jdw-comms-code", text),
        );
        listing.append(plain);
      } else {
        drawn.add(index);
        listing.append(lineButton(view, index, rows, text, number));
      }
    }
    box.append(listing);
  }
  const loose = view.lines.map((line, index) => [line, index]).filter(([, i]) => !drawn.has(i));
  if (loose.length) {
    box.append(element("div", "jdw-comms-title", "lines whose source is not shown here"));
    for (const [line, index] of loose) {
      const text = line.line === null ? `${line.label} (no line in the HLO)` : line.label;
      box.append(lineButton(view, index, rows, text, null));
    }
  }
  return box;
}

function drawHeat(heat) {
  const figure = element("figure", "jdw-comms-heat");
  const caption = [heat.title, heat.col_label && `${heat.col_label} →`].filter(Boolean).join(" · ");
  figure.append(element("figcaption", "", `bytes sent per device per step · ${caption}`));
  figure.append(heat.devices.length <= LABEL_LIMIT ? drawCells(heat) : drawCanvas(heat));
  const [low, mid, high] = heat.ticks;
  const legend = element("div", "jdw-comms-legend");
  const bar = element("span", "jdw-comms-bar");
  bar.style.background = `linear-gradient(to right, ${heat.palette.join(", ")})`;
  bar.title = `${mid} at the middle`;
  legend.append(element("span", "", low), bar, element("span", "", high));
  figure.append(legend);
  return figure;
}

/** A small mesh: one labelled element per device. */
function drawCells(heat) {
  const grid = element("div", "jdw-comms-grid");
  grid.style.gridTemplateColumns = `repeat(${heat.cols}, minmax(1.4em, max-content))`;
  // Cells listed row by row with no holes are placed by the grid itself: far less layout work.
  const dense = heat.cells.every(([row, col], i) => row * heat.cols + col === i);
  for (const [row, col, position] of heat.cells) {
    const device = heat.devices[position];
    const [id, , level] = device;
    const cell = element("div", "jdw-comms-cell", String(id));
    if (!dense) {
      cell.style.gridRow = String(row + 1);
      cell.style.gridColumn = String(col + 1);
    }
    cell.style.background = heat.palette[level];
    cell.style.color = heat.text[level];
    cell.title = deviceTip(device);
    grid.append(cell);
  }
  return grid;
}

/** A large mesh: one canvas, filled one heat level at a time; the tooltip follows the pointer. */
function drawCanvas(heat) {
  const cell = heatCellPx(heat.cols);
  const step = cell + HEAT_GAP_PX;
  const width = heat.cols * step;
  const height = heat.rows * step;
  const ratio = globalThis.devicePixelRatio || 1;
  const canvas = element("canvas", "jdw-comms-canvas");
  canvas.width = Math.ceil(width * ratio);
  canvas.height = Math.ceil(height * ratio);
  canvas.style.width = `${width}px`;
  canvas.style.height = `${height}px`;
  canvas.dataset.devices = String(heat.cells.length);
  canvas.setAttribute("role", "img");
  canvas.setAttribute("aria-label", `bytes sent by each of ${heat.cells.length} devices`);
  const places = heatPlaces(heat);
  const ctx = canvas.getContext("2d");
  if (ctx) {
    ctx.scale(ratio, ratio);
    for (const [level, batch] of placesByLevel(heat, places)) {
      ctx.fillStyle = heat.palette[level];
      for (const place of batch) {
        ctx.fillRect((place % heat.cols) * step, Math.floor(place / heat.cols) * step, cell, cell);
      }
    }
  }
  canvas.addEventListener("mousemove", (event) => {
    const box = canvas.getBoundingClientRect();
    const place = heatPlaceAt(heat, event.clientX - box.left, event.clientY - box.top, cell);
    const position = place < 0 ? -1 : places[place];
    canvas.title = position < 0 ? "" : deviceTip(heat.devices[position]);
  });
  const scroll = element("div", "jdw-comms-grid");
  scroll.append(canvas);
  return scroll;
}

function drawFacts(view) {
  const box = element("div", "jdw-comms-facts");
  if (view.axis_totals.length) {
    box.append(element("div", "jdw-comms-title", "bytes sent per device per step, by mesh axes"));
    box.append(table(["axes", "sent"], view.axis_totals.map(([label, , human]) => [label, human])));
  }
  const shardings = [
    ...view.inputs.map((row) => ["input", ...row]),
    ...view.outputs.map((row) => ["output", ...row]),
  ];
  if (shardings.length) {
    box.append(element("div", "jdw-comms-title", "program shardings"));
    if (view.mesh) {
      const axes = view.mesh.axes.map((a, i) => `${a}=${view.mesh.shape[i]}`).join(" ");
      const types = view.mesh.types.length ? ` (${view.mesh.types.join(", ")})` : "";
      box.append(element("div", "jdw-comms-dim", `mesh ${axes}${types}`));
    }
    box.append(table(["", "path", "shape", "dtype", "sharding"], shardings.slice(0, ROW_LIMIT)));
    if (shardings.length > ROW_LIMIT) {
      const more = `the first ${ROW_LIMIT} of ${shardings.length} inputs and outputs`;
      box.append(element("div", "jdw-comms-dim", more));
    }
  }
  for (const [path, now, want] of view.mismatches) {
    const text = `${path}: now ${now}, the program expects ${want}: copied before every call`;
    box.append(element("div", "jdw-comms-warn", text));
  }
  if (view.memory) {
    box.append(element("div", "jdw-comms-title", "XLA memory analysis, per device"));
    box.append(table(["", "bytes"], [...view.memory.rows, ["peak estimate", view.memory.peak]]));
    for (const note of view.memory.notes) box.append(element("div", "jdw-comms-dim", note));
  }
  for (const [text, where] of view.remat) {
    box.append(element("div", "jdw-comms-warn", `${where || "no line named"}: ${text}`));
  }
  if (view.unread.length) {
    const title = `unread: ${view.unread.length} instruction(s) not counted`;
    box.append(element("div", "jdw-comms-title jdw-comms-warn", title));
    box.append(table(["instruction", "opcode", "why"], view.unread.slice(0, 50)));
  }
  for (const note of view.notes) box.append(element("div", "jdw-comms-dim", note));
  return box;
}

/**
 * One collective's operand and result shardings, side by side; each drawn diagram's closer is
 * pushed to `closers`.
 * @param {CollectiveDiagrams} item
 * @param {Array<() => void>} closers
 */
function drawItem(item, closers) {
  const box = element("div", "jdw-comms-item");
  box.append(element("div", "jdw-comms-title", item.title));
  box.append(element("div", "jdw-comms-dim", item.note));
  const pair = element("div", "jdw-comms-pair");
  for (const [label, sub] of [["operand", item.operand], ["result", item.result]]) {
    if (!sub) continue;
    const host = element("div", "jdw-comms-diagram");
    host.append(element("div", "jdw-comms-dim", label));
    const inner = element("div");
    host.append(inner);
    pair.append(host);
    const close = sharding.render({
      model: localModel({ view: sub, selected: [], zoom: 1 }),
      el: inner,
    });
    if (close) closers.push(close);
  }
  box.append(pair);
  return box;
}

/**
 * The picked line's detail: where it is, its callers, its collectives and, once the kernel
 * has sent them (`line_view`), their diagrams.
 * @param {CommsWidget} model
 * @param {CommsView} view
 * @param {Array<*>} rows the collectives, expanded ({@link expandCollectives})
 * @param {HTMLElement} detail
 * @param {number} index the picked line
 * @param {Array<() => void>} closers
 */
function drawLineDetail(model, view, rows, detail, index, closers) {
  const line = view.lines[index];
  const where = line.function ? `${line.label} (${line.function})` : line.label;
  detail.append(element("div", "jdw-comms-title", where));
  if (line.callers.length) {
    detail.append(element("div", "jdw-comms-dim", `called from ${line.callers.join(" ← ")}`));
  }
  const picked = line.collectives.slice(0, ROW_LIMIT).map((i) => {
    const row = rows[i];
    const loop = row.executions ? `×${row.executions}` : row.executions === null ? "×?" : "";
    return [row.kind, row.name, row.result, humanBytes(row.sent), row.axes, row.group, loop];
  });
  detail.append(table(["kind", "instruction", "result", "sent", "axes", "group", "loop"], picked));
  const diagrams = model.get("line_view");
  if (!diagrams || diagrams.line !== index) {
    detail.append(element("div", "jdw-comms-dim", "drawing shardings…"));
    return;
  }
  for (const item of diagrams.items) detail.append(drawItem(item, closers));
  if (diagrams.more) {
    detail.append(element("div", "jdw-comms-dim", `and ${diagrams.more} more collectives`));
  }
}

/**
 * Marks the picked line (`line`) in the source and draws its detail, closing the diagrams
 * drawn before.
 * @param {CommsWidget} model
 * @param {*} view
 * @param {Array<*>} rows
 * @param {{detail: HTMLElement, lineNodes: Array<HTMLElement>, closers: Array<() => void>}} parts
 */
function showLine(model, view, rows, parts) {
  closeAll(parts.closers);
  parts.detail.replaceChildren();
  const index = model.get("line");
  for (const node of parts.lineNodes) {
    node.classList.toggle("jdw-comms-on", Number(node.dataset.line) === index);
  }
  if (index < 0 || index >= view.lines.length) return;
  drawLineDetail(model, view, rows, parts.detail, index, parts.closers);
}

/**
 * Calls and forgets every closer, the last first.
 * @param {Array<() => void>} closers
 */
function closeAll(closers) {
  while (closers.length) closers.pop()();
}

/**
 * The source's keys and clicks: a click, Enter or Space picks a line; arrows move between the
 * annotated lines; Escape (anywhere in the widget) picks none.
 * @param {CommsWidget} model
 * @param {HTMLElement} root
 * @param {HTMLElement} source
 * @param {Array<HTMLElement>} lineNodes
 */
function wireLines(model, root, source, lineNodes) {
  const order = lineNodes.map((node) => Number(node.dataset.line));
  const lineOf = (target) => itemIndex(root, target, ".jdw-comms-hot", "line");
  const pick = (index) => togglePick(model, "line", index);
  onItem(source, "click", lineOf, pick);
  onItem(source, "keydown", lineOf, (index, event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      pick(index);
      return;
    }
    const next = stepLine(order, index, event.key);
    if (next === null || next === index) return;
    event.preventDefault();
    moveTabStop(event.target, lineNodes[order.indexOf(next)]);
  });
  root.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    model.set("line", -1);
    model.save_changes();
  });
}

/**
 * Draws the model's `view` ({@link CommsModel}) in `el`; a pick sets `line`.
 * @param {{model: CommsWidget, el: HTMLElement}} props
 * @returns {() => void}
 */
function render({ model, el }) {
  const view = model.get("view");
  const rows = expandCollectives(view);
  const root = element("div", "jdw-comms");
  keepKeys(root); // arrow keys move between lines, not cells
  root.append(element("div", "jdw-comms-head", view.head));
  for (const sentence of view.summary) root.append(element("div", "jdw-comms-summary", sentence));
  const source = drawSource(view, rows);
  const detail = element("div", "jdw-comms-detail");
  detail.setAttribute("aria-live", "polite");
  root.append(source, detail, drawHeat(view.heat), drawFacts(view));
  el.append(root);

  const lineNodes = [...root.querySelectorAll(".jdw-comms-hot")];
  if (lineNodes.length) lineNodes[0].tabIndex = 0;
  const parts = { detail, lineNodes, closers: [] };
  wireLines(model, root, source, lineNodes);
  const redraw = () => showLine(model, view, rows, parts);
  const stop = listen(model, [
    ["change:line", redraw],
    ["change:line_view", redraw],
  ]);
  redraw();
  return () => {
    closeAll(parts.closers);
    stop();
  };
}

export default { render };
