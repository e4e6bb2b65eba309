import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import widget, { KERNEL_GONE } from "../debugger.js";
import { STATUS_TEXT } from "../debugger_format.js";
import { FakeEvent, installDom, outputElement } from "./fake_dom.mjs";
import { FakeModel } from "./fake_model.mjs";
import { assertEveryControlKeepsItsKeys } from "./shortcuts.mjs";
import { problems } from "./schema.mjs";

let dom;
beforeEach(() => {
  dom = installDom();
});
afterEach(() => dom.restore());

function waitingView(overrides = {}) {
  return {
    status: "waiting",
    header: {
      file: "model.py",
      line: 12,
      function: "step",
      thread: "worker 3",
      batch: null,
      stop: "breakpoint #2",
      location: "step (model.py:12)",
    },
    frames: [
      { function: "step", file: "model.py", line: 12, internal: false },
      { function: "run", file: "train.py", line: 31, internal: false },
    ],
    selected: 0,
    show_internal: false,
    internal_count: 1,
    source: {
      first: 10,
      current: 2,
      lines: ["<span class=\"k\">def</span> step(x):", "    y = x", "    breakpoint()"],
    },
    locals: [
      {
        name: "x",
        type: "ndarray",
        batched: false,
        summary: { shape: [3], dtype: "float32", min: 1, max: 2, nan: 1, preview: "[1., nan, 2.]" },
      },
      { name: "y", type: "float", batched: false, repr: "6.0" },
    ],
    transcript: [
      { command: "p y", output: "6.0", error: false },
      { command: "p z", output: "*** NameError: z", error: true },
    ],
    history: ["p y", "u", "p z"],
    ...overrides,
  };
}

function shardView() {
  return waitingView({
    shards: {
      expected: 2,
      arrived: 2,
      waiting: 2,
      selected: 0,
      devices: [
        { label: "CPU 0 (x=0)", index: 0, state: "waiting" },
        { label: "CPU 1 (x=1)", index: 1, state: "waiting", element: 1 },
      ],
      compare: {
        expression: "y.sum()",
        rows: [
          { value: "3.0", error: false, differs: false },
          { value: "4.0", error: false, differs: true },
        ],
        differing: 1,
        groups: [
          { shards: "shard 0", count: 1, value: "3.0", error: false, differs: false },
          { shards: "shard 1", count: 1, value: "4.0", error: false, differs: true },
        ],
        verdict: "shard 1 differs: 4.0, 1 other 3.0",
        pictures: null,
      },
    },
  });
}

const TILE_PNG = "data:image/png;base64,iVBORw0KGgo=";

function pictureView() {
  const view = shardView();
  view.shards.compare.pictures = {
    scale: { cmap: "viridis", low: "0", high: "10", stops: ["#440154", "#fde725"], text: "one scale: min 0 … max 10" },
    tiles: [
      { position: 0, label: "CPU 0 (x=0)", count: 1, png: TILE_PNG, summary: "float32[4, 4], min 0, max 1", differs: false },
      { position: 1, label: "shards 1–3", count: 3, png: TILE_PNG, summary: "float32[4, 4], min 0, max 10", differs: true },
    ],
    more: "2 more groups (5 shards)",
  };
  return view;
}

function draw(view) {
  const model = new FakeModel("DebuggerModel", { view }, { messageType: "DebuggerMessage" });
  const el = outputElement(dom.document);
  const close = widget.render({ model, el });
  return { model, el, close, root: el.querySelector(".jaxdbg-debugger") };
}

function key(target, name, init = {}) {
  const event = new FakeEvent("keydown", { key: name, ...init });
  target.dispatchEvent(event);
  return event;
}

test("render draws header, frames, source, locals and transcript, then says it rendered", () => {
  const { model, root } = draw(waitingView());
  assert.deepEqual(model.sent, [{ type: "rendered" }]);
  assert.equal(root.dataset.status, "waiting");
  assert.equal(root.querySelector(".jaxdbg-dbg-location").textContent, "step (model.py:12)");
  assert.equal(
    root.querySelector(".jaxdbg-dbg-details").textContent,
    "worker 3 · breakpoint #2 · waiting",
  );
  const frames = root.querySelectorAll(".jaxdbg-dbg-frame");
  assert.deepEqual(frames.map((f) => f.textContent), ["stepmodel.py:12", "runtrain.py:31"]);
  assert.ok(frames[0].classList.contains("jaxdbg-selected"));
  const lines = root.querySelectorAll(".jaxdbg-dbg-line");
  const numbers = lines.map((l) => l.querySelector(".jaxdbg-dbg-lineno").textContent);
  assert.deepEqual(numbers, ["10", "11", "12"]);
  assert.ok(lines[2].classList.contains("jaxdbg-current"));
  const code = lines[0].querySelector(".jaxdbg-dbg-code");
  assert.equal(code.innerHTML, '<span class="k">def</span> step(x):', "kernel-escaped HTML");
  const rows = root.querySelectorAll(".jaxdbg-dbg-locals tr");
  assert.equal(rows[0].querySelector(".jaxdbg-dbg-value").textContent,
    "float32[3] min=1 max=2 NAN=1[1., nan, 2.]");
  assert.ok(rows[0].classList.contains("jaxdbg-nonfinite"));
  assert.equal(rows[1].querySelector(".jaxdbg-dbg-value").textContent, "6.0");
  const outputs = root.querySelectorAll(".jaxdbg-dbg-output");
  assert.deepEqual(outputs.map((o) => o.classList.contains("jaxdbg-error")), [false, true]);
  assert.equal(root.querySelector(".jaxdbg-dbg-internal").hidden, false);
  assert.equal(root.querySelector(".jaxdbg-dbg-shards").hidden, true);
});

test("a frame click sends its index, and the kernel's next view redraws the selection", () => {
  const { model, root } = draw(waitingView());
  root.querySelectorAll(".jaxdbg-dbg-frame")[1].click();
  assert.deepEqual(model.sent.at(-1), { type: "frame", index: 1 });
  assert.ok(root.classList.contains("jaxdbg-busy"));
  model.update("view", waitingView({ selected: 1 }));
  assert.ok(!root.classList.contains("jaxdbg-busy"));
  const frames = root.querySelectorAll(".jaxdbg-dbg-frame");
  assert.deepEqual(frames.map((f) => f.classList.contains("jaxdbg-selected")), [false, true]);
});

test("the expression box, command line, buttons and keys send jdb commands", () => {
  const { model, root } = draw(waitingView());
  const expression = root.querySelector(".jaxdbg-dbg-expression");
  expression.value = "x + 1";
  key(expression, "Enter");
  assert.deepEqual(model.sent.at(-1), { type: "command", line: "p x + 1" });
  assert.equal(expression.value, "");
  key(expression, "ArrowUp");
  assert.equal(expression.value, "z", "the expression history holds p's expressions");
  const command = root.querySelector(".jaxdbg-dbg-command-line");
  key(command, "ArrowUp");
  key(command, "ArrowUp");
  assert.equal(command.value, "u");
  key(command, "Enter");
  assert.deepEqual(model.sent.at(-1), { type: "command", line: "u" });
  root.querySelector('.jaxdbg-dbg-buttons [data-command="ca"]').click();
  assert.deepEqual(model.sent.at(-1), { type: "command", line: "ca" });
  const pressed = key(root, "c");
  assert.ok(pressed.defaultPrevented);
  assert.deepEqual(model.sent.at(-1), { type: "command", line: "c" });
  key(root, "c", { ctrlKey: true });
  assert.equal(model.sent.length, 5, "ctrl+c is not a shortcut");
});

test("typed keys stay in the widget and / focuses the expression box", () => {
  const { root } = draw(waitingView());
  let reachedPage = 0;
  dom.document.body.addEventListener("keydown", () => {
    reachedPage += 1;
  });
  const expression = root.querySelector(".jaxdbg-dbg-expression");
  key(expression, "c");
  assert.equal(reachedPage, 0);
  key(root, "/");
  assert.equal(dom.document.activeElement, expression);
});

test("a finished view is frozen: inputs disabled, nothing sent", () => {
  const { model, root } = draw(waitingView());
  model.update("view", waitingView({ status: "continue" }));
  assert.ok(root.classList.contains("jaxdbg-frozen"));
  assert.equal(root.querySelector(".jaxdbg-dbg-expression").disabled, true);
  assert.ok(root.querySelectorAll(".jaxdbg-dbg-buttons button").every((b) => b.disabled));
  root.querySelectorAll(".jaxdbg-dbg-frame")[1].click();
  key(root, "c");
  assert.deepEqual(model.sent, [{ type: "rendered" }]);
  assert.match(root.querySelector(".jaxdbg-dbg-details").textContent, /continued$/);
});

test("an ended view draws the cell's output after continue: text, left-out count, Out[n]", () => {
  const { model, root } = draw(waitingView());
  const pane = root.querySelector(".jaxdbg-dbg-cell-output");
  assert.equal(pane.hidden, true, "no copied output while the breakpoint waits");
  model.update(
    "view",
    waitingView({
      status: "continue",
      cell_output: {
        chunks: [
          { kind: "stdout", text: "after the breakpoint\n" },
          { kind: "stderr", text: "a warning\n" },
        ],
        omitted: 12345,
        result: { count: 7, text: "'main result'" },
      },
    }),
  );
  assert.equal(pane.hidden, false);
  assert.match(pane.textContent, /^cell output after continue:… 12,345 earlier characters left out/);
  const texts = pane.querySelectorAll(".jaxdbg-dbg-cell-text").map((node) => node.textContent);
  assert.deepEqual(texts, ["after the breakpoint\n", "a warning\n", "'main result'"]);
  assert.ok(pane.querySelector(".jaxdbg-dbg-cell-stderr").classList.contains("jaxdbg-error"));
  assert.equal(pane.querySelector(".jaxdbg-dbg-cell-prompt").textContent, "Out[7]:");
  assert.deepEqual(model.sent, [{ type: "rendered" }]);
});

test("the batch box and the internal-frames box send their messages", () => {
  const batched = waitingView();
  batched.header = { ...batched.header, batch: { index: 0, size: 3, element: 4 } };
  const { model, root } = draw(batched);
  const label = root.querySelector(".jaxdbg-dbg-batch");
  assert.equal(label.hidden, false);
  const input = root.querySelector(".jaxdbg-dbg-batch-input");
  assert.equal(input.max, "2");
  input.value = "2";
  input.dispatchEvent(new FakeEvent("change"));
  assert.deepEqual(model.sent.at(-1), { type: "batch", index: 2 });
  const internal = root.querySelector(".jaxdbg-dbg-internal input");
  internal.checked = true;
  internal.dispatchEvent(new FakeEvent("change"));
  assert.deepEqual(model.sent.at(-1), { type: "internal", show: true });
  assert.match(root.querySelector(".jaxdbg-dbg-details").textContent, /batch 0 of 3 \(element 4\)/);
});

test("a shard session draws the device selector and compare table and sends shard messages", () => {
  const { model, root } = draw(shardView());
  const select = root.querySelector(".jaxdbg-dbg-device-select");
  assert.deepEqual(select.children.map((o) => o.textContent),
    ["shard 0 · CPU 0 (x=0)", "shard 1 · CPU 1 (x=1) · element 1"]);
  const summary = root.querySelector(".jaxdbg-dbg-shard-summary");
  assert.equal(summary.textContent, "2 of 2 shards · 2 waiting");
  select.value = "1";
  select.dispatchEvent(new FakeEvent("change"));
  assert.deepEqual(model.sent.at(-1), { type: "device", index: 1 });
  root.querySelector('[data-command="continue-device"]').click();
  assert.deepEqual(model.sent.at(-1), { type: "command", line: "c 1" });
  const compare = root.querySelector(".jaxdbg-dbg-compare-input");
  compare.value = "  y.max() ";
  key(compare, "Enter");
  assert.deepEqual(model.sent.at(-1), { type: "compare", expression: "y.max()" });
  const rows = root.querySelectorAll(".jaxdbg-dbg-compare tbody tr");
  assert.deepEqual(rows.map((r) => r.classList.contains("jaxdbg-differs")), [true, false]);
  assert.equal(root.querySelector(".jaxdbg-dbg-compare caption").textContent, "compare y.sum()");
  assert.equal(root.querySelector(".jaxdbg-dbg-compare-verdict").textContent,
    "shard 1 differs: 4.0, 1 other 3.0");
  rows[0].click();
  assert.deepEqual(model.sent.at(-1), { type: "device", index: 1 });
  const search = root.querySelector(".jaxdbg-dbg-device-search");
  search.value = "cpu 1";
  key(search, "Enter");
  assert.deepEqual(model.sent.at(-1), { type: "device", index: 1 });
  const sent = model.sent.length;
  search.value = "GPU 7";
  key(search, "Enter");
  assert.equal(model.sent.length, sent, "an unknown name sends nothing");
  assert.equal(search.classList.contains("jaxdbg-error"), true);
});

test("a compare of arrays draws its pictures on one stated scale, and a click selects the shard", () => {
  const { model, root } = draw(pictureView());
  const strip = root.querySelector(".jaxdbg-dbg-compare-pictures");
  assert.equal(strip.hidden, false);
  assert.equal(strip.getAttribute("role"), "group");
  assert.match(root.querySelector(".jaxdbg-dbg-compare-scale").textContent, /^one scale: min 0 … max 10/);
  const bar = root.querySelector(".jaxdbg-dbg-compare-scale-bar");
  assert.equal(bar.style.background, "linear-gradient(to right, #440154, #fde725)");
  const tiles = root.querySelectorAll(".jaxdbg-dbg-compare-tile");
  assert.deepEqual(tiles.map((t) => t.querySelector(".jaxdbg-dbg-compare-tile-label").textContent),
    ["CPU 0 (x=0)", "shards 1–3 (3)"]);
  assert.deepEqual(tiles.map((t) => t.classList.contains("jaxdbg-differs")), [false, true]);
  assert.deepEqual(tiles.map((t) => t.getAttribute("aria-pressed")), ["true", "false"]);
  assert.equal(tiles[1].getAttribute("aria-label"), "select shards 1–3: float32[4, 4], min 0, max 10");
  assert.equal(tiles[0].querySelector("img").src, TILE_PNG);
  assert.equal(root.querySelector(".jaxdbg-dbg-compare-more").textContent, "2 more groups (5 shards)");
  tiles[1].click();
  assert.deepEqual(model.sent.at(-1), { type: "device", index: 1 });
  assert.equal(root.querySelectorAll(".jaxdbg-dbg-compare tbody tr").length, 2, "the table stays");
});

test("a compare without pictures draws the table only", () => {
  const { root } = draw(shardView());
  const strip = root.querySelector(".jaxdbg-dbg-compare-pictures");
  assert.equal(strip.hidden, true);
  assert.equal(strip.querySelectorAll(".jaxdbg-dbg-compare-tile").length, 0);
});

test("a continued shard cannot be continued again, and closing drops the listener", () => {
  const view = shardView();
  view.shards.devices[0].state = "continue";
  const { model, root, close } = draw(view);
  assert.equal(root.querySelector('[data-command="continue-device"]').disabled, true);
  const first = root.querySelector(".jaxdbg-dbg-device-select").children[0];
  assert.match(first.textContent, /continued$/);
  assert.equal(model.listenerCount(), 2); // the view and the comm's liveness
  close();
  assert.equal(model.listenerCount(), 0);
});

test("every status the header has words for is a declared Status", () => {
  for (const status of Object.keys(STATUS_TEXT)) assert.deepEqual(problems(status, "Status"), []);
  assert.notDeepEqual(problems("paused", "Status"), []);
});

test("every focusable control keeps its keys from the notebook's shortcuts: a shard session's device selector, search box and buttons", () => {
  const { root } = draw(shardView());
  assertEveryControlKeepsItsKeys(root, { atLeast: 2 });
});

test("once the kernel is gone the waiting widget says so, disables its controls and sends nothing", () => {
  const { model, root } = draw(shardView());
  const sent = model.sent.length;
  model.listeners.get("comm_live_update").forEach((listener) => listener());
  assert.equal(root.dataset.status, "kernel-gone");
  assert.equal(root.querySelector(".jaxdbg-dbg-details").textContent, KERNEL_GONE);
  const controls = [...root.querySelectorAll("button"), ...root.querySelectorAll("input"),
    ...root.querySelectorAll("select")].filter((node) => !node.hidden);
  assert.ok(controls.length >= 5);
  for (const node of root.querySelectorAll(".jaxdbg-dbg-button")) assert.equal(node.disabled, true);
  assert.equal(root.querySelector(".jaxdbg-dbg-device-select").disabled, true);
  root.querySelector('.jaxdbg-dbg-button[data-command="c"]').click();
  key(root, "c");
  assert.equal(model.sent.length, sent);
});

test("a send that throws (its comm is dead) turns the widget off instead of escaping", () => {
  const { model, root } = draw(waitingView());
  model.send = () => {
    throw new Error("Cannot send");
  };
  root.querySelector('.jaxdbg-dbg-button[data-command="c"]').click();
  assert.equal(root.dataset.status, "kernel-gone");
  assert.equal(root.querySelector('.jaxdbg-dbg-button[data-command="c"]').disabled, true);
});

test("an ended session's record is left as it is when its comm goes", () => {
  const { model, root } = draw(waitingView({ status: "continue" }));
  model.listeners.get("comm_live_update").forEach((listener) => listener());
  assert.equal(root.dataset.status, "continue");
});
