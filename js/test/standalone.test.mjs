import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import sharding from "../sharding.js";
import { offerLink } from "../live_link.js";
import { mount } from "../standalone.js";
import { installDom, outputElement } from "./fake_dom.mjs";

let dom;
beforeEach(() => {
  dom = installDom();
});
afterEach(() => dom.restore());

/** A (4, 4) array on a 2 x 2 grid, one device per shard. */
function gridView() {
  return {
    kind: "NamedSharding",
    summary: ["shape (4, 4) float32", "mesh x=2 y=2", "4 devices, 4 shards"],
    use_color: true,
    facets: [
      {
        title: "",
        rows: 2,
        cols: 2,
        row_label: "dim 0",
        col_label: "dim 1",
        col_widths: [10, 10],
        row_heights: [2, 2],
        cells: [
          [0, 0, 0],
          [0, 1, 1],
          [1, 0, 2],
          [1, 1, 3],
        ],
      },
    ],
    cells: {
      label: ["CPU 0", "CPU 1", "CPU 2", "CPU 3"],
      devices: [[0], [1], [2], [3]],
      index: ["[0:2, 0:2]", "[0:2, 2:4]", "[2:4, 0:2]", "[2:4, 2:4]"],
      tip: [0, 0, 0, 0],
      color: ["#FF0000", "#00FF00", "#0000FF", "#FFFFFF"],
    },
    tips: [["CPU", "process 0", "shard shape (2, 2)"]],
    processes: [[0, "0-3"]],
  };
}

/** An output as the kernel writes it: the static twin, then the state as JSON. */
function output(payload) {
  const host = outputElement(dom.document);
  host.className = "jdw-standalone";
  const twin = dom.document.createElement("div");
  twin.className = "jdw-standalone-static";
  twin.textContent = "static twin";
  const data = dom.document.createElement("script");
  data.setAttribute("type", "application/json");
  data.textContent = JSON.stringify(payload);
  host.append(twin, data);
  return host;
}

test("the embedded state draws the interactive diagram in place of the static twin", () => {
  const host = output({ state: { view: gridView(), selected: [], zoom: 1 } });
  const model = mount(host, sharding);
  assert.equal(host.querySelector(".jdw-standalone-static"), null);
  const cells = host.querySelectorAll('.jdw-standalone-live [role="gridcell"]');
  assert.equal(cells.length, 4);
  cells[2].click();
  assert.deepEqual(model.get("selected"), [2]);
  assert.equal(cells[2].getAttribute("aria-selected"), "true");
});

test("a view that fails to draw leaves the static twin in place", () => {
  const host = output({ state: { view: gridView(), selected: [], zoom: 1 } });
  const broken = {
    render() {
      throw new Error("cannot draw");
    },
  };
  assert.throws(() => mount(host, broken), /cannot draw/);
  assert.equal(host.querySelector(".jdw-standalone-static").textContent, "static twin");
  assert.equal(host.querySelector(".jdw-standalone-live"), null);
});

test("a derived trait is filled from the table the kernel computed when the output was made", () => {
  const seen = [];
  const widget = {
    render({ model }) {
      model.on("change:leaf_view", () => seen.push(model.get("leaf_view")));
      model.set("leaf", 1);
      model.set("leaf", 7);
    },
  };
  const host = output({
    state: { leaf: -1, leaf_view: {} },
    derived: { leaf: ["leaf_view", { 0: { leaf: 0 }, 1: { leaf: 1 } }] },
  });
  mount(host, widget);
  assert.deepEqual(seen, [{ leaf: 1 }, {}]);
});

/** A live widget model as anywidget's front end holds it: its traits, listeners and messages. */
function liveModel(state) {
  const listeners = new Map();
  return {
    sent: [],
    listeners,
    get: (name) => state[name],
    set(name, value) {
      state[name] = value;
      for (const listener of [...(listeners.get(`change:${name}`) ?? [])]) listener();
    },
    save_changes() {},
    send(message) {
      this.sent.push(message);
    },
    on(event, listener) {
      listeners.set(event, [...(listeners.get(event) ?? []), listener]);
    },
    off(event, listener) {
      listeners.set(event, (listeners.get(event) ?? []).filter((known) => known !== listener));
    },
  };
}

/** A view that draws its model's `text` and, on a click, sends `ask`. */
const echo = {
  render({ model, el }) {
    const draw = () => {
      el.textContent = `${model.offline ? "page" : "kernel"}: ${model.get("text")}`;
    };
    model.on("change:text", draw);
    el.addEventListener("click", () => model.send({ ask: true }));
    draw();
  },
};

test("an output draws over its live widget once that widget's model is offered", () => {
  const key = `k${Math.random()}`;
  const host = output({ state: { text: "saved", link: key }, link: key });
  mount(host, echo);
  const el = host.querySelector(".jdw-standalone-live");
  assert.equal(el.textContent, "page: saved");
  const live = liveModel({ text: "live", link: key });
  offerLink(live);
  assert.equal(el.textContent, "kernel: live");
  assert.equal(el.dataset.linked, "true");
  el.click();
  assert.deepEqual(live.sent, [{ ask: true }]);
  live.set("text", "newer");
  assert.equal(el.textContent, "kernel: newer");
});

test("an output made after its widget was offered links at once", () => {
  const key = `k${Math.random()}`;
  offerLink(liveModel({ text: "live", link: key }));
  const host = output({ state: { text: "saved", link: key }, link: key });
  mount(host, echo);
  assert.equal(host.querySelector(".jdw-standalone-live").textContent, "kernel: live");
});

test("an output whose widget is gone, or closed, stays page-only", () => {
  const key = `k${Math.random()}`;
  const controller = new AbortController();
  offerLink(liveModel({ text: "live", link: key }), controller.signal);
  controller.abort();
  const host = output({ state: { text: "saved", link: key }, link: key });
  mount(host, echo);
  assert.equal(host.querySelector(".jdw-standalone-live").textContent, "page: saved");
});

test("a rewritten output's old view stops listening to the live model", () => {
  const key = `k${Math.random()}`;
  const live = liveModel({ text: "live", link: key });
  offerLink(live);
  const old = output({ state: { text: "saved", link: key }, link: key });
  mount(old, echo);
  old.remove();
  const fresh = output({ state: { text: "saved", link: key }, link: key });
  mount(fresh, echo);
  live.set("text", "newer");
  assert.equal(live.listeners.get("change:text").length, 1);
  assert.equal(fresh.querySelector(".jdw-standalone-live").textContent, "kernel: newer");
});
