// The link between a kernel-free output and the live widget the kernel made beside it.
//
// A view shown as one standalone text/html output (see standalone.js) lasts through a save,
// restart and reload, but its page cannot ask the kernel anything. So the kernel also opens the
// view's widget without displaying it; when the front end creates that widget's model it runs
// the module's `initialize`, which offers the model here under the widget's `link` key. The
// output waits for the model with its key and then draws over it, asking the kernel for exact
// values. After a restart no model offers that key, and the output stays page-only.

const REGISTRY = Symbol.for("jaxdbg_widgets.live_links");

// The live models by key, and the outputs waiting for a key: one registry per page, shared by
// every copy of this module (each output imports its own), under a global symbol.

/** @returns {{models: Map<string, *>, waiting: Map<string, Array<(model: *) => void>>}} */
function links() {
  const scope = /** @type {*} */ (globalThis);
  scope[REGISTRY] ??= { models: new Map(), waiting: new Map() };
  return scope[REGISTRY];
}

/**
 * Offers a live widget model under its `link` trait, until `signal` aborts (the model closed).
 * @param {{get: (name: string) => *}} model
 * @param {AbortSignal} [signal]
 */
export function offerLink(model, signal) {
  const key = model.get("link");
  if (!key) return;
  const registry = links();
  registry.models.set(key, model);
  const waiting = registry.waiting.get(key) ?? [];
  registry.waiting.delete(key);
  for (const listener of waiting) listener(model);
  signal?.addEventListener("abort", () => {
    if (registry.models.get(key) === model) registry.models.delete(key);
  });
}

/**
 * Calls `listener` with the live model offered under `key`, now or once it is offered.
 * @param {string} key
 * @param {(model: *) => void} listener
 */
export function whenLinked(key, listener) {
  const registry = links();
  const model = registry.models.get(key);
  if (model) {
    listener(model);
    return;
  }
  registry.waiting.set(key, [...(registry.waiting.get(key) ?? []), listener]);
}

/** The `initialize` of a widget module whose outputs may link to it. */
export function initialize({ model, signal }) {
  offerLink(model, signal);
}
