// The peak-memory report drawn in the page: horizontal bars by source line, largest first, each
// the line's share of the peak; a click (or Enter/Space) on a bar opens the line's code and the
// buffers it holds at the peak. Several variants are compared in a table (peak, XLA's peak,
// FLOPs) whose rows pick the variant shown. A timeline of the bytes in use per step marks the peak
// and, with `device_memory`, the device's size; hover or focus reads the bytes at a step.
// Everything it shows is in `view`: it asks the kernel nothing, so it draws the same in a saved,
// restarted or reloaded notebook.
import { element, keepKeys } from "./dom.js";
import { humanBytes } from "./memory_model.js";
import { listen } from "./widget_model.js";

// The JSON the kernel makes (`view`) and the traits the view sets (`variant`, `line`): declared
// once, by the TypedDicts of jaxdbg_widgets/memory/peak_schema.py; ./schema/peak.js is generated
// from them (`python -m tests.unit.schema_js`).

/** @typedef {import("./schema/peak.js").PeakBufferRow} PeakBufferRow */
/** @typedef {import("./schema/peak.js").PeakFit} PeakFit */
/** @typedef {import("./schema/peak.js").PeakLine} PeakLine */
/** @typedef {import("./schema/peak.js").PeakModel} PeakModel */
/** @typedef {import("./schema/peak.js").PeakVariant} PeakVariant */
/** @typedef {import("./schema/peak.js").PeakView} PeakView */

/** anywidget's model of this view, typed by {@link PeakModel} (see widget_model.js). */
/** @typedef {import("./widget_model.js").Model<PeakModel>} PeakWidget */

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 600;
const HEIGHT = 64;

/** `73.2%`, as the text and HTML views write a share. */
export function percent(share) {
  return `${(share * 100).toFixed(1)}%`;
}

/**
 * Makes `node` a button for the mouse and the keyboard: a tab stop that runs `onPress` on a
 * click, Enter or Space.
 * @param {HTMLElement} node
 * @param {() => void} onPress
 */
function pressable(node, onPress) {
  node.tabIndex = 0;
  node.setAttribute("role", "button");
  node.addEventListener("click", () => onPress());
  node.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    onPress();
  });
}

/**
 * The variants side by side, one row each (peak, XLA's peak, FLOPs); a row shows its variant.
 * @param {Array<PeakVariant>} variants
 * @param {number} shown
 * @param {(index: number) => void} onPick
 */
export function variantTable(variants, shown, onPick) {
  const table = element("table", "jdw-pk-variants");
  const head = element("tr");
  for (const label of ["variant", "peak per device", "XLA's peak", "FLOPs", "fit"]) {
    head.appendChild(element("th", "", label));
  }
  const body = element("tbody");
  variants.forEach((variant, i) => {
    const tr = element("tr", i === shown ? "jdw-pk-shown" : "");
    tr.setAttribute("aria-pressed", String(i === shown));
    tr.dataset.variant = String(i);
    const fit = variant.fit ? (variant.fit.fits ? "fits" : "over") : "";
    const cells = [variant.name, variant.peak_text, variant.xla_text, variant.flops_text, fit];
    cells.forEach((text, column) => {
      tr.appendChild(element("td", column > 0 && column < 4 ? "jdw-pk-num" : "", text));
    });
    pressable(tr, () => onPick(i));
    body.appendChild(tr);
  });
  const thead = element("thead");
  thead.appendChild(head);
  table.append(thead, body);
  return table;
}

/**
 * The variant's headline, its agreement with XLA and whether it fits.
 * @param {PeakVariant} variant
 */
export function summary(variant) {
  const box = element("div", "jdw-pk-summary");
  const devices = variant.devices.length ? ` (devices ${variant.devices.join(", ")})` : "";
  const title = `${variant.name}: peak ${variant.peak_text} per device${devices}`;
  box.appendChild(element("div", "jdw-pk-title", title));
  const differs = variant.agrees === false ? "jdw-pk-warn" : "jdw-pk-dim";
  box.appendChild(element("div", differs, variant.agreement));
  if (variant.fit) {
    const verdict = variant.fit.fits ? "jdw-pk-fits" : "jdw-pk-over";
    box.appendChild(element("div", verdict, variant.fit.text));
  }
  return box;
}

/**
 * One bar: the line's label, its share of the peak drawn and written, and its bytes.
 * @param {PeakLine} line
 * @param {number} index
 * @param {boolean} open
 * @param {(index: number) => void} onOpen
 */
function lineBar(line, index, open, onOpen) {
  const row = element("div", open ? "jdw-pk-bar jdw-pk-open" : "jdw-pk-bar");
  row.dataset.line = String(index);
  row.setAttribute("aria-expanded", String(open));
  row.title = line.code || line.label;
  const track = element("span", "jdw-pk-track");
  const fill = element("span", "jdw-pk-fill");
  fill.style.width = `${Math.max(0, Math.min(1, line.share)) * 100}%`;
  track.appendChild(fill);
  row.append(
    element("span", "jdw-pk-label", line.label),
    track,
    element("span", "jdw-pk-share", `${percent(line.share)} · ${line.size}`),
  );
  pressable(row, () => onOpen(index));
  return row;
}

/**
 * The bars by source line, largest first; the open line's code and buffers under its bar.
 * @param {PeakVariant} variant
 * @param {number} open
 * @param {(index: number) => void} onOpen
 */
export function lineBars(variant, open, onOpen) {
  const box = element("div", "jdw-pk-lines");
  const caption = "by source line, share of the peak (open one for its buffers and code):";
  box.appendChild(element("div", "jdw-pk-caption", caption));
  variant.lines.forEach((line, i) => {
    box.appendChild(lineBar(line, i, i === open, onOpen));
    if (i === open) box.appendChild(lineDetails(variant, line));
  });
  if (variant.more_lines) {
    box.appendChild(element("div", "jdw-pk-dim", `… and ${variant.more_lines} more lines`));
  }
  return box;
}

/**
 * An open line: its code, then the buffers it holds at the peak.
 * @param {PeakVariant} variant
 * @param {PeakLine} line
 */
export function lineDetails(variant, line) {
  const box = element("div", "jdw-pk-details");
  if (!line.buffers.length) {
    box.appendChild(element("div", "jdw-pk-dim", "(bytes no buffer holds)"));
    return box;
  }
  if (line.code) box.appendChild(element("pre", "jdw-pk-code", line.code));
  else box.appendChild(element("div", "jdw-pk-dim", "(no source code to show)"));
  box.appendChild(buffersTable(variant.buffers, line.buffers));
  if (line.more) box.appendChild(element("div", "jdw-pk-dim", `… and ${line.more} more buffers`));
  return box;
}

/**
 * A table of the buffers at `indices`: bytes, kind, shape and the line that made each.
 * @param {Array<PeakBufferRow>} buffers
 * @param {Array<number>} indices
 */
export function buffersTable(buffers, indices) {
  const table = element("table", "jdw-pk-buffers");
  const head = element("tr");
  for (const label of ["bytes", "kind", "shape", "line"]) {
    head.appendChild(element("th", "", label));
  }
  const thead = element("thead");
  thead.appendChild(head);
  const body = element("tbody");
  for (const index of indices) {
    const b = buffers[index];
    const tr = element("tr");
    tr.append(
      element("td", "jdw-pk-num", b.size),
      element("td", "", b.kind),
      element("td", "jdw-pk-mono", b.shape),
      element("td", "", b.line),
    );
    body.appendChild(tr);
  }
  table.append(thead, body);
  return table;
}

/**
 * The buffers live at the peak, largest first.
 * @param {PeakVariant} variant
 */
export function peakBuffers(variant) {
  const box = element("div", "jdw-pk-peak-buffers");
  box.appendChild(element("div", "jdw-pk-caption", "buffers live at the peak, largest first:"));
  const indices = variant.buffers.slice(0, variant.top).map((_, i) => i);
  box.appendChild(buffersTable(variant.buffers, indices));
  if (variant.more_buffers) {
    box.appendChild(element("div", "jdw-pk-dim", `… and ${variant.more_buffers} more`));
  }
  return box;
}

/**
 * `step 23 of 25: 41.0 MiB in use (the peak)`: what the timeline reads at point `index`.
 * @param {PeakVariant} variant
 * @param {number} index
 */
export function stepText(variant, index) {
  const [step, bytes] = variant.timeline[index];
  const peak = step === variant.peak_step ? " (the peak)" : "";
  return `step ${step + 1} of ${variant.steps}: ${humanBytes(bytes)} in use${peak}`;
}

/**
 * The timeline's vertical scale: the fullest step, or the device's size where that is within
 * half again of it (farther, the fit line would flatten the timeline, and is left off).
 * @param {PeakVariant} variant
 * @returns {{top: number, fitShown: boolean}}
 */
export function timelineScale(variant) {
  const fullest = Math.max(1, ...variant.timeline.map(([, bytes]) => bytes));
  const capacity = variant.fit ? variant.fit.capacity : 0;
  const fitShown = capacity > 0 && capacity <= fullest * 1.5;
  return { top: fitShown ? Math.max(fullest, capacity) : fullest, fitShown };
}

/** An SVG element with `attributes`. */
function svg(tag, attributes) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  return node;
}

/**
 * The timeline's drawing: a bar per point (the peak's in the warning colour), the device's size
 * as a dashed line where it is in scale, and a cursor box the reader moves.
 * @param {PeakVariant} variant
 */
export function timelineSvg(variant) {
  const { top, fitShown } = timelineScale(variant);
  const step = WIDTH / Math.max(1, variant.timeline.length);
  const chart = svg("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, preserveAspectRatio: "none" });
  chart.setAttribute("class", "jdw-pk-chart");
  variant.timeline.forEach(([at, bytes], i) => {
    const height = (bytes / top) * HEIGHT;
    const bar = svg("rect", { x: i * step, y: HEIGHT - height, width: step, height });
    bar.setAttribute("class", at === variant.peak_step ? "jdw-pk-peak" : "jdw-pk-step");
    chart.appendChild(bar);
  });
  if (fitShown) {
    const y = HEIGHT - (variant.fit.capacity / top) * HEIGHT;
    const line = svg("line", { x1: 0, x2: WIDTH, y1: y, y2: y });
    line.setAttribute("class", "jdw-pk-fitline");
    chart.appendChild(line);
  }
  const cursor = svg("rect", { x: 0, y: 0, width: step, height: HEIGHT });
  cursor.setAttribute("class", "jdw-pk-cursor");
  cursor.setAttribute("visibility", "hidden");
  chart.appendChild(cursor);
  return chart;
}

/**
 * The point a key moves the timeline's reader to from `index`, or null for another key.
 * @param {string} key
 * @param {number} index
 * @param {number} count
 * @param {number} peak the peak's point
 * @returns {number|null}
 */
export function timelineKey(key, index, count, peak) {
  const moves = {
    ArrowLeft: index - 1,
    ArrowRight: index + 1,
    ArrowDown: index - 1,
    ArrowUp: index + 1,
    Home: 0,
    End: count - 1,
    PageDown: index - 10,
    PageUp: index + 10,
    p: peak,
  };
  return key in moves ? Math.max(0, Math.min(count - 1, moves[key])) : null;
}

/**
 * The timeline with its legend and a reader: hover a step, or focus it and use the arrow keys
 * (Home, End, `p` for the peak), to read the bytes in use there.
 * @param {PeakVariant} variant
 */
export function timeline(variant) {
  const box = element("div", "jdw-pk-timeline");
  if (!variant.timeline.length) {
    box.appendChild(element("div", "jdw-pk-dim", "timeline: no steps"));
    return box;
  }
  const chart = timelineSvg(variant);
  const frame = element("div", "jdw-pk-frame");
  frame.tabIndex = 0;
  frame.setAttribute("role", "slider");
  frame.setAttribute("aria-label", "bytes in use per step");
  frame.appendChild(chart);
  const peak = Math.max(0, variant.timeline.findIndex(([at]) => at === variant.peak_step));
  const reader = element("div", "jdw-pk-reader", stepText(variant, peak));
  reader.setAttribute("aria-live", "polite");
  const cursor = chart.querySelector(".jdw-pk-cursor");
  const width = WIDTH / variant.timeline.length;
  let at = peak;
  const show = (index) => {
    at = index;
    reader.textContent = stepText(variant, index);
    frame.setAttribute("aria-valuenow", String(variant.timeline[index][0] + 1));
    frame.setAttribute("aria-valuetext", reader.textContent);
    cursor.setAttribute("x", String(index * width));
    cursor.setAttribute("visibility", "visible");
  };
  const rest = () => {
    cursor.setAttribute("visibility", "hidden");
    reader.textContent = stepText(variant, peak);
  };
  frame.addEventListener("mousemove", (event) => {
    const rect = frame.getBoundingClientRect();
    const x = rect.width ? (event.clientX - rect.left) / rect.width : 0;
    const count = variant.timeline.length;
    show(Math.max(0, Math.min(count - 1, Math.floor(x * count))));
  });
  frame.addEventListener("mouseleave", rest);
  frame.addEventListener("focus", () => show(at));
  frame.addEventListener("blur", rest);
  frame.addEventListener("keydown", (event) => {
    const next = timelineKey(event.key, at, variant.timeline.length, peak);
    if (next === null) return;
    event.preventDefault();
    show(next);
  });
  const caption = element("div", "jdw-pk-caption", "bytes in use through the program's steps:");
  box.append(caption, frame, reader, legend(variant));
  return box;
}

/**
 * What the timeline's marks mean: the peak's step, and the device's size where drawn.
 * @param {PeakVariant} variant
 */
function legend(variant) {
  const box = element("div", "jdw-pk-legend");
  const peak = `▮ peak at step ${variant.peak_step + 1} of ${variant.steps}`;
  box.appendChild(element("span", "jdw-pk-key-peak", peak));
  if (variant.fit) {
    const shown = timelineScale(variant).fitShown;
    const size = humanBytes(variant.fit.capacity);
    const text = shown ? `- - device memory ${size}` : `device memory ${size}, above the chart`;
    box.appendChild(element("span", "jdw-pk-key-fit", text));
  }
  return box;
}

/**
 * The variant's whole view, top to bottom.
 * @param {PeakVariant} variant
 * @param {number} open
 * @param {(index: number) => void} onOpen
 */
export function variantView(variant, open, onOpen) {
  const notes = variant.notes.map((note) => element("div", "jdw-pk-dim", `note: ${note}`));
  const bars = lineBars(variant, open, onOpen);
  return [summary(variant), bars, timeline(variant), peakBuffers(variant), ...notes];
}

/**
 * The picks a press makes: variant `index` shown, its lines closed; or line `index` opened,
 * or closed when it was open. Saved at once, as a click in any widget.
 * @param {PeakWidget} model
 * @param {"variant"|"line"} trait
 * @param {number} index
 */
export function pick(model, trait, index) {
  if (trait === "variant") {
    if (index === model.get("variant")) return;
    model.set("line", -1);
    model.set("variant", index);
  } else {
    model.set("line", index === model.get("line") ? -1 : index);
  }
  model.save_changes();
}

/** @type {{render: (props: {model: PeakWidget, el: HTMLElement}) => () => void}} */
export default {
  render({ model, el }) {
    const root = element("div", "jdw-pk jdw-pk-live");
    keepKeys(root);
    el.appendChild(root);
    let refocus = null; // the pressed item's selector, focused again once redrawn

    const press = (trait, index) => {
      refocus = `[data-${trait}="${index}"]`;
      pick(model, trait, index);
      refocus = null;
    };

    const draw = () => {
      /** @type {PeakView} */
      const view = model.get("view");
      if (!view.variants.length) {
        root.replaceChildren(element("div", "jdw-pk-dim", "no program to report"));
        return;
      }
      const shown = Math.max(0, Math.min(view.variants.length - 1, model.get("variant")));
      const parts = [];
      if (view.variants.length > 1) {
        parts.push(variantTable(view.variants, shown, (i) => press("variant", i)));
      }
      const variant = view.variants[shown];
      parts.push(...variantView(variant, model.get("line"), (i) => press("line", i)));
      root.replaceChildren(...parts);
      const focused = /** @type {HTMLElement|null} */ (refocus && root.querySelector(refocus));
      if (focused) focused.focus();
    };

    const stop = listen(model, [
      ["change:view", draw],
      ["change:variant", draw],
      ["change:line", draw],
    ]);
    draw();
    return stop;
  },
};
