"""``%jaxdbg nans on|off``: JAX's NaN/Inf checks, with a failing jitted call taken to its origin.

``on`` switches ``jax_debug_nans`` and ``jax_debug_infs`` on together, so JAX checks every
result as usual (its own per-call cost). When a jitted call's output fails the check, the
origin search (:mod:`jaxdbg_widgets.nans.recheck`) answers instead of JAX's de-optimized re-run:
no print or callback runs twice and the ``FloatingPointError`` names the origin, where the cell
error handler opens the debugger. A ``jit`` under an outer ``grad`` or ``vmap`` is searched
too, in the forward, backward or batched program that failed. ``off`` switches both flags off
and puts JAX's re-run back; unloading the extension restores the flags as they were at load
time and JAX's re-run.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jaxdbg_widgets.nans import recheck

FLAGS = ("jax_debug_nans", "jax_debug_infs")
CHOICES = ("on", "off")

_undo_recheck: list[Callable[[], None]] = []


def flag_values() -> dict[str, bool]:
    """The current value of each flag."""
    import jax

    return {flag: bool(getattr(jax.config, flag)) for flag in FLAGS}


def set_checks(enabled: bool) -> None:
    """Turn both checks, and the origin search behind them, on or off."""
    import jax

    for flag in FLAGS:
        jax.config.update(flag, enabled)
    if enabled and not _undo_recheck and recheck.available():
        _undo_recheck.append(recheck.install())
    elif not enabled:
        _restore_recheck()


def _restore_recheck() -> None:
    while _undo_recheck:
        _undo_recheck.pop()()


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
    if args and args[0].lower() == "on":
        _say_what_jax_keeps()


def _say_what_jax_keeps() -> None:
    """One line where this JAX keeps its own re-run for some failed checks."""
    if not recheck.available():
        print("origin search: off on this JAX (nan-recheck in %jaxdbg status); JAX re-runs")
    elif not recheck.transformed_available():
        print(
            "origin search: off for a jit under an outer grad or vmap on this JAX "
            "(nan-recheck-transformed in %jaxdbg status); JAX re-runs those"
        )


def install(_ip: Any) -> Callable[[], None]:
    """Remember both flags; the undo restores them and JAX's re-run."""
    import jax

    saved = flag_values()

    def undo() -> None:
        _restore_recheck()
        for flag, value in saved.items():
            jax.config.update(flag, value)

    return undo
