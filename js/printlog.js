// The print log widget: a filter box, a status line and a table of the newest matching prints.
import { columnsFor, debounce, matchingRows, rowCells, statusLine } from "./printlog_format.js";
import { element, keepKeys } from "./dom.js";
import { initialize } from "./live_link.js";
import { drawPicture } from "./pictures.js";
import { listen, togglePick } from "./widget_model.js";

// The JSON the kernel sends (`rows`, `stats`) and the filter the widget sets: declared once, by the
// TypedDicts of jaxdbg_widgets/notebook/printlog_schema.py; ./schema/printlog.js is generated from
// them (`python -m tests.unit.schema_js`).

/** @typedef {import("./schema/printlog.js").NoPictures} NoPictures */
/** @typedef {import("./schema/printlog.js").PrintLogModel} PrintLogModel */
/** @typedef {import("./schema/printlog.js").PrintPictures} PrintPictures */
/** @typedef {import("./schema/printlog.js").PrintRow} PrintRow */
/** @typedef {import("./schema/printlog.js").PrintStats} PrintStats */

/** @typedef {import("./schema/pictures.js").PicturesView} PicturesView */

/** anywidget's model of this widget, typed by {@link PrintLogModel} (see widget_model.js). */
/** @typedef {import("./widget_model.js").Model<PrintLogModel>} PrintLogWidget */

const FILTER_DELAY_MS = 150;

/** The header row of `columns` ([key, heading] pairs). */
function headRow(columns) {
  const row = element("tr");
  for (const [key, heading] of columns) {
    row.appendChild(element("th", `jaxdbg-printlog-col-${key}`, heading));
  }
  return row;
}

/** One print's row; one that carried arrays has a button that expands it into pictures. */
function buildRow(row, columns, expanded, toggle) {
  const tr = element("tr");
  const tds = rowCells(row, columns).map((text, i) => element("td", `jaxdbg-printlog-col-${columns[i][0]}`, text));
  tr.append(...tds);
  if (row.arrays) {
    const open = expanded === row.index;
    const label = `${open ? "▾" : "▸"} ${row.arrays === 1 ? "picture" : `${row.arrays} pictures`}`;
    const button = element("button", "jaxdbg-printlog-expand", label);
    button.setAttribute("aria-expanded", String(open));
    button.addEventListener("click", () => toggle(row.index));
    tds[tds.length - 1].appendChild(button);
  }
  return tr;
}

/** The row under an expanded print: its arrays' pictures across the whole table. */
function buildPictures(pictures, columns) {
  const tr = element("tr", "jaxdbg-printlog-pictures");
  const td = element("td", "");
  td.colSpan = columns.length;
  td.append(...pictures.view.pictures.map(drawPicture));
  tr.appendChild(td);
  return tr;
}

/**
 * The widget's parts: the filter box (holding the model's query), the status line and the
 * scrolling table with its header.
 * @param {PrintLogWidget} model
 */
function buildParts(model) {
  const root = element("div", "jaxdbg-printlog");
  keepKeys(root);
  const filter = element("input", "jaxdbg-printlog-filter");
  filter.type = "search";
  filter.placeholder = "filter by call site or text";
  filter.value = model.get("query") ?? "";
  const status = element("div", "jaxdbg-printlog-status");
  const scroller = element("div", "jaxdbg-printlog-scroll");
  const table = element("table", "jaxdbg-printlog-table");
  const body = element("tbody");
  const columns = columnsFor([]);
  const head = element("thead");
  head.appendChild(headRow(columns));
  table.append(head, body);
  scroller.appendChild(table);
  root.append(filter, status, scroller);
  return { root, filter, status, scroller, head, body, columns };
}

/**
 * Sets `query` a moment after the typing stops. A saved log has no kernel to filter it: the
 * page filters the rows the output carries.
 * @param {PrintLogWidget} model
 * @returns {(value: string) => void}
 */
function querySender(model) {
  const carried = model.offline ? { rows: model.get("rows") ?? [], stats: model.get("stats") } : null;
  return debounce((value) => {
    if (carried) {
      const rows = matchingRows(carried.rows, value);
      model.set("stats", { ...carried.stats, matched: value ? rows.length : carried.stats.matched });
      model.set("rows", rows);
    }
    model.set("query", value);
    model.save_changes();
  }, FILTER_DELAY_MS);
}

/**
 * Draws the rows (and the expanded print's pictures) and the status line; the table stays
 * scrolled to the bottom, or to the print just expanded.
 * @param {PrintLogWidget} model
 * @param {ReturnType<typeof buildParts>} parts
 * @param {(index: number) => void} toggle expands or folds a print
 */
function update(model, parts, toggle) {
  const { scroller, head, body } = parts;
  const rows = model.get("rows") ?? [];
  const atBottom = scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 4;
  const expanded = model.get("expanded");
  const pictures = model.get("pictures");
  const wanted = columnsFor(rows);
  if (wanted.length !== parts.columns.length) {
    parts.columns = wanted;
    head.replaceChildren(headRow(parts.columns));
  }
  let openedRow = null;
  body.replaceChildren(
    ...rows.flatMap((row) => {
      const tr = buildRow(row, parts.columns, expanded, toggle);
      const open = row.index === expanded && pictures && pictures.index === row.index;
      if (open) openedRow = tr;
      return open ? [tr, buildPictures(pictures, parts.columns)] : [tr];
    }),
  );
  parts.status.textContent = statusLine(model.get("stats"), rows.length);
  scroller.classList.toggle("jaxdbg-drawn", openedRow !== null);
  if (openedRow) {
    // the expanded print's own row at the top, just under the sticky header, its pictures below
    scroller.scrollTop = Math.max(0, openedRow.offsetTop - head.offsetHeight);
  } else if (atBottom) {
    scroller.scrollTop = scroller.scrollHeight;
  }
}

/**
 * Draws the model's rows ({@link PrintLogModel}) in `el`; the filter box sets `query`.
 * @param {{model: PrintLogWidget, el: HTMLElement}} props
 * @returns {() => void}
 */
function render({ model, el }) {
  const parts = buildParts(model);
  el.appendChild(parts.root);
  const { filter } = parts;
  const sendQuery = querySender(model);
  filter.addEventListener("input", () => sendQuery(filter.value));
  const toggle = (index) => togglePick(model, "expanded", index);
  const redraw = () => update(model, parts, toggle);
  const syncFilter = () => {
    if (document.activeElement !== filter) {
      filter.value = model.get("query") ?? "";
    }
  };
  const stop = listen(model, [
    ["change:rows", redraw],
    ["change:stats", redraw],
    ["change:query", syncFilter],
    ["change:pictures", redraw],
    ["change:expanded", redraw],
  ]);
  redraw();
  return stop;
}

export default { initialize, render };
