// What every widget does with its anywidget model the same way: listen to trait changes (and
// stop, in the cleanup `render` returns) and toggle a picked index trait (-1: none picked).

/**
 * Calls `model.on` for each [event, listener] pair, in order; returns the function that calls
 * `model.off` for each, which a view's `render` returns as its cleanup.
 * @param {{on: function(string, function(): void): void, off: function(string, function(): void): void}} model
 * @param {Array<[string, function(): void]>} listeners
 * @returns {function(): void}
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
 * @param {{get: function(string): *, set: function(string, *): void, save_changes: function(): void}} model
 * @param {string} name
 * @param {number} index
 */
export function togglePick(model, name, index) {
  model.set(name, model.get(name) === index ? -1 : index);
  model.save_changes();
}
