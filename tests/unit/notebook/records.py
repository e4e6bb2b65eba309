"""Build ``PrintRecord``s the way the core's print does, for tests that drive the log by hand."""

from jaxdbg_widgets.core.sinks import PrintRecord


def record(
    text: str = "x=1",
    *,
    filename: str = "/work/model.py",
    lineno: int = 7,
    function: str = "step",
    timestamp: float = 1_700_000_000.0,
    values: tuple[tuple[str, str], ...] = (("x", "f32[]"),),
    thread_id: int | None = None,
) -> PrintRecord:
    return PrintRecord(text, filename, lineno, function, timestamp, values, thread_id)
