"""The debugger's view builders produce only what ``debugger/schema.py`` declares, every key it
declares is built somewhere, and every message it declares is one the session takes."""

from __future__ import annotations

import typing

import jax
import numpy as np

from jaxdbg_widgets.core.shard_place import ShardPlace
from jaxdbg_widgets.debugger import schema
from jaxdbg_widgets.debugger.serve.front_end import RENDERED
from jaxdbg_widgets.debugger.serve.protocol import apply_message
from jaxdbg_widgets.debugger.session.base import Resume
from jaxdbg_widgets.debugger.session.shards import ShardSession
from jaxdbg_widgets.debugger.session.single import Session
from jaxdbg_widgets.debugger.view.build import LOCALS_LIMIT, ShardViewBuilder, ViewBuilder
from jaxdbg_widgets.debugger.widget import static_html
from jaxdbg_widgets.debugger.widget.cell_tail import CellTail
from jaxdbg_widgets.pictures.row import row_pictures
from jaxdbg_widgets.pictures.schema import SliderView

from ..widget_schema import declared_keys, problems
from .conftest import CoreLikeFrame, jax_frames


class Unreadable:
    """Array-like whose values cannot be read, so its summary carries an error."""

    shape = (2,)
    dtype = "float32"

    def __array__(self, *args, **kwargs):
        raise RuntimeError("deleted buffer")


def _sharded():
    """A (4, 4) array split over two devices: its picture carries shard boxes."""
    mesh = jax.make_mesh((2,), ("d",), devices=jax.devices()[:2])
    sharding = jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec("d"))
    return jax.device_put(np.ones((4, 4), np.float32), sharding)


def _views() -> list[dict]:
    """States covering every part of the schema: arrays, a batch, shards, a compare."""
    plain = Session(
        jax_frames(
            x=np.array([1.0, np.nan, np.inf], np.float32),
            y=6.0,
            gone=Unreadable(),
            s=_sharded(),
            **{f"v{i}": i for i in range(LOCALS_LIMIT)},
        ),
        hit=2,
    )
    plain.run("p y")
    plain.run("p s")
    plain.run("p undefined_name")
    frame = CoreLikeFrame("/work/m.py", 1, "f", {"v": np.arange(3)}, batched=("v",))
    batched = Session([frame], batch_size=3, batch_indices=[0, 2, 4])
    shards = ShardSession(draw_values=row_pictures, expected=3)
    for index in range(2):
        hit_frame = CoreLikeFrame("/work/m.py", 1, "f", {"v": np.arange(3) + index})
        place = ShardPlace(position=(("x", index),), device=f"CPU {index}", element=1)
        shards.add(Session([hit_frame], shard=place, batch_size=3))
    shards.run("compare v.sum()")
    scalar_compare = ShardViewBuilder(shards).build()
    shards.run("compare v")  # arrays of one shape: the compare's row of pictures
    tail = CellTail()
    tail.add("stdout", "main result\n")
    tail.set_result(2, "'the cell returned'")
    ended = {**ViewBuilder(plain).build("continue"), "cell_output": tail.to_json()}
    return [
        ViewBuilder(plain).build(),
        ended,
        ViewBuilder(batched).build("continue"),
        scalar_compare,
        ShardViewBuilder(shards).build(),
    ]


def test_built_states_match_the_schema_and_cover_it():
    seen: set[str] = set()
    for view in _views():
        assert problems(view, schema.DebuggerView, seen=seen) == []
    never_drawn = declared_keys(SliderView)  # the debugger draws leading axes as facets
    assert declared_keys(schema.DebuggerView) - seen - never_drawn == set()


def test_a_key_the_schema_does_not_declare_is_caught():
    view = _views()[0]
    view["header"]["colour"] = "red"
    del view["frames"][0]["line"]
    assert problems(view, schema.DebuggerView) == [
        "$.header: undeclared key 'colour'",
        "$.frames[0]: missing key 'line'",
    ]


def test_the_statuses_are_waiting_each_resume_and_the_two_ends_without_one():
    statuses = set(typing.get_args(schema.Status))
    assert statuses == {r.value for r in Resume} | {"waiting", "interrupted", "typed prompt"}
    assert set(static_html._STATUS_TEXT) <= statuses
    assert problems(_views()[0] | {"status": "paused"}, schema.DebuggerView) == [
        "$.status: 'paused' is not one of "
        "('waiting', 'continue', 'continue_all', 'quit', 'interrupted', 'typed prompt')"
    ]


def _sample(message: type) -> dict:
    """A valid message of one declared kind, with values the shard session accepts."""
    values = {"line": "p 1", "expression": "x", "index": 0, "show": True}
    return {
        key: typing.get_args(hint)[0] if typing.get_origin(hint) is typing.Literal else values[key]
        for key, hint in typing.get_type_hints(message).items()
    }


def test_every_declared_message_is_taken_by_a_shard_session():
    kinds = typing.get_args(schema.DebuggerMessage)
    assert _sample(schema.RenderedMessage) == RENDERED
    for kind in kinds:
        if kind is schema.RenderedMessage:
            continue  # the backend's own: it proves a view drew
        shards = ShardSession(draw_values=row_pictures, expected=2)
        for index in range(2):
            shards.add(Session(jax_frames(x=index), device=f"x={index}", batch_size=2))
        message = _sample(kind)
        assert problems(message, schema.DebuggerMessage) == []
        apply_message(shards, message)
        errors = [e.output for e in shards.transcript if e.error]
        assert errors == [], (message, errors)
