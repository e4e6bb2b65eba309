"""What XLA decided for a compiled program beyond its public analyses: the buffer assignment
``memory_analysis()`` carries serialized, and the serialized module that names its instructions
(jaxlib's ``HloModule``, reached through ``Compiled.runtime_executable()``).
"""

from __future__ import annotations

from typing import Any

from jaxdbg_widgets.core._jax_internals._probe import _check, _module, _needs

_lib = _module("lib")


def _hlo_module_class() -> Any:
    """jaxlib's ``HloModule``: in ``_jax`` before JAX 0.8, in ``hlo`` since."""
    lib = _needs(_lib, "xla_client")
    found = getattr(getattr(lib, "_jax", None), "HloModule", None)
    return found or _needs(getattr(lib, "hlo", None), "HloModule").HloModule


def _probe_buffer_assignment() -> None:
    lib = _needs(_lib, "_jax", "xla_client")
    _needs(lib._jax.CompiledMemoryStats, "serialized_buffer_assignment_proto")
    _needs(lib.xla_client.LoadedExecutable, "hlo_modules")
    _needs(_hlo_module_class(), "as_serialized_hlo_module_proto")


BUFFER_ASSIGNMENT = _check(
    "buffer-assignment",
    "peak_memory counting each step's temporaries where XLA placed them",
    _probe_buffer_assignment,
)


def buffer_assignment(compiled: Any, stats: Any) -> tuple[bytes, bytes] | None:
    """``(BufferAssignmentProto, HloModuleProto)`` of a one-module compiled program, serialized;
    ``None`` where this jaxlib or backend gives no assignment. ``stats`` is its memory analysis."""
    if not BUFFER_ASSIGNMENT:
        return None
    assignment = getattr(stats, "serialized_buffer_assignment_proto", None)
    modules = compiled.runtime_executable().hlo_modules()
    if not assignment or len(modules) != 1:
        return None
    return bytes(assignment), bytes(modules[0].as_serialized_hlo_module_proto())
