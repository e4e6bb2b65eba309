"""One debugger session for the hits of every process of a ``jax.distributed`` job.

Each process (an ipyparallel engine) holds its own hits, one hit or the gathered shards of its
devices, and builds their views where the frames are. :class:`ClusterSession` lists every
process's hits in one process × device selector (``dev N`` over all of them, ``proc N`` for a
process), forwards the other commands to the shown process, compares one expression across
every hit of every process in one table (with a row of pictures on one scale when every
value is an array of one shape), and continues one hit (``c N``), one process
(``cp N``) or all (``c``, ``ca``). ``q``, an interrupt or a process that died ends every
process's hits at once, so none is left waiting in a collective. It reaches the processes only
through a :class:`Link`, so tests drive it without a kernel.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from jaxdbg_widgets.debugger.session import commands
from jaxdbg_widgets.debugger.session.base import SHARD_MESSAGES, CommandLog, Entry, Resume
from jaxdbg_widgets.debugger.session.cluster_link import Link, ProcessHits, ProcessLost
from jaxdbg_widgets.debugger.session.compare_pictures import (
    ComparePictures,
    Drawable,
    Drawn,
    chosen_pictures,
)
from jaxdbg_widgets.debugger.session.shard_compare import (
    CONTINUED,
    CompareRow,
    compare_text,
    group_values,
    mark,
    verdict,
)
from jaxdbg_widgets.debugger.session.single import split_command
from jaxdbg_widgets.debugger.session.values import describe_error
from jaxdbg_widgets.pictures.scale import Scale

if TYPE_CHECKING:
    from jaxdbg_widgets.debugger.schema import Status, TranscriptEntry


@dataclass
class _Row:
    process: int
    local: int
    label: str
    state: Status


@dataclass
class _Compared:
    expression: str
    rows: list[CompareRow] = field(default_factory=list)
    pictures: ComparePictures | None = None


class ClusterSession(CommandLog):
    """The hits of every process of a job, answered as one session."""

    view_kind = commands.JOB
    messages = SHARD_MESSAGES
    thread_id = None
    """Served from a thread of the notebook kernel, never a device's."""

    def __init__(self, link: Link, *, history: Sequence[str] = ()) -> None:
        super().__init__(history)
        self.link = link
        self.processes: dict[int, ProcessHits] = {}
        self.rows: list[TranscriptEntry] = []
        """The transcript as the view shows it: every process's rows, labelled."""
        self.compared: _Compared | None = None
        self.lock = threading.RLock()
        self.changed = threading.Condition(self.lock)
        self.version = 0
        self.error: BaseException | None = None
        self._resume: Resume | None = None
        self._shown: tuple[int, int] | None = None

    # What the processes report (from the notebook's watcher).

    def arrive(self, process: int, summary: dict[str, Any]) -> None:
        """A process reports the hit it holds (new, or changed since its last report)."""
        with self.lock:
            known = self.processes.get(process)
            if known is not None and known.token != summary["token"]:
                return  # a later hit on that process: its own session, once this one ends
            if known is None:
                self.processes[process] = ProcessHits(process, summary["token"], summary)
                self.processes = dict(sorted(self.processes.items()))
                if self._shown is None:
                    self._shown = (process, 0)
                self._fetch_view(process)
            elif known.summary.get("version") != summary.get("version"):
                known.summary = summary
                self._fetch_view(process)
            else:
                known.summary = summary
            self._settle()

    def released(self, process: int) -> None:
        """A process no longer holds its hit (it went on, or its cell ended)."""
        with self.lock:
            known = self.processes.get(process)
            if known is not None:
                self._went_on(known)

    def lost(self, process: int, reason: str) -> None:
        """A process died: name it, and stop every other process's hits (each would wait for
        it in its next collective)."""
        with self.lock:
            known = self.processes.get(process)
            if known is None or known.died is not None:
                return
            known.died = reason
            self._note(f"process {process} died", f"process {process} died: {reason}", True)
            if self._resume is None:
                self.end(ProcessLost(f"process {process} died: {reason}"))

    # The Session interface the front ends drive.

    @property
    def resume(self) -> Resume | None:
        """How the whole session ended (``None`` while any process's hit waits)."""
        return self._resume

    @resume.setter
    def resume(self, resume: Resume) -> None:
        """Answer every process's hits with ``resume`` (the headless policy, a script's end)."""
        with self.lock:
            self._everywhere(resume)

    def end(self, error: BaseException) -> None:
        """End every process's hits because of ``error`` (an interrupt, a process that died):
        each raises it in its cell."""
        with self.lock:
            self.error = error
            for hits in self._live():
                self._tell(hits, {"op": "end", "reason": describe_error(error)})
            self._finish(Resume.QUIT)

    @property
    def hit(self) -> int:
        with self.lock:
            return min((h.summary.get("hit", 0) for h in self.processes.values()), default=0)

    @property
    def location(self) -> str:
        hits = self._shown_hits()
        return hits.summary.get("location", "") if hits else ""

    @property
    def device(self) -> str:
        """The shown hit's label: ``process 1, CPU 2 (x=2)``."""
        with self.lock:
            row = self._shown_row()
            return row.label if row else ""

    batch_size = None
    batch_label = ""

    @property
    def thread_label(self) -> str:
        """``4 processes, 8 hits, process 1, CPU 2 (x=2) selected``."""
        with self.lock:
            rows = self._rows()
            return f"{len(self.processes)} processes, {len(rows)} hits, {self.device} selected"

    def context(self, num_lines: int = 2) -> str:
        """The shown process's source lines around the breakpoint."""
        del num_lines
        hits = self._shown_hits()
        return hits.summary.get("context", "") if hits else ""

    @property
    def shown(self) -> ProcessHits | None:
        """The process whose hit is shown."""
        return self._shown_hits()

    @property
    def selected_index(self) -> int:
        """Position of the shown hit among every process's hits."""
        with self.lock:
            rows = self._rows()
            for n, row in enumerate(rows):
                if (row.process, row.local) == self._shown:
                    return n
            return 0

    def hit_rows(self) -> list[tuple[int, str, Status]]:
        """Every process's hits in order: ``(process, label, state)``."""
        with self.lock:
            return [(r.process, r.label, r.state) for r in self._rows()]

    def select_device(self, which: int | str) -> None:
        """Show hit ``which`` (its position among every process's hits, or its label)."""
        with self.lock:
            row = self._find(which)
            self._show(row)

    def select_frame(self, index: int) -> None:
        self._navigate({"type": "frame", "index": index})

    def select_batch(self, index: int) -> None:
        self._navigate({"type": "batch", "index": index})

    def set_show_internal(self, show: bool) -> None:
        """Show or hide internal frames on every process, so switching keeps the same frames."""
        with self.lock:
            for hits in self._live():
                self._message(hits, {"type": "internal", "show": show})
            self._touch()

    def run(self, line: str) -> Entry:
        """One command line: the job's commands here, the rest on the shown process."""
        line = self._next_line(line)
        if not line:
            return Entry("", "")
        name, arg = split_command(line)
        with self.lock:
            try:
                entry = self._dispatch(line, name, arg)
            except Exception as err:
                entry = self._note(line, f"*** {describe_error(err)}", True)
            self._touch()
            return entry

    def compare(self, expression: str) -> list[CompareRow]:
        """``expression`` in every hit of every process; rows differing from the most common
        value are marked, as in one process's compare, and arrays of one shape are drawn on
        one scale by the processes that hold them."""
        with self.lock:
            labels, values, drawables, places = self._compare_answers(expression)
            groups = group_values(values)
            rows = [
                CompareRow(n, label, CONTINUED, shard=n)
                if value is None
                else CompareRow(n, label, value[0], value[1], shard=n, group=groups[n])
                for n, (label, value) in enumerate(zip(labels, values, strict=True))
            ]
            rows = mark(rows)

            def draw(positions: Sequence[int], scale: Scale) -> list[Drawn]:
                return self._draw(places, positions, scale)

            self.compared = _Compared(expression, rows, chosen_pictures(rows, drawables, draw))
            return rows

    def _compare_answers(
        self, expression: str
    ) -> tuple[list[str], list[Any], list[Drawable | None], list[tuple[int, int]]]:
        """Every hit's label, plain answer (``None`` once continued), :class:`Drawable` (or
        ``None``) and ``(process, local index)``, in the order of the hit rows."""
        labels: list[str] = []
        values: list[Any] = []
        drawables: list[Drawable | None] = []
        places: list[tuple[int, int]] = []
        for hits in self.processes.values():
            for local, row in enumerate(self._compare_rows(hits, expression)):
                labels.append(row["label"])
                continued = row.get("continued")
                values.append(
                    None if continued else (row["value"], row["error"], row.get("numbers"))
                )
                found = row.get("drawable")
                drawables.append(Drawable.from_plain(found) if found else None)
                places.append((hits.process, local))
        return labels, values, drawables, places

    def _compare_rows(self, hits: ProcessHits, expression: str) -> list[dict[str, Any]]:
        """One process's compare rows, labelled with the process; continued rows for a
        process whose hits went on."""
        if not hits.waiting:
            return [{"label": self._label(hits, d), "continued": True} for d in hits.devices]
        reply = self._ask(hits, {"op": "compare", "expression": expression})
        return [
            {**row, "label": f"process {hits.process}, {row['label']}".rstrip(", ")}
            for row in reply.get("rows", [])
        ]

    def _draw(
        self, places: Sequence[tuple[int, int]], positions: Sequence[int], scale: Scale
    ) -> list[Drawn]:
        """The pictures of the hit rows ``positions`` on ``scale``, each drawn by its process
        from its last compare's value: one request per process, at most ``PICTURES_SHOWN``
        pictures in all."""
        by_process: dict[int, list[int]] = {}
        for position in positions:
            process, local = places[position]
            by_process.setdefault(process, []).append(local)
        drawn: dict[tuple[int, int], Drawn] = {}
        for process, indices in by_process.items():
            request = {"op": "pictures", "indices": indices, "scale": asdict(scale)}
            pictures = self._ask(self.processes[process], request)["pictures"]
            for local, picture in zip(indices, pictures, strict=True):
                drawn[(process, local)] = Drawn(picture["png"], picture["label"])
        return [drawn[places[p]] for p in positions]

    def compare_in_view(self, expression: str) -> Entry:
        """``compare`` from the widget: the table is in the view, the transcript keeps the
        verdict line."""
        line = f"compare {expression}"
        self._remember(line)
        with self.lock:
            try:
                entry = self._note(line, verdict(self.compare(expression)))
            except Exception as err:
                entry = self._note(line, f"*** {describe_error(err)}", True)
            self._touch()
            return entry

    def close(self) -> None:
        """Nothing to drop here: the frames stay with their processes."""

    # Inside.

    def _dispatch(self, line: str, name: str, arg: str) -> Entry:
        key = commands.key_of(name, commands.JOB)
        if key == "process":
            return self._note(line, self._process_command(arg))
        if key == "device":
            return self._note(line, self._device_command(arg))
        if key == "compare":
            return self._note(line, compare_text(arg, self.compare(arg)))
        if key == "continue":
            return self._note(line, self._continue(arg))
        if key == "continue_process":
            return self._note(line, self._continue_process(arg))
        if key == "continue_all":
            self._everywhere(Resume.CONTINUE_ALL)
            return self._note(
                line, "Continuing every process; skipping their remaining breakpoints."
            )
        if key == "quit":
            self._everywhere(Resume.QUIT)
            return self._note(line, "Quitting: every process of the job is stopped.")
        hits = self._shown_hits()
        if hits is None or not hits.waiting:
            raise ValueError("the shown process has continued; select a waiting hit with dev N")
        rows_before = len(self.rows)
        self._message(hits, {"type": "command", "line": line})
        new = self.rows[rows_before:]
        output = "\n".join(r.get("output", "") for r in new)
        error = any(r.get("error") for r in new)
        if key == "help" and not arg:
            extra = commands.extra_help(commands.JOB)
            return self._note(line, f"{output}\nJob commands:\n{extra}", error, replace=new)
        return Entry(line, output, error)

    def _process_command(self, arg: str) -> str:
        if arg:
            process = int(arg)
            rows = [r for r in self._rows() if r.process == process]
            if not rows:
                raise ValueError(f"process {process} holds no hit")
            waiting = [r for r in rows if r.state == "waiting"]
            self._show((waiting or rows)[0])
            return f"process {process}: {self.location}\n{self.context()}"
        lines = [f"{len(self.processes)} processes hold hits"]
        for hits in self.processes.values():
            mark_ = ">" if self._shown and self._shown[0] == hits.process else " "
            state = f"died: {hits.died}" if hits.died else hits.resume or "waiting"
            count = sum(d["state"] == "waiting" for d in hits.devices) if hits.waiting else 0
            lines.append(
                f"{mark_} process {hits.process}: {len(hits.devices)} hits, {count} waiting "
                f"({state})"
            )
        return "\n".join(lines)

    def _device_command(self, arg: str) -> str:
        rows = self._rows()
        if arg:
            row = self._find(int(arg) if arg.isdigit() else arg)
            self._show(row)
            return f"{row.label} ({row.state})\n{self.context()}"
        waiting = sum(r.state == "waiting" for r in rows)
        lines = [f"{len(rows)} hits on {len(self.processes)} processes, {waiting} waiting"]
        for n, row in enumerate(rows):
            mark_ = ">" if (row.process, row.local) == self._shown else " "
            lines.append(f"{mark_} {n:>3}  {row.label} ({row.state})")
        return "\n".join(lines)

    def _continue(self, arg: str) -> str:
        if not arg:
            self._everywhere(Resume.CONTINUE)
            return "Continuing every hit of every process."
        row = self._find(int(arg) if arg.isdigit() else arg)
        if row.state != "waiting":
            raise ValueError(f"{row.label} has already continued")
        hits = self.processes[row.process]
        single = len(hits.devices) == 1
        self._update(
            hits, self._ask(hits, {"op": "continue", "index": None if single else row.local})
        )
        self._forget_compared()
        self._settle()
        self._show_next(row)
        return f"Continuing {row.label}; {self._waiting_count()} still waiting."

    def _continue_process(self, arg: str) -> str:
        if not arg.strip().isdigit():
            raise ValueError("cp needs a process number: cp 2")
        hits = self.processes.get(int(arg))
        if hits is None:
            raise ValueError(f"process {arg} holds no hit")
        if not hits.waiting:
            raise ValueError(f"process {hits.process} has already continued")
        self._update(hits, self._ask(hits, {"op": "continue", "index": None}))
        self._forget_compared()
        self._settle()
        shown = self._shown_row()
        if shown is not None:
            self._show_next(shown)
        return f"Continuing process {hits.process}; {self._waiting_count()} still waiting."

    def _everywhere(self, resume: Resume) -> None:
        """Answer every process's hits with ``resume`` and end the session."""
        for hits in self._live():
            if resume is Resume.CONTINUE:
                self._update(hits, self._tell(hits, {"op": "continue", "index": None}))
            else:
                self._tell(hits, {"op": "end", "resume": resume.value})
        self._finish(resume)

    def _tell(self, hits: ProcessHits, request: dict[str, Any]) -> dict[str, Any]:
        """``request`` to one of several processes: a late answer is noted, not raised, so
        every other process still gets it (the late one still receives it)."""
        try:
            return self._ask(hits, request)
        except TimeoutError as late:
            self._note(f"process {hits.process}", f"*** {describe_error(late)}", True)
            return {}

    def _finish(self, resume: Resume) -> None:
        for hits in self.processes.values():
            if hits.resume is None:
                hits.summary = {**hits.summary, "resume": resume.value}
        self._resume = resume
        self._touch()

    def _settle(self) -> None:
        """End the session once no process holds a waiting hit."""
        if self._resume is None and self.processes and not self._live():
            self._resume = Resume.CONTINUE
        self._touch()

    def _live(self) -> list[ProcessHits]:
        return [h for h in self.processes.values() if h.waiting]

    def _waiting_count(self) -> int:
        return sum(r.state == "waiting" for r in self._rows())

    def _rows(self) -> list[_Row]:
        rows = []
        for hits in self.processes.values():
            for n, device in enumerate(hits.devices):
                state: Status = "interrupted" if hits.died else device["state"]
                rows.append(_Row(hits.process, n, self._label(hits, device), state))
        return rows

    @staticmethod
    def _label(hits: ProcessHits, device: dict[str, Any]) -> str:
        died = " (died)" if hits.died else ""
        label = device.get("label") or "main thread"
        return f"process {hits.process}, {label}{died}"

    def _find(self, which: int | str) -> _Row:
        rows = self._rows()
        if isinstance(which, bool) or not isinstance(which, (int, str)):
            raise TypeError("a hit is chosen by its position or its label")
        if isinstance(which, int):
            if not 0 <= which < len(rows):
                raise ValueError(f"hit must be an integer in [0, {len(rows) - 1}]")
            return rows[which]
        wanted = "".join(which.split()).lower()
        for row in rows:
            if "".join(row.label.split()).lower() == wanted:
                return row
        raise ValueError(f"no hit is named {which!r}")

    def _show(self, row: _Row) -> None:
        hits = self.processes[row.process]
        self._shown = (row.process, row.local)
        if len(hits.devices) > 1 and hits.waiting:
            self._message(hits, {"type": "device", "index": row.local})

    def _show_next(self, row: _Row) -> None:
        """Once the shown hit continued, show the next waiting one after ``row`` (wrapping)."""
        shown = self._shown_row()
        if shown is not None and shown.state == "waiting":
            return
        rows = self._rows()
        at = next(n for n, r in enumerate(rows) if (r.process, r.local) == (row.process, row.local))
        after = [r for r in rows[at + 1 :] + rows[:at] if r.state == "waiting"]
        if after:
            self._show(after[0])

    def _shown_row(self) -> _Row | None:
        for row in self._rows():
            if (row.process, row.local) == self._shown:
                return row
        return None

    def _shown_hits(self) -> ProcessHits | None:
        with self.lock:
            return self.processes.get(self._shown[0]) if self._shown else None

    def _navigate(self, message: dict[str, Any]) -> None:
        with self.lock:
            hits = self._shown_hits()
            if hits is None or not hits.waiting:
                raise ValueError("the shown process has continued; select a waiting hit")
            self._message(hits, message)
            self._touch()

    def _message(self, hits: ProcessHits, message: dict[str, Any]) -> None:
        """Apply a front-end message on the process; keep its view and new transcript rows."""
        reply = self._ask(hits, {"op": "message", "message": message})
        self._update(hits, reply)

    def _update(self, hits: ProcessHits, reply: dict[str, Any]) -> None:
        summary = {k: v for k, v in reply.items() if k not in ("view", "rows")}
        if "token" in summary:
            hits.summary = summary
        if reply.get("view") is not None:
            hits.view = reply["view"]
        rows: list[TranscriptEntry] = reply.get("rows", [])  # the process's own transcript rows
        for row in rows:
            self._keep({**row, "command": f"[process {hits.process}] {row.get('command', '')}"})

    def _fetch_view(self, process: int) -> None:
        hits = self.processes[process]
        self._update(hits, self._ask(hits, {"op": "view"}))

    def _ask(self, hits: ProcessHits, request: dict[str, Any]) -> dict[str, Any]:
        """``request`` to the process about its held hit; a lost process is marked died."""
        try:
            reply = self.link.ask(hits.process, {**request, "token": hits.token})
        except ProcessLost as lost:
            if hits.died is None:
                hits.died = str(lost) or "it stopped answering"
                self._note(
                    f"process {hits.process} died",
                    f"process {hits.process} died: {hits.died}",
                    True,
                )
            return {}
        if reply.get("gone"):
            self._went_on(hits)
            return {}
        if "error" in reply:
            raise RuntimeError(f"process {hits.process}: {reply['error']}")
        return reply

    def _went_on(self, hits: ProcessHits) -> None:
        """The process no longer holds ``hits``: they continued there."""
        if hits.resume is None and hits.died is None:
            hits.summary = {**hits.summary, "resume": Resume.CONTINUE.value}
            hits.summary["devices"] = [
                {**d, "state": "continue" if d["state"] == "waiting" else d["state"]}
                for d in hits.devices
            ]
            self._settle()

    def _forget_compared(self) -> None:
        """Continued hits' compare values are gone with their programs."""
        if self.compared is None:
            return
        continued = {n for n, r in enumerate(self._rows()) if r.state != "waiting"}
        rows = [
            CompareRow(r.index, r.label, CONTINUED, shard=r.shard) if r.index in continued else r
            for r in self.compared.rows
        ]
        self.compared = _Compared(self.compared.expression, mark(rows), self.compared.pictures)

    def _note(self, command: str, output: str, error: bool = False, replace: Any = None) -> Entry:
        entry = Entry(command, output, error)
        if replace:
            del self.rows[-len(replace) :]
        self._record(entry)
        return entry

    def _record(self, entry: Entry) -> None:
        super()._record(entry)
        self._keep({"command": entry.command, "output": entry.output, "error": entry.error})

    def _keep(self, row: TranscriptEntry) -> None:
        self.rows.append(row)
        del self.rows[:-200]

    def _touch(self) -> None:
        with self.lock:
            self.version += 1
            self.changed.notify_all()
