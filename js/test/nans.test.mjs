import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import widget, { OFFLINE_DEBUG } from "../nans.js";
import { installDom, outputElement } from "./fake_dom.mjs";
import { FakeModel } from "./fake_model.mjs";

let dom;
beforeEach(() => {
  dom = installDom();
});
afterEach(() => dom.restore());

function reportView(debuggable = true) {
  return {
    function: "loss",
    headline: "first non-finite value from log at line 5 in body",
    arguments: [],
    origins: [
      {
        heading: "first non-finite value: log",
        facts: ["where: scan iteration 3", "output out0 f32[]: 1 -Inf at ()"],
        source: {
          filename: "demo.py",
          function: "body",
          lines: [
            { lineno: 4, text: "def body(c, x):", marked: false },
            { lineno: 5, text: "    y = jnp.log(c - x)", marked: true },
          ],
        },
      },
    ],
    checked: 12,
    skipped: ["demo.py:6 in body: jdw.print(x)"],
    debuggable,
  };
}

function draw(view, debuggerView = null) {
  const model = new FakeModel(
    "NonfiniteModel",
    { view, debugger: debuggerView },
    { messageType: "NonfiniteMessage" },
  );
  const el = outputElement(dom.document);
  const close = widget.render({ model, el });
  return { model, el, close };
}

function sessionView(status = "waiting") {
  return {
    status,
    header: { file: "demo.py", line: 5, function: "body", thread: "main thread", batch: null, stop: "breakpoint #1", location: "body (demo.py:5)" },
    frames: [{ function: "body", file: "demo.py", line: 5, internal: false }],
    selected: 0,
    show_internal: false,
    internal_count: 0,
    source: { first: 4, current: 1, lines: ["def body(c, x):", "    y = jnp.log(c - x)"] },
    locals: [{ name: "in0", type: "float32", batched: false, repr: "0.0" }],
    transcript: status === "waiting" ? [] : [{ command: "p in0", output: "array(0., dtype=float32)", error: false }],
    history: [],
  };
}

test("the origin's line is marked and the facts are listed", () => {
  const { el } = draw(reportView());
  const marked = el.querySelectorAll(".jdw-nan-mark");
  assert.equal(marked.length, 1);
  assert.match(marked[0].textContent, /^ {4}5 > {5}y = jnp\.log\(c - x\)$/);
  assert.match(el.textContent, /scan iteration 3/);
  assert.match(el.textContent, /1 debug print\/callback call\(s\) skipped/);
});

test("the button sends debug, and the opened session is drawn by the debugger's view", () => {
  const { model, el, close } = draw(reportView());
  const button = el.querySelector(".jdw-nan-debug");
  assert.equal(button.hidden, false);
  assert.equal(el.querySelector(".jaxdbg-debugger"), null);
  button.click();
  assert.deepEqual(model.sent, [{ type: "debug" }]);
  model.update("debugger", sessionView());
  assert.ok(el.querySelector(".jaxdbg-debugger"));
  assert.equal(button.disabled, true);
  assert.deepEqual(model.sent.at(-1), { type: "rendered" });
  const frame = el.querySelector(".jaxdbg-dbg-frame");
  frame.click();
  assert.deepEqual(model.sent.at(-1), { type: "frame", index: 0 });
  model.update("debugger", sessionView("continue"));
  assert.equal(el.querySelectorAll(".jaxdbg-debugger").length, 1);
  assert.match(el.textContent, /array\(0\., dtype=float32\)/);
  assert.equal(button.disabled, false);
  close();
  assert.equal(model.listenerCount(), 0);
});

test("a finite report has no debugger button", () => {
  const { el } = draw(reportView(false));
  assert.equal(el.querySelector(".jdw-nan-debug").hidden, true);
});

test("a saved report with no kernel keeps its button off and says why", () => {
  const model = new FakeModel("NonfiniteModel", { view: reportView(), debugger: null }, { messageType: "NonfiniteMessage" });
  model.offline = true;
  const el = outputElement(dom.document);
  widget.render({ model, el });
  const button = el.querySelector(".jdw-nan-debug");
  assert.equal(button.hidden, false);
  assert.equal(button.disabled, true);
  assert.equal(button.title, OFFLINE_DEBUG);
});
