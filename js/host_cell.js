/**
 * The notebook cell a widget is drawn in, reached through the page's JupyterLab or Notebook 7
 * application (`window.jupyterapp`). Elsewhere (VS Code, Colab, a static page) there is none,
 * and nothing here changes anything: the host app is read defensively and never required.
 */

const ATTACH_TRIES = 100;
const ATTACH_DELAY_MS = 100;

/** The model of the notebook cell whose node holds `node`, or null where there is none. */
export function cellModelHolding(node, app = globalThis.jupyterapp) {
  const shell = app?.shell;
  if (typeof shell?.widgets !== "function") {
    return null;
  }
  for (const panel of shell.widgets("main")) {
    for (const cell of panel?.content?.widgets ?? []) {
      if (cell?.node?.contains?.(node)) {
        return cell.model ?? null;
      }
    }
  }
  return null;
}

/**
 * Show `count` as the prompt of the code cell that holds `node`, as a front end does for the
 * cells it ran itself; whether it did. A count already shown is left alone.
 */
export function showExecutionCount(node, count, app = globalThis.jupyterapp) {
  if (!Number.isInteger(count)) {
    return false;
  }
  try {
    const model = cellModelHolding(node, app);
    if (model?.type !== "code" || !("executionCount" in model)) {
      return false;
    }
    if (model.executionCount === count) {
      return false;
    }
    model.executionCount = count;
    return true;
  } catch {
    return false; // the host app is not ours: a change in it must not break the widget
  }
}

/** Run `action` once `node` is in the document (a widget is drawn before it is attached). */
export function whenAttached(node, action, tries = ATTACH_TRIES, delay = ATTACH_DELAY_MS) {
  if (node.isConnected) {
    action();
  } else if (tries > 1) {
    setTimeout(() => whenAttached(node, action, tries - 1, delay), delay);
  }
}
