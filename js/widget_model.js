// What every widget does with its anywidget model the same way: listen to trait changes (and
// stop, in the cleanup `render` returns) and toggle a picked index trait (-1: none picked).

/** @import { AnyModel } from "@anywidget/types" */

/**
 * anywidget's model as a view sees it, typed by the widget's schema so that `tsc` checks every
 * trait a view reads or sets against `T` (the widget's `...Model` typedef) and every message it
 * sends against `Message` (never, for a widget that sends none). It has anywidget's `get`, `set`,
 * `on`, `off`, `send` and `save_changes`, not the widget manager, which no view uses and a model
 * kept in the page (memory_model.js's `localModel`) lacks; `offline` marks a model no kernel
 * answers. `Uses` narrows it to the members a view uses where a page hands it a model with fewer
 * (nans.js draws the debugger over its report's model, which only reads and sends).
 * The type opens with `import(...)`, which the tests' schema readers skip, and is the same for
 * every `T` (`extends unknown` always holds).
 * @template {Object<string, *>} T
 * @template [Message=never]
 * @template {"get" | "set" | "on" | "off" | "send" | "save_changes" | "offline"} [Uses="get" | "set" | "on" | "off" | "send" | "save_changes" | "offline"]
 * @typedef {import("@anywidget/types").AnyModel<T> extends unknown ? Pick<Omit<AnyModel<T>, "widget_manager" | "send"> & {send: (message: Message) => void, offline?: boolean}, Uses> : never} Model
 */

/**
 * Calls `model.on` for each [event, listener] pair, in order; returns the function that calls
 * `model.off` for each, which a view's `render` returns as its cleanup.
 * @param {{on(event: string, listener: () => void): void, off(event: string, listener: () => void): void}} model
 * @param {Array<[string, () => void]>} listeners
 * @returns {() => void}
 */
export function listen(model, listeners) {
  for (const [event, listener] of listeners) model.on(event, listener);
  return () => {
    for (const [event, listener] of listeners) model.off(event, listener);
  };
}

/**
 * Picks `index` in the trait `name`, or picks none (-1) when `index` was already picked, and
 * saves: a second click on a picked item closes it.
 * @param {{get(name: string): *, set(name: string, value: *): void, save_changes(): void}} model
 * @param {string} name
 * @param {number} index
 */
export function togglePick(model, name, index) {
  model.set(name, model.get(name) === index ? -1 : index);
  model.save_changes();
}
