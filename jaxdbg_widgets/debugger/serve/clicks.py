"""A session served through its widget's clicks, redrawn when it changes on another thread;
without a rendered view it goes on through typed commands."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from jaxdbg_widgets.debugger.serve.front_end import (
    RENDERED,
    FrontEnd,
    MessageSource,
    freeze,
    render_timeout,
    status,
)
from jaxdbg_widgets.debugger.serve.protocol import apply_message
from jaxdbg_widgets.debugger.serve.typed import serve_lines
from jaxdbg_widgets.debugger.session.base import Resume, Served
from jaxdbg_widgets.debugger.view.builders import builder_for
from jaxdbg_widgets.debugger.widget import ended, render_memory


def serve_widget(session: Served, front_end: FrontEnd) -> Resume:
    """Serve the widget's clicks; without a rendered view, go on with typed commands.

    A view says ``{"type": "rendered"}`` when it draws (any message from it proves it too).
    If none arrives within :func:`render_timeout` seconds, or the transport fails, the widget
    is frozen to its static view and the same breakpoint continues through typed commands,
    which fall back to the headless policy where stdin is not allowed. A timeout is remembered
    (:mod:`~jaxdbg_widgets.debugger.widget.render_memory`), so later hits do not wait again.
    """
    from jaxdbg_widgets.debugger.transports.inbox import NoTransport
    from jaxdbg_widgets.debugger.widget.widget import DebuggerWidget

    builder = builder_for(session)
    mark = ended.reload_mark()
    widget = DebuggerWidget(view=builder.build())
    inbox = front_end.open_inbox(widget)
    update = front_end.display(widget)
    stop_watching = wake_on_changes(session, inbox)
    fallback = None
    try:
        fallback = _answer_clicks(session, inbox, widget, builder)
    except NoTransport as error:
        fallback = str(error)
    finally:
        inbox.close()
        freeze(widget, builder.build("typed prompt" if fallback else status(session)), update, mark)
        builder.forget()
        stop_watching()
    if fallback is None:
        return session.resume
    print(f"jaxdbg: {fallback}; continuing without the widget", flush=True)
    return serve_lines(session, front_end, widget=False)


def _answer_clicks(session: Served, inbox: MessageSource, widget: Any, builder: Any) -> str | None:
    """Apply the widget's messages until the session resumes; redraw as it changes. Returns why
    the widget was given up (no view rendered in time), or ``None``."""
    timeout = render_timeout()
    deadline = time.monotonic() + timeout
    rendered = False
    seen = session.version
    while session.resume is None:
        content = inbox.get(None if rendered else max(0.0, deadline - time.monotonic()))
        if content is not None:
            if not rendered:
                rendered = True
                render_memory.note_rendered()
            if content != RENDERED:
                apply_message(session, content)
                if session.resume is None:  # once resumed, the frozen view is the next
                    widget.view = builder.build()
        elif not rendered and time.monotonic() >= deadline:
            render_memory.note_timeout()
            return f"no front end showed the debugger widget within {timeout:g} s"
        if session.resume is None and session.version != seen:
            seen = session.version
            widget.view = builder.build()
    return None


def wake_on_changes(session: Served, inbox: MessageSource) -> Callable[[], None]:
    """Wake ``inbox`` each time the session changes on another thread (a shard arrives, the
    run ends); returns the stop. A session whose ``changed`` is ``None`` changes only through
    its own messages."""
    changed = session.changed
    if changed is None:
        return lambda: None
    stopped = threading.Event()

    def watch() -> None:
        seen = session.version
        while not stopped.is_set():
            with changed:
                while not stopped.is_set() and session.version == seen:
                    changed.wait()
                seen = session.version
            if not stopped.is_set():
                inbox.wake()

    watcher = threading.Thread(target=watch, name="jaxdbg-redraw", daemon=True)
    watcher.start()

    def stop() -> None:  # without waiting: the watcher ends as soon as it wakes
        stopped.set()
        with changed:
            changed.notify_all()

    return stop
