"""A lowered or compiled JAX program: its arguments and outputs as leaves, plus XLA's own
per-device memory analysis (argument, output, alias, temporary and generated-code bytes)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from jaxdbg_widgets.core.errors import one_line

FIELDS = (
    ("argument", "argument_size_in_bytes"),
    ("output", "output_size_in_bytes"),
    ("alias", "alias_size_in_bytes"),
    ("temporary", "temp_size_in_bytes"),
    ("generated code", "generated_code_size_in_bytes"),
)
HOST_FIELDS = (
    ("host argument", "host_argument_size_in_bytes"),
    ("host output", "host_output_size_in_bytes"),
    ("host alias", "host_alias_size_in_bytes"),
    ("host temporary", "host_temp_size_in_bytes"),
    ("host generated code", "host_generated_code_size_in_bytes"),
)


@dataclass(frozen=True)
class ProgramMemory:
    """XLA's numbers for one device running the program (every device runs the same one).

    ``sizes`` maps a label from :data:`FIELDS` to bytes, or to None where XLA left it out;
    ``notes`` say what the numbers do not cover.
    """

    sizes: tuple[tuple[str, int | None], ...]
    host_sizes: tuple[tuple[str, int], ...]
    notes: tuple[str, ...]
    devices: tuple[Any, ...] = field(repr=False, compare=False)

    @property
    def device_ids(self) -> frozenset[int]:
        return frozenset(int(d.id) for d in self.devices)

    def size(self, label: str) -> int:
        return dict(self.sizes).get(label) or 0

    @property
    def peak(self) -> int:
        """XLA's estimate of what one device needs: arguments + outputs - aliased + temporaries +
        code."""
        return (
            self.size("argument")
            + self.size("output")
            - self.size("alias")
            + self.size("temporary")
            + self.size("generated code")
        )

    @property
    def per_device_extra(self) -> int:
        """What a device needs beyond the argument and output arrays the leaves already count."""
        return self.size("temporary") + self.size("generated code") - self.size("alias")


def is_program(x: Any) -> bool:
    """Whether ``x`` is a traced, lowered or compiled ``jax.jit`` program."""
    import jax

    stages = (jax.stages.Lowered, jax.stages.Compiled, jax.stages.Traced)
    return isinstance(x, stages)


def program_entries(x: Any) -> tuple[list[tuple[str, Any]], ProgramMemory]:
    """``(path, ShapeDtypeStruct)`` for the program's arguments and outputs, and XLA's analysis.

    A traced or lowered program is compiled here, since only a compiled one has the analysis.
    """
    import jax

    notes: list[str] = []
    if isinstance(x, jax.stages.Traced):
        x = x.lower()
    if isinstance(x, jax.stages.Lowered):
        x = x.compile()
        notes.append("compiled here to read XLA's memory analysis")
    entries = list(_arguments(x)) + list(_outputs(x))
    devices = _program_devices(entries)
    sizes, host, more = _analysis(x, devices)
    return entries, ProgramMemory(sizes, host, tuple(notes + more), devices)


def _arguments(compiled: Any) -> Iterator[tuple[str, Any]]:
    import jax

    args_info = jax.tree_util.tree_leaves_with_path(compiled.args_info)
    shardings = jax.tree_util.tree_leaves(compiled.input_shardings)
    for (path, info), sharding in zip(args_info, shardings, strict=False):
        donated = " (donated)" if getattr(info, "donated", False) else ""
        struct = jax.ShapeDtypeStruct(info.shape, info.dtype, sharding=sharding)
        yield _argument_name(path) + donated, struct


def _argument_name(path: Any) -> str:
    """``args[0]['w']`` or ``kwargs['lr']``: the first key of ``args_info`` only says which."""
    import jax

    keys = tuple(path)
    positional = not keys or getattr(keys[0], "idx", 0) == 0
    return ("args" if positional else "kwargs") + jax.tree_util.keystr(keys[1:])


def _outputs(compiled: Any) -> Iterator[tuple[str, Any]]:
    import jax

    for path, struct in jax.tree_util.tree_leaves_with_path(compiled.out_info):
        yield "out" + jax.tree_util.keystr(path), struct


def _program_devices(entries: list[tuple[str, Any]]) -> tuple[Any, ...]:
    """Every device of the entries' shardings; equal shardings are walked once."""
    found: dict[int, Any] = {}
    seen: set[Any] = set()
    for _, struct in entries:
        sharding = getattr(struct, "sharding", None)
        try:
            if sharding in seen:
                continue
            seen.add(sharding)
        except TypeError:  # an unhashable sharding is walked every time
            pass
        for device in getattr(sharding, "device_set", ()) or ():
            found.setdefault(int(device.id), device)
    return tuple(found[i] for i in sorted(found))


def _analysis(
    compiled: Any, devices: tuple[Any, ...]
) -> tuple[tuple[tuple[str, int | None], ...], tuple[tuple[str, int], ...], list[str]]:
    try:
        stats = compiled.memory_analysis()
    except Exception as err:
        stats, error = None, one_line(err)
    else:
        error = "this backend gives no memory analysis"
    if stats is None:
        return tuple((label, None) for label, _ in FIELDS), (), [f"no XLA numbers: {error}"]
    sizes = tuple((label, _read(stats, name)) for label, name in FIELDS)
    host = tuple((label, value) for label, name in HOST_FIELDS if (value := _read(stats, name)))
    notes = []
    missing = [label for label, value in sizes if value is None]
    if missing:
        notes.append("XLA left out: " + ", ".join(missing))
    platforms = {str(getattr(d, "platform", "")).lower() for d in devices}
    if "cpu" in platforms and not dict(sizes).get("generated code"):
        notes.append("the CPU backend reports no generated-code size; it shows as 0")
    return sizes, host, notes


def _read(stats: Any, name: str) -> int | None:
    value = getattr(stats, name, None)
    return None if value is None or value < 0 else int(value)
