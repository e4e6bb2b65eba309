"""Taking the engines' prints after a notebook cell never puts an error in that cell."""

from __future__ import annotations

from types import SimpleNamespace

from jaxdbg_widgets.multiprocess import collector


class FakeView:
    """A view whose client lists ``ids``; ``apply_async`` fails as ipyparallel's does."""

    def __init__(self, ids: list[int], error: Exception | None = None) -> None:
        self.client = SimpleNamespace(ids=ids)
        self.error = error
        self.sent = 0

    def apply_async(self, f):
        self.sent += 1
        raise self.error


def test_after_the_engines_are_shut_down_nothing_is_asked(capsys):
    view = FakeView(
        [], RuntimeError("NoEnginesRegistered: Can't build targets without any engines")
    )
    collector.collect(view, 3)
    assert view.sent == 0
    assert capsys.readouterr().err == ""


def test_a_request_that_cannot_be_sent_is_one_line_on_stderr(capsys):
    view = FakeView([0, 1], IndexError("No such engine: 1"))
    collector.collect(view, 3)
    assert view.sent == 1
    assert (
        capsys.readouterr().err
        == "jaxdbg: could not take the engines' prints: IndexError: No such engine: 1\n"
    )


class FakeCluster:
    def __init__(self, controller: object | None, engines: dict) -> None:
        self.controller = controller
        self.engines = engines


def test_a_cluster_stopped_since_the_engines_were_joined_reads_stopped():
    cluster = FakeCluster(object(), {"set-1": object()})
    stopped = collector._stop_check(SimpleNamespace(cluster=cluster))
    assert not stopped()
    cluster.controller, cluster.engines = None, {}  # what stop_cluster_sync leaves
    assert stopped()


def test_engines_launched_elsewhere_are_never_taken_for_stopped():
    assert not collector._stop_check(SimpleNamespace())()
    assert not collector._stop_check(SimpleNamespace(cluster=None))()
    assert not collector._stop_check(SimpleNamespace(cluster=object()))()
    assert not collector._stop_check(SimpleNamespace(cluster=FakeCluster(None, {})))()
