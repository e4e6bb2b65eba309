"""Importing the package loads no notebook machinery until a widget or magic is used."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import jaxdbg_widgets

HEAVY = ("IPython", "ipykernel", "ipywidgets", "anywidget", "traitlets", "comm")


def _loaded_after(statement: str) -> list[str]:
    script = (
        f"import json, sys\n{statement}\n"
        f"print(json.dumps(sorted({{m.partition('.')[0] for m in sys.modules}} & {set(HEAVY)!r})))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("module", ["jaxdbg_widgets", "jaxdbg_widgets.core"])
def test_import_loads_no_ipython_or_widgets(module):
    assert _loaded_after(f"import {module}") == []


def test_the_text_and_html_sharding_views_load_no_widgets():
    statement = (
        "import jax, jaxdbg_widgets as jdw\n"
        "x = jax.numpy.zeros(8)\n"
        "jdw.sharding_text(x.shape, x.sharding)\njdw.sharding_html(x.shape, x.sharding)"
    )
    assert _loaded_after(statement) == []


def test_a_widget_class_is_imported_on_first_use():
    loaded = _loaded_after("import jaxdbg_widgets as jdw\njdw.ShardingWidget")
    assert "anywidget" in loaded


def test_dir_and_all_list_the_lazy_names():
    assert {"PrintLog", "ShardingWidget"} <= set(dir(jaxdbg_widgets))
    assert {"PrintLog", "ShardingWidget"} <= set(jaxdbg_widgets.__all__)
    with pytest.raises(AttributeError):
        jaxdbg_widgets.NoSuchName  # noqa: B018


def test_the_text_and_html_pictures_load_no_widgets():
    statement = (
        "import numpy as np, jaxdbg_widgets as jdw\n"
        "p = jdw.show(np.eye(4))\np.to_text()\np.to_html()"
    )
    assert _loaded_after(statement) == []
