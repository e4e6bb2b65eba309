"""The sharding layer: a pure layout model and its text, HTML and widget renderers.

``ShardingWidget`` is imported on first use, so the text and HTML renderers load no anywidget.
"""

from typing import Any

from jaxdbg_widgets.sharding.api import (
    inspect_array_sharding,
    sharding_html,
    sharding_text,
    visualize_array_sharding,
    visualize_sharding,
)
from jaxdbg_widgets.sharding.layout import sharding_layout

__all__ = [
    "ShardingWidget",
    "inspect_array_sharding",
    "sharding_html",
    "sharding_layout",
    "sharding_text",
    "visualize_array_sharding",
    "visualize_sharding",
]


def __getattr__(name: str) -> Any:
    """Import ``ShardingWidget`` on first use (it brings in anywidget)."""
    if name != "ShardingWidget":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from jaxdbg_widgets.sharding.widget import ShardingWidget

    globals()[name] = ShardingWidget
    return ShardingWidget


def __dir__() -> list[str]:
    """Every public name, ``ShardingWidget`` included."""
    return sorted(set(globals()) | set(__all__))
