// A stand-in for anywidget's model (get/set/on/off/send/save_changes), held to the widget's
// JSDoc schema: every trait read or written must be declared in the model's typedef, every value
// set and every message sent must have the declared shape.
import assert from "node:assert/strict";

import { problems, propertiesOf } from "./schema.mjs";

export class FakeModel {
  /**
   * `modelType` names the typedef of the synced state (e.g. "ShardingModel"); `messageType` the
   * typedef of what `send` may carry, or null for a widget that sends nothing.
   */
  constructor(modelType, state, { messageType = null } = {}) {
    this.modelType = modelType;
    this.messageType = messageType;
    this.traits = propertiesOf(modelType);
    this.state = {};
    this.listeners = new Map();
    this.pending = {};
    /** Each `save_changes()` call's batch of traits set since the one before. */
    this.saved = [];
    /** Every message the view sent, in order. */
    this.sent = [];
    for (const [name, value] of Object.entries(state)) this.#store(name, value);
  }

  #store(name, value) {
    assert.ok(name in this.traits, `${name} is not a trait of ${this.modelType}`);
    const found = problems({ [name]: value }, this.modelType).filter((p) =>
      p.startsWith(`$.${name}`),
    );
    assert.deepEqual(found, [], `${this.modelType}.${name} breaks the schema`);
    this.state[name] = value;
  }

  #emit(name) {
    for (const listener of [...(this.listeners.get(`change:${name}`) ?? [])]) listener();
  }

  get(name) {
    assert.ok(name in this.traits, `the view reads ${name}, not a trait of ${this.modelType}`);
    return this.state[name];
  }

  /** The view sets a trait: kept until `save_changes`, and its listeners run, as in anywidget. */
  set(name, value) {
    this.#store(name, value);
    this.pending[name] = value;
    this.#emit(name);
  }

  save_changes() {
    this.saved.push(this.pending);
    this.pending = {};
  }

  send(content) {
    assert.ok(this.messageType, `${this.modelType}'s view sends no messages, but sent one`);
    assert.deepEqual(problems(content, this.messageType), [], `sent ${JSON.stringify(content)}`);
    this.sent.push(content);
  }

  on(event, listener) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
  }

  off(event, listener) {
    this.listeners.set(
      event,
      (this.listeners.get(event) ?? []).filter((known) => known !== listener),
    );
  }

  /** The kernel changes a trait: the new value arrives and its listeners run. */
  update(name, value) {
    this.#store(name, value);
    this.#emit(name);
  }

  /** How many listeners the view still holds on this model. */
  listenerCount() {
    return [...this.listeners.values()].reduce((sum, list) => sum + list.length, 0);
  }
}
