"""Scans are opened iteration by iteration whichever way this JAX writes them.

JAX up to 0.11 gives a scan ``num_consts``/``num_carry``; JAX 0.12 gives the flat trees
``ft_in``/``ft_out``, nests their groups after ``grad`` and drops outputs it forwards. The
layout read through the JAX adapter is checked against what binding the scan itself computes,
then on searches whose answer depends on each input landing in its place.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax
from jax.extend.core import jaxpr_as_fun

from jaxdbg_widgets import _capabilities as caps
from jaxdbg_widgets.core import _jax_internals as internals
from jaxdbg_widgets.nans import find_nonfinite


def _two_carries(xs, w):
    def body(carry, x):
        a, b = carry
        return (a + x * w, b - 1.0), (a * b, x)  # the second output forwards x

    return lax.scan(body, (1.0, 5.0), xs)


def _forwarded_carry(xs):
    def body(carry, x):
        kept, total = carry
        return (kept, total + kept * x), total  # kept comes back unchanged: JAX makes it a const

    return lax.scan(body, (2.0, 0.0), xs)


def _reversed(xs):
    return lax.scan(lambda c, x: (c * x, c + x), 1.0, xs, reverse=True)


def _loss(xs, c):
    return jnp.sum(lax.scan(lambda carry, x: (carry * 2.0, jnp.sin(x) * carry), c, xs)[1])


PROGRAMS = {
    "consts, two carries and a forwarded output": (_two_carries, (jnp.arange(4.0), 3.0)),
    "a forwarded carry": (_forwarded_carry, (jnp.arange(4.0),)),
    "reverse": (_reversed, (jnp.arange(1.0, 5.0),)),
    "the backward scan of grad": (jax.grad(_loss), (jnp.arange(4.0), 0.5)),
    "vmap of a scan": (jax.vmap(_reversed), (jnp.arange(8.0).reshape(2, 4),)),
}


def _by_layout(layout: internals.ScanLayout, ins: list, outs_count: int) -> list[np.ndarray]:
    """The scan's outputs, running its body one iteration at a time as the search does."""
    body = jaxpr_as_fun(layout.body)
    consts = [ins[i] for i in layout.consts]
    carry = [ins[i] for i in layout.carry]
    rows: list[list] = []
    order = range(layout.length - 1, -1, -1) if layout.reverse else range(layout.length)
    for i in order:
        outs = body(*consts, *carry, *[ins[k][i] for k in layout.xs])
        carry = [outs[k] for k in layout.carry_out]
        rows.append([o for k, o in enumerate(outs) if k not in layout.carry_out])
    if layout.reverse:
        rows.reverse()
    ys = [np.stack(column) for column in zip(*rows, strict=True)] if rows else []
    assert len(carry) + len(ys) == outs_count
    return [np.asarray(c) for c in carry] + ys


@pytest.mark.parametrize(("fun", "args"), PROGRAMS.values(), ids=PROGRAMS.keys())
def test_the_layout_runs_the_body_to_what_the_scan_itself_computes(fun, args):
    closed = jax.make_jaxpr(fun)(*args)
    env = dict(zip(closed.jaxpr.invars, args, strict=True))
    env.update(zip(closed.jaxpr.constvars, closed.consts, strict=True))
    scans = 0
    for eqn in closed.jaxpr.eqns:
        ins = [v.val if internals.is_literal(v) else env[v] for v in eqn.invars]
        outs = internals.bind_equation(eqn, ins)
        if eqn.primitive.name == "scan":
            scans += 1
            layout = internals.scan_layout(eqn)
            assert layout is not None
            assert sorted((*layout.consts, *layout.carry, *layout.xs)) == list(range(len(ins)))
            for ours, theirs in zip(_by_layout(layout, ins, len(outs)), outs, strict=True):
                np.testing.assert_allclose(ours, np.asarray(theirs), rtol=1e-6)
        env.update((v, o) for v, o in zip(eqn.outvars, outs, strict=True))
    assert scans >= 1


def test_this_jax_s_scan_form_is_read():
    assert caps.has("jax", "scan-layout")
    assert internals.SCAN_LAYOUT


def test_consts_carries_and_slices_each_land_in_their_place():
    def body(carry, x):
        a, b = carry
        return (a + x, b * w_scale), jnp.log(b - a)  # b - a: 10, 10, 9, 7, 4, 0: -inf at 5

    w_scale = jnp.float32(1.0)
    xs = jnp.arange(6.0)
    origin = find_nonfinite(lambda xs: lax.scan(body, (0.0, 10.0), xs)[1], xs).origin
    assert origin.primitive == "log"
    assert origin.path == ("scan iteration 5",)
    assert "jnp.log(b - a)" in origin.source.text


def test_a_reverse_scan_names_the_iteration_by_its_slice():
    def body(carry, x):
        return carry + 1.0, jnp.sqrt(x - carry)  # slices 5..0 meet carry 0..5: 2 - 3 at slice 2

    program = lambda xs: lax.scan(body, 0.0, xs, reverse=True)[1]  # noqa: E731
    origin = find_nonfinite(program, jnp.arange(6.0)).origin
    assert origin.primitive == "sqrt"
    assert origin.path == ("scan iteration 2",)


def test_a_forwarded_carry_and_output_still_reach_the_body():
    def body(carry, x):
        kept, total = carry
        return (kept, total + jnp.log(kept - x)), x  # kept = 3: log(0) at slice 3

    origin = find_nonfinite(lambda xs: lax.scan(body, (3.0, 0.0), xs)[0], jnp.arange(6.0)).origin
    assert origin.primitive == "log"
    assert origin.path == ("scan iteration 3",)


def test_a_nan_in_the_backward_scan_names_its_iteration_and_the_backward_pass():
    def loss(w, xs):
        def body(carry, x):
            return carry, jnp.sqrt(x * w) * 0.0  # d sqrt at 0 is +inf, times 0: NaN gradient

        return jnp.sum(lax.scan(body, 0.0, xs)[1])

    report = find_nonfinite(jax.grad(loss), 1.0, jnp.array([3.0, 2.0, 1.0, 0.0, 1.0]))
    first, nan = report.origin, report.nan_origin
    assert first.path == ("scan iteration 3",) and first.direction == "forward"
    assert "jvp" in " ".join(first.notes)
    assert nan.path == ("scan iteration 3",) and nan.direction == "backward"
    assert "jnp.sqrt(x * w)" in nan.forward_line.text


def test_a_scan_under_vmap_names_the_iteration_and_the_batch_elements():
    def row(xs):
        return lax.scan(lambda c, x: (c, jnp.log(x)), 0.0, xs)[1]

    batch = jnp.array([[1.0, 2.0, 3.0], [1.0, 2.0, -3.0], [1.0, 2.0, 4.0], [1.0, 2.0, -1.0]])
    origin = find_nonfinite(jax.vmap(row), batch).origin
    assert origin.primitive == "log"
    assert origin.path == ("scan iteration 2",)
    assert origin.batch_elements == (1, 3)


UNREADABLE_SCAN = """
from jax._src.lax.control_flow import loops
original = loops._scan_impl
def _scan_impl(*args, **params):
    return original(*args, **params)
loops._scan_impl = _scan_impl
"""


def test_an_unread_scan_form_turns_off_only_scan_opening_and_says_so():
    script = UNREADABLE_SCAN + textwrap.dedent(
        """
        import json
        import jax, jax.numpy as jnp
        from jaxdbg_widgets import _capabilities as caps
        from jaxdbg_widgets.nans import find_nonfinite
        from tests.unit.nans import cases
        print(json.dumps([c.name for c in caps.degraded() if c.library == "jax"]))
        scan = find_nonfinite(cases.scan_program, jnp.arange(6.0)).origin
        print(scan.primitive, scan.path, scan.notes[-1])
        loop = find_nonfinite(cases.while_program, 0.0).origin
        print(loop.primitive, loop.path)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=True
    )
    lines = done.stdout.splitlines()
    already_off = {c.name for c in caps.degraded() if c.library == "jax"}
    assert set(json.loads(lines[0])) == already_off | {"scan-layout"}
    assert lines[1].startswith("scan () this JAX writes scans in a form the search does not read")
    assert lines[2] == "log ('while iteration 3',)"
