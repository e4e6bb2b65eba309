"""A session served through typed commands (``(jdb)`` lines), its widget shown beside them."""

from __future__ import annotations

from typing import Any

from jaxdbg_widgets.debugger.serve.front_end import (
    PROMPT,
    FrontEnd,
    MessageSource,
    freeze,
    status,
)
from jaxdbg_widgets.debugger.serve.unattended import banner, serve_headless
from jaxdbg_widgets.debugger.session.base import Resume, Served
from jaxdbg_widgets.debugger.view.builders import builder_for
from jaxdbg_widgets.debugger.widget import ended, render_memory


def serve_lines(
    session: Served, front_end: FrontEnd, *, widget: bool, watch: bool = False
) -> Resume:
    """Serve typed commands; ``widget`` shows the debugger widget beside them.

    ``watch`` also listens to that widget, so that its acknowledgement (a front end that draws
    widgets after all) brings the clickable widget back from the next hit on.
    """
    from jaxdbg_widgets.debugger.widget.widget import DebuggerWidget

    builder = builder_for(session)
    mark = ended.reload_mark()
    view = DebuggerWidget(view=builder.build()) if widget else None
    inbox = _listen(view, front_end) if view is not None and watch else None
    update = front_end.display(view) if view is not None else None
    print(f"{banner(session)}\n{session.context()}", flush=True)
    try:
        while session.resume is None:
            try:
                line = front_end.read_line(PROMPT)
            except EOFError:
                line = "EOF"
            if line is None:
                return serve_headless(session)
            entry = session.run(line)
            if entry.output:
                print(entry.output, flush=True)
            if view is not None:
                view.view = builder.build()
        return session.resume
    finally:
        if inbox is not None:
            _note_acknowledgement(inbox)
        if view is not None and update is not None:
            freeze(view, builder.build(status(session)), update, mark)
        builder.forget()


def _listen(view: Any, front_end: FrontEnd) -> MessageSource | None:
    """An inbox on ``view``, or ``None`` where the transport refuses one."""
    from jaxdbg_widgets.debugger.transports.inbox import NoTransport

    try:
        return front_end.open_inbox(view)
    except NoTransport:
        return None


def _note_acknowledgement(inbox: MessageSource) -> None:
    """Remember a widget that spoke while typed commands were served; then close its inbox."""
    from jaxdbg_widgets.debugger.transports.inbox import NoTransport

    try:
        if inbox.get(0) is not None:
            render_memory.note_rendered()
    except (NoTransport, KeyboardInterrupt):
        pass  # the session is over either way; an interrupt has reached it already
    finally:
        inbox.close()
