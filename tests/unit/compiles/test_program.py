"""Why compiling is slow: equations per user line, unrolled loops and captured constants."""

from __future__ import annotations

import os

import jax
import jax.numpy as jnp
import numpy as np

from jaxdbg_widgets.compiles import watch_compiles
from jaxdbg_widgets.compiles.program import program_size
from jaxdbg_widgets.compiles.signature import Site


def _place(filename, lineno):
    return Site(filename, lineno, f"L{lineno}")


def unrolled(x):
    for _ in range(50):
        x = jnp.sin(x) * 2.0  # 50 steps: 100 equations at this line
    return x + 1.0


def scanned(x):
    def body(c, _):
        return jnp.sin(c) * 2.0, None  # once, however many steps

    return jax.lax.scan(body, x, None, length=50)[0]


def test_an_unrolled_python_loop_is_the_biggest_line():
    size = program_size(jax.make_jaxpr(unrolled)(jnp.ones(3)), _place)
    top = size.lines[0]
    assert top.equations == 100 and "50 steps" in top.code
    assert size.equations == 101


def test_a_scan_body_counts_once():
    size = program_size(jax.make_jaxpr(scanned)(jnp.ones(3)), _place)
    body = [line for line in size.lines if "once, however" in line.code]
    assert [line.equations for line in body] == [2]


TABLE = np.arange(200_000, dtype=np.float32)


def with_constant(x):
    return x + jnp.asarray(TABLE)[:3]  # the captured table


def test_a_large_captured_constant_is_listed_with_its_line():
    with watch_compiles() as report:
        jax.jit(with_constant)(jnp.ones(3))
    [program] = [p for p in report.programs if p.function.name == "with_constant"]
    [constant] = program.size.constants
    assert constant.nbytes == TABLE.nbytes and constant.type == "float32[200000]"
    assert constant.site.lineno == with_constant.__code__.co_firstlineno + 1


def test_small_constants_are_left_out():
    size = program_size(jax.make_jaxpr(lambda x: x + jnp.ones(3))(jnp.ones(3)), _place)
    assert size.constants == ()


def test_something_that_is_not_a_program_has_no_size():
    assert program_size(None, _place) is None


def test_the_lowered_program_counts_stablehlo_operations_per_line():
    def unrolled_again(x):
        for _ in range(25):
            x = jnp.sin(x) * 2.0  # 25 steps: at least 50 operations at this line
        return x

    with watch_compiles(hlo=True) as report:
        line = unrolled_again.__code__.co_firstlineno + 2
        call = _here() + 1
        jax.jit(unrolled_again)(jnp.ones(3))
    [program] = [p for p in report.programs if p.name == "unrolled_again"]
    [top] = [s for s in program.size.lines if s.site.lineno == line]
    assert top.equations == 50 and top.hlo >= 50
    assert program.size.hlo >= top.hlo
    assert all(s.site.lineno != call for s in program.size.lines), program.size.lines


def _here() -> int:
    import sys

    return sys._getframe(1).f_lineno


def test_a_lambda_jitted_and_called_on_one_line_keeps_its_operations():
    with watch_compiles(hlo=True) as report:
        line = _here() + 1
        jax.jit(lambda x: jnp.sin(x) * 3.0)(jnp.ones(4))
    [program] = [p for p in report.programs if p.name == "<lambda>"]
    [at_line] = [s for s in program.size.lines if s.site.lineno == line]
    assert at_line.equations == 2 and at_line.hlo >= 2


def test_stablehlo_operations_are_counted_only_when_asked():
    with watch_compiles() as report:
        jax.jit(lambda x: jnp.cos(x) * 5.0)(jnp.ones(4))
    [program] = [p for p in report.programs if p.name == "<lambda>"]
    assert program.size.hlo == 0 and all(line.hlo == 0 for line in program.size.lines)


def test_without_the_lowered_module_hlo_true_keeps_the_jaxpr_sizes(monkeypatch):
    from jaxdbg_widgets.core._jax_internals import tracing

    monkeypatch.setattr(tracing, "_LOWERING_FILE", None)  # as when jit-lowered-module fails
    with watch_compiles(hlo=True) as report:
        jax.jit(lambda x: jnp.tan(x) * 6.0)(jnp.ones(4))
    [program] = [p for p in report.programs if p.name == "<lambda>"]
    assert program.size.equations == 2 and program.size.hlo == 0


def test_operations_of_a_cell_named_alike_for_every_process_are_on_this_process_lines(
    file_names_kept,
):
    from ipykernel.compiler import get_tmp_directory

    from jaxdbg_widgets.multiprocess import engine

    own = os.path.join(get_tmp_directory(), "5151.py")
    code = "def cell(x):\n    return jnp.sin(x) * 2.0\n"
    space: dict = {}
    exec(compile(code, own, "exec"), {"jnp": jnp}, space)
    engine.name_cell_files_alike()
    with watch_compiles(hlo=True) as report:
        jax.jit(space["cell"])(jnp.ones(4))
    [program] = [p for p in report.programs if p.name == "cell"]
    [line] = [s for s in program.size.lines if s.site.lineno == 2]
    assert line.site.filename == own and line.equations == 2 and line.hlo >= 2
    assert all("ipykernel_/" not in s.site.filename for s in program.size.lines)
