"""Which gathered shard the front end shows, and how the user names one.

The first shard in mesh order is shown until the user picks one. A shard is named by its
position in the list (``3``), its label (``CPU 3 (x=3)``), its device (``CPU 3``) or its mesh
position (``data=13, model=8``), as the header shows them, in any case and spacing. When the
shown shard is released alone, the selection moves on to the next shard that still waits.
"""

from __future__ import annotations

from jaxdbg_widgets.debugger.session.shard_gathering import Gathering, Hit


class Selection:
    """The shown shard of a :class:`Gathering`."""

    def __init__(self, gathering: Gathering) -> None:
        self.gathering = gathering
        self.hit: Hit | None = None
        self._picked = False

    def on_arrival(self, hit: Hit) -> None:
        """Show the first shard in mesh order until the user picks one."""
        del hit
        if not self._picked:
            self.hit = self.gathering.hits[0]

    @property
    def index(self) -> int:
        """Position of the shown shard among the gathered ones (0 before any hit)."""
        return self.gathering.hits.index(self.hit) if self.hit is not None else 0

    def current(self) -> Hit:
        """The shown shard; raises before any hit."""
        if self.hit is None:
            raise LookupError("no shard has reached the breakpoint yet")
        return self.hit

    def pick(self, which: int | str) -> Hit:
        """Show the shard ``which`` names, and keep it shown as others arrive."""
        self.hit = self.find(which)
        self._picked = True
        return self.hit

    def after_release(self, hit: Hit) -> None:
        """When the shown shard was released, show the next one in mesh order that still
        waits (wrapping around), so stepping through the shards with ``c N`` keeps its place."""
        if hit is not self.hit:
            return
        hits = self.gathering.hits
        at = hits.index(hit)
        self.hit = next((h for h in hits[at + 1 :] + hits[:at] if h.resume is None), hit)

    def find(self, which: int | str) -> Hit:
        """The shard at position ``which``, or named ``which`` by label, device or position."""
        hits = self.gathering.hits
        if isinstance(which, bool) or not isinstance(which, (int, str)):
            raise TypeError("a shard is chosen by its position or its device name")
        if isinstance(which, int):
            if not 0 <= which < len(hits):
                raise ValueError(
                    f"shard must be an integer in [0, {len(hits) - 1}]"
                    if hits
                    else "no shard has reached the breakpoint yet"
                )
            return hits[which]
        wanted = _spelling(which)
        hit = next((h for h in hits if wanted in _names(h)), None)
        if hit is not None:
            return hit
        if hits and all(h.shard.device is None for h in hits):
            raise ValueError(
                f"no gathered shard is named {which!r}; these shards are known by mesh position "
                f"only ({hits[0].shard.where or hits[0].shard.label}): set the mesh with "
                "jax.set_mesh to name their devices"
            )
        raise ValueError(f"no gathered shard is named {which!r}")


def _spelling(text: str) -> str:
    """``text`` as names are compared: no case, no spaces (``cpu216``, ``data=13,model=8``)."""
    return "".join(text.split()).lower()


def _names(hit: Hit) -> set[str]:
    """Every way a shard can be named: label, device, mesh position, as the header shows them."""
    shard = hit.shard
    return {_spelling(name) for name in (shard.label, shard.device, shard.where) if name}
