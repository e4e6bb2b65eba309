// The pictures widget: each array a colour-mapped PNG with its shard overlay, colour bar,
// special-value counts and histogram. Hover or arrow keys show a cell's index and exact value
// (asked of the kernel when the panel does not carry it); a click on a shard lights its
// devices; sliders pick a leading slice.
import { element, keepKeys } from "./dom.js";
import {
  cellAt,
  indexText,
  inlineValue,
  lineRuns,
  moveCell,
  panelSize,
  pointOf,
  shardAt,
  shardDevices,
  shardText,
} from "./pictures_model.js";
import { initialize } from "./live_link.js";

// The JSON the kernel sends and the messages the widget sends: declared once, by the TypedDicts of
// jaxdbg_widgets/pictures/schema.py; ./schema/pictures.js is generated from them (`python -m
// tests.unit.schema_js`).

/** @typedef {import("./schema/pictures.js").HistogramView} HistogramView */
/** @typedef {import("./schema/pictures.js").NoProbe} NoProbe */
/** @typedef {import("./schema/pictures.js").PanelView} PanelView */
/** @typedef {import("./schema/pictures.js").PictureMessage} PictureMessage */
/** @typedef {import("./schema/pictures.js").PictureView} PictureView */
/** @typedef {import("./schema/pictures.js").PicturesModel} PicturesModel */
/** @typedef {import("./schema/pictures.js").PicturesView} PicturesView */
/** @typedef {import("./schema/pictures.js").Probe} Probe */
/** @typedef {import("./schema/pictures.js").ScaleView} ScaleView */
/** @typedef {import("./schema/pictures.js").ShardView} ShardView */
/** @typedef {import("./schema/pictures.js").SliderView} SliderView */
/** @typedef {import("./schema/pictures.js").SpecialView} SpecialView */

/** anywidget's model of this widget, typed by {@link PicturesModel} (see widget_model.js). */
/** @typedef {import("./widget_model.js").Model<PicturesModel, PictureMessage>} PicturesWidget */

/** What a saved picture says where only its kernel knew the answer. */
export const OFFLINE_VALUE = "exact value kept only while the kernel that drew it runs";
export const OFFLINE_SLIDER = "other slices are drawn while the kernel that drew this picture runs";

const SVG = "http://www.w3.org/2000/svg";
const HIST_WIDTH = 160;
const HIST_HEIGHT = 40;
const DEVICE_CHIPS = 32;

function svgElement(tag, attributes) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  return node;
}

/** A thin frame around a bool picture, whose white True cells would vanish into a white page. */
const BOOL_FRAME = "1px solid var(--jp-border-color1, #bdbdbd)";

/**
 * Frame the image of a bool picture.
 * @param {PictureView} picture
 * @param {HTMLImageElement} img
 */
function frameBool(picture, img) {
  if (picture.dtype === "bool") img.style.outline = BOOL_FRAME;
}

/** The colour bar, histogram and special-value counts beside a picture's panels. */
function drawSide(picture) {
  const side = element("div", "jdw-pic-side");
  const bar = element("div", "jdw-pic-bar");
  bar.style.background = `linear-gradient(to right, ${picture.scale.stops.join(", ")})`;
  const ends = element("div", "jdw-pic-ends");
  ends.append(
    element("span", "", picture.scale.low),
    element("span", "", picture.scale.cmap),
    element("span", "", picture.scale.high),
  );
  side.append(bar, ends);
  const { counts, step, low, high } = picture.histogram;
  if (counts.length) {
    const sampled = step > 1 ? `, 1 in ${step}` : "";
    side.append(element("div", "jdw-pic-note", `histogram of finite values${sampled}`));
    const svg = svgElement("svg", { width: HIST_WIDTH, height: HIST_HEIGHT, class: "jdw-pic-hist" });
    const top = Math.max(...counts) || 1;
    const width = HIST_WIDTH / counts.length;
    counts.forEach((count, i) => {
      if (!count) return;
      const h = (HIST_HEIGHT * count) / top;
      svg.append(
        svgElement("rect", { x: i * width, y: HIST_HEIGHT - h, width: Math.max(width - 1, 1), height: h }),
      );
    });
    const histEnds = element("div", "jdw-pic-ends");
    histEnds.append(element("span", "", low), element("span", "", high));
    side.append(svg, histEnds);
  }
  for (const special of picture.specials) {
    const row = element("div", "jdw-pic-special");
    const swatch = element("i", "");
    swatch.style.background = special.color;
    row.append(swatch, element("span", "", `${special.name} ${special.count}`));
    side.append(row);
  }
  return side;
}

/**
 * A device named as the shard labels name it: `CPU 6` (`device 6` when no platform is known).
 * @param {PictureView} picture
 * @param {number} id
 * @returns {string}
 */
export function deviceName(picture, id) {
  const shard = picture.shards.find((s) => s.devices.includes(id));
  return `${shard?.platform || "device"} ${id}`;
}

/** The device chips of a sharded picture; `light(number)` marks those of shard `number` (-1:
 * none). Past `DEVICE_CHIPS` devices the strip is one line naming the clicked shard, with the
 * chips of its devices only, so that it does not grow with the device count. */
function drawDevices(picture) {
  const strip = element("div", "jdw-pic-devices");
  const ids = shardDevices(picture);
  const chip = (id) => element("span", "jdw-pic-device", deviceName(picture, id));
  if (ids.length > DEVICE_CHIPS) {
    const hint = element("span", "jdw-pic-hint", `${ids.length} devices: click a shard to name its devices`);
    strip.append(hint);
    const light = (number) => {
      if (number < 0) {
        strip.replaceChildren(hint);
        return;
      }
      const shard = picture.shards[number];
      const chips = shard.devices.map(chip);
      for (const c of chips) c.classList.add("jdw-pic-lit");
      strip.replaceChildren(element("span", "jdw-pic-hint", shardText(shard)), ...chips);
    };
    return { strip, light };
  }
  const chips = new Map(ids.map((id) => [id, chip(id)]));
  strip.append(...chips.values());
  const light = (number) => {
    const lit = number >= 0 ? picture.shards[number].devices : [];
    for (const [id, c] of chips) c.classList.toggle("jdw-pic-lit", lit.includes(id));
  };
  return { strip, light };
}

/**
 * A picture's figure with its title and summary lines, which every layout starts with.
 * @param {PictureView} picture
 * @param {string} className
 */
function pictureFigure(picture, className) {
  const figure = element("figure", className);
  figure.append(
    element("figcaption", "jdw-pic-title", picture.title),
    element("div", "jdw-pic-sum", picture.summary.join("\n")),
  );
  return figure;
}

/**
 * The picture's body: its panels (and a note of the slices not drawn) beside its legend.
 * @param {PictureView} picture
 * @param {Array<HTMLElement>} holders the panels drawn
 */
function pictureBody(picture, holders) {
  const body = element("div", "jdw-pic-body");
  const panels = element("div", "jdw-pic-panels");
  panels.append(...holders);
  if (picture.hidden) panels.append(element("div", "jdw-pic-note", `… ${picture.hidden} more slices`));
  body.append(panels, drawSide(picture));
  return body;
}

/**
 * A panel's holder (with its slice title) and its focusable frame, sized as the panel is
 * drawn, with the panel's image, not yet put in the frame.
 * @param {PictureView} picture
 * @param {PanelView} panel
 * @param {string} label what a screen reader says of the frame
 */
function panelFrame(picture, panel, label) {
  const { width, height } = panelSize(picture, panel);
  const holder = element("div", "jdw-pic-panel");
  if (panel.title) holder.append(element("div", "jdw-pic-ptitle", panel.title));
  const frame = element("div", "jdw-pic-frame");
  frame.tabIndex = 0;
  frame.setAttribute("role", "img");
  frame.setAttribute("aria-label", label);
  frame.style.width = `${width}px`;
  frame.style.height = `${height}px`;
  const img = element("img", "jdw-pic-img");
  img.src = panel.png;
  img.alt = "";
  frameBool(picture, img);
  return { holder, frame, img, width, height };
}

/**
 * One picture without a kernel to ask (the debugger's `p` results): title, summary, panels
 * with their shard boxes, legend; hovering names the index under the pointer in a tooltip.
 */
export function drawPicture(picture) {
  const figure = pictureFigure(picture, "jdw-pic-one jdw-pic");
  const holders = picture.panels.map((panel) => {
    const { holder, frame, img, width, height } = panelFrame(picture, panel, picture.label);
    frame.append(
      img,
      ...markRings(picture, panel),
      ...panel.shards.map((number) => shardBox(picture, number, width)),
    );
    frame.addEventListener("mousemove", (event) => {
      const cell = cellAt(event.offsetX, event.offsetY, width, height, picture.grid);
      frame.title = indexText(picture, panel, cell);
    });
    holder.append(frame);
    return holder;
  });
  figure.append(pictureBody(picture, holders));
  return figure;
}

/** Rings around a panel's few special cells, in their special value's colour. */
function markRings(picture, panel) {
  return panel.marks.map(([row, col, kind]) => {
    const ring = element("div", "jdw-pic-mark");
    ring.style.left = `${(100 * (col + 0.5)) / panel.width}%`;
    ring.style.top = `${(100 * (row + 0.5)) / panel.height}%`;
    ring.style.borderColor = picture.specials[kind].color;
    return ring;
  });
}

/** A shard's box over a panel drawn `width` px wide, labelled when there is room. */
function shardBox(picture, number, width) {
  const shard = picture.shards[number];
  const [rows, cols] = picture.grid;
  const box = element("div", "jdw-pic-shard");
  box.style.left = `${(100 * shard.cols[0]) / cols}%`;
  box.style.top = `${(100 * shard.rows[0]) / rows}%`;
  box.style.width = `${(100 * (shard.cols[1] - shard.cols[0])) / cols}%`;
  box.style.height = `${(100 * (shard.rows[1] - shard.rows[0])) / rows}%`;
  box.title = shard.label;
  if ((width * (shard.cols[1] - shard.cols[0])) / cols >= 40) box.append(element("span", "", shard.label));
  box.dataset.shard = String(number);
  return box;
}

/**
 * Shows the tooltip with `text` near (x, y) in the widget.
 * @param {HTMLElement} tip
 * @param {string} text
 * @param {number} x
 * @param {number} y
 */
function showTip(tip, text, x, y) {
  tip.textContent = text;
  tip.style.left = `${x + 12}px`;
  tip.style.top = `${y + 12}px`;
  tip.hidden = false;
}

/** The key of one cell of one panel, to match a probe's answer to the hover that asked. */
const probeKey = (p, k, cell) => `${p}/${k}/${cell.join(",")}`;

/**
 * What one drawn pictures widget shares between its panels and its probe listener: the model,
 * the tooltip and the hovered cell (picture, panel, cell and the key of the probe it waits for).
 * @param {PicturesWidget} model
 */
function newSession(model) {
  const tip = element("div", "jdw-pic-tip");
  tip.hidden = true;
  return { model, tip, hover: /** @type {*} */ (null) };
}

/**
 * Shows the hovered cell's index and value: known in the panel, already probed, unknowable
 * offline, or asked of the kernel (`probe`), whose answer `showProbe` shows.
 * @param {ReturnType<typeof newSession>} session
 * @param {number} p the picture
 * @param {number} k the panel
 * @param {Array<number>} cell
 * @param {HTMLElement} frame
 * @param {number} x
 * @param {number} y
 */
function hoverCell(session, p, k, cell, frame, x, y) {
  const { model, tip } = session;
  const picture = model.get("view").pictures[p];
  const panel = picture.panels[k];
  const where = indexText(picture, panel, cell);
  const known = inlineValue(picture, panel, cell);
  const key = probeKey(p, k, cell);
  const hover = { p, k, cell, key, where, x: (frame.offsetLeft || 0) + x, y: (frame.offsetTop || 0) + y };
  session.hover = hover;
  const probe = model.get("probe");
  const answered =
    probe && probe.picture === p && probe.panel === k && probeKey(p, k, cellOf(picture, probe)) === key;
  if (known !== null) {
    showTip(tip, `${where} = ${known}`, hover.x, hover.y);
  } else if (answered) {
    showTip(tip, `${where} = ${probe.text}`, hover.x, hover.y);
  } else if (model.offline) {
    showTip(tip, `${where}: ${OFFLINE_VALUE}`, hover.x, hover.y);
  } else {
    showTip(tip, `${where} = …`, hover.x, hover.y);
    model.send({ event: "probe", picture: p, panel: k, index: cell });
  }
}

/**
 * The probe's answer, shown where it answers the cell still hovered.
 * @param {ReturnType<typeof newSession>} session
 */
function showProbe(session) {
  const { model, hover } = session;
  const probe = model.get("probe");
  if (!hover || !("text" in probe) || probe.picture !== hover.p || probe.panel !== hover.k) return;
  const picture = model.get("view").pictures[hover.p];
  if (probeKey(probe.picture, probe.panel, cellOf(picture, probe)) !== hover.key) return;
  showTip(session.tip, `${hover.where} = ${probe.text}`, hover.x, hover.y);
}

/**
 * A panel's pointer and keys: hover (or arrows) shows a cell, a click (or Enter) picks the
 * shard under it, Escape hides the tooltip.
 * @param {ReturnType<typeof newSession>} session
 * @param {{p: number, k: number, picture: PictureView, frame: HTMLElement, width: number, height: number}} at
 * @param {(shard: number) => void} pick lights a shard's boxes and devices
 */
function wirePanel(session, at, pick) {
  const { p, k, picture, frame, width, height } = at;
  const panel = picture.panels[k];
  const pointer = (event) => cellAt(event.offsetX, event.offsetY, width, height, picture.grid);
  frame.addEventListener("mousemove", (event) => {
    const x = event.offsetX;
    const y = event.offsetY;
    hoverCell(session, p, k, pointer(event), frame, x, y);
  });
  frame.addEventListener("mouseleave", () => {
    session.tip.hidden = true;
    session.hover = null;
  });
  frame.addEventListener("click", (event) => pick(shardAt(picture, panel, pointer(event))));
  let cursor = null;
  frame.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      session.tip.hidden = true;
      return;
    }
    if ((event.key === "Enter" || event.key === " ") && cursor) {
      pick(shardAt(picture, panel, cursor));
      event.preventDefault();
      return;
    }
    const next = moveCell(cursor ?? [0, 0], event.key, picture.grid, picture.factor);
    if (!next) return;
    cursor = cursor ? next : [0, 0];
    const [x, y] = pointOf(cursor, width, height, picture.grid);
    hoverCell(session, p, k, cursor, frame, x, y);
    event.preventDefault();
    event.stopPropagation();
  });
}

/**
 * What is drawn under a panel: a strip's line chart, and the size of the grid.
 * @param {PictureView} picture
 * @param {number} width
 * @returns {Array<Element>}
 */
function panelFooter(picture, width) {
  const below = [];
  if (picture.line) {
    const svg = svgElement("svg", { width, height: 80, class: "jdw-pic-line" });
    for (const points of lineRuns(picture.line, width, 80)) {
      svg.append(svgElement("polyline", { points }));
    }
    below.push(svg);
  }
  const [rows, cols] = picture.grid;
  const axis = picture.layout === "strip" ? `${cols} values` : `${rows} rows × ${cols} columns`;
  below.push(element("div", "jdw-pic-note", axis));
  return below;
}

/**
 * Panel `k` of picture `p`: its image, rings and shard boxes (pushed to `boxes`, which a pick
 * marks), its events and what is drawn under it.
 * @param {ReturnType<typeof newSession>} session
 * @param {number} p
 * @param {PictureView} picture
 * @param {number} k
 * @param {{light: (shard: number) => void}} devices the picture's device strip
 * @param {Array<HTMLElement>} boxes
 */
function drawPanel(session, p, picture, k, devices, boxes) {
  const panel = picture.panels[k];
  const label = panel.title ? `${picture.label}, slice ${panel.title}` : picture.label;
  const { holder, frame, img, width, height } = panelFrame(picture, panel, label);
  img.width = width;
  img.height = height;
  frame.append(img, ...markRings(picture, panel));
  for (const number of panel.shards) {
    const box = shardBox(picture, number, width);
    boxes.push(box);
    frame.append(box);
  }
  const pick = (number) => {
    for (const box of boxes) box.classList.toggle("jdw-pic-picked", box.dataset.shard === String(number));
    devices.light(number);
  };
  wirePanel(session, { p, k, picture, frame, width, height }, pick);
  holder.append(frame, ...panelFooter(picture, width));
  return holder;
}

/**
 * A slider per leading dimension; a change asks the kernel for that slice (`slide`).
 * Offline, the sliders are shown but disabled.
 * @param {PicturesWidget} model
 * @param {number} p
 * @param {PictureView} picture
 */
function drawSliders(model, p, picture) {
  const box = element("div", "jdw-pic-sliders");
  const inputs = picture.sliders.map((slider) => {
    const label = element("label", "jdw-pic-slider");
    const input = element("input", "");
    input.type = "range";
    input.min = "0";
    input.max = String(slider.size - 1);
    input.value = String(slider.value);
    input.setAttribute("aria-label", `dim ${slider.dim}`);
    if (model.offline) {
      input.disabled = true;
      input.title = OFFLINE_SLIDER;
    }
    const shown = element("span", "", `dim ${slider.dim}: ${slider.value} of ${slider.size}`);
    label.append(shown, input);
    box.append(label);
    return input;
  });
  for (const input of inputs) {
    input.addEventListener("change", () => {
      const index = inputs.map((i) => Number(i.value));
      model.send({ event: "slide", picture: p, panel: 0, index });
    });
  }
  return box;
}

/**
 * Picture `p`'s figure: a scalar's value, or sliders, panels, legend and device strip.
 * @param {ReturnType<typeof newSession>} session
 * @param {PictureView} picture
 * @param {number} p
 */
function drawFigure(session, picture, p) {
  const figure = pictureFigure(picture, "jdw-pic-one");
  if (picture.layout === "scalar") {
    const value = element("div", "jdw-pic-scalar", picture.scalar);
    value.tabIndex = 0;
    value.setAttribute("aria-label", picture.label);
    figure.append(value);
    return figure;
  }
  const devices = drawDevices(picture);
  const boxes = [];
  const holders = picture.panels.map((_, k) => drawPanel(session, p, picture, k, devices, boxes));
  const body = pictureBody(picture, holders);
  if (picture.sliders.length) figure.append(drawSliders(session.model, p, picture));
  figure.append(body);
  if (picture.shards.length) figure.append(devices.strip);
  return figure;
}

/**
 * Every picture of the view, the tooltip, and a note of the arrays not drawn.
 * @param {ReturnType<typeof newSession>} session
 * @param {HTMLElement} root
 */
function drawAll(session, root) {
  const view = session.model.get("view");
  const figures = view.pictures.map((picture, p) => drawFigure(session, picture, p));
  root.replaceChildren(...figures, session.tip);
  if (view.skipped.length) root.append(element("div", "jdw-pic-note", `not drawn: ${view.skipped.join(", ")}`));
  session.tip.hidden = true;
}

/**
 * Draws the model's `view` ({@link PicturesModel}) in `el`.
 * @param {{model: PicturesWidget, el: HTMLElement}} props
 */
function render({ model, el }) {
  const root = element("div", "jdw-pic");
  keepKeys(root); // arrow keys move within a picture
  const session = newSession(model);
  const draw = () => drawAll(session, root);
  draw();
  el.replaceChildren(root);
  model.on("change:view", draw);
  model.on("change:probe", () => showProbe(session));
}

/** The [row, col] of a probe's full index (the last two entries; a strip's only one). */
function cellOf(picture, probe) {
  if (!("index" in probe)) return [-1, -1];
  const index = probe.index;
  return picture.layout === "strip" ? [0, index[0]] : index.slice(-2);
}

export default { initialize, render };
