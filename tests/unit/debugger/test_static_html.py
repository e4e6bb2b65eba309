"""The static HTML fallback shows the transcript and escapes every program string."""

from __future__ import annotations

from jaxdbg_widgets.debugger.session import Session
from jaxdbg_widgets.debugger.static_html import render
from jaxdbg_widgets.debugger.view import ViewBuilder

from .conftest import CoreLikeFrame

XSS = "<img src=x onerror=alert(1)>"


def test_fallback_shows_location_transcript_and_status_escaped():
    frame = CoreLikeFrame(f"/work/{XSS}.py", 3, XSS, {XSS: XSS}, source=[XSS], offset=0)
    session = Session([frame])
    session.run(f"p {XSS!r}")
    session.run("p undefined_name")
    session.run("c")
    html = render(ViewBuilder(session).build("continue"))
    assert "<img" not in html
    assert html.count("&lt;img src=x onerror=alert(1)&gt;") >= 4
    assert "continued" in html
    assert "NameError" in html
