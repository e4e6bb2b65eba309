"""Every tool over the corpus of programs written as users write them (plain JAX, flax, optax,
equinox): the memory map, pictures and the communication map of each program and its
arguments, besides the NaN search's own corpus tests."""

from __future__ import annotations

import io

import jax
import numpy as np
import pytest
import rich.console

import jaxdbg_widgets as jdw
from tests.corpus import libraries, programs

CASES = {case.name: case for module in (programs, libraries) for case in module.CASES}
SHARDED = {"data-parallel step with pmean"}


def _arrays(tree):
    return [leaf for leaf in jax.tree_util.tree_leaves(tree) if isinstance(leaf, jax.Array)]


@pytest.mark.parametrize("name", CASES)
def test_the_memory_map_counts_every_array_of_the_arguments(name):
    arguments = CASES[name].arguments()
    layout = jdw.memory_map(arguments)
    assert sum(leaf.total_bytes for leaf in layout.leaves) == sum(
        a.nbytes for a in _arrays(arguments)
    )


@pytest.mark.parametrize("name", CASES)
def test_pictures_draw_every_array_and_number_with_its_shape(name):
    arguments = CASES[name].arguments()
    shown = jdw.show(arguments)
    leaves = jax.tree_util.tree_leaves(arguments)
    expected = [
        np.shape(leaf)
        for leaf in leaves
        if isinstance(leaf, int | float) or (isinstance(leaf, jax.Array) and not _is_key(leaf))
    ]
    assert sorted(tuple(p.shape) for p in shown.pictures) == sorted(expected)


def _is_key(array: jax.Array) -> bool:
    return jax.dtypes.issubdtype(array.dtype, jax.dtypes.prng_key)


@pytest.mark.parametrize("name", CASES)
def test_the_communication_map_compiles_each_step_and_finds_collectives_only_when_sharded(name):
    case = CASES[name]
    comms = jdw.communication_map(case.program(), *case.arguments())
    assert bool(comms.collectives) == (name in SHARDED), comms.to_text()
    assert np.all(np.asarray(comms.device_sent) >= 0)


@pytest.mark.parametrize("name", CASES)
def test_the_peak_of_each_step_is_read_and_compared_with_xla(name):
    case = CASES[name]
    (report,) = jdw.peak_memory(case.program(), *case.arguments()).reports
    assert report.peak_bytes > 0 and report.buffers
    assert report.laid_out  # each step counted where XLA's buffer assignment put its buffers
    assert report.agrees, (report.peak_bytes, report.xla_peak_bytes)
    assert sum(b.nbytes for b in report.buffers) + report.gap_bytes == report.peak_bytes


@pytest.mark.parametrize("name", CASES)
def test_each_result_shows_as_text_html_and_one_notebook_output(name, monkeypatch):
    case = CASES[name]
    arguments = case.arguments()
    results = [
        jdw.memory_map(arguments),
        jdw.show(arguments),
        jdw.communication_map(case.program(), *arguments),
        jdw.peak_memory(case.program(), *arguments),
    ]
    for result in results:
        assert str(result) == result.to_text() and result.to_text().strip()
        assert result._repr_mimebundle_() == {
            "text/plain": result.to_text(),
            "text/html": result.to_html(),
        }
    monkeypatch.setattr("jaxdbg_widgets._display.in_notebook", lambda: True)
    for result in results:
        bundle = result._repr_mimebundle_()
        assert bundle["text/html"].startswith('<div class="jdw-standalone"'), type(result)


@pytest.mark.parametrize("name", CASES)
def test_rich_prints_each_result_as_print_does(name):
    case = CASES[name]
    arguments = case.arguments()
    for result in (
        jdw.memory_map(arguments),
        jdw.show(arguments),
        jdw.communication_map(case.program(), *arguments),
        jdw.peak_memory(case.program(), *arguments),
    ):
        text = result.to_text()
        width = max(120, *map(len, text.splitlines()))  # rich folds what is wider than its console
        buffer = io.StringIO()
        rich.console.Console(file=buffer, width=width, color_system=None).print(result)
        assert _lines(buffer.getvalue()) == _lines(text), type(result)


def _lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.strip("\n").splitlines()]
