"""The display hooks the maps share: text in a terminal, the standalone view in a notebook.

A map's subclass gives its renderers (``to_text``, ``to_html``, ``widget``, ``standalone``,
``text_renderable``); this mixin turns them into what ``print``, ``rich.print`` and Jupyter ask
for, so every map is shown the same way.
"""

from __future__ import annotations

from typing import Any


class MapDisplay:
    """``str`` and ``rich`` as terminal text; in a notebook the standalone view (the widget when
    its diagrams are too many to carry), HTML and text elsewhere."""

    def __rich__(self) -> Any:
        return self.text_renderable()

    def __str__(self) -> str:
        return self.to_text()

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        from jaxdbg_widgets.sharding.api import _in_notebook

        if _in_notebook():
            standalone = self.standalone()
            if standalone is not None:
                return standalone._repr_mimebundle_(**kwargs)
            bundle = self.widget()._repr_mimebundle_(**kwargs)
            if bundle is not None:
                return bundle[0]
        return {"text/plain": self.to_text(), "text/html": self.to_html()}
