"""Which view builder draws a session, by the kind it declares (``Served.view_kind``): one
hit, the shards of a run, or the hits of every process of a job. Its own module, so the view
modules need not know one another; a new session kind adds its builder here."""

from __future__ import annotations

from typing import Any

from jaxdbg_widgets.debugger.session import commands
from jaxdbg_widgets.debugger.session.base import Served
from jaxdbg_widgets.debugger.view.build import ShardViewBuilder, ViewBuilder
from jaxdbg_widgets.debugger.view.cluster import ClusterViewBuilder

BUILDERS: dict[str, Any] = {
    commands.HIT: ViewBuilder,
    commands.SHARDS: ShardViewBuilder,
    commands.JOB: ClusterViewBuilder,
}
"""The builder class for each ``view_kind``."""


def builder_for(session: Served) -> Any:
    """The view builder that draws ``session`` (a job's engines build their own parts)."""
    return BUILDERS[session.view_kind](session)
