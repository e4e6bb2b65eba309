"""Taking the engines' prints after a notebook cell never puts an error in that cell."""

from __future__ import annotations

from types import SimpleNamespace

from jaxdbg_widgets._kernel import cell_files
from jaxdbg_widgets.multiprocess import collector


class FakeView:
    """A view whose client lists ``ids``; ``apply_async`` fails as ipyparallel's does."""

    def __init__(self, ids: list[int], error: Exception | None = None) -> None:
        self.client = SimpleNamespace(ids=ids)
        self.error = error
        self.sent = 0

    def apply_async(self, f, *args):
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


class RecordingView:
    """A view that keeps what each ``apply_async`` asked, and sends nothing."""

    def __init__(self) -> None:
        self.client = SimpleNamespace(ids=[0, 1])
        self.asked: list[tuple] = []

    def apply_async(self, f, *args):
        self.asked.append((f, *args))


class Events:
    def __init__(self) -> None:
        self.hooks: dict[str, list] = {}

    def register(self, name, hook):
        self.hooks.setdefault(name, []).append(hook)

    def unregister(self, name, hook):
        self.hooks[name].remove(hook)


def test_the_engines_learn_each_px_cells_number_before_its_code(monkeypatch):
    numbers = iter([7, 8, None])  # the running cell's number; None: a cell run without history
    monkeypatch.setattr(cell_files, "_engine_files", {})
    monkeypatch.setattr(collector.cells, "current_cell", lambda: next(numbers))
    ip, view = SimpleNamespace(events=Events(), execution_count=9), RecordingView()
    detach = collector.attach(ip, view)
    try:
        (before,) = ip.events.hooks["pre_run_cell"]
        before(SimpleNamespace(raw_cell="%%px\ny = step(x)\n"))
        before(SimpleNamespace(raw_cell="y = 1\n"))  # a notebook-only cell: nothing to tell
        before(SimpleNamespace(raw_cell="%%px\nz = 2\n"))  # named after the count, as IPython
    finally:
        detach()
    assert view.asked == [
        (cell_files.name_notebook_cell, "%%px\ny = step(x)\n", 7),
        (cell_files.name_notebook_cell, "%%px\nz = 2\n", 9),
    ]
    assert ip.events.hooks == {"pre_run_cell": [], "post_run_cell": []}


def test_a_px_cell_with_no_engine_left_tells_none_and_one_that_fails_says_so(capsys):
    gone = FakeView([], RuntimeError("NoEnginesRegistered"))
    collector.name_cell_on_engines(gone, "%%px\nz = 2\n", 4)
    assert gone.sent == 0 and capsys.readouterr().err == ""
    failing = FakeView([0, 1], IndexError("No such engine: 1"))
    collector.name_cell_on_engines(failing, "%%px\nz = 2\n", 4)
    assert capsys.readouterr().err == (
        "jaxdbg: could not name the cell on the engines: IndexError: No such engine: 1\n"
    )
