"""A kernel-free view in one ``text/html`` output: the static twin, the state, and a script.

Views whose JavaScript sends nothing the page cannot answer itself (the sharding diagram, the
memory map) are displayed this way by default. There is no widget-view mime in the bundle, so a
saved, reopened, restarted or reloaded notebook draws the same view: where the output's scripts
run (trusted notebooks in JupyterLab and Notebook 7, nbconvert's HTML, VS Code, Colab) the
interactive view replaces the static twin; elsewhere (untrusted notebooks, GitHub) the static
twin stays. The output is deterministic: the same state always gives the same bytes.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable, Mapping
from typing import Any

from jaxdbg_widgets._assets import inlined_module, stylesheet
from jaxdbg_widgets._map_kind import MapKind

# The loader hides the static twin at once, so the page never lays out what the live view
# replaces (thousands of cells for a large mesh), and shows it again if the view cannot draw.
_LOADER = (
    "(function(){var s=document.currentScript,h=s&&s.parentElement;if(!h)return;"
    'var t=h.querySelector(".jdw-standalone-static");if(t)t.style.display="none";'
    'Promise.all([import("{widget}"),import("{mount}")])'
    ".then(function(m){m[1].mount(h,m[0].default);})"
    '.catch(function(e){if(t)t.style.display="";'
    'console.error("jaxdbg_widgets: static view kept:",e);});})();'
)


def _module_url(name: str) -> str:
    """A ``data:`` URL of the ES module ``name`` with its relative imports inlined."""
    encoded = base64.b64encode(inlined_module(name).encode("utf-8")).decode("ascii")
    return f"data:text/javascript;base64,{encoded}"


def _script_json(value: Any) -> str:
    """JSON safe inside a ``<script>`` element: no ``</script>``, ``<!--`` or ``&`` can form."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def standalone_html(
    *,
    module: str,
    css: tuple[str, ...],
    state: Mapping[str, Any],
    static_html: str,
    derived: Mapping[str, tuple[str, Mapping[str, Any]]] | None = None,
    link: str | None = None,
) -> str:
    """The output's HTML: ``static_html``, the view's CSS, ``state`` as JSON and the loader.

    ``derived`` maps a trait to the trait its change fills and the value for each index, for
    answers the kernel would otherwise compute (see ``js/standalone.js``). ``link`` is the key
    of a live widget the output draws over while its kernel runs (``js/live_link.js``).
    """
    payload: dict[str, Any] = {"state": dict(state)}
    if link:
        payload["link"] = link
    if derived:
        payload["derived"] = {
            name: [target, dict(values)] for name, (target, values) in derived.items()
        }
    styles = stylesheet(*css)
    loader = _LOADER.replace("{widget}", _module_url(module)).replace(
        "{mount}", _module_url("standalone.js")
    )
    return (
        '<div class="jdw-standalone">'
        f'<div class="jdw-standalone-static">{static_html}</div>'
        f"<style>{styles}</style>"
        f'<script type="application/json">{_script_json(payload)}</script>'
        f"<script>{loader}</script>"
        "</div>"
    )


def carried_answers(count: int, answer: Callable[[int], Any], budget: int) -> dict[str, Any] | None:
    """Each of ``count`` positions' answers, keyed as the view asks for them, to carry in the
    output; ``None`` once their JSON passes ``budget`` bytes (the live widget asks instead)."""
    answers = {}
    size = 0
    for position in range(count):
        value = answer(position)
        size += len(json.dumps(value, separators=(",", ":")))
        if size > budget:
            return None
        answers[str(position)] = value
    return answers


def carried_map(model: Any, kind: MapKind, budget: int) -> StandaloneOutput | None:
    """``model``'s map of ``kind``, carrying the diagram of each item a click can pick, or
    ``None`` once their JSON passes ``budget`` bytes (the live widget asks for them then)."""
    diagrams = carried_answers(kind.count(model), lambda n: kind.diagram(model, n), budget)
    if diagrams is None:
        return None
    shown = kind.view(model)
    html = standalone_html(
        module=kind.module,
        css=kind.css,
        state={"view": shown, **kind.state, kind.pick: -1, f"{kind.pick}_view": {}},
        static_html=kind.html_from_view(shown),
        derived={kind.pick: (f"{kind.pick}_view", diagrams)},
    )
    return StandaloneOutput(kind.text(model), html)


class StandaloneOutput:
    """What a notebook shows for a kernel-free view: its text and its standalone HTML."""

    def __init__(self, text: str, html: str) -> None:
        self.text = text
        self.html = html

    def __repr__(self) -> str:
        return self.text

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, str]:
        return {"text/plain": self.text, "text/html": self.html}
