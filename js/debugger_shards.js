// The debugger's shard parts: the bar that selects, finds and continues one shard, and the pane
// of the last compare across shards (pictures on one scale, table, verdict).
import {
  commandWith,
  compareRows,
  compareTiles,
  compareVerdict,
  deviceOption,
  findDevice,
  shardSummary,
} from "./debugger_format.js";
import { element } from "./dom.js";
import { historyInput } from "./history_input.js";

/** @typedef {import("./schema/debugger.js").DebuggerMessage} DebuggerMessage */
/** @typedef {import("./schema/debugger.js").Shards} Shards */
/** @typedef {import("./debugger.js").DebuggerWidget} DebuggerWidget */

/**
 * The shard session's devices as the selector's options.
 * @param {HTMLSelectElement} select
 * @param {Shards} shards
 */
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

/**
 * The last compare's pictures, one tile per device; a click selects that device.
 * @param {HTMLElement} strip
 * @param {Shards} shards
 * @param {(message: DebuggerMessage) => void} send
 */
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

/**
 * The last compare: its pictures, its table (a click on a row selects that device) and verdict.
 * @param {HTMLElement} pane
 * @param {HTMLElement} pictures
 * @param {HTMLTableElement} table
 * @param {HTMLElement} verdict
 * @param {Shards} shards
 * @param {(message: DebuggerMessage) => void} send
 */
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

/**
 * The box that finds a shard by its index, label or mesh place and selects it (Enter).
 * @param {DebuggerWidget} model
 * @param {(message: DebuggerMessage) => void} send
 */
function buildDeviceSearch(model, send) {
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
  return deviceSearch;
}

/**
 * A shard session's bar: device selector and search, count, Continue this device, compare box.
 * @param {DebuggerWidget} model
 * @param {(message: DebuggerMessage) => void} send
 */
export function buildShardsBar(model, send) {
  const bar = element("div", "jaxdbg-dbg-shards");
  const deviceLabel = element("label", "jaxdbg-dbg-device", "device ");
  const deviceSelect = element("select", "jaxdbg-dbg-device-select");
  deviceLabel.appendChild(deviceSelect);
  const selected = () => Number.parseInt(deviceSelect.value, 10);
  deviceSelect.addEventListener("change", () => send({ type: "device", index: selected() }));
  deviceSelect.addEventListener("keydown", (event) => event.stopPropagation());
  const shardCount = element("span", "jaxdbg-dbg-shard-summary");
  const continueOne = element("button", "jaxdbg-dbg-button", "Continue this device");
  continueOne.type = "button";
  continueOne.dataset.command = "continue-device";
  continueOne.title = "Release only the selected device; the others keep waiting";
  continueOne.addEventListener("click", () =>
    send({ type: "command", line: commandWith("continue", selected()) }),
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
  const deviceSearch = buildDeviceSearch(model, send);
  bar.append(deviceLabel, deviceSearch, shardCount, continueOne, compareInput);
  return { bar, deviceSelect, deviceSearch, shardCount, continueOne, compareInput };
}

/** The last compare's pane: its pictures on one scale, its table and its verdict line. */
export function buildComparePane() {
  const pane = element("div", "jaxdbg-dbg-compare-pane");
  const table = element("table", "jaxdbg-dbg-compare");
  table.createCaption();
  table.appendChild(element("tbody"));
  const verdict = element("div", "jaxdbg-dbg-compare-verdict");
  const pictures = element("div", "jaxdbg-dbg-compare-pictures");
  pictures.setAttribute("role", "group");
  pictures.setAttribute("aria-label", "the compared value in each shard, on one colour scale");
  pane.append(pictures, table, verdict);
  return { pane, table, verdict, pictures };
}

/**
 * A shard session's bar and last compare; the device list is redrawn only when it changed.
 * @param {{lastDevicesKey: string|null}} session the drawn debugger's keys of what it drew
 * @param {{shards: ReturnType<typeof buildShardsBar>, compare: ReturnType<typeof buildComparePane>}} parts
 * @param {Shards|undefined} shards
 * @param {boolean} waiting
 * @param {(message: DebuggerMessage) => void} send
 */
export function showShards(session, parts, shards, waiting, send) {
  const bar = parts.shards;
  bar.bar.hidden = !shards;
  if (!shards) {
    parts.compare.pane.hidden = true;
    return;
  }
  const devicesKey = JSON.stringify([shards.devices, shards.selected]);
  if (devicesKey !== session.lastDevicesKey) {
    renderDevices(bar.deviceSelect, shards);
    session.lastDevicesKey = devicesKey;
  }
  bar.shardCount.textContent = shardSummary(shards);
  const selected = shards.devices[shards.selected];
  bar.continueOne.disabled = !waiting || selected?.state !== "waiting";
  bar.deviceSelect.disabled = !waiting;
  bar.deviceSearch.disabled = !waiting;
  bar.compareInput.disabled = !waiting;
  const { pane, pictures, table, verdict } = parts.compare;
  renderCompare(pane, pictures, table, verdict, shards, send);
}
