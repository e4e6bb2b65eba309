"""Widgets that a kernel-free output draws over while the kernel that made them runs.

Such a widget is opened but not displayed: the notebook shows one standalone ``text/html``
output carrying the widget's ``link`` key, which lasts through a save, restart and reload. While
the kernel lives, the front end creates the widget's model and its module offers it under that
key (``js/live_link.js``); the output then draws over the live model and asks the kernel what
the page alone cannot answer.
"""

from __future__ import annotations

import sys
import uuid

import traitlets


def outputs_share_the_page() -> bool:
    """Whether an output's script and the widget manager share one page, so an output can reach
    a live model. Colab runs each output in a frame of its own: there the live widget itself is
    shown, as a saved standalone output could never reach it."""
    return "google.colab" not in sys.modules


class Linkable(traitlets.HasTraits):
    """Adds the synced ``link`` key, new for every widget, to an anywidget."""

    link = traitlets.Unicode().tag(sync=True)

    @traitlets.default("link")
    def _new_link(self) -> str:
        return uuid.uuid4().hex
