// The print log widget: a filter box, a status line and a table of the newest matching prints.
import { COLUMNS, debounce, rowCells, statusLine } from "./printlog_format.js";
import { element } from "./dom.js";

const FILTER_DELAY_MS = 150;

function buildHead() {
  const head = element("thead");
  const row = element("tr");
  for (const [key, heading] of COLUMNS) {
    row.appendChild(element("th", `jaxdbg-printlog-col-${key}`, heading));
  }
  head.appendChild(row);
  return head;
}

function buildRow(row) {
  const tr = element("tr");
  rowCells(row).forEach((text, i) => {
    tr.appendChild(element("td", `jaxdbg-printlog-col-${COLUMNS[i][0]}`, text));
  });
  return tr;
}

function render({ model, el }) {
  const root = element("div", "jaxdbg-printlog");
  const filter = element("input", "jaxdbg-printlog-filter");
  filter.type = "search";
  filter.placeholder = "filter by call site or text";
  filter.value = model.get("query") ?? "";
  const status = element("div", "jaxdbg-printlog-status");
  const scroller = element("div", "jaxdbg-printlog-scroll");
  const table = element("table", "jaxdbg-printlog-table");
  const body = element("tbody");
  table.append(buildHead(), body);
  scroller.appendChild(table);
  root.append(filter, status, scroller);
  el.appendChild(root);

  const sendQuery = debounce((value) => {
    model.set("query", value);
    model.save_changes();
  }, FILTER_DELAY_MS);
  filter.addEventListener("input", () => sendQuery(filter.value));

  const update = () => {
    const rows = model.get("rows") ?? [];
    const atBottom = scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 4;
    body.replaceChildren(...rows.map(buildRow));
    status.textContent = statusLine(model.get("stats"), rows.length);
    if (atBottom) {
      scroller.scrollTop = scroller.scrollHeight;
    }
  };
  const syncFilter = () => {
    if (document.activeElement !== filter) {
      filter.value = model.get("query") ?? "";
    }
  };
  model.on("change:rows", update);
  model.on("change:stats", update);
  model.on("change:query", syncFilter);
  update();

  return () => {
    model.off("change:rows", update);
    model.off("change:stats", update);
    model.off("change:query", syncFilter);
  };
}

export default { render };
