"""find_nonfinite and %jaxdbg nans on over the corpus of programs written as users write them,
in plain JAX and with flax, optax and equinox."""

from __future__ import annotations

import inspect

import jax
import pytest

from jaxdbg_widgets.nans import find_nonfinite, recheck
from jaxdbg_widgets.nans.report import Origin
from jaxdbg_widgets.notebook import nans
from tests.corpus import libraries, programs
from tests.corpus.programs import Case

MODULES = {case.name: module for module in (programs, libraries) for case in module.CASES}
CASES = {case.name: case for module in (programs, libraries) for case in module.CASES}


def _marked_line(case: Case) -> int:
    """The line of the case's corpus module that carries its ``# NaN:`` comment."""
    lines = inspect.getsource(MODULES[case.name]).splitlines()
    (number,) = [  # the program's line, not the case that names the marker
        i for i, line in enumerate(lines, start=1) if case.marker in line and '"#' not in line
    ]
    return number


def _check(origin: Origin, case: Case) -> None:
    assert origin is not None
    assert origin.source.filename == MODULES[case.name].__file__
    assert origin.source.lineno == _marked_line(case)
    assert origin.path == case.path and origin.direction == case.direction
    assert tuple(s.position for s in origin.shards) == case.shards
    assert origin.batch_elements == case.batch


@pytest.mark.parametrize("name", CASES)
def test_find_nonfinite_names_the_seeded_line_iteration_shards_and_elements(name):
    case = CASES[name]
    report = find_nonfinite(case.program(), *case.arguments())
    assert report.lead == case.lead, report.to_text()
    _check(report.origin, case)


@pytest.mark.skipif(not recheck.available(), reason="no nan-recheck")
@pytest.mark.parametrize("name", CASES)
def test_nans_on_raises_floating_point_error_at_the_seeded_line(name):
    case = CASES[name]
    program = case.program() if case.jitted else jax.jit(case.program())
    arguments = case.arguments()  # made first: a model's init holds a mask's -inf itself
    undo = nans.install(None)
    nans.set_checks(True)
    try:
        with pytest.raises(FloatingPointError) as raised:
            program(*arguments)
    finally:
        undo()
    _check(raised.value.report.origin, case)
