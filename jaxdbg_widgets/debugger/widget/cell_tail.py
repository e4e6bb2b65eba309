"""The rest of a cell's output after its debugger ended, kept as small plain JSON.

A page reloaded while the breakpoint waited draws the ended widget, but no output the cell sends
after Continue (a front end shows only the output of the requests it sent). The kernel copies
that output here; the ended widget draws it under its transcript. Text is bounded: only the
last :data:`MAX_TEXT` characters stay, and ``omitted`` counts the ones left out before them.
"""

from __future__ import annotations

import threading
from typing import Any

from jaxdbg_widgets.debugger.schema import CellOutput, CellResult, OutputChunk

MAX_TEXT = 20_000
"""Characters of printed and displayed text kept, the latest ones."""
MAX_RESULT = 4_000
"""Characters of the cell's result (its ``Out[n]`` text) kept, the first ones."""
KINDS = ("stdout", "stderr", "display", "error")


class CellTail:
    """Chunks of text in the order the cell sent them, and its result; safe across threads."""

    def __init__(self, max_text: int = MAX_TEXT, max_result: int = MAX_RESULT) -> None:
        if max_text < 1 or max_result < 1:
            raise ValueError(f"bounds must be positive, got {max_text} and {max_result}")
        self._max_text, self._max_result = max_text, max_result
        self._lock = threading.Lock()
        self._chunks: list[OutputChunk] = []
        self._length = 0
        self._omitted = 0
        self._result: CellResult | None = None

    def add(self, kind: str, text: str) -> None:
        """Append ``text`` of ``kind`` (one of :data:`KINDS`); the oldest text goes past the bound."""
        if kind not in KINDS:
            raise ValueError(f"unknown output kind {kind!r}; expected one of {', '.join(KINDS)}")
        if not text:
            return
        with self._lock:
            if self._chunks and self._chunks[-1]["kind"] == kind:
                self._chunks[-1] = {"kind": kind, "text": self._chunks[-1]["text"] + text}
            else:
                self._chunks.append({"kind": kind, "text": text})
            self._length += len(text)
            self._trim()

    def set_result(self, count: int | None, text: str) -> None:
        """The cell's result: its execution count and text, cut past :data:`MAX_RESULT`."""
        if len(text) > self._max_result:
            more = len(text) - self._max_result
            text = f"{text[: self._max_result]}\n… {more:,} characters more"
        with self._lock:
            self._result = {"count": count, "text": text}

    def to_json(self) -> CellOutput:
        """The state the widget draws: chunks, characters left out before them, the result."""
        with self._lock:
            return {
                "chunks": [{"kind": c["kind"], "text": c["text"]} for c in self._chunks],
                "omitted": self._omitted,
                "result": None if self._result is None else {**self._result},
            }

    def _trim(self) -> None:
        while self._length > self._max_text:
            extra = self._length - self._max_text
            first = self._chunks[0]
            if len(first["text"]) <= extra:
                self._chunks.pop(0)
                cut = len(first["text"])
            else:
                self._chunks[0] = {"kind": first["kind"], "text": first["text"][extra:]}
                cut = extra
            self._length -= cut
            self._omitted += cut


def from_message(tail: CellTail, msg_type: str, content: dict[str, Any]) -> bool:
    """Add one IOPub message of the cell to ``tail``; whether it showed anything (widget
    traffic, status and display updates do not)."""
    if msg_type == "stream":
        name = content.get("name")
        text = str(content.get("text", ""))
        tail.add("stderr" if name == "stderr" else "stdout", text)
        return bool(text)
    if msg_type == "display_data":
        text = _plain(content)
        tail.add("display", text + "\n" if text else "")
        return bool(text)
    if msg_type == "execute_result":
        tail.set_result(content.get("execution_count"), _plain(content))
        return True
    if msg_type == "error":
        tail.add("error", f"{content.get('ename', 'Error')}: {content.get('evalue', '')}\n")
        return True
    return False


def _plain(content: dict[str, Any]) -> str:
    data = content.get("data") or {}
    return str(data.get("text/plain", ""))
