// Pure helpers of the debugger widget: text for values and headers, history, shortcuts.

import COMMANDS from "./debugger_commands.js";

/**
 * The line a command sends: its shortest name (`c` for continue, `ca` for continue_all).
 * @param {{names: string[]}} command
 * @returns {string}
 */
function line(command) {
  return command.names.reduce((short, name) => (name.length < short.length ? name : short));
}

/** `[label, line sent, tooltip]` for each command the table gives a button. */
export const BUTTONS = COMMANDS.filter((c) => c.button).map((c) => [c.button[0], line(c), c.button[1]]);

/**
 * The line that runs the command with key `key` on its argument: `commandWith("continue", 3)` is `c 3`.
 * @param {string} key
 * @param {number} argument
 * @returns {string}
 */
export function commandWith(key, argument) {
  const command = COMMANDS.find((c) => c.key === key);
  if (!command) {
    throw new Error(`no debugger command has the key ${key}`);
  }
  return `${line(command)} ${argument}`;
}

/** Key pressed -> line sent, for each command the table gives a key. */
const SHORTCUTS = Object.fromEntries(COMMANDS.filter((c) => c.shortcut).map((c) => [c.shortcut, line(c)]));

export const STATUS_TEXT = {
  waiting: "waiting",
  continue: "continued",
  continue_all: "continued, rest skipped",
  quit: "quit",
  interrupted: "interrupted",
};

/** One line for an array summary: dtype[shape], statistics, NaN/Inf counts. */
export function formatSummary(summary) {
  if (!summary) {
    return "";
  }
  const parts = [`${summary.dtype ?? "?"}[${(summary.shape ?? []).join(", ")}]`];
  for (const key of ["min", "max", "mean", "std"]) {
    if (summary[key] !== undefined) {
      parts.push(`${key}=${formatNumber(summary[key])}`);
    }
  }
  for (const key of ["nan", "inf"]) {
    if (summary[key]) {
      parts.push(`${key.toUpperCase()}=${summary[key]}`);
    }
  }
  if (summary.error) {
    parts.push(summary.error);
  }
  return parts.join(" ");
}

/** A number with at most 4 significant digits after the point, integers unchanged. */
export function formatNumber(value) {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    return String(value);
  }
  if (Number.isInteger(value)) {
    return String(value);
  }
  return Number(value.toPrecision(4)).toString();
}

/** Whether any NaN or Inf is in a summary (the row gets a warning mark). */
export function hasNonFinite(summary) {
  return Boolean(summary && (summary.nan || summary.inf));
}

/** The header's detail line: thread or device, batch index, what stopped (`breakpoint #2`,
 * `post-mortem`), status. */
export function headerDetails(header, status) {
  const parts = [];
  if (header?.thread) {
    parts.push(header.thread);
  }
  if (header?.batch) {
    const { index, size, element } = header.batch;
    const original = element !== undefined && element !== index ? ` (element ${element})` : "";
    parts.push(`batch ${index} of ${size}${original}`);
  }
  parts.push(header?.stop ?? "breakpoint");
  parts.push(STATUS_TEXT[status] ?? String(status ?? ""));
  return parts.join(" · ");
}

/** `function (file:line)` of the selected frame, as the header shows it. */
export function frameLocation(header) {
  if (!header?.file) {
    return header?.location ?? "";
  }
  return `${header.function} (${header.file}:${header.line})`;
}

/** Numbered source rows: `{number, html, current}`; html was escaped by the kernel. */
export function sourceRows(source) {
  if (!source || !Array.isArray(source.lines)) {
    return [];
  }
  return source.lines.map((html, i) => ({
    number: source.first + i,
    html,
    current: i === source.current,
  }));
}

/**
 * Step through `history` with the arrow keys. `position` is an index into history, or
 * history.length for the line being typed. Returns the new position and the text to show.
 */
export function historyStep(history, position, direction, draft = "") {
  const size = history.length;
  const next = Math.min(size, Math.max(0, position + (direction === "up" ? -1 : 1)));
  return { position: next, text: next === size ? draft : history[next] };
}

/** The jdb command a key press stands for, when the press is not typing into a field. */
export function shortcutCommand(key, { typing = false, ctrl = false, alt = false, meta = false } = {}) {
  if (typing || ctrl || alt || meta) {
    return null;
  }
  return SHORTCUTS[key] ?? null;
}

/** What an expression box line becomes: a `p` command unless it already is a jdb command. */
export function expressionCommand(text) {
  const line = text.trim();
  if (!line) {
    return null;
  }
  return /^(p|pp)\s/.test(line) ? line : `p ${line}`;
}

/**
 * The expression box's own history: the expressions of the `p`/`pp` commands in the session's
 * history, without the command, consecutive repeats once. The command line keeps all of it.
 */
export function expressionHistory(history) {
  const expressions = [];
  for (const line of history ?? []) {
    const match = /^(?:p|pp)\s+(.+)$/.exec(String(line).trim());
    if (match && expressions[expressions.length - 1] !== match[1]) {
      expressions.push(match[1]);
    }
  }
  return expressions;
}

/** `8 of 8 shards · 7 waiting`: how many shards the session gathered and how many wait. */
export function shardSummary(shards) {
  if (!shards) {
    return "";
  }
  const of = shards.expected ? ` of ${shards.expected}` : "";
  const noun = (shards.expected ?? shards.arrived) === 1 ? "shard" : "shards";
  return `${shards.arrived}${of} ${noun} · ${shards.waiting} waiting`;
}

/** The device selector's option text: `shard 3 · CPU 3 (x=3) · element 1 · continued`. */
export function deviceOption(device) {
  const parts = [`shard ${device.index}`, device.label];
  if (device.element !== undefined) {
    parts.push(`element ${device.element}`);
  }
  if (device.state && device.state !== "waiting") {
    parts.push(STATUS_TEXT[device.state] ?? device.state);
  }
  return parts.join(" · ");
}

/** `text` as device names are compared: no case, no spaces (`cpu216`, `data=13,model=8`). */
function spelling(text) {
  return String(text).replace(/\s+/g, "").toLowerCase();
}

/**
 * The position of the shard that `text` names, as the device selector shows it: its shard
 * number (`216`), its label (`CPU 216 (data=13, model=8)`), its device (`CPU 216`) or its mesh
 * position (`data=13, model=8`), in any case and spacing; `null` when none does.
 */
export function findDevice(shards, text) {
  const wanted = spelling(text);
  const devices = shards?.devices ?? [];
  if (!wanted) {
    return null;
  }
  if (/^\d+$/.test(wanted)) {
    const byIndex = devices.findIndex((device) => device.index === Number(wanted));
    return byIndex === -1 ? null : byIndex;
  }
  const found = devices.findIndex((device) => {
    const open = device.label.lastIndexOf(" (");
    const names = [device.label];
    if (open !== -1 && device.label.endsWith(")")) {
      names.push(device.label.slice(0, open), device.label.slice(open + 2, -1));
    }
    return names.some((name) => spelling(name) === wanted);
  });
  return found === -1 ? null : found;
}

/**
 * The compare view's rows, one per gathered shard: `{position, label, value, error, differs,
 * selected}`, the differing shards first so a long table starts with them; empty without a
 * compare.
 */
export function compareRows(shards) {
  const compare = shards?.compare;
  if (!compare) {
    return [];
  }
  const rows = compare.rows.map((row, position) => ({
    position,
    label: shards.devices[position]?.label ?? String(position),
    value: row.value,
    error: Boolean(row.error),
    differs: Boolean(row.differs),
    selected: position === shards.selected,
  }));
  return [...rows.filter((row) => row.differs), ...rows.filter((row) => !row.differs)];
}

/**
 * The compare's row of pictures, or null when its values are no arrays of one shape: the
 * scale, and each tile with its `caption` (a group says how many shards it holds) and whether
 * the shard its click selects is the selected one.
 */
export function compareTiles(shards) {
  const pictures = shards?.compare?.pictures;
  if (!pictures || pictures.tiles.length === 0) {
    return null;
  }
  const tiles = pictures.tiles.map((tile) => ({
    ...tile,
    caption: tile.count > 1 ? `${tile.label} (${tile.count})` : tile.label,
    selected: tile.position === shards.selected,
  }));
  return { scale: pictures.scale, tiles, more: pictures.more };
}

/** The line under the compare table: the session's verdict (which shards differ, or a tie). */
export function compareVerdict(shards) {
  const compare = shards?.compare;
  if (!compare) {
    return "";
  }
  return compare.verdict;
}
