"""Every unit test leaves the package's module-level registries as it found them.

``registries_restored`` runs around each test (autouse). It snapshots JAX's debugger registry,
the print sinks, ``jax.debug``'s functions, JAX's NaN/Inf checks, the extension's loaded state
and the capability table, and afterwards puts each back. A test that left one of them changed
(other than the capability table, which loading the extension fills by design) then fails,
naming what it leaked, so the unit suite passes in any order (``-p random_order``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import jax
import pytest

from jaxdbg_widgets import _capabilities
from jaxdbg_widgets._kernel import cell_files
from jaxdbg_widgets.core import jax_registry, sinks
from jaxdbg_widgets.debugger.widget import ended
from jaxdbg_widgets.multiprocess.engine import FILE_NAMES_OPTION

EXTENSION = "jaxdbg_widgets.notebook.extension"

JAX_DEBUG_NAMES = (
    "print",
    "callback",
    "breakpoint",
    "log",
    "visualize_array_sharding",
    "visualize_sharding",
    "inspect_array_sharding",
)
JAX_FLAGS = ("jax_debug_nans", "jax_debug_infs")


@dataclass(frozen=True)
class Registry:
    """One module-level registry: how to read a copy of it, and how to put a copy back."""

    name: str
    read: Callable[[], Any]
    write: Callable[[Any], None]
    leak_fails: bool = True


def _write_debuggers(saved: dict[str, Any]) -> None:
    registry = jax_registry._registry() if jax_registry.available() else None
    if registry is not None:
        registry.clear()
        registry.update(saved)


def _write_sinks(saved: tuple[Any, ...]) -> None:
    sinks._sinks = saved


def _read_jax_debug() -> dict[str, Any]:
    return {name: getattr(jax.debug, name, None) for name in JAX_DEBUG_NAMES}


def _write_jax_debug(saved: dict[str, Any]) -> None:
    for name, value in saved.items():
        if value is not None:
            setattr(jax.debug, name, value)


def _read_flags() -> dict[str, Any]:
    return {flag: getattr(jax.config, flag) for flag in JAX_FLAGS}


def _write_flags(saved: dict[str, Any]) -> None:
    for flag, value in saved.items():
        jax.config.update(flag, value)


def _read_extension() -> Any:
    """The extension's undos: ``None`` while it is not loaded (or not even imported)."""
    extension = sys.modules.get(EXTENSION)
    return None if extension is None else extension._undos


def _write_extension(saved: Any) -> None:
    extension = sys.modules.get(EXTENSION)
    if extension is not None:
        extension._undos = saved


def _write_kept(saved: tuple[Any, ...]) -> None:
    with ended._lock:
        ended._kept.clear()
        ended._kept.extend(saved)


def _write_table(saved: dict[Any, Any]) -> None:
    with _capabilities._lock:
        _capabilities._table.clear()
        _capabilities._table.update(saved)


def _write_recorders(saved: tuple[Any, ...]) -> None:
    from jaxdbg_widgets.compiles import recorder

    recorder._active = saved  # the listener stays, and returns at once while none is active


def _read_recorders() -> tuple[Any, ...]:
    from jaxdbg_widgets.compiles import recorder

    return recorder.active()


def _read_px_cells() -> tuple[dict[str, Any], ...]:
    return (dict(cell_files._engine_files), dict(cell_files._notebook_cells))


def _write_px_cells(saved: tuple[dict[str, Any], ...]) -> None:
    for kept, entries in zip(
        (cell_files._engine_files, cell_files._notebook_cells), saved, strict=True
    ):
        kept.clear()
        kept.update(entries)


REGISTRIES = (
    Registry("JAX's debugger registry", jax_registry.snapshot, _write_debuggers),
    Registry("the print sinks", lambda: sinks._sinks, _write_sinks),
    Registry("jax.debug's functions", _read_jax_debug, _write_jax_debug),
    Registry("JAX's NaN/Inf checks", _read_flags, _write_flags),
    Registry(
        "how JAX names files in programs",
        lambda: getattr(jax.config, FILE_NAMES_OPTION),
        lambda saved: jax.config.update(FILE_NAMES_OPTION, saved),
    ),
    Registry("the extension's loaded state", _read_extension, _write_extension),
    Registry("the notebook cells of %%px code", _read_px_cells, _write_px_cells),
    Registry("the compile reports being recorded", _read_recorders, _write_recorders),
    Registry(
        "the ended sessions' widgets kept open",
        lambda: tuple(ended._kept),
        _write_kept,
        leak_fails=False,
    ),
    Registry(
        "the capability table",
        lambda: dict(_capabilities._table),
        _write_table,
        leak_fails=False,
    ),
)


def _same(before: Any, after: Any) -> bool:
    """Equal by identity, entry by entry (registries hold functions and objects, not values)."""
    if isinstance(before, dict) and isinstance(after, dict):
        return before.keys() == after.keys() and all(
            _same(before[key], after[key]) for key in before
        )
    if isinstance(before, tuple) and isinstance(after, tuple):
        return len(before) == len(after) and all(
            _same(a, b) for a, b in zip(before, after, strict=True)
        )
    return before is after or (type(before) is type(after) and before == after)


def snapshot() -> list[tuple[Registry, Any]]:
    """A copy of every registry, to put back with :func:`restore`."""
    return [(registry, registry.read()) for registry in REGISTRIES]


def restore(saved: list[tuple[Registry, Any]]) -> list[str]:
    """Put back every registry that changed; the names of those whose change fails a test."""
    leaked = []
    for registry, before in saved:
        if not _same(before, registry.read()):
            registry.write(before)
            if registry.leak_fails:
                leaked.append(registry.name)
    return leaked


@pytest.fixture(autouse=True)
def registries_restored(request: pytest.FixtureRequest) -> Iterator[None]:
    """Put every registry back after the test; fail a test that left one changed."""
    saved = snapshot()
    yield
    leaked = restore(saved)
    if leaked:
        pytest.fail(f"{request.node.nodeid} left {', '.join(leaked)} changed", pytrace=False)


@pytest.fixture
def file_names_kept() -> Iterator[None]:
    """Put back how JAX names files in programs, for a test that has an engine set it."""
    before = getattr(jax.config, FILE_NAMES_OPTION)
    yield
    jax.config.update(FILE_NAMES_OPTION, before)
