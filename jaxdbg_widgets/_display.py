"""How every result shows itself: terminal text for ``str`` and ``print``, and for Jupyter one
bundle chosen in one place, so the maps, reports and pictures are shown the same way.

A result's display class gives its renderers (``to_text``, ``to_html`` and, for the notebook,
``standalone`` or ``widget``); these bases turn them into what ``print``, ``rich.print`` and
Jupyter ask for. Outside a kernel every result is its static HTML with its text.
"""

from __future__ import annotations

import abc
from typing import Any, ClassVar

from jaxdbg_widgets._kernel.shell import running_kernel
from jaxdbg_widgets._map_kind import MapKind


def in_notebook() -> bool:
    """Whether a Jupyter front end can show widgets: an IPython kernel is running this code."""
    return running_kernel() is not None


class Display(abc.ABC):
    """``str`` as terminal text; Jupyter's bundle from :meth:`_notebook_bundle` where a kernel
    runs (when it gives one), else static HTML and text. A subclass that leaves one of the
    abstract renderers out cannot be made."""

    @abc.abstractmethod
    def to_text(self) -> str: ...

    @abc.abstractmethod
    def to_html(self) -> str: ...

    def _notebook_bundle(self, **kwargs: Any) -> dict[str, Any] | None:
        """The output a notebook shows, or ``None`` for the static HTML."""
        return None

    def __str__(self) -> str:
        return self.to_text()

    def __rich__(self) -> Any:
        """The text for ``rich``, as it reads: never parsed as markup (code such as
        ``x[idx]`` keeps its brackets), never the dataclass's fields."""
        import rich.text

        return rich.text.Text(self.to_text())

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        if in_notebook():
            bundle = self._notebook_bundle(**kwargs)
            if bundle is not None:
                return bundle
        return {"text/plain": self.to_text(), "text/html": self.to_html()}


class StandaloneDisplay(Display):
    """A result whose notebook output is its kernel-free view (``standalone``), which draws
    after a save, restart or reload."""

    @abc.abstractmethod
    def standalone(self) -> Any: ...

    def _notebook_bundle(self, **kwargs: Any) -> dict[str, Any] | None:
        return self.standalone()._repr_mimebundle_(**kwargs)


class MapDisplay(Display):
    """A map drawn by its ``kind``: its standalone view, or its widget when the diagrams are
    too many to carry; ``rich`` gets its ``text_renderable``."""

    kind: ClassVar[MapKind]

    def to_text(self, **options: Any) -> str:
        """The map as terminal text; ``options`` go to the kind's renderer (``use_color``)."""
        return self.kind.text(self, **options)

    def to_html(self) -> str:
        return self.kind.html(self)

    @abc.abstractmethod
    def standalone(self) -> Any: ...

    @abc.abstractmethod
    def widget(self) -> Any: ...

    @abc.abstractmethod
    def text_renderable(self) -> Any: ...

    def __rich__(self) -> Any:
        return self.text_renderable()

    def _notebook_bundle(self, **kwargs: Any) -> dict[str, Any] | None:
        standalone = self.standalone()
        if standalone is not None:
            return standalone._repr_mimebundle_(**kwargs)
        bundle = self.widget()._repr_mimebundle_(**kwargs)
        return None if bundle is None else bundle[0]


class LinkedDisplay(Display):
    """An output drawn over a live widget (pictures, NaN reports): one standalone output linked
    to the widget, which lasts through a restart and reload; on Colab the widget itself, as
    there an output cannot reach a live model (see ``outputs_share_the_page``)."""

    @abc.abstractmethod
    def standalone(self) -> Any: ...

    @abc.abstractmethod
    def widget(self) -> Any: ...

    def _notebook_bundle(self, **kwargs: Any) -> dict[str, Any] | None:
        from jaxdbg_widgets._linked import outputs_share_the_page

        live = None if outputs_share_the_page() else self.widget()._repr_mimebundle_(**kwargs)
        if live is not None:
            return live[0]
        return self.standalone()._repr_mimebundle_()
