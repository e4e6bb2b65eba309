// Pure formatting for the print log table: counts, the status line and the cells of one row.

/** Columns of the table as [key, heading], in the order `rowCells` fills them. */
export const COLUMNS = [
  ["index", "#"],
  ["cell", "cell"],
  ["time", "time"],
  ["site", "call site"],
  ["text", "text"],
  ["values", "values"],
];

/** A count with thousands separators, e.g. 100000 -> "100,000". */
export function formatCount(value) {
  return Math.trunc(Number(value) || 0).toLocaleString("en-US");
}

/** `[3]` for execution count 3, empty when the print came from outside a cell. */
export function cellLabel(cell) {
  return cell === null || cell === undefined ? "" : `[${cell}]`;
}

/** The process column, shown after `time` only when a print came from a multi-process job. */
export const PROCESS_COLUMN = ["process", "process"];

/** The columns for `rows`: `COLUMNS`, with the process column when any row names a process. */
export function columnsFor(rows) {
  if (!rows.some((row) => row.process !== null && row.process !== undefined)) {
    return COLUMNS;
  }
  const at = COLUMNS.findIndex(([key]) => key === "time") + 1;
  return [...COLUMNS.slice(0, at), PROCESS_COLUMN, ...COLUMNS.slice(at)];
}

/** The text of one row's cell in the column `key`. */
function cellText(row, key) {
  if (key === "index") return String(row.index);
  if (key === "cell") return cellLabel(row.cell);
  if (key === "process") return row.process === null || row.process === undefined ? "" : String(row.process);
  return row[key] ?? "";
}

/** The text of each column (default `COLUMNS`) for one row sent by the kernel. */
export function rowCells(row, columns = COLUMNS) {
  return columns.map(([key]) => cellText(row, key));
}

/** One line saying what is shown out of what was matched, printed and dropped. */
export function statusLine(stats, shown) {
  const seen = stats?.seen ?? 0;
  if (seen === 0) {
    return "no prints yet";
  }
  const matched = stats.matched ?? shown;
  const parts = [
    shown < matched
      ? `newest ${formatCount(shown)} of ${formatCount(matched)} matching`
      : `${formatCount(matched)} matching`,
    `${formatCount(seen)} printed`,
  ];
  if ((stats.dropped ?? 0) > 0) {
    parts.push(`${formatCount(stats.dropped)} oldest dropped (keeps ${formatCount(stats.capacity)})`);
  }
  return parts.join(" · ");
}

/**
 * The rows whose call site or text holds `query` (ignoring case), or whose process label
 * (`process 1`) is `query`: the kernel's own filter, for a saved log the page filters itself.
 */
export function matchingRows(rows, query) {
  const needle = query.toLowerCase();
  if (!needle) return rows;
  return rows.filter(
    (row) =>
      row.text.toLowerCase().includes(needle) ||
      row.site.toLowerCase().includes(needle) ||
      (row.process !== null && needle === `process ${row.process}`),
  );
}

/** Delay `action` until `wait` ms pass without another call; `timers` is injectable for tests. */
export function debounce(action, wait, timers = globalThis) {
  let handle = null;
  return (...args) => {
    if (handle !== null) {
      timers.clearTimeout(handle);
    }
    handle = timers.setTimeout(() => {
      handle = null;
      action(...args);
    }, wait);
  };
}
