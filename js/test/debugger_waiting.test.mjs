import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import widget from "../debugger.js";
import { noticeTitle, runningCell, watchForUnshownWait } from "../debugger_waiting.js";
import { installDom, outputElement } from "./fake_dom.mjs";
import { FakeModel } from "./fake_model.mjs";

let dom;
beforeEach(() => {
  dom = installDom();
});
afterEach(() => dom.restore());

function view(status = "waiting", transcript = []) {
  return {
    status,
    header: {
      file: "In[3]",
      line: 5,
      function: "inner",
      thread: "main thread",
      batch: null,
      stop: "breakpoint",
      location: "inner (In[3]:5)",
    },
    frames: [
      { function: "inner", file: "In[3]", line: 5, internal: false },
      { function: "<module>", file: "In[4]", line: 1, internal: false },
      { function: "run_code", file: "interactiveshell.py", line: 3577, internal: true },
    ],
    selected: 0,
    show_internal: false,
    internal_count: 0,
    source: { first: 4, current: 1, lines: ["y = x", "breakpoint()"] },
    locals: [{ name: "y", type: "float", batched: false, repr: "6.0" }],
    transcript,
    history: [],
  };
}

/** Timers run by hand: `run()` fires the pending ones. */
function manualTimers() {
  const pending = new Map();
  let next = 0;
  return {
    setTimeout(callback) {
      next += 1;
      pending.set(next, callback);
      return next;
    },
    clearTimeout(id) {
      pending.delete(id);
    },
    run() {
      const due = [...pending.values()];
      pending.clear();
      for (const callback of due) callback();
    },
    get count() {
      return pending.size;
    },
  };
}

function restored(state = view()) {
  const model = new FakeModel("DebuggerModel", { view: state }, { messageType: "DebuggerMessage" });
  const timers = manualTimers();
  const stop = watchForUnshownWait(model, widget.render, { timers, page: dom.document });
  return { model, timers, stop };
}

const notices = () => dom.document.body.querySelectorAll(".jaxdbg-waiting-notice");

test("the notice names the cell that runs, where the breakpoint waits, and how it ended", () => {
  assert.equal(noticeTitle(view()), "A breakpoint is waiting in cell In[4], at inner (In[3]:5)");
  assert.equal(noticeTitle({ ...view(), frames: [] }), "A breakpoint is waiting at inner (In[3]:5)");
  assert.equal(runningCell([{ file: "train.py" }, { file: "In[12]" }, { file: "runpy.py" }]), "In[12]");
  assert.equal(runningCell(undefined), null);
  assert.equal(noticeTitle(view("continue")), "The breakpoint at inner (In[3]:5) ended: continued");
  assert.equal(noticeTitle(undefined), "The breakpoint ended: ");
});

test("a waiting debugger no view draws is drawn, live, in a notice after the grace", () => {
  const { model, timers, stop } = restored();
  assert.equal(notices().length, 0, "nothing before the grace has passed");
  timers.run();
  const [notice] = notices();
  assert.ok(notice);
  assert.equal(
    notice.querySelector(".jaxdbg-waiting-notice-title").textContent,
    "A breakpoint is waiting in cell In[4], at inner (In[3]:5)",
  );
  assert.equal(notice.querySelector(".jaxdbg-waiting-notice-why").hidden, false);
  const continueButton = notice.querySelector('.jaxdbg-dbg-button[data-command="c"]');
  assert.equal(continueButton.disabled, false);
  continueButton.click();
  assert.deepEqual(model.sent.at(-1), { type: "command", line: "c" });

  model.update("view", view("continue", [{ command: "c", output: "", error: false }]));
  assert.equal(
    notice.querySelector(".jaxdbg-waiting-notice-title").textContent,
    "The breakpoint at inner (In[3]:5) ended: continued",
  );
  assert.equal(notice.querySelector(".jaxdbg-waiting-notice-why").hidden, true);
  timers.run();
  assert.equal(notices().length, 1, "one notice per debugger");

  notice.querySelector(".jaxdbg-waiting-notice-close").click();
  assert.equal(dom.document.body.querySelectorAll(".jaxdbg-waiting-notices").length, 0);
  stop();
  assert.equal(model.listenerCount(), 0, "nothing left listening once closed and stopped");
});

test("a debugger an output draws gets no notice, however often it changes", () => {
  const { model, timers, stop } = restored();
  const close = widget.render({ model, el: outputElement(dom.document) });
  model.update("view", view("waiting", [{ command: "p y", output: "6.0", error: false }]));
  timers.run();
  model.update("view", view("waiting", [{ command: "p 1", output: "1", error: false }]));
  timers.run();
  assert.equal(notices().length, 0);
  close();
  stop();
  assert.equal(timers.count, 0, "stopping clears the pending check");
});

test("an output drawn late closes the notice of the same debugger only", () => {
  const first = restored();
  const second = restored(view("waiting", [{ command: "p y", output: "6.0", error: false }]));
  first.timers.run();
  second.timers.run();
  assert.equal(notices().length, 2);
  const close = widget.render({ model: first.model, el: outputElement(dom.document) });
  assert.equal(notices().length, 1);
  assert.equal(
    notices()[0].querySelector(".jaxdbg-dbg-transcript").textContent.includes("p y"),
    true,
  );
  close();
  first.stop();
  second.stop();
  assert.equal(notices().length, 0, "stopping closes the notice");
});

test("an ended debugger brought back with the page gets no notice", () => {
  const { timers, stop } = restored(view("continue"));
  timers.run();
  assert.equal(notices().length, 0);
  stop();
});
