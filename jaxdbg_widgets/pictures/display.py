"""``Pictures``: the picture model with the hooks that show it as text, HTML or a widget.

The model (:class:`~jaxdbg_widgets.pictures.model.PictureSet`) and the renderers import no
display hook; this thin subclass is the one module that knows them all.
"""

from __future__ import annotations

from typing import Any

from jaxdbg_widgets.pictures.html import render_html
from jaxdbg_widgets.pictures.model import PictureSet
from jaxdbg_widgets.pictures.text import render_text


class Pictures(PictureSet):
    """Pictures of arrays: a widget in a notebook, static HTML when saved, text in a terminal."""

    def to_text(self) -> str:
        return render_text(self)

    def to_html(self) -> str:
        return render_html(self)

    def widget(self) -> Any:
        """The interactive widget for these pictures (needs a Jupyter front end to draw)."""
        from jaxdbg_widgets.pictures.widget import PicturesWidget

        return PicturesWidget(self)

    def __str__(self) -> str:
        return self.to_text()

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        """Where a kernel runs, one standalone output linked to a live widget (it lasts through a
        restart and reload); HTML and text elsewhere."""
        from jaxdbg_widgets.sharding.api import _in_notebook

        if _in_notebook():
            from jaxdbg_widgets._linked import outputs_share_the_page
            from jaxdbg_widgets.pictures.standalone import standalone_pictures

            live = None if outputs_share_the_page() else self.widget()._repr_mimebundle_(**kwargs)
            if live is not None:
                return live[0]  # Colab: the widget itself (see outputs_share_the_page)
            return standalone_pictures(self)._repr_mimebundle_()
        return {"text/plain": self.to_text(), "text/html": self.to_html()}
