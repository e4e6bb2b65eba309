"""What a breakpoint does when no front end can answer it (nbclient, nbval, ``jupyter execute``)."""

from __future__ import annotations

import enum
import os
import warnings

ENV_VAR = "JAXDBG_HEADLESS"
SCRIPT_ENV_VAR = "JAXDBG_SCRIPT"
DEFAULT_SCRIPT = "where; continue"


class HeadlessPolicy(str, enum.Enum):
    """``continue`` resumes with a notice, ``raise`` stops the computation, ``script`` replays commands."""

    CONTINUE = "continue"
    RAISE = "raise"
    SCRIPT = "script"


DEFAULT = HeadlessPolicy.CONTINUE
_override: HeadlessPolicy | None = None


def parse_policy(text: str) -> HeadlessPolicy:
    """Turn ``continue|raise|script`` into a policy, or raise ValueError naming the choices."""
    try:
        return HeadlessPolicy(text.strip().lower())
    except ValueError:
        choices = "|".join(p.value for p in HeadlessPolicy)
        raise ValueError(f"unknown headless policy {text!r}; expected one of {choices}") from None


def current_policy() -> HeadlessPolicy:
    """The policy set in this process, else ``$JAXDBG_HEADLESS``, else ``continue``."""
    if _override is not None:
        return _override
    raw = os.environ.get(ENV_VAR)
    if not raw:
        return DEFAULT
    try:
        return parse_policy(raw)
    except ValueError as err:
        warnings.warn(f"${ENV_VAR}: {err}; using {DEFAULT.value!r}", stacklevel=2)
        return DEFAULT


def set_policy(policy: HeadlessPolicy | None) -> None:
    """Set the process-wide policy; ``None`` goes back to the environment variable."""
    global _override
    _override = policy


def script_commands() -> str:
    """What the ``script`` policy types at a breakpoint: ``$JAXDBG_SCRIPT``, else ``where; continue``."""
    return os.environ.get(SCRIPT_ENV_VAR, "").strip() or DEFAULT_SCRIPT
