"""Which view builder draws a session: a single hit, a shard session, or the session of
every process of a job. Its own module, so the view modules need not know one another."""

from __future__ import annotations

from typing import Any

from jaxdbg_widgets.debugger.cluster_session import ClusterSession
from jaxdbg_widgets.debugger.cluster_view import ClusterViewBuilder
from jaxdbg_widgets.debugger.shard_session import ShardSession
from jaxdbg_widgets.debugger.view import ShardViewBuilder, ViewBuilder


def builder_for(session: Any) -> Any:
    """The view builder that draws ``session`` (a job's engines build their own parts)."""
    if isinstance(session, ClusterSession):
        return ClusterViewBuilder(session)
    return ShardViewBuilder(session) if isinstance(session, ShardSession) else ViewBuilder(session)
