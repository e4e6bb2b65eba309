"""The display hooks of an output drawn over a live widget (pictures, NaN reports): text in a
terminal, in a notebook one standalone output linked to the widget (``_linked``), or on Colab
the widget itself."""

from __future__ import annotations

from typing import Any


class LinkedDisplay:
    """``str`` as terminal text and Jupyter's bundle as above, from the subclass's renderers:
    ``to_text``, ``to_html``, ``widget`` and ``standalone`` (the linked output for a widget)."""

    def __str__(self) -> str:
        return self.to_text()

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        """Where a kernel runs, one standalone output linked to a live widget (it lasts through a
        restart and reload); HTML and text elsewhere."""
        from jaxdbg_widgets.sharding.api import _in_notebook

        if _in_notebook():
            from jaxdbg_widgets._linked import outputs_share_the_page

            live = None if outputs_share_the_page() else self.widget()._repr_mimebundle_(**kwargs)
            if live is not None:
                return live[0]  # Colab: the widget itself (see outputs_share_the_page)
            return self.standalone()._repr_mimebundle_()
        return {"text/plain": self.to_text(), "text/html": self.to_html()}
