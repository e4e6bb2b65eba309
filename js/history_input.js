// A text box with a history: the debugger's expression, command and compare boxes.
import { historyStep } from "./debugger_format.js";
import { element } from "./dom.js";

/**
 * A text box that submits on Enter (cleared when `onSubmit` accepts) and walks
 * `getHistory()` on ↑/↓, keeping the typed draft; its keys stay out of the notebook.
 * @param {string} className
 * @param {string} placeholder
 * @param {(text: string) => boolean} onSubmit
 * @param {() => string[]} getHistory
 * @returns {HTMLInputElement}
 */
export function historyInput(className, placeholder, onSubmit, getHistory) {
  const input = element("input", className);
  input.type = "text";
  input.placeholder = placeholder;
  input.spellcheck = false;
  let position = null;
  let draft = "";
  input.addEventListener("keydown", (event) => {
    const history = getHistory();
    if (event.key === "Enter") {
      event.preventDefault();
      if (onSubmit(input.value)) {
        input.value = "";
      }
      position = null;
    } else if (event.key === "ArrowUp" || event.key === "ArrowDown") {
      event.preventDefault();
      if (position === null) {
        position = history.length;
        draft = input.value;
      }
      const step = historyStep(history, position, event.key === "ArrowUp" ? "up" : "down", draft);
      position = step.position;
      input.value = step.text;
    }
    event.stopPropagation();
  });
  return input;
}
