// Pure helpers for the memory widget: units, a device's leaves, sorting, filtering, keyboard
// moves on the heatmap, and a local model for drawing a sharding diagram. No DOM here.

const UNITS = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"];

/**
 * `per process: process 0: 32 B on 2 devices, fullest 24 B; ...` for a map of several
 * processes (null for one): the same text as the Python `process_line`.
 */
export function processLine(processes, devices) {
  if (processes.length <= 1) return null;
  const counts = new Map();
  const fullest = new Map();
  for (const { process, bytes } of devices) {
    counts.set(process, (counts.get(process) ?? 0) + 1);
    fullest.set(process, Math.max(fullest.get(process) ?? 0, bytes));
  }
  const parts = processes.map(([p, , human]) => {
    const n = counts.get(p) ?? 0;
    const noun = n === 1 ? "device" : "devices";
    const top = humanBytes(fullest.get(p) ?? 0);
    return `process ${p}: ${human} on ${n.toLocaleString("en-US")} ${noun}, fullest ${top}`;
  });
  return `per process: ${parts.join("; ")}`;
}

/** `1.50 MiB` for 1572864: the same text as the Python `human_bytes`. */
export function humanBytes(count) {
  let value = Number(count);
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  if (unit === 0) return `${Math.trunc(value)} B`;
  const digits = Math.abs(value) < 10 ? 2 : Math.abs(value) < 100 ? 1 : 0;
  return `${value.toFixed(digits)} ${UNITS[unit]}`;
}

/** One object per leaf from the view's `[path, dtype, group]` triples and shared group facts. */
export function expandLeaves(view) {
  const flagged = new Set(view.flagged);
  return view.leaves.map(([path, dtype, number], index) => {
    const [name, itemsize] = view.dtypes[dtype];
    const group = view.groups[number];
    return {
      path,
      shape: group.shape,
      dtype: name,
      spec: group.spec,
      shard_shape: group.shard_shape,
      replication: group.replication,
      total: group.total_elements * itemsize,
      per_device: group.max_elements * itemsize,
      itemsize,
      group: number,
      flagged: flagged.has(index),
    };
  });
}

/** For each group, the indices of the leaves in it (`view.leaves` expanded). */
export function leavesByGroup(view) {
  const byGroup = view.groups.map(() => []);
  view.leaves.forEach((leaf, index) => byGroup[leaf.group].push(index));
  return byGroup;
}

/** `[{leaf, bytes}]` for every leaf with bytes on device `deviceIndex`, largest first
 * (`view.leaves` expanded). */
export function deviceLeaves(view, deviceIndex, byGroup = leavesByGroup(view)) {
  const held = [];
  view.groups.forEach((group, number) => {
    const position = view.device_sets[group.set].indexOf(deviceIndex);
    if (position < 0) return;
    const elements = typeof group.elements === "number" ? group.elements : group.elements[position];
    if (!elements) return;
    for (const leaf of byGroup[number]) {
      held.push({ leaf, bytes: elements * view.leaves[leaf].itemsize });
    }
  });
  return held.sort(
    (a, b) => b.bytes - a.bytes || comparePaths(view.leaves[a.leaf].path, view.leaves[b.leaf].path),
  );
}

function comparePaths(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Leaf indices ordered by `key` (`per_device`, `total`, `path`, `replication`), ties by path. */
export function sortedLeaves(leaves, key, descending) {
  const order = leaves.map((_, index) => index);
  const sign = descending ? -1 : 1;
  order.sort((i, j) => {
    const a = leaves[i];
    const b = leaves[j];
    const primary = key === "path" ? comparePaths(a.path, b.path) : a[key] - b[key];
    return sign * primary || comparePaths(a.path, b.path);
  });
  return order;
}

/** Whether `path` contains `filter`, ignoring case; an empty filter matches everything. */
export function matchesFilter(path, filter) {
  const wanted = filter.trim().toLowerCase();
  return wanted === "" || path.toLowerCase().includes(wanted);
}

const MOVES = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };

/** The device index an arrow key moves to from `current` on the grid, or null for other keys. */
export function gridStep(grid, current, key) {
  const move = MOVES[key];
  if (!move) return null;
  const at = new Map(grid.cells.map(([r, c, index]) => [`${r},${c}`, index]));
  const here = grid.cells.find((cell) => cell[2] === current);
  if (!here) return grid.cells.length ? grid.cells[0][2] : null;
  let [row, col] = here;
  for (let step = 0; step < grid.rows * grid.cols; step += 1) {
    row += move[0];
    col += move[1];
    if (row < 0 || col < 0 || row >= grid.rows || col >= grid.cols) return current;
    const found = at.get(`${row},${col}`);
    if (found !== undefined) return found;
  }
  return current;
}

/** A model with anywidget's get/set/on/off/save_changes held in the page, for nested views. */
export function localModel(state) {
  const listeners = new Map();
  return {
    get: (name) => state[name],
    set(name, value) {
      state[name] = value;
      for (const listener of listeners.get(`change:${name}`) || []) listener();
    },
    save_changes() {},
    send() {},
    /** No kernel answers this model: views say so where they would ask one. */
    offline: true,
    on(event, listener) {
      listeners.set(event, [...(listeners.get(event) || []), listener]);
    },
    off(event, listener) {
      listeners.set(
        event,
        (listeners.get(event) || []).filter((known) => known !== listener),
      );
    },
  };
}
