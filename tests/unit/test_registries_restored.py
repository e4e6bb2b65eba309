"""The guard around every unit test names a registry a test left changed and puts it back."""

from __future__ import annotations

import jax

from jaxdbg_widgets import _capabilities
from jaxdbg_widgets.core import jax_registry, sinks
from tests.unit.conftest import restore, snapshot


def test_a_leaked_debugger_backend_is_named_and_removed():
    saved = snapshot()
    jax_registry.register("leaky", lambda frames, thread_id, **kwargs: None, -100)
    assert restore(saved) == ["JAX's debugger registry"]
    assert "leaky" not in dict(jax_registry.backends())


def test_leaked_sinks_and_jax_debug_functions_are_named_and_put_back():
    saved = snapshot()
    jax_print = jax.debug.print
    sinks.add_print_sink(lambda record: None)
    jax.debug.print = lambda *args, **kwargs: None
    assert restore(saved) == ["the print sinks", "jax.debug's functions"]
    assert not sinks.has_sinks()
    assert jax.debug.print is jax_print


def test_a_fake_capability_is_removed_without_failing_the_test():
    saved = snapshot()
    _capabilities.check("jax", "test-leaked", "a test feature", lambda: 1 / 0)
    assert restore(saved) == []
    assert "test-leaked" not in {c.name for c in _capabilities.all_capabilities()}


def test_nothing_changed_is_nothing_to_report():
    assert restore(snapshot()) == []
