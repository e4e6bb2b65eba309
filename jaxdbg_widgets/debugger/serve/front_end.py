"""Where a served session's commands come from, and where its widget is shown and frozen.

:class:`FrontEnd` bundles the four reach points (the tier this kernel supports, an inbox on a
widget, one typed line, a display); the default is the transports package, tests pass fakes.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from jaxdbg_widgets._kernel.shell import running_kernel
from jaxdbg_widgets.debugger.session.base import Served
from jaxdbg_widgets.debugger.transports.capability import Tier, detect_tier
from jaxdbg_widgets.debugger.widget import ended, static_html

RENDER_TIMEOUT_SECONDS = 5.0
"""How long a displayed debugger widget has to say it rendered before the typed prompt (or the
headless policy) takes over; ``$JAXDBG_RENDER_TIMEOUT`` overrides it."""
RENDER_TIMEOUT_ENV_VAR = "JAXDBG_RENDER_TIMEOUT"
RENDERED = {"type": "rendered"}
PROMPT = "(jdb) "


class MessageSource(Protocol):
    """Messages the widget's front end sent (``model.send(content)``), as the transports give
    them."""

    def get(self, timeout: float | None) -> Any | None: ...

    def wake(self) -> None:
        """Make a waiting ``get`` return ``None`` now: something else changed to redraw."""

    def close(self) -> None: ...


@dataclass
class FrontEnd:
    """Where commands come from; the defaults are the transports package, tests pass fakes."""

    detect_tier: Callable[[], Tier]
    open_inbox: Callable[[Any], MessageSource]
    read_line: Callable[[str], str | None]
    display: Callable[[Any], Callable[[Any], None]]


def default_front_end() -> FrontEnd:
    """The transports package's tier, inbox and typed line, and IPython's display."""
    from jaxdbg_widgets.debugger import transports

    return FrontEnd(
        detect_tier=detect_tier,
        open_inbox=lambda widget: transports.open_inbox(widget),
        read_line=_read_line,
        display=_display,
    )


def _read_line(prompt: str) -> str | None:
    """A typed command: through the kernel's stdin channel, or the terminal outside a kernel."""
    from jaxdbg_widgets.debugger import transports

    if running_kernel() is None:
        return input(prompt)
    return transports.read_line(prompt)


def _display(widget: Any) -> Callable[[Any], None]:
    from IPython.display import display

    handle = display(widget, display_id=True)
    return handle.update if handle is not None else lambda _obj: None


def render_timeout() -> float:
    """Seconds a widget has to acknowledge its view: ``$JAXDBG_RENDER_TIMEOUT`` or the default."""
    try:
        return float(os.environ.get(RENDER_TIMEOUT_ENV_VAR, RENDER_TIMEOUT_SECONDS))
    except ValueError:
        return RENDER_TIMEOUT_SECONDS


def status(session: Served) -> str:
    """How the session ended, for the frozen view; no resume means it was interrupted."""
    return session.resume.value if session.resume is not None else "interrupted"


def freeze(
    widget: Any, final: dict[str, Any], update: Callable[[Any], None], mark: ended.Mark
) -> None:
    """Show the final state, then replace the output by its static rendering; the widget stays
    open, frozen, for a page reloaded while the session waited (see :mod:`.ended`), and ``mark``
    (taken when the session started) tells whether one was."""
    widget.view = final
    update(static_html.FrozenView(final))
    ended.keep(widget, mark)
