// A widget drawn in a plain text/html output, with no kernel and no widget manager. The output
// holds the widget's static twin, its state as JSON and a script that calls `mount`; the view
// then runs over a model kept in the page. Where scripts do not run (untrusted notebooks,
// GitHub) the static twin stays, and nothing can be "not found" after a restart or reload.
import { localModel } from "./memory_model.js";

/**
 * The JSON an output carries: the synced traits, and for a trait whose change the kernel would
 * answer by filling another (the memory map's `leaf` -> `leaf_view`), that trait's name and
 * the value for every index, computed when the output was made.
 * @typedef {Object} StandaloneState
 * @property {Object<string, *>} state
 * @property {Object<string, [string, Object<string, *>]>} [derived]
 */

/** Draws `widget` in `host` from the state `host` carries, in place of its static twin. */
export function mount(host, widget) {
  const data = host.querySelector('script[type="application/json"]');
  /** @type {StandaloneState} */
  const { state, derived = {} } = JSON.parse(data.textContent);
  const model = localModel(state);
  for (const [trait, [target, values]] of Object.entries(derived)) {
    model.on(`change:${trait}`, () => model.set(target, values[String(model.get(trait))] ?? {}));
  }
  const el = document.createElement("div");
  el.className = "jdw-standalone-live";
  host.appendChild(el);
  try {
    widget.render({ model, el });
  } catch (error) {
    el.remove();
    throw error;
  }
  host.querySelector(".jdw-standalone-static")?.remove();
  return model;
}
