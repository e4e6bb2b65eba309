// The memory widget: a heatmap of bytes per device on the mesh, hover totals, a click lists the
// device's leaves, a click on a leaf draws its sharding diagram, and a sortable leaf table.
import sharding from "./sharding.js";
import { element, itemIndex, keepKeys, moveTabStop, onItem, showTooltip } from "./dom.js";
import {
  deviceLeaves,
  expandLeaves,
  gridStep,
  humanBytes,
  leavesByGroup,
  localModel,
  matchesFilter,
  processLine,
  sortedLeaves,
} from "./memory_model.js";
import { listen, togglePick } from "./widget_model.js";

// The JSON the kernel sends (`view`, `leaf_view`) and the traits the widget sets: declared once, by
// the TypedDicts of jaxdbg_widgets/memory/schema.py; ./schema/memory.js is generated from them
// (`python -m tests.unit.schema_js`).

/** @typedef {import("./schema/sharding.js").ShardingView} ShardingView */

/** @typedef {import("./schema/memory.js").HeatGrid} HeatGrid */
/** @typedef {import("./schema/memory.js").LeafTag} LeafTag */
/** @typedef {import("./schema/memory.js").LeafView} LeafView */
/** @typedef {import("./schema/memory.js").Legend} Legend */
/** @typedef {import("./schema/memory.js").MemoryDevice} MemoryDevice */
/** @typedef {import("./schema/memory.js").MemoryGroup} MemoryGroup */
/** @typedef {import("./schema/memory.js").MemoryModel} MemoryModel */
/** @typedef {import("./schema/memory.js").MemoryView} MemoryView */
/** @typedef {import("./schema/memory.js").NoLeaf} NoLeaf */
/** @typedef {import("./schema/memory.js").ProgramView} ProgramView */

/** anywidget's model of this widget, typed by {@link MemoryModel} (see widget_model.js). */
/** @typedef {import("./widget_model.js").Model<MemoryModel>} MemoryWidget */

const ROW_LIMIT = 200;
const LABEL_BYTES_LIMIT = 64;
/** @type {Array<[string, string|null, boolean?]>} */
const SORTS = [
  ["path", "path", false],
  ["shape", null],
  ["dtype", null],
  ["spec", null],
  ["shard", null],
  ["copies", "replication", true],
  ["per device", "per_device", true],
  ["on all devices", "total", true],
];

function drawHeatmap(view) {
  const grid = view.grid;
  const figure = element("figure", "jdw-mem-heat");
  const caption = [grid.title, grid.col_label ? `${grid.col_label} →` : ""].filter(Boolean);
  figure.append(element("figcaption", "", caption.join(" · ")));
  const frame = element("div", "jdw-mem-frame");
  frame.append(element("div", "jdw-mem-rowlabel", grid.row_label ? `${grid.row_label} →` : ""));
  const cells = element("div", "jdw-mem-grid");
  cells.setAttribute("role", "grid");
  cells.setAttribute("aria-label", "bytes per device");
  cells.style.gridTemplateColumns = `repeat(${grid.cols}, minmax(2.6em, auto))`;
  const showBytes = view.devices.length <= LABEL_BYTES_LIMIT;
  for (const [row, col, index] of grid.cells) {
    const device = view.devices[index];
    const box = element("button", "jdw-mem-cell", String(device.id));
    if (showBytes) box.append(element("small", "", device.human));
    box.dataset.device = String(index);
    box.tabIndex = -1;
    box.style.gridRow = String(row + 1);
    box.style.gridColumn = String(col + 1);
    box.style.background = device.color;
    box.style.color = device.text;
    box.setAttribute("aria-label", device.tooltip.join(", "));
    cells.append(box);
  }
  frame.append(cells);
  figure.append(frame);
  return figure;
}

function drawLegend(view) {
  const legend = element("div", "jdw-mem-legend");
  const bar = element("span", "jdw-mem-bar");
  bar.style.background = `linear-gradient(to right, ${view.legend.colors.join(", ")})`;
  const [low, mid, high] = view.legend.ticks;
  bar.title = `${mid} at the middle`;
  legend.append(element("span", "", low), bar, element("span", "", high));
  legend.append(element("span", "jdw-mem-dim", "bytes per device"));
  return legend;
}

function drawNotes(view) {
  const notes = element("div", "jdw-mem-notes");
  const perProcess = processLine(view.processes, view.devices);
  if (perProcess) notes.append(element("div", "", perProcess));
  notes.append(element("div", "", view.limits));
  for (const line of view.notes) notes.append(element("div", "", line));
  return notes;
}

function drawProgram(program) {
  const box = element("div", "jdw-mem-program");
  box.append(element("div", "jdw-mem-title", "XLA memory analysis, per device"));
  const table = element("table", "jdw-mem-table");
  for (const [label, , human] of program.rows) {
    const tr = element("tr");
    tr.append(element("td", "", label), element("td", "jdw-mem-num", human));
    table.append(tr);
  }
  const peak = element("tr", "jdw-mem-peak");
  peak.append(element("td", "", "peak estimate"), element("td", "jdw-mem-num", program.peak[1]));
  table.append(peak);
  box.append(table);
  for (const note of program.notes) box.append(element("div", "jdw-mem-dim", note));
  return box;
}

function leafRow(view, index, bytes) {
  const leaf = view.leaves[index];
  const tr = element("tr", leaf.flagged ? "jdw-mem-flag" : "");
  tr.dataset.leaf = String(index);
  const pathCell = element("td");
  const open = element("button", "jdw-mem-leaf", leaf.path);
  open.title = `draw the sharding of ${leaf.path}`;
  pathCell.append(open);
  tr.append(pathCell);
  if (bytes === undefined) {
    for (const text of [leaf.shape, leaf.dtype, leaf.spec, leaf.shard_shape]) {
      tr.append(element("td", "", text));
    }
    const copies = element("td", "jdw-mem-num", String(leaf.replication));
    if (leaf.flagged) copies.append(element("span", "jdw-mem-warn", " ⚠ replicated"));
    tr.append(
      copies,
      element("td", "jdw-mem-num", humanBytes(leaf.per_device)),
      element("td", "jdw-mem-num", humanBytes(leaf.total)),
    );
  } else {
    tr.append(
      element("td", "", leaf.shard_shape),
      element("td", "", leaf.spec),
      element("td", "jdw-mem-num", humanBytes(bytes)),
    );
  }
  return tr;
}

/**
 * The widget's parts, built once: head, heatmap, legend, status, notes, program, filter, the
 * device panel, the leaf's diagram, the leaf table and the tooltip.
 * @param {*} view the {@link MemoryView} with its leaves expanded
 */
function buildParts(view) {
  const root = element("div", "jdw-mem");
  keepKeys(root); // arrow keys move within the grid, not between cells
  const title = ["memory map", view.source, ...view.summary].join(" · ");
  const head = element("div", "jdw-mem-head", title);
  const scroll = element("div", "jdw-mem-scroll");
  scroll.append(drawHeatmap(view));
  const hint = "hover a device for its totals; click it for its leaves";
  const status = element("div", "jdw-mem-status", hint);
  status.setAttribute("aria-live", "polite");
  const tooltip = element("div", "jdw-shw-tooltip"); // styled by sharding.css, loaded first
  tooltip.hidden = true;
  const filter = element("input", "jdw-mem-filter");
  filter.type = "search";
  filter.placeholder = "filter leaves by path";
  filter.setAttribute("aria-label", "filter leaves by path");
  const devicePanel = element("div", "jdw-mem-device");
  const diagram = element("div", "jdw-mem-diagram");
  const tableBox = element("div", "jdw-mem-leaves");
  root.append(head, scroll, drawLegend(view), status, drawNotes(view));
  if (view.program) root.append(drawProgram(view.program));
  root.append(filter, devicePanel, diagram, tableBox, tooltip);
  return { root, scroll, status, tooltip, filter, devicePanel, diagram, tableBox };
}

/**
 * The heatmap's cells; the first one drawn is the grid's one tab stop.
 * @param {HTMLElement} root
 * @param {*} view
 * @returns {Array<HTMLElement>}
 */
function cellNodesOf(root, view) {
  const cellNodes = /** @type {Array<HTMLElement>} */ ([
    ...root.querySelectorAll(".jdw-mem-cell"),
  ]);
  if (cellNodes.length) {
    const first = String(view.grid.cells[0][2]);
    cellNodes.find((node) => node.dataset.device === first).tabIndex = 0;
  }
  return cellNodes;
}

/**
 * A header row of plain column names.
 * @param {Array<string>} names
 */
function headerRow(names) {
  const header = element("tr");
  for (const name of names) {
    header.append(element("th", "", name));
  }
  return header;
}

/**
 * The picked device's table: its leaves (up to ROW_LIMIT) and, on a device that runs the
 * program, the rows that make it add up to the device's total.
 * @param {*} view
 * @param {number} index
 * @param {Array<{leaf: number, bytes: number}>} held
 */
function deviceTable(view, index, held) {
  const table = element("table", "jdw-mem-table");
  table.append(headerRow(["path", "shard", "spec", "on this device"]));
  for (const entry of held.slice(0, ROW_LIMIT)) {
    table.append(leafRow(view, entry.leaf, entry.bytes));
  }
  // A device running the program also holds XLA's temporaries and code, and its aliased
  // bytes are counted once: these rows make the panel add up to the device's total.
  if (view.program?.devices?.includes(index)) {
    for (const [label, , human] of view.program.device_rows ?? []) {
      const tr = element("tr", "jdw-mem-extra");
      const what = element("td", "jdw-mem-dim", label);
      what.colSpan = 3;
      tr.append(what, element("td", "jdw-mem-num", human));
      table.append(tr);
    }
  }
  return table;
}

/**
 * Marks the picked device (`device`) on the map and lists its leaves that pass the filter.
 * @param {MemoryWidget} model
 * @param {*} view
 * @param {*} byGroup the leaves by sharding group ({@link leavesByGroup})
 * @param {ReturnType<typeof buildParts>} parts
 * @param {Array<HTMLElement>} cellNodes
 */
function showDevice(model, view, byGroup, parts, cellNodes) {
  const index = model.get("device");
  for (const node of cellNodes) {
    node.classList.toggle("jdw-mem-on", Number(node.dataset.device) === index);
  }
  const panel = parts.devicePanel;
  panel.replaceChildren();
  if (index < 0 || index >= view.devices.length) return;
  const device = view.devices[index];
  const every = deviceLeaves(view, index, byGroup);
  const held = every.filter((entry) => matchesFilter(view.leaves[entry.leaf].path, parts.filter.value));
  const count =
    held.length === every.length ? `${held.length}` : `${held.length} of ${every.length}`;
  panel.append(
    element("div", "jdw-mem-title", `${device.tooltip[0]}: ${device.human} in ${count} leaves`),
  );
  panel.append(deviceTable(view, index, held));
  if (held.length > ROW_LIMIT) {
    const more = `first ${ROW_LIMIT} of ${held.length}; filter to narrow`;
    panel.append(element("div", "jdw-mem-dim", more));
  }
}

/**
 * The leaf table's header: a sort button for each sortable column, marked with its order.
 * @param {{sortKey: string, descending: boolean}} sort
 * @param {(key: string, descending: boolean) => void} resort called with a column's key and first order
 */
function sortHeader(sort, resort) {
  const header = element("tr");
  for (const [name, key, firstDescending] of SORTS) {
    const th = element("th");
    if (key) {
      const button = element("button", "jdw-mem-sort", name);
      button.dataset.sort = key;
      const active = key === sort.sortKey;
      const order = sort.descending ? "descending" : "ascending";
      th.setAttribute("aria-sort", active ? order : "none");
      if (active) button.textContent = `${name} ${sort.descending ? "▼" : "▲"}`;
      button.addEventListener("click", () => resort(key, firstDescending));
      th.append(button);
    } else {
      th.textContent = name;
    }
    header.append(th);
  }
  return header;
}

/**
 * The table of every leaf that passes the filter, in the chosen order; a click on a column's
 * button sorts by it (again: the other way) and keeps the focus on that button.
 * @param {*} view
 * @param {ReturnType<typeof buildParts>} parts
 * @param {{sortKey: string, descending: boolean}} sort
 */
function showLeaves(view, parts, sort) {
  const order = sortedLeaves(view.leaves, sort.sortKey, sort.descending).filter((i) =>
    matchesFilter(view.leaves[i].path, parts.filter.value),
  );
  const table = element("table", "jdw-mem-table");
  table.append(
    sortHeader(sort, (key, firstDescending) => {
      sort.descending = key === sort.sortKey ? !sort.descending : firstDescending;
      sort.sortKey = key;
      showLeaves(view, parts, sort);
      // the redrawn header's button takes the focus, so keys (Escape) still reach the map
      parts.tableBox.querySelector(`[data-sort="${key}"]`)?.focus();
    }),
  );
  for (const index of order.slice(0, ROW_LIMIT)) table.append(leafRow(view, index));
  const counted = `leaves (${order.length} of ${view.leaves.length})`;
  const title = element("div", "jdw-mem-title", counted);
  const rows = [title, table];
  if (view.flag_note) rows.push(element("div", "jdw-mem-dim", `⚠ ${view.flag_note}`));
  if (order.length > ROW_LIMIT) {
    rows.push(element("div", "jdw-mem-dim", `first ${ROW_LIMIT} rows; filter to narrow`));
  }
  parts.tableBox.replaceChildren(...rows);
}

/**
 * The picked leaf's sharding diagram, once its `leaf_view` has come; the last one is closed.
 * @param {MemoryWidget} model
 * @param {*} view
 * @param {HTMLElement} diagram
 * @param {{closeDiagram: (() => void)|null}} state
 */
function showDiagram(model, view, diagram, state) {
  if (state.closeDiagram) state.closeDiagram();
  state.closeDiagram = null;
  diagram.replaceChildren();
  const leafView = model.get("leaf_view");
  const index = model.get("leaf");
  if (index < 0 || !leafView || leafView.leaf !== index) return;
  diagram.append(element("div", "jdw-mem-title", `sharding of ${view.leaves[index].path}`));
  const host = element("div");
  diagram.append(host);
  state.closeDiagram = sharding.render({
    model: localModel({ view: leafView, selected: [], zoom: 1 }),
    el: host,
  });
}

/**
 * The heatmap's events: a click picks a device, arrows move between cells, focus and hover
 * describe a device (hover in a tooltip too).
 * @param {MemoryWidget} model
 * @param {*} view
 * @param {ReturnType<typeof buildParts>} parts
 * @param {Array<HTMLElement>} cellNodes
 */
function wireHeatmap(model, view, parts, cellNodes) {
  const { root, scroll, status, tooltip } = parts;
  const deviceOf = (target) => itemIndex(root, target, ".jdw-mem-cell", "device");
  const describe = (index) => {
    status.textContent = view.devices[index].tooltip.join(" · ");
  };
  onItem(scroll, "click", deviceOf, (index) => togglePick(model, "device", index));
  onItem(scroll, "keydown", deviceOf, (index, event) => {
    const next = gridStep(view.grid, index, event.key);
    if (next === null || next === index) return;
    event.preventDefault();
    moveTabStop(event.target, cellNodes.find((n) => Number(n.dataset.device) === next));
  });
  onItem(scroll, "focusin", deviceOf, describe);
  scroll.addEventListener("pointermove", (event) => {
    const index = deviceOf(event.target);
    if (index === null) {
      tooltip.hidden = true;
      return;
    }
    describe(index);
    const text = view.devices[index].tooltip.join("\n");
    showTooltip(tooltip, root, text, event.clientX, event.clientY);
  });
  scroll.addEventListener("pointerleave", () => {
    tooltip.hidden = true;
  });
}

/**
 * The root's events: a click on a leaf's path picks the leaf; Escape picks nothing.
 * @param {MemoryWidget} model
 * @param {HTMLElement} root
 */
function wireRoot(model, root) {
  root.addEventListener("click", (event) => {
    const target = /** @type {*} */ (event.target); // not always an Element
    /** @type {HTMLElement|null} */
    const row = target.closest?.(".jdw-mem-leaf")?.closest("[data-leaf]");
    if (!row || !root.contains(row)) return;
    model.set("leaf", Number(row.dataset.leaf));
    model.save_changes();
  });
  root.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    model.set("device", -1);
    model.set("leaf", -1);
    model.save_changes();
  });
}

/**
 * Draws the model's `view` ({@link MemoryModel}) in `el`; picks set `device` and `leaf`.
 * @param {{model: MemoryWidget, el: HTMLElement}} props
 * @returns {() => void}
 */
function render({ model, el }) {
  const sent = model.get("view");
  const view = { ...sent, leaves: expandLeaves(sent) };
  const byGroup = leavesByGroup(view);
  const parts = buildParts(view);
  el.append(parts.root);
  const cellNodes = cellNodesOf(parts.root, view);
  const sort = { sortKey: "per_device", descending: true };
  const state = { closeDiagram: null };
  const onDevice = () => showDevice(model, view, byGroup, parts, cellNodes);
  const onLeaves = () => showLeaves(view, parts, sort);
  const onDiagram = () => showDiagram(model, view, parts.diagram, state);
  wireHeatmap(model, view, parts, cellNodes);
  wireRoot(model, parts.root);
  parts.filter.addEventListener("input", () => {
    onDevice();
    onLeaves();
  });
  const stop = listen(model, [
    ["change:device", onDevice],
    ["change:leaf_view", onDiagram],
    ["change:leaf", onDiagram],
  ]);
  onDevice();
  onLeaves();
  onDiagram();
  return () => {
    stop();
    if (state.closeDiagram) state.closeDiagram();
  };
}

export default { render };
