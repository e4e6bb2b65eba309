// A widget drawn in a plain text/html output, with no kernel and no widget manager. The output
// holds the widget's static twin, its state as JSON and a script that calls `mount`; the view
// then runs over a model kept in the page. Where scripts do not run (untrusted notebooks,
// GitHub) the static twin stays, and nothing can be "not found" after a restart or reload.
import { whenLinked } from "./live_link.js";
import { localModel } from "./memory_model.js";

/**
 * The JSON an output carries: the synced traits, and for a trait whose change the kernel would
 * answer by filling another (the memory map's `leaf` -> `leaf_view`), that trait's name and
 * the value for every index, computed when the output was made.
 * `link` names the live widget the kernel opened beside the output (see live_link.js).
 * @typedef {Object} StandaloneState
 * @property {Object<string, *>} state
 * @property {Object<string, [string, Object<string, *>]>} [derived]
 * @property {string} [link]
 */

/**
 * Draws `widget` in `host` from the state `host` carries, in place of its static twin; once the
 * live widget named by the output's `link` is offered, draws again over it.
 */
export function mount(host, widget) {
  const data = host.querySelector('script[type="application/json"]');
  /** @type {StandaloneState} */
  const { state, derived = {}, link } = JSON.parse(data.textContent);
  const model = localModel(state);
  for (const [trait, [target, values]] of Object.entries(derived)) {
    model.on(`change:${trait}`, () => model.set(target, values[String(model.get(trait))] ?? {}));
  }
  const el = document.createElement("div");
  el.className = "jdw-standalone-live";
  host.appendChild(el);
  let cleanup;
  try {
    cleanup = widget.render({ model, el });
  } catch (error) {
    el.remove();
    throw error;
  }
  host.querySelector(".jdw-standalone-static")?.remove();
  if (link) {
    whenLinked(link, (live) => {
      if (typeof cleanup === "function") cleanup();
      el.replaceChildren();
      el.dataset.linked = "true";
      cleanup = widget.render({ model: attached(live, el), el });
    });
  }
  return model;
}

/**
 * The live model as one output's view sees it: a listener is dropped at its first event after
 * `el` left the page (its output was rewritten or cleared), so no old view keeps redrawing.
 */
export function attached(live, el) {
  const held = [];
  return {
    get: (name) => live.get(name),
    set: (name, value) => live.set(name, value),
    save_changes: () => live.save_changes(),
    send: (message) => live.send(message),
    on(event, listener) {
      const wrapped = () => {
        if (el.isConnected === false) live.off(event, wrapped);
        else listener();
      };
      held.push([event, listener, wrapped]);
      live.on(event, wrapped);
    },
    off(event, listener) {
      for (const [name, known, wrapped] of held) {
        if (name === event && known === listener) live.off(event, wrapped);
      }
    },
  };
}
