"""The front end that serves a session: a running script, an engine's relay to the notebook,
the widget, typed lines, or the headless policy, in that order of preference."""

from __future__ import annotations

from jaxdbg_widgets.debugger.serve import relay, scripts
from jaxdbg_widgets.debugger.serve.clicks import serve_widget
from jaxdbg_widgets.debugger.serve.front_end import FrontEnd, default_front_end
from jaxdbg_widgets.debugger.serve.typed import serve_lines
from jaxdbg_widgets.debugger.serve.unattended import serve_headless, serve_script
from jaxdbg_widgets.debugger.session.base import Resume, Served
from jaxdbg_widgets.debugger.transports.capability import Tier
from jaxdbg_widgets.debugger.widget import render_memory


def serve(session: Served, front_end: FrontEnd) -> Resume:
    """Serve ``session`` to its end through the best front end this request can reach."""
    active = scripts.active()
    if active is not None:
        return serve_script(session, active)
    elsewhere = relay.current()
    if elsewhere is not None:
        return elsewhere(session)
    tier = front_end.detect_tier()
    if tier in (Tier.SUBSHELL, Tier.PUMP):
        from jaxdbg_widgets.debugger.transports.inbox import NoTransport

        if render_memory.widgets_unseen():
            return serve_lines(session, front_end, widget=True, watch=True)
        try:
            return serve_widget(session, front_end)
        except NoTransport:
            return serve_lines(session, front_end, widget=True)
    if tier in (Tier.STDIN, Tier.TERMINAL):
        return serve_lines(session, front_end, widget=tier is Tier.STDIN)
    return serve_headless(session)


def serve_gathered(session: Served) -> Resume:
    """Serve the hits of every process of a job through this kernel's best front end."""
    return serve(session, default_front_end())
