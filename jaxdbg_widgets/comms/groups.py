"""Replica groups as XLA writes them, expanded to partition ids, and the mesh axes they span.

Three written forms are read: explicit lists ``{{0,1},{2,3}}`` (``{}`` is one group of every
partition), the iota form ``[2,4]<=[8]`` / ``[4,2]<=[2,4]T(1,0)``, and the mesh form
``mesh['a'=2,'b'=4] {'b'}`` (sub-axes ``'a':(1)2`` and ``device_ids=(...)`` included).
Each gives a ``(groups, size)`` int array of partition ids, one row per group.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

_IOTA = re.compile(r"\[([\d,\s]+)\]\s*<=\s*\[([\d,\s]+)\](?:\s*T\(([\d,\s]+)\))?")
_MESH = re.compile(
    r"mesh\[([^\]]*)\](?:\s*,\s*device_ids=\(((?:[^()]|\([^()]*\))*)\))?\s*\{([^}]*)\}"
)
_EXPLICIT = re.compile(r"\{\s*(?:\{[^{}]*\}\s*,?\s*)*\}")
_DEVICE_IOTA = re.compile(r"\[([\d,\s]+)\](?:\s*T\(([\d,\s]+)\))?")
_MESH_AXIS = re.compile(r"'?([^'=,\s]+)'?\s*=\s*(\d+)")
_GROUP_AXIS = re.compile(r"'?([^':,\s]+)'?(?:\s*:\s*\((\d+)\)\s*(\d+))?")


class UnreadGroups(ValueError):
    """Replica groups in a form this reader does not know; the collective is counted unread."""


@dataclass(frozen=True)
class AxesSpan:
    """Which mesh axes a collective's groups run along.

    ``axes`` are the varying axes in mesh order; ``whole`` is False when a group covers only
    part of them (a sub-axis, or an irregular group), which ``note`` then says in words.
    """

    axes: tuple[str, ...]
    whole: bool
    note: str = ""

    @property
    def label(self) -> str:
        """``'fsdp'`` or ``'x','y'``; ``-`` when no axis varies."""
        return ",".join(f"'{a}'" for a in self.axes) if self.axes else "-"


def parse_groups(text: str, partitions: int) -> np.ndarray:
    """The ``(groups, size)`` array of partition ids written in ``text``.

    Raises :class:`UnreadGroups` for a form it cannot read.
    """
    text = text.strip()
    if text.startswith("mesh"):
        return _mesh_groups(text)
    if text.startswith("["):
        return _iota_groups(text)
    if text.startswith("{"):
        return _explicit_groups(text, partitions)
    raise UnreadGroups(f"unknown replica group form: {text[:60]!r}")


def groups_at(text: str, start: int) -> str | None:
    """The replica groups written at ``start`` of an instruction's ``text`` in any of the three
    forms, or ``None`` when none begins there."""
    value = _EXPLICIT.match(text, start) or _IOTA.match(text, start) or _MESH.match(text, start)
    return value.group(0) if value else None


def pairs_at(text: str, start: int) -> str | None:
    """The ``{{0,1},{1,0}}`` source-target pairs written at ``start`` of ``text``, or ``None``."""
    value = _EXPLICIT.match(text, start)
    return value.group(0) if value else None


def parse_pairs(text: str) -> np.ndarray:
    """``source_target_pairs={{0,1},{1,0}}`` as a ``(pairs, 2)`` array."""
    rows = _explicit_rows(text)
    if any(len(row) != 2 for row in rows):
        raise UnreadGroups(f"source_target_pairs are not pairs: {text[:60]!r}")
    return np.asarray(rows, dtype=np.int64).reshape(-1, 2)


def axes_span(groups: np.ndarray, mesh_shape: Sequence[int], axis_names: Sequence[str]) -> AxesSpan:
    """The mesh axes along which the partitions of each group differ.

    Partition ``p`` sits at ``unravel_index(p, mesh_shape)``: a jitted program's device
    assignment is its mesh's devices in row-major order.
    """
    if groups.size == 0 or not mesh_shape:
        return AxesSpan((), True)
    total = math.prod(mesh_shape)
    if int(groups.max()) >= total:
        return AxesSpan((), False, f"partitions beyond the {total}-device mesh")
    coords = np.unravel_index(groups, tuple(mesh_shape))
    varying = [i for i, c in enumerate(coords) if bool((c != c[:, :1]).any())]
    axes = tuple(str(axis_names[i]) for i in varying)
    span = math.prod(mesh_shape[i] for i in varying)
    if groups.shape[1] == span:
        return AxesSpan(axes, True)
    return AxesSpan(axes, False, f"groups of {groups.shape[1]} within {span} devices")


def pair_span(pairs: np.ndarray, mesh_shape: Sequence[int], axis_names: Sequence[str]) -> AxesSpan:
    """The mesh axes along which a collective-permute's sources and targets differ."""
    if pairs.size == 0 or not mesh_shape:
        return AxesSpan((), True)
    total = math.prod(mesh_shape)
    if int(pairs.max()) >= total:
        return AxesSpan((), False, f"partitions beyond the {total}-device mesh")
    source = np.unravel_index(pairs[:, 0], tuple(mesh_shape))
    target = np.unravel_index(pairs[:, 1], tuple(mesh_shape))
    varying = [i for i in range(len(mesh_shape)) if bool((source[i] != target[i]).any())]
    return AxesSpan(tuple(str(axis_names[i]) for i in varying), True)


def _explicit_rows(text: str) -> list[list[int]]:
    inner = text.strip()
    if not (inner.startswith("{") and inner.endswith("}")):
        raise UnreadGroups(f"not a brace list: {text[:60]!r}")
    inner = inner[1:-1].strip()
    if not inner:
        return []
    rows = re.findall(r"\{([^{}]*)\}", inner)
    if re.sub(r"\{[^{}]*\}|[\s,]", "", inner):
        raise UnreadGroups(f"unexpected text in groups: {text[:60]!r}")
    try:
        return [[int(v) for v in row.split(",") if v.strip()] for row in rows]
    except ValueError:
        raise UnreadGroups(f"non-integer partition id in {text[:60]!r}") from None


def _explicit_groups(text: str, partitions: int) -> np.ndarray:
    rows = _explicit_rows(text)
    if not rows:
        return np.arange(partitions, dtype=np.int64).reshape(1, -1)
    if len({len(row) for row in rows}) != 1:
        raise UnreadGroups("replica groups of different sizes")
    return np.asarray(rows, dtype=np.int64)


def _ints(text: str) -> list[int]:
    return [int(v) for v in text.split(",") if v.strip()]


def _iota_array(text: str) -> np.ndarray:
    """The array an iota tile assignment ``[dims]<=[reshape]T(perm)`` writes."""
    match = _IOTA.fullmatch(text.strip())
    if match is None:
        raise UnreadGroups(f"unknown iota form: {text[:60]!r}")
    dims, reshape = _ints(match.group(1)), _ints(match.group(2))
    perm = _ints(match.group(3)) if match.group(3) else list(range(len(reshape)))
    if math.prod(dims) != math.prod(reshape) or sorted(perm) != list(range(len(reshape))):
        raise UnreadGroups(f"inconsistent iota form: {text[:60]!r}")
    ids = np.arange(math.prod(reshape), dtype=np.int64).reshape(reshape).transpose(perm)
    return ids.reshape(dims)


def _iota_groups(text: str) -> np.ndarray:
    array = _iota_array(text)
    if array.ndim != 2:
        raise UnreadGroups(f"iota replica groups need two dimensions: {text[:60]!r}")
    return array


def _mesh_groups(text: str) -> np.ndarray:
    match = _MESH.fullmatch(text.strip())
    if match is None:
        raise UnreadGroups(f"unknown mesh form: {text[:60]!r}")
    axes = [(name, int(size)) for name, size in _MESH_AXIS.findall(match.group(1))]
    if not axes:
        raise UnreadGroups(f"mesh without axes: {text[:60]!r}")
    sizes = [size for _, size in axes]
    ids = _mesh_device_ids(match.group(2), sizes)
    wanted = [_group_axis(m, axes) for m in _GROUP_AXIS.finditer(match.group(3)) if m.group(1)]
    cuts = {i: {1, size} for i, (_, size) in enumerate(axes)}
    for axis, pre, size in wanted:
        cuts[axis] |= {pre, pre * size}
    dims: list[tuple[int, int, int]] = []  # (axis, start pre-size, size), major to minor
    for i, (_, size) in enumerate(axes):
        edges = sorted(cuts[i])
        if edges[-1] != size or any(b % a for a, b in itertools.pairwise(edges)):
            raise UnreadGroups(f"sub-axes that do not divide their axis: {text[:60]!r}")
        dims.extend((i, a, b // a) for a, b in itertools.pairwise(edges))
    split = ids.reshape([d[2] for d in dims]) if dims else ids
    grouped: list[int] = []
    for axis, pre, size in wanted:
        inside = [
            k for k, (a, start, _) in enumerate(dims) if a == axis and pre <= start < pre * size
        ]
        grouped.extend(inside)
    rest = [k for k in range(len(dims)) if k not in grouped]
    group_size = math.prod(dims[k][2] for k in grouped)
    return split.transpose(rest + grouped).reshape(-1, group_size)


def _group_axis(match: re.Match[str], axes: list[tuple[str, int]]) -> tuple[int, int, int]:
    names = [name for name, _ in axes]
    name = match.group(1)
    if name not in names:
        raise UnreadGroups(f"group axis {name!r} is not in the mesh")
    index = names.index(name)
    if match.group(2):
        return index, int(match.group(2)), int(match.group(3))
    return index, 1, axes[index][1]


def _mesh_device_ids(text: str | None, sizes: list[int]) -> np.ndarray:
    if not text:
        return np.arange(math.prod(sizes), dtype=np.int64).reshape(sizes)
    text = text.strip()
    short = _DEVICE_IOTA.fullmatch(text)
    if short:
        reshape = _ints(short.group(1))
        perm = _ints(short.group(2)) if short.group(2) else list(range(len(reshape)))
        if sorted(perm) != list(range(len(reshape))):
            raise UnreadGroups(f"inconsistent device_ids: {text[:60]!r}")
        array = np.arange(math.prod(reshape), dtype=np.int64).reshape(reshape).transpose(perm)
    elif text.startswith("["):
        array = _iota_array(text)
    else:
        array = np.asarray(_ints(text.strip("{}")), dtype=np.int64)
    if array.size != math.prod(sizes):
        raise UnreadGroups("mesh device_ids do not fill the mesh")
    return array.reshape(sizes)
