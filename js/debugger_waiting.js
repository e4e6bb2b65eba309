// A page reloaded while a breakpoint waits, without the notebook saved since the debugger
// showed, has no output that draws it, yet the debugger's model comes back with the page's
// widgets. Once a waiting debugger has gone a short while with no view on this page drawing
// it, a notice pinned to the page says a breakpoint waits and draws the live debugger inside.
import { frameLocation, STATUS_TEXT } from "./debugger_format.js";
import { element } from "./dom.js";

/** How long a waiting debugger may go undrawn before the notice shows it (ms). */
export const UNSHOWN_GRACE_MS = 2500;
const NOTICE = "jaxdbg-waiting-notice";
const STACK = "jaxdbg-waiting-notices";

// View states some view on this page drew. One model's state object is the same whichever
// proxy reads it, so it also tells which model a view or a notice draws.
const drawn = new WeakSet();
const notices = new Set();

/** The notebook cell whose run stopped: the outermost frame in cell code, e.g. `In[4]`. */
export function runningCell(frames) {
  const cells = (frames ?? []).filter((frame) => /^In\[\d+\]$/.test(frame.file ?? ""));
  return cells.at(-1)?.file ?? null;
}

/** One line for the notice: which cell's breakpoint waits and where, or how it ended. */
export function noticeTitle(view) {
  const where = frameLocation(view?.header);
  const at = where ? ` at ${where}` : "";
  if (view?.status === "waiting") {
    const cell = runningCell(view.frames);
    return `A breakpoint is waiting${cell ? ` in cell ${cell},` : ""}${at}`;
  }
  return `The breakpoint${at} ended: ${STATUS_TEXT[view?.status] ?? view?.status ?? ""}`;
}

/**
 * Remember that the view in `el` draws `model`'s state; the watcher carries the mark on to each
 * later state. A view drawn in the notebook closes the notice of the same debugger.
 */
export function markDrawn(model, el) {
  const view = model.get("view");
  if (!view) {
    return;
  }
  drawn.add(view);
  if (el?.closest?.(`.${NOTICE}`)) {
    return;
  }
  for (const notice of [...notices]) {
    if (notice.model.get("view") === view) {
      notice.close();
    }
  }
}

/**
 * From the model's creation on, show the notice when the debugger waits and no view on the page
 * has drawn its state `delay` ms after it arrived; the returned function stops watching.
 */
export function watchForUnshownWait(
  model,
  render,
  { delay = UNSHOWN_GRACE_MS, timers = globalThis, page = globalThis.document } = {},
) {
  let notice = null;
  let timer = null;
  let last = model.get("view");
  const check = () => {
    timer = null;
    const view = model.get("view");
    if (!notice && view?.status === "waiting" && !drawn.has(view)) {
      notice = openNotice(model, render, page, () => {
        notice = null;
      });
    }
  };
  const schedule = () => {
    if (!notice && timer === null) {
      timer = timers.setTimeout(check, delay);
    }
  };
  const changed = () => {
    const next = model.get("view");
    if (drawn.has(last) && next) {
      drawn.add(next); // the views that drew the last state draw this one too
    }
    last = next;
    schedule();
  };
  model.on("change:view", changed);
  schedule();
  return () => {
    model.off("change:view", changed);
    if (timer !== null) {
      timers.clearTimeout(timer);
    }
    notice?.close();
  };
}

function openNotice(model, render, page, onClose) {
  let stack = page.body.querySelector(`.${STACK}`);
  if (!stack) {
    stack = element("div", STACK);
    page.body.appendChild(stack);
  }
  const box = element("section", NOTICE);
  box.setAttribute("role", "status");
  const bar = element("div", `${NOTICE}-bar`);
  const title = element("span", `${NOTICE}-title`);
  const close = element("button", `${NOTICE}-close`, "×");
  close.title = "Close this notice (the breakpoint keeps waiting)";
  const why = element(
    "div",
    `${NOTICE}-why`,
    "No output on this page shows it (the page was reloaded without saving).",
  );
  const body = element("div", `${NOTICE}-body`);
  bar.append(title, close);
  box.append(bar, why, body);
  stack.appendChild(box);
  const retitle = () => {
    const view = model.get("view");
    title.textContent = noticeTitle(view);
    why.hidden = view?.status !== "waiting";
  };
  model.on("change:view", retitle);
  retitle();
  const cleanup = render({ model, el: body });
  const entry = {
    model,
    close() {
      notices.delete(entry);
      model.off("change:view", retitle);
      if (typeof cleanup === "function") {
        cleanup();
      }
      box.remove();
      if (stack.childNodes.length === 0) {
        stack.remove();
      }
      onClose();
    },
  };
  close.addEventListener("click", () => entry.close());
  notices.add(entry);
  return entry;
}
