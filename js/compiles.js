// The compile report drawn in the page: a table of functions and call sites, sortable by any
// column; a click on a row opens its programs, each with its cause and its biggest source lines,
// and a click on a line shows its code. Everything it shows is in `view`: it asks the kernel
// nothing, so it draws the same in a saved, restarted or reloaded notebook.
import { element, keepKeys } from "./dom.js";
import { listen } from "./widget_model.js";

// The JSON the kernel makes (`view`) and the trait the view sets (`row`): declared once, by the
// TypedDicts of jaxdbg_widgets/compiles/schema.py; ./schema/compiles.js is generated from them
// (`python -m tests.unit.schema_js`).

/** @typedef {import("./schema/compiles.js").CompileLine} CompileLine */
/** @typedef {import("./schema/compiles.js").CompileProgram} CompileProgram */
/** @typedef {import("./schema/compiles.js").CompileRow} CompileRow */
/** @typedef {import("./schema/compiles.js").CompilesModel} CompilesModel */
/** @typedef {import("./schema/compiles.js").CompilesView} CompilesView */

/** anywidget's model of this view, typed by {@link CompilesModel} (see widget_model.js). */
/** @typedef {import("./widget_model.js").Model<CompilesModel>} CompilesWidget */

/** `1.23 s` or `45.6 ms`, as the text and HTML views write seconds. */
export function seconds(value) {
  return value >= 1 ? `${value.toFixed(2)} s` : `${(value * 1e3).toFixed(1)} ms`;
}

const total = (row) => row.seconds.reduce((a, b) => a + b, 0);

/**
 * The table's columns: a header, the cell's text and the value it sorts by.
 * @type {Array<[string, (row: CompileRow) => string, (row: CompileRow) => *]>}
 */
export const COLUMNS = [
  ["function", (r) => r.name, (r) => r.name],
  ["defined", (r) => r.defined, (r) => r.defined],
  ["called at", (r) => r.call_site, (r) => r.call_site],
  ["traced", (r) => String(r.counts[0]), (r) => r.counts[0]],
  ["lowered", (r) => String(r.counts[1]), (r) => r.counts[1]],
  ["compiled", (r) => String(r.counts[2]), (r) => r.counts[2]],
  ["trace", (r) => seconds(r.seconds[0]), (r) => r.seconds[0]],
  ["lower", (r) => seconds(r.seconds[1]), (r) => r.seconds[1]],
  ["compile", (r) => seconds(r.seconds[2]), (r) => r.seconds[2]],
  ["total", (r) => seconds(total(r)), total],
];

/**
 * The rows' positions in the order to show: as the report gives them (worst first) when
 * `column` is -1, else by that column, descending or not; ties keep the report's order.
 */
export function sortedRows(rows, column, descending) {
  const order = rows.map((_, i) => i);
  if (column < 0) return order;
  const key = COLUMNS[column][2];
  const sign = descending ? -1 : 1;
  return order.sort((a, b) => {
    const x = key(rows[a]);
    const y = key(rows[b]);
    const compared = typeof x === "number" ? x - y : String(x).localeCompare(String(y));
    return sign * compared || a - b;
  });
}

function headerRow(sort, onSort) {
  const tr = element("tr");
  COLUMNS.forEach(([label], i) => {
    const arrow = sort.column === i ? (sort.descending ? " ▼" : " ▲") : "";
    const th = element("th", "jdw-cmp-sort", label + arrow);
    th.addEventListener("click", () => onSort(i));
    tr.appendChild(th);
  });
  return tr;
}

function rowsTable(view, open, sort, onSort, onOpen) {
  const table = element("table", "jdw-cmp-rows");
  const head = element("thead");
  head.appendChild(headerRow(sort, onSort));
  const body = element("tbody");
  for (const position of sortedRows(view.rows, sort.column, sort.descending)) {
    const row = view.rows[position];
    const tr = element("tr", position === open ? "jdw-cmp-open" : "");
    tr.setAttribute("tabindex", "0");
    COLUMNS.forEach(([, text], i) => {
      tr.appendChild(element("td", i >= 3 ? "jdw-cmp-num" : "", text(row)));
    });
    tr.addEventListener("click", () => onOpen(position));
    body.appendChild(tr);
  }
  table.append(head, body);
  return table;
}

function lineList(program, shown, onLine) {
  const list = element("div", "jdw-cmp-lines");
  program.lines.forEach((line, i) => {
    const hlo = line.hlo ? ` · ${line.hlo} HLO ops` : "";
    const size = line.equations ? `${line.equations} equations${hlo}` : "constant";
    const item = element("div", "jdw-cmp-line", `${line.label} · ${size}`);
    item.setAttribute("tabindex", "0");
    item.addEventListener("click", () => onLine(i));
    list.appendChild(item);
    if (shown === i) list.appendChild(element("pre", "jdw-cmp-code", line.code));
  });
  return list;
}

function programDetails(view, row, shownLine, onLine) {
  const box = element("div", "jdw-cmp-details");
  box.appendChild(element("div", "jdw-cmp-title", `${row.name} called at ${row.call_site}`));
  for (const index of row.programs) {
    const program = view.programs[index];
    const stages = program.stages.join("/");
    const head = `#${program.index} · traced/lowered/compiled ${stages} · ${seconds(program.seconds)}`;
    box.appendChild(element("div", "jdw-cmp-program", head));
    box.appendChild(element("div", "jdw-cmp-cause", program.cause));
    if (program.lines.length) {
      const shown = shownLine.program === index ? shownLine.line : -1;
      box.appendChild(lineList(program, shown, (line) => onLine(index, line)));
    }
  }
  return box;
}

/** @type {{render: (props: {model: CompilesWidget, el: HTMLElement}) => () => void}} */
export default {
  render({ model, el }) {
    const root = element("div", "jdw-cmp jdw-cmp-live");
    keepKeys(root);
    el.appendChild(root);
    const sort = { column: -1, descending: true };
    let shownLine = { program: -1, line: -1 };

    const draw = () => {
      /** @type {CompilesView} */
      const view = model.get("view");
      const open = model.get("row");
      const parts = [element("div", "jdw-cmp-head", view.headline)];
      if (!view.rows.length) {
        parts.push(element("div", "", "nothing was traced or compiled"));
      } else {
        const onSort = (column) => {
          sort.descending = sort.column === column ? !sort.descending : true;
          sort.column = column;
          draw();
        };
        const onOpen = (position) => {
          model.set("row", position === open ? -1 : position);
          model.save_changes();
        };
        parts.push(rowsTable(view, open, sort, onSort, onOpen));
        if (open >= 0 && open < view.rows.length) {
          const onLine = (program, line) => {
            const same = shownLine.program === program && shownLine.line === line;
            shownLine = same ? { program: -1, line: -1 } : { program, line };
            draw();
          };
          parts.push(programDetails(view, view.rows[open], shownLine, onLine));
        }
      }
      root.replaceChildren(...parts);
    };

    const stop = listen(model, [
      ["change:view", draw],
      ["change:row", draw],
    ]);
    draw();
    return stop;
  },
};
