"""Bytes each device sends and receives for one execution of a collective.

The formulas are those of the bandwidth-optimal ring (and pairwise) algorithms, written out in
``docs/communication.md``; ``n`` is the group size, sizes are one device's buffers:

- all-reduce: ``2 (n-1)/n * S`` sent and received, S the reduced buffer;
- all-gather: ``(n-1)/n * R``, R the gathered result;
- reduce-scatter: ``(n-1)/n * I``, I the input (``n`` times the result);
- all-to-all: ``(n-1)/n * S``, S the buffer each device holds;
- collective-permute: ``S`` sent by each source and received by each target of a pair
  (a device paired with itself moves nothing).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from jaxdbg_widgets.comms.hlo import HloCollective


def group_traffic(kind: str, result_bytes: int, operand_bytes: int | None, n: int) -> int:
    """Bytes one member of a group of ``n`` sends (and receives) for a group collective."""
    if n <= 1:
        return 0
    if kind == "all-reduce":
        return round(2 * (n - 1) * result_bytes / n)
    if kind == "all-gather":
        return round((n - 1) * result_bytes / n)
    if kind == "reduce-scatter":
        source = operand_bytes if operand_bytes is not None else n * result_bytes
        return round((n - 1) * source / n)
    if kind == "all-to-all":
        return round((n - 1) * result_bytes / n)
    raise ValueError(f"{kind} is not a group collective")


def per_partition(collective: HloCollective, partitions: int) -> tuple[np.ndarray, np.ndarray]:
    """``(sent, received)`` bytes of every partition for one execution of ``collective``."""
    size = max(partitions, int(collective.groups.max()) + 1 if collective.groups.size else 0)
    if collective.kind == "collective-permute":
        pairs = collective.groups[collective.groups[:, 0] != collective.groups[:, 1]]
        each = collective.result_bytes
        sent = np.bincount(pairs[:, 0], minlength=size) * each
        received = np.bincount(pairs[:, 1], minlength=size) * each
        return sent.astype(np.int64), received.astype(np.int64)
    amount = group_traffic(
        collective.kind,
        collective.result_bytes,
        _operand_bytes(collective),
        collective.groups.shape[1],
    )
    members = np.bincount(collective.groups.reshape(-1), minlength=size).astype(np.int64)
    return members * amount, members * amount


def sent_per_device(
    executed: Iterable[tuple[HloCollective, int, int]], partitions: int
) -> np.ndarray:
    """Bytes each of ``partitions`` sends over ``(collective, sent per member, executions)``.

    Group collectives that share their groups are counted together, with one count of the
    groups' members, so a program of a thousand collectives over a few group forms costs a few
    passes over its devices, not a thousand.
    """
    total = np.zeros(partitions, dtype=np.int64)
    by_groups: dict[str, tuple[np.ndarray, int]] = {}
    for collective, sent, executions in executed:
        if not sent:
            continue
        if collective.kind == "collective-permute":
            total += per_partition(collective, partitions)[0][:partitions] * executions
            continue
        groups, before = by_groups.get(collective.groups_text, (collective.groups, 0))
        by_groups[collective.groups_text] = (groups, before + sent * executions)
    for groups, amount in by_groups.values():
        members = np.bincount(groups.reshape(-1), minlength=partitions)[:partitions]
        total += members.astype(np.int64) * amount
    return total


def member_traffic(collective: HloCollective) -> tuple[int, int]:
    """``(sent, received)`` by one participating device: a group member, or a permute's source."""
    if collective.kind == "collective-permute":
        moving = collective.groups[:, 0] != collective.groups[:, 1]
        return (collective.result_bytes, collective.result_bytes) if moving.any() else (0, 0)
    amount = group_traffic(
        collective.kind,
        collective.result_bytes,
        _operand_bytes(collective),
        collective.groups.shape[1],
    )
    return amount, amount


def _operand_bytes(collective: HloCollective) -> int | None:
    if not collective.operands or any(o is None for o in collective.operands):
        return None
    return sum(o.nbytes for o in collective.operands if o is not None)
