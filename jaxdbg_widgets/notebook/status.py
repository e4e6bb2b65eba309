"""``%jaxdbg status``: what is installed, what JAX sees and how breakpoints will reach the user.

It ends with every private-API capability checked at load (JAX's, IPython's, ipykernel's),
one line each, ``off`` with the reason where a feature was turned off.
"""

from __future__ import annotations

import importlib.metadata
from dataclasses import dataclass, field

from jaxdbg_widgets import _capabilities
from jaxdbg_widgets._kernel.shell import running_kernel
from jaxdbg_widgets._version import __version__
from jaxdbg_widgets.core import jax_registry
from jaxdbg_widgets.debugger.serve import headless
from jaxdbg_widgets.debugger.transports import capability
from jaxdbg_widgets.sharding.view import id_ranges

_DISTRIBUTIONS = ("jax", "jaxlib", "ipykernel", "ipython", "ipywidgets", "anywidget")


@dataclass(frozen=True)
class Status:
    """A snapshot of the environment; plain data so tests can check it without a kernel."""

    versions: dict[str, str]
    devices: list[str]
    backends: list[tuple[str, int]]
    default_backend: str | None
    widget_tier: str | None
    request_tier: str
    headless_policy: str
    capabilities: list[str] = field(default_factory=list)


def _version_of(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def _device_names() -> list[str]:
    import jax

    return [f"{d.platform.upper()} {d.id} (process {d.process_index})" for d in jax.devices()]


def summarize_devices(names: list[str]) -> str:
    """Group ``"CPU 3 (process 0)"`` names by platform and process: ``"8: CPU 0-7 (process 0)"``."""
    groups: dict[tuple[str, str], list[int]] = {}
    for name in names:
        platform, ident, process = name.split(" ", 2)
        groups.setdefault((platform, process), []).append(int(ident))
    parts = [
        f"{platform} {id_ranges(ids)} {process}" for (platform, process), ids in groups.items()
    ]
    return f"{len(names)}: " + "; ".join(parts)


def collect_status() -> Status:
    """Read versions, devices, JAX's debugger registry and the kernel's transport tier."""
    kernel = running_kernel()
    widget_tier = capability.widget_tier(kernel)
    return Status(
        versions={"jaxdbg-widgets": __version__} | {d: _version_of(d) for d in _DISTRIBUTIONS},
        devices=_device_names(),
        backends=jax_registry.backends(),
        default_backend=jax_registry.default_backend(),
        widget_tier=widget_tier.value if widget_tier else None,
        request_tier=capability.detect_tier(kernel).value,
        headless_policy=headless.current_policy().value,
        capabilities=[c.line() for c in _capabilities.all_capabilities()],
    )


def format_status(status: Status) -> str:
    """Render a status as aligned plain text lines."""
    rows = [(name, version) for name, version in status.versions.items()]
    rows.append(("devices", summarize_devices(status.devices)))
    backends = ", ".join(f"{name} ({prio:+d})" for name, prio in status.backends) or "none"
    rows.append(("debugger backends", backends))
    rows.append(("default backend", status.default_backend or "none"))
    widget = status.widget_tier or "none (not in a kernel that supports it)"
    rows.append(("widget transport", widget))
    tier = capability.Tier(status.request_tier)
    rows.append(("this request", f"{tier.value}: {capability.DESCRIPTIONS[tier]}"))
    rows.append(("headless policy", f"{status.headless_policy} (${headless.ENV_VAR})"))
    off = sum(": off (" in line for line in status.capabilities)
    rows.append(("capabilities", f"{len(status.capabilities)} checked, {off} off"))
    width = max(len(name) for name, _ in rows)
    lines = [f"{name.ljust(width)}  {value}" for name, value in rows]
    return "\n".join(lines + [f"  {line}" for line in status.capabilities])
