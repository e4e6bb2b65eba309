"""What XLA writes to the process's stderr while a block runs, read at the file-descriptor level.

XLA logs from C++ straight to file descriptor 2, past ``sys.stderr``; the block's output is
also written back to the real stderr so nothing the user would have seen is lost.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Iterator

REMAT_PHRASE = "Involuntary full rematerialization"


class Captured:
    """The text written to stderr inside :func:`captured_stderr`, set when the block ends."""

    text: str = ""


@contextlib.contextmanager
def captured_stderr() -> Iterator[Captured]:
    """Send file descriptor 2 to a temporary file for the block; the text lands in ``.text``."""
    result = Captured()
    try:
        saved = os.dup(2)
    except OSError:
        yield result
        return
    with tempfile.TemporaryFile(mode="w+b") as sink:
        with contextlib.suppress(Exception):
            sys.stderr.flush()
        os.dup2(sink.fileno(), 2)
        try:
            yield result
        finally:
            with contextlib.suppress(Exception):
                sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            sink.seek(0)
            result.text = sink.read().decode("utf-8", errors="replace")
    if result.text:
        with contextlib.suppress(Exception):
            sys.stderr.write(result.text)


def remat_warnings(text: str) -> list[str]:
    """XLA's rematerialization warnings in captured stderr, one entry per logged message."""
    found: list[str] = []
    current: list[str] | None = None
    for line in text.splitlines():
        starts_entry = _is_log_prefix(line)
        if REMAT_PHRASE in line:
            if current:
                found.append("\n".join(current))
            current = [line[line.index(REMAT_PHRASE) :]]
        elif current is not None and line.strip() and not starts_entry:
            current.append(line)
        elif current is not None:
            found.append("\n".join(current))
            current = None
    if current:
        found.append("\n".join(current))
    return found


def _is_log_prefix(line: str) -> bool:
    """Whether a line opens a new log entry (``W0101 12:00:00.000 ... file.cc:12] ...``)."""
    return len(line) > 5 and line[0] in "IWEF" and line[1:5].isdigit()
