// A small DOM for running the widgets' `render` under `node --test`: elements with classes,
// attributes, `dataset` and `style`, text, simple selectors (tag, .class, [attr], [attr="v"],
// descendants), events with capture and bubbling, focus, and animation frames run on demand.
// Layout is not computed: sizes are plain properties (0 unless a test sets them).

class FakeNode {
  constructor(document) {
    this.ownerDocument = document;
    this.parentNode = null;
    this.childNodes = [];
  }

  get parentElement() {
    return this.parentNode instanceof FakeElement ? this.parentNode : null;
  }

  /** Whether the node is in its document (the document itself is). */
  get isConnected() {
    let node = this;
    while (node.parentNode) node = node.parentNode;
    return node === this.ownerDocument;
  }

  remove() {
    if (this.parentNode) {
      const siblings = this.parentNode.childNodes;
      siblings.splice(siblings.indexOf(this), 1);
      this.parentNode = null;
    }
  }
}

class FakeText extends FakeNode {
  constructor(document, data) {
    super(document);
    this.nodeType = 3;
    this.data = String(data);
  }

  get textContent() {
    return this.data;
  }
}

class Listeners {
  constructor() {
    this.entries = [];
  }

  addEventListener(type, listener, options) {
    const capture = options === true || Boolean(options?.capture);
    const same = (e) => e.type === type && e.listener === listener && e.capture === capture;
    if (!this.entries.some(same)) this.entries.push({ type, listener, capture });
  }

  removeEventListener(type, listener, options) {
    const capture = options === true || Boolean(options?.capture);
    this.entries = this.entries.filter(
      (e) => !(e.type === type && e.listener === listener && e.capture === capture),
    );
  }

  /** How many listeners of `type` are registered (a closed view leaves none on shared targets). */
  listenerCount(type) {
    return this.entries.filter((e) => e.type === type).length;
  }

  call(event, phase) {
    for (const entry of [...this.entries]) {
      if (entry.type !== event.type) continue;
      if (phase === "capture" && !entry.capture) continue;
      if (phase === "bubble" && entry.capture) continue;
      event.currentTarget = this.owner;
      entry.listener.call(this.owner, event);
    }
  }
}

function listening(target) {
  const listeners = new Listeners();
  listeners.owner = target;
  target.addEventListener = listeners.addEventListener.bind(listeners);
  target.removeEventListener = listeners.removeEventListener.bind(listeners);
  target.listenerCount = listeners.listenerCount.bind(listeners);
  target.listeners = listeners;
}

function camel(name) {
  return name.replace(/-([a-z])/g, (_, ch) => ch.toUpperCase());
}

const SELECTOR_PART = /^([a-zA-Z][\w-]*)?((?:\.[\w-]+|\[[\w-]+(?:="[^"]*")?\])*)$/;

function compile(part) {
  const match = SELECTOR_PART.exec(part);
  if (!match) throw new Error(`fake DOM: unsupported selector ${part}`);
  const tag = match[1]?.toUpperCase();
  const classes = [...match[2].matchAll(/\.([\w-]+)/g)].map((m) => m[1]);
  const attributes = [...match[2].matchAll(/\[([\w-]+)(?:="([^"]*)")?\]/g)].map((m) => [
    m[1],
    m[2],
  ]);
  return (node) =>
    node instanceof FakeElement &&
    (!tag || node.tagName === tag) &&
    classes.every((name) => node.classList.contains(name)) &&
    attributes.every(([name, value]) => {
      const found = node.getAttribute(name);
      return found !== null && (value === undefined || found === value);
    });
}

function matcher(selector) {
  const parts = selector.trim().split(/\s+/).map(compile);
  return (node) => {
    if (!parts[parts.length - 1](node)) return false;
    let ancestor = node.parentElement;
    for (let i = parts.length - 2; i >= 0; i -= 1) {
      while (ancestor && !parts[i](ancestor)) ancestor = ancestor.parentElement;
      if (!ancestor) return false;
      ancestor = ancestor.parentElement;
    }
    return true;
  };
}

export class FakeElement extends FakeNode {
  constructor(document, tag) {
    super(document);
    this.nodeType = 1;
    this.tagName = tag.toUpperCase();
    this.attributes = new Map();
    this.dataset = {};
    this.style = {};
    this.hidden = false;
    this.disabled = false;
    this.tabIndex = -1;
    this.scrollTop = 0;
    for (const size of ["offsetTop", "offsetWidth", "offsetHeight", "clientWidth"]) this[size] = 0;
    this.clientHeight = 0;
    this.scrollHeight = 0;
    this.scrollWidth = 0;
    this.innerHTMLText = null;
    if (["INPUT", "SELECT", "TEXTAREA"].includes(this.tagName)) {
      this.value = "";
      this.checked = false;
    }
    this.classes = [];
    const self = this;
    this.classList = {
      add: (...names) => names.forEach((n) => self.classes.includes(n) || self.classes.push(n)),
      remove: (...names) => {
        self.classes = self.classes.filter((n) => !names.includes(n));
      },
      toggle(name, force) {
        const on = force === undefined ? !self.classes.includes(name) : Boolean(force);
        if (on) this.add(name);
        else this.remove(name);
        return on;
      },
      contains: (name) => self.classes.includes(name),
    };
    listening(this);
  }

  get className() {
    return this.classes.join(" ");
  }

  set className(value) {
    this.classes = String(value).split(/\s+/).filter(Boolean);
  }

  setAttribute(name, value) {
    if (name === "class") this.className = value;
    else if (name.startsWith("data-")) this.dataset[camel(name.slice(5))] = String(value);
    else this.attributes.set(name, String(value));
  }

  getAttribute(name) {
    if (name === "class") return this.classes.length ? this.className : null;
    if (name.startsWith("data-")) return this.dataset[camel(name.slice(5))] ?? null;
    return this.attributes.has(name) ? this.attributes.get(name) : null;
  }

  get children() {
    return this.childNodes.filter((node) => node instanceof FakeElement);
  }

  appendChild(node) {
    node.remove();
    node.parentNode = this;
    this.childNodes.push(node);
    this.innerHTMLText = null;
    return node;
  }

  append(...nodes) {
    for (const node of nodes) {
      this.appendChild(node instanceof FakeNode ? node : new FakeText(this.ownerDocument, node));
    }
  }

  insertFirst(node) {
    node.remove();
    node.parentNode = this;
    this.childNodes.unshift(node);
  }

  replaceChildren(...nodes) {
    for (const child of [...this.childNodes]) child.remove();
    this.append(...nodes);
  }

  get textContent() {
    return this.childNodes.map((node) => node.textContent).join("");
  }

  set textContent(value) {
    this.replaceChildren(...(value === "" ? [] : [String(value)]));
  }

  get innerHTML() {
    return this.innerHTMLText ?? "";
  }

  /** The markup is kept as given; its text (tags dropped, entities read) becomes the content. */
  set innerHTML(value) {
    const text = String(value)
      .replace(/<[^>]*>/g, "")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, "&");
    this.replaceChildren(...(text ? [text] : []));
    this.innerHTMLText = String(value);
  }

  contains(node) {
    for (let at = node; at; at = at.parentNode) {
      if (at === this) return true;
    }
    return false;
  }

  closest(selector) {
    const test = matcher(selector);
    for (let at = this; at instanceof FakeElement; at = at.parentNode) {
      if (test(at)) return at;
    }
    return null;
  }

  querySelectorAll(selector) {
    const test = matcher(selector);
    const found = [];
    const walk = (node) => {
      for (const child of node.children) {
        if (test(child)) found.push(child);
        walk(child);
      }
    };
    walk(this);
    return found;
  }

  querySelector(selector) {
    return this.querySelectorAll(selector)[0] ?? null;
  }

  dispatchEvent(event) {
    return this.ownerDocument.dispatch(this, event);
  }

  focus() {
    const document = this.ownerDocument;
    const before = document.activeElement;
    if (before === this) return;
    document.activeElement = this;
    if (before && before !== document.body) before.dispatchEvent(new FakeEvent("focusout"));
    this.dispatchEvent(new FakeEvent("focusin"));
  }

  click() {
    this.dispatchEvent(new FakeEvent("click"));
  }

  getBoundingClientRect() {
    return { left: 0, top: 0, right: 0, bottom: 0, width: 0, height: 0, x: 0, y: 0 };
  }

  // Tables: the caption and bodies, as the widgets use them.
  createCaption() {
    let caption = this.caption;
    if (!caption) {
      caption = this.ownerDocument.createElement("caption");
      this.insertFirst(caption);
    }
    return caption;
  }

  get caption() {
    return this.children.find((node) => node.tagName === "CAPTION") ?? null;
  }

  get tBodies() {
    return this.children.filter((node) => node.tagName === "TBODY");
  }
}

/** An event with the fields of `init` (`key`, `clientX`, `ctrlKey`, ...); bubbles unless told. */
export class FakeEvent {
  constructor(type, init = {}) {
    Object.assign(this, { bubbles: true, ...init });
    this.type = type;
    this.defaultPrevented = false;
    this.stopped = false;
  }

  preventDefault() {
    this.defaultPrevented = true;
  }

  stopPropagation() {
    this.stopped = true;
  }
}

class FakeDocument extends FakeNode {
  constructor(window) {
    super(null);
    this.ownerDocument = this;
    this.defaultView = window;
    listening(this);
    this.body = this.createElement("body");
    this.body.parentNode = this;
    this.childNodes.push(this.body);
    this.activeElement = this.body;
  }

  createElement(tag) {
    return new FakeElement(this, tag);
  }

  /** SVG elements are plain fake elements; the namespace is not kept. */
  createElementNS(_namespace, tag) {
    return this.createElement(tag);
  }

  dispatch(target, event) {
    event.target = target;
    const path = [];
    for (let at = target; at; at = at.parentNode) path.push(at);
    if (path[path.length - 1] === this) path.push(this.defaultView);
    for (const node of path.slice(1).reverse()) {
      node.listeners.call(event, "capture");
      if (event.stopped) return !event.defaultPrevented;
    }
    target.listeners.call(event, "target");
    if (event.bubbles) {
      for (const node of path.slice(1)) {
        if (event.stopped) break;
        node.listeners.call(event, "bubble");
      }
    }
    return !event.defaultPrevented;
  }
}

class FakeWindow {
  constructor() {
    listening(this);
    this.innerHeight = 768;
    this.frames = [];
  }
}

/**
 * Puts a fresh `document`, `window`, `Element` and `requestAnimationFrame` on globalThis.
 * Returns them with `runFrames()` (runs the queued animation frames) and `restore()`.
 */
export function installDom() {
  const window = new FakeWindow();
  const document = new FakeDocument(window);
  window.document = document;
  const names = ["document", "window", "Element", "requestAnimationFrame"];
  const saved = Object.fromEntries(names.map((name) => [name, globalThis[name]]));
  Object.assign(globalThis, {
    document,
    window,
    Element: FakeElement,
    requestAnimationFrame: (callback) => window.frames.push(callback),
  });
  return {
    document,
    window,
    runFrames() {
      while (window.frames.length) window.frames.shift()();
    },
    restore() {
      for (const name of names) {
        if (saved[name] === undefined) delete globalThis[name];
        else globalThis[name] = saved[name];
      }
    },
  };
}

/** An output element in the document's body, as anywidget hands `el` to `render`. */
export function outputElement(document) {
  const el = document.createElement("div");
  document.body.appendChild(el);
  return el;
}
