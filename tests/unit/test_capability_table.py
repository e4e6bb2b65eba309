"""The shared capability table that the private-API adapters fill at load."""

import pytest

from jaxdbg_widgets import _capabilities as caps


@pytest.fixture(autouse=True)
def table(monkeypatch):
    """A copy of the table for each test, so the fake capabilities below never outlive it."""
    monkeypatch.setattr(caps, "_table", dict(caps._table))


def test_a_failing_probe_records_a_one_line_reason_and_never_raises():
    def probe():
        raise AttributeError("module 'x' has no attribute 'y'\nsecond line")

    result = caps.check("jax", "test-missing", "a test feature", probe)
    assert not result.ok
    assert result.reason == "AttributeError: module 'x' has no attribute 'y'"
    assert not caps.has("jax", "test-missing")
    assert result in caps.degraded()
    assert (
        result.line() == "jax test-missing: off (AttributeError: module 'x' has no attribute 'y')"
    )


def test_a_passing_probe_is_available():
    result = caps.check("ipython", "test-present", "a test feature", lambda: None)
    assert result.ok and caps.has("ipython", "test-present")
    assert result.line() == "ipython test-present: ok"
    assert not caps.has("ipython", "never-checked")


def test_parameters_are_checked_by_keyword():
    def emit(ctx, token, *, returns_token=False):
        return token

    caps.require_parameters(emit, ["returns_token"])
    try:
        caps.require_parameters(emit, ["returns_token", "cacheable"])
    except TypeError as error:
        assert "has no parameter cacheable" in str(error)
    else:
        raise AssertionError("a missing keyword was accepted")
    caps.require_parameters(lambda **kwargs: None, ["anything"])


def test_attributes_are_checked():
    import types

    module = types.SimpleNamespace(present=1)
    caps.require_attributes(module, ["present"])
    try:
        caps.require_attributes(module, ["present", "absent"])
    except AttributeError as error:
        assert "absent" in str(error)
    else:
        raise AssertionError("a missing attribute was accepted")


def _spin() -> None:
    while True:
        pass


def _swallow_everything() -> None:
    """A probe that recurses without end and catches every exception on the way, as JAX's
    ``DebuggerFrame`` flattening did on Python 3.13 when a frame held its own capture."""

    def descend(depth: int) -> None:
        try:
            for _ in range(3):
                if depth < 40:
                    descend(depth + 1)
        except:  # noqa: E722 - the point of the test
            pass

    while True:
        descend(0)


@pytest.mark.parametrize("probe", [_spin, _swallow_everything])
def test_a_probe_that_never_returns_is_stopped_and_only_its_feature_is_off(probe):
    import sys
    import time

    trace, profile = sys.gettrace(), sys.getprofile()
    started = time.perf_counter()
    result = caps.check("jax", "test-endless", "a test feature", probe, seconds=0.2)
    elapsed = time.perf_counter() - started
    assert not result.ok
    assert result.reason == "ProbeOverrun: ran past its 0.2 s budget at load and was stopped"
    assert elapsed < 5, elapsed
    assert (sys.gettrace(), sys.getprofile()) == (trace, profile)
    assert caps.check("jax", "test-after", "another feature", lambda: None).ok


def test_every_probe_at_load_took_a_fraction_of_its_budget():
    """The budget stops loops, not slow machines: no real check comes near it."""
    import jaxdbg_widgets  # noqa: F401 - fills the table

    overran = [c.line() for c in caps.all_capabilities() if "ProbeOverrun" in c.reason]
    assert overran == []
