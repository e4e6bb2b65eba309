"""``communication_map`` and ``communication_map_from_text``: the entry points of the comms layer."""

from __future__ import annotations

import math
from typing import Any

from jaxdbg_widgets.comms.display import CommunicationMap
from jaxdbg_widgets.comms.hlo import read_hlo
from jaxdbg_widgets.comms.model import MeshInfo, axis_type_names, build_communication_map
from jaxdbg_widgets.comms.program import CompiledProgram, compile_program


def communication_map(fun: Any, /, *args: Any, **kwargs: Any) -> CommunicationMap:
    """Which line makes XLA communicate, how much, along which mesh axes, and how often.

    Lowers and compiles ``fun`` (a function, a ``jax.jit`` function, or a lowered or compiled
    stage) for ``args``/``kwargs``; arrays are replaced by ``jax.ShapeDtypeStruct``s first, so
    nothing runs and nothing is copied. Pass ``ShapeDtypeStruct``s with shardings to map a
    program for devices you only simulate. Each collective gets its bytes per device, the mesh
    axes it spans, its source line and the loops around it; the map also lists the program's
    input and output shardings, arguments that would be copied on every call, XLA's memory
    figures and rematerialization warnings. It displays as a widget in a notebook, static
    HTML when saved, and text in a terminal.
    """
    return program_map(compile_program(fun, args, kwargs))


def program_map(program: CompiledProgram) -> CommunicationMap:
    """The map of a program already compiled and read (see :mod:`jaxdbg_widgets.comms.program`)."""
    return build_communication_map(
        read_hlo(program.text),
        mesh=program.mesh,
        inputs=program.inputs,
        outputs=program.outputs,
        mismatches=program.mismatches,
        memory=program.memory,
        remat_texts=program.remat_texts,
        notes=program.notes,
        kind=CommunicationMap,
    )


def communication_map_from_text(
    text: str, *, mesh: Any = None, axis_names: Any = None, mesh_shape: Any = None
) -> CommunicationMap:
    """The map of saved HLO text (``Compiled.as_text()``), for programs no local backend compiles.

    Name the axes with a ``jax.sharding.Mesh`` or with ``axis_names`` and ``mesh_shape``
    (partitions then lie on the mesh in row-major order).
    """
    info = None
    if mesh is not None:
        info = MeshInfo(
            axis_names=tuple(str(a) for a in mesh.axis_names),
            shape=tuple(int(n) for n in mesh.devices.shape),
            device_ids=tuple(int(d.id) for d in mesh.devices.flat),
            axis_types=axis_type_names(mesh),
            mesh=mesh,
        )
    elif axis_names is not None and mesh_shape is not None:
        shape = tuple(int(n) for n in mesh_shape)
        info = MeshInfo(tuple(str(a) for a in axis_names), shape, tuple(range(math.prod(shape))))
    return build_communication_map(
        read_hlo(text), mesh=info, notes=["read from saved HLO text"], kind=CommunicationMap
    )
