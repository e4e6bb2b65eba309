"""``%jaxdbg memory [expr]``: evaluation, errors as one line, and completion of variable names."""

import jax.numpy as jnp
import pytest

from jaxdbg_widgets.memory import command as memory_command
from jaxdbg_widgets.notebook import commands


def test_an_expression_is_evaluated_in_the_namespace():
    memory = memory_command.evaluate("params['w']", {"params": {"w": jnp.zeros((4, 4))}})
    assert [leaf.path for leaf in memory.leaves] == ["(root)"]
    assert memory.total_bytes == 64


def test_no_expression_maps_every_live_array():
    assert memory_command.evaluate("  ", {}).source == "live arrays"


def test_a_failing_expression_is_one_usage_line(monkeypatch):
    monkeypatch.setattr(memory_command, "_user_namespace", dict)
    with pytest.raises(commands.UsageError, match=r"memory: 'nope' failed: NameError"):
        commands.run("memory nope")


def test_completion_offers_the_subcommand_then_variable_names(monkeypatch):
    namespace = {"params": {}, "opt_state": (), "jnp": jnp, "step": len, "_hidden": 1, "In": []}
    monkeypatch.setattr(memory_command, "_user_namespace", lambda: namespace)
    assert commands.complete("%jaxdbg mem") == ["memory"]
    assert commands.complete("%jaxdbg memory ") == ["opt_state", "params"]
    assert commands.complete("%jaxdbg memory pa") == ["params"]
    assert "%jaxdbg memory [EXPR]" in commands.help_text()


def test_live_arrays_are_named_by_the_variables_that_hold_them():
    w, b, loose = jnp.ones((3, 5)), jnp.ones((7,)), jnp.ones((11,))
    namespace = {"params": {"w": w, "layers": [b]}, "w_alias": w, "_hidden": loose}
    paths = {leaf.shape: leaf.path for leaf in memory_command.evaluate("", namespace).leaves}
    assert paths[(3, 5)] == "w_alias"  # a variable that is the array is its name
    assert paths[(7,)] == "params['layers'][0]"
    assert paths[(11,)].startswith("live[")  # only a hidden name holds it
    del loose
