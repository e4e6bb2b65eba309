"""The sharding layer: a pure layout model and its text, HTML and widget renderers."""
