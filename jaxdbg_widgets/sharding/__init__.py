"""The sharding layer: a pure layout model and its text, HTML and widget renderers."""

from jaxdbg_widgets.sharding.api import (
    inspect_array_sharding,
    sharding_html,
    sharding_text,
    visualize_array_sharding,
    visualize_sharding,
)
from jaxdbg_widgets.sharding.layout import sharding_layout
from jaxdbg_widgets.sharding.widget import ShardingWidget

__all__ = [
    "ShardingWidget",
    "inspect_array_sharding",
    "sharding_html",
    "sharding_layout",
    "sharding_text",
    "visualize_array_sharding",
    "visualize_sharding",
]
