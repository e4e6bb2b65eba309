"""``%jaxdbg nans on|off``: JAX's ``jax_debug_nans`` and ``jax_debug_infs`` switched together.

With them on, JAX checks every result for NaN/Inf and raises ``FloatingPointError`` naming the
primitive that produced one (re-running a jitted function op by op to find it). Unloading the
extension puts both flags back as they were at load time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

FLAGS = ("jax_debug_nans", "jax_debug_infs")
CHOICES = ("on", "off")


def flag_values() -> dict[str, bool]:
    """The current value of each flag."""
    import jax

    return {flag: bool(getattr(jax.config, flag)) for flag in FLAGS}


def set_checks(enabled: bool) -> None:
    """Turn both checks on or off."""
    import jax

    for flag in FLAGS:
        jax.config.update(flag, enabled)


def describe() -> str:
    """One line: ``nan checks: on (jax_debug_nans=True, jax_debug_infs=True)``."""
    values = flag_values()
    state = "on" if all(values.values()) else "off" if not any(values.values()) else "mixed"
    flags = ", ".join(f"{flag}={value}" for flag, value in values.items())
    return f"nan checks: {state} ({flags})"


def run(args: list[str]) -> None:
    """Apply ``[on|off]`` and print the state line; ValueError for anything else."""
    if len(args) > 1 or (args and args[0].lower() not in CHOICES):
        raise ValueError(f"nans takes one of {'|'.join(CHOICES)}, got {' '.join(args)!r}")
    if args:
        set_checks(args[0].lower() == "on")
    print(describe())


def install(_ip: Any) -> Callable[[], None]:
    """Remember both flags; the undo restores them."""
    import jax

    saved = flag_values()

    def undo() -> None:
        for flag, value in saved.items():
            jax.config.update(flag, value)

    return undo
