"""What the job debugger reaches every process through: a :class:`Link` that asks the process
holding hits and answers for it, and the hits a process holds, as its last reply described them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from jaxdbg_widgets.debugger.schema import DebuggerView


class ProcessLost(Exception):
    """A process stopped answering: it died, or its engine left the cluster."""


class Link(Protocol):
    """Requests to the process that holds hits (:class:`jaxdbg_widgets.multiprocess.desk.Desk`)."""

    def ask(self, process: int, request: dict[str, Any]) -> dict[str, Any]:
        """The process's reply; raises :class:`ProcessLost` when the process is gone and
        ``TimeoutError`` when its answer is late."""


@dataclass
class ProcessHits:
    """One process's held hit (a hit or its devices' shards), as its last reply described it."""

    process: int
    token: int
    summary: dict[str, Any]
    view: DebuggerView | None = None
    died: str | None = None

    @property
    def devices(self) -> list[dict[str, Any]]:
        return self.summary.get("devices", [])

    @property
    def resume(self) -> str | None:
        return self.summary.get("resume")

    @property
    def waiting(self) -> bool:
        return self.died is None and self.resume is None
