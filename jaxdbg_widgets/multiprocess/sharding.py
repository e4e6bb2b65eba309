"""``%jaxdbg cluster sharding EXPR``: a global array's sharding drawn in the notebook.

Each engine evaluates ``EXPR`` (a ``jax.Array`` or ``jax.ShapeDtypeStruct`` with a sharding) and
returns where every device's shard lies, with its process
(:func:`jaxdbg_widgets.memory.gathered.plain_placement`), in one ``apply_sync`` on the job's
view; the notebook draws it as a sharding widget over stand-in devices, with each device's
process and the process boundaries marked.
"""

from __future__ import annotations

from typing import Any

from jaxdbg_widgets.memory.gathered import placement_from, plain_placement


def engine_placement(expression: str) -> dict[str, Any]:
    """On an engine: the shape, dtype and placement of the array ``expression`` names."""
    from IPython import get_ipython

    from jaxdbg_widgets.core.errors import one_line

    ip = get_ipython()
    try:
        value = eval(expression, ip.user_ns if ip is not None else {})
    except Exception as err:
        raise ValueError(f"{expression!r} failed: {one_line(err)}") from None
    sharding = getattr(value, "sharding", None)
    if sharding is None or not hasattr(value, "shape"):
        raise TypeError(
            f"{expression!r} is a {type(value).__name__}, not an array with a sharding "
            "(a jax.Array or a jax.ShapeDtypeStruct with sharding=)"
        )
    shape = tuple(int(d) for d in value.shape)
    dtype = str(getattr(value, "dtype", "")) or None
    return {"shape": list(shape), "dtype": dtype, **plain_placement(sharding, shape)}


def cluster_placement(expression: str, view: Any = None) -> tuple[tuple[int, ...], Any, Any]:
    """The shape, placement (over stand-in devices) and dtype of the global array
    ``expression`` names on every engine of ``view`` (default: the job
    ``jaxdbg_widgets.cluster`` joined last). Raises ValueError when an engine fails or the
    engines disagree on its placement."""
    from jaxdbg_widgets.multiprocess import job

    if not expression.strip():
        raise ValueError("cluster sharding needs an expression naming an array: sharding EXPR")
    view = view if view is not None else job.current_view()
    try:
        answers = view.apply_sync(engine_placement, expression)
    except Exception as err:
        raise ValueError(f"cluster sharding: {job.engine_reason(err)}") from None
    first = answers[0]
    if any(answer != first for answer in answers[1:]):
        raise ValueError(
            f"cluster sharding: {expression!r} is not one global array: its shape, dtype or "
            "placement differs between processes"
        )
    shape = tuple(first["shape"])
    return shape, placement_from(first, shape), first["dtype"]


def cluster_sharding_view(expression: str, view: Any = None, **options: Any) -> Any:
    """The ``ShardingWidget`` of the global array ``expression`` names (see
    :func:`cluster_placement`); ``options`` are the widget's."""
    from jaxdbg_widgets.sharding.widget import ShardingWidget

    shape, placement, dtype = cluster_placement(expression, view)
    return ShardingWidget(shape, placement, dtype=dtype, **options)


def show(words: list[str]) -> None:
    """Display the sharding of the words joined as one expression: one standalone output, which
    lasts through a restart as every sharding diagram does."""
    from IPython.display import display

    from jaxdbg_widgets.sharding.options import RenderOptions
    from jaxdbg_widgets.sharding.standalone import standalone_diagram

    shape, placement, dtype = cluster_placement(" ".join(words))
    display(standalone_diagram(shape, placement, dtype=dtype, options=RenderOptions()))
