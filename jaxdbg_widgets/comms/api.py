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
    text: str | bytes, *, mesh: Any = None, axis_names: Any = None, mesh_shape: Any = None
) -> CommunicationMap:
    """The map of saved HLO text (``Compiled.as_text()``), for programs no local backend compiles.

    Name the axes with a ``jax.sharding.Mesh`` or with ``axis_names`` and ``mesh_shape``
    (partitions then lie on the mesh in row-major order). ``bytes`` (a file read in binary
    mode) are decoded as UTF-8. Text that is not one whole HLO module raises
    :class:`~jaxdbg_widgets.comms.hlo.NotAnHloModule` (a ``ValueError``); a mesh that does not
    fit the module raises ``ValueError``.
    """
    module = read_hlo(_module_text(text))
    info = _named_mesh(mesh, axis_names, mesh_shape)
    devices = module.partitions * module.replicas
    if info is not None and math.prod(info.shape) != devices:
        raise ValueError(
            f"the mesh {dict(zip(info.axis_names, info.shape, strict=True))} has "
            f"{math.prod(info.shape)} devices, but HLO module {module.name!r} runs on {devices}"
        )
    return build_communication_map(
        module, mesh=info, notes=["read from saved HLO text"], kind=CommunicationMap
    )


def _module_text(text: Any) -> str:
    """``text`` as a str: bytes decoded as UTF-8; anything else is a TypeError."""
    if isinstance(text, bytes | bytearray):
        return bytes(text).decode("utf-8")
    if not isinstance(text, str):
        raise TypeError(
            "communication_map_from_text expects the HLO module's text (a str or bytes, "
            f"from compiled.as_text()), but got {type(text).__name__}"
        )
    return text


def _named_mesh(mesh: Any, axis_names: Any, mesh_shape: Any) -> MeshInfo | None:
    """The mesh the caller named, checked: a ``Mesh``, or axis names with a shape to match."""
    if mesh is not None:
        if axis_names is not None or mesh_shape is not None:
            raise ValueError("pass either mesh or axis_names and mesh_shape, not both")
        return MeshInfo(
            axis_names=tuple(str(a) for a in mesh.axis_names),
            shape=tuple(int(n) for n in mesh.devices.shape),
            device_ids=tuple(int(d.id) for d in mesh.devices.flat),
            axis_types=axis_type_names(mesh),
            mesh=mesh,
        )
    if axis_names is None and mesh_shape is None:
        return None
    if axis_names is None or mesh_shape is None:
        given, missing = ("axis_names", "mesh_shape")[:: 1 if mesh_shape is None else -1]
        raise ValueError(f"{given} was given without {missing}: pass both, one size per axis")
    names = (axis_names,) if isinstance(axis_names, str) else tuple(axis_names)
    shape = (mesh_shape,) if isinstance(mesh_shape, int) else tuple(mesh_shape)
    if len(names) != len(shape):
        raise ValueError(
            f"axis_names {names} and mesh_shape {shape} differ in length: "
            "give one size per axis name"
        )
    if not all(isinstance(n, int) and not isinstance(n, bool) and n > 0 for n in shape):
        raise ValueError(f"mesh_shape must hold positive integers, got {shape}")
    return MeshInfo(tuple(str(a) for a in names), shape, tuple(range(math.prod(shape))))
