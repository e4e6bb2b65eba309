"""A JAX whose jit trace changed turns off only the signatures, causes and sizes."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from jaxdbg_widgets import _capabilities as caps

# The function that traces a top-level jit: _trace_for_jit, or on JAX 0.7 _infer_params_internal.
WRAPPER = (
    "_name = '_trace_for_jit' if hasattr(pjit, '_trace_for_jit') else '_infer_params_internal'\n"
    "_original = getattr(pjit, _name)\n"
    "def _changed(*args, **kwargs):\n"
    "    return _original(*args, **kwargs)\n"
    "setattr(pjit, _name, _changed)\n"
)
CHANGED_TRACE = f"""
import jax._src.pjit as pjit
exec({WRAPPER!r}, {{"pjit": pjit, "__name__": "jax.changed"}})  # JAX's frame, not the user's
"""

BODY = """
import json
import jax, jax.numpy as jnp
import jaxdbg_widgets as jdw
from jaxdbg_widgets import _capabilities as caps
f = jax.jit(lambda x: x * 2)
with jdw.watch_compiles() as report:
    f(jnp.ones(2))
    f(jnp.ones(3))
mine = [p for p in report.programs if p.name == "<lambda>"]
print(json.dumps([c.name for c in caps.degraded() if c.library == "jax"]))
print(json.dumps([[p.stages["compile"], p.call_site.label, p.signature is None] for p in mine]))
print(f(jnp.ones(2)).tolist())
"""


def test_a_changed_jit_trace_keeps_names_call_sites_counts_and_results():
    script = textwrap.dedent(CHANGED_TRACE) + textwrap.dedent(BODY)
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=180, check=True
    )
    degraded, programs, result = done.stdout.splitlines()
    first = script.splitlines().index("    f(jnp.ones(2))") + 1
    already_off = {c.name for c in caps.degraded() if c.library == "jax"}
    assert set(json.loads(degraded)) == already_off | {"jit-trace-facts"}
    assert json.loads(programs) == [
        [1, f"<string>:{first}", True],
        [1, f"<string>:{first + 1}", True],
    ]
    assert result == "[2.0, 2.0]"
