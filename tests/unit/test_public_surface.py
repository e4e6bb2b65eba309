"""The public surface is documented and stays importable from the top-level package."""

from pathlib import Path

import jaxdbg_widgets

API_DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def test_every_public_name_is_in_the_api_reference():
    text = API_DOC.read_text(encoding="utf-8")
    missing = [name for name in jaxdbg_widgets.__all__ if f"`{name}" not in text]
    assert missing == []


def test_every_public_name_resolves():
    for name in jaxdbg_widgets.__all__:
        assert getattr(jaxdbg_widgets, name) is not None


def test_communication_map_is_public_and_its_widget_imports_on_first_use():
    assert {"communication_map", "communication_map_from_text", "CommunicationWidget"} <= set(
        jaxdbg_widgets.__all__
    )
    assert jaxdbg_widgets.CommunicationWidget.__name__ == "CommunicationWidget"


def test_show_is_public_and_draws_a_pytree():
    import numpy as np

    assert "show" in jaxdbg_widgets.__all__
    pictures = jaxdbg_widgets.show({"w": np.eye(3)})
    assert [p.path for p in pictures.pictures] == ["['w']"]
    assert "float64[3, 3]" in pictures.to_text()


def test_find_nonfinite_is_public_and_names_the_line():
    import jax.numpy as jnp

    assert {"find_nonfinite", "NonfiniteReport"} <= set(jaxdbg_widgets.__all__)
    report = jaxdbg_widgets.find_nonfinite(lambda x: jnp.log(x - 2.0), 1.0)
    assert isinstance(report, jaxdbg_widgets.NonfiniteReport)
    assert report.origin.primitive == "log"
    assert "jnp.log(x - 2.0)" in report.origin.source.text


def test_the_cluster_views_are_public_and_import_on_first_use():
    from jaxdbg_widgets.multiprocess import memory, sharding

    assert jaxdbg_widgets.cluster_memory_map is memory.cluster_memory_map
    assert jaxdbg_widgets.cluster_sharding_view is sharding.cluster_sharding_view


def test_the_user_guides_import_nothing_below_the_top_level():
    docs = API_DOC.parent
    contributors = {"architecture.md", "testing.md", "transports.md"}
    pages = [p for p in docs.glob("*.md") if p.name not in contributors]
    pages += [docs.parent / "README.md", *docs.parent.glob("notebooks/*.ipynb")]
    deep = [p.name for p in pages if "from jaxdbg_widgets." in p.read_text(encoding="utf-8")]
    assert deep == []
