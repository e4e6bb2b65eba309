"""The ``jaxdbg`` backend in JAX's debugger registry: one session per breakpoint hit, served
through the best front end this request can reach (widget clicks, typed lines, a script, or
the headless policy).

Breakpoints are served one at a time, whichever thread hits them
(:data:`jaxdbg_widgets.core.breakpoints.sessions`). "Continue all" skips the
remaining breakpoints of the same run (the same notebook cell; outside a kernel, until
:func:`new_run`), and so do quit, an interrupt or an error, since the computation stops
anyway. Quit raises :class:`~jaxdbg_widgets.core.errors.DebuggerQuit`.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from jaxdbg_widgets._kernel import parent
from jaxdbg_widgets._kernel.shell import running_kernel
from jaxdbg_widgets.core import jax_registry
from jaxdbg_widgets.core.errors import DebuggerQuit, raise_findable
from jaxdbg_widgets.debugger import (
    ended,
    headless,
    post_mortem,
    relay,
    render_memory,
    scripts,
    shard_serving,
    static_html,
    stops,
)
from jaxdbg_widgets.debugger.builders import builder_for
from jaxdbg_widgets.debugger.cluster_session import ClusterSession
from jaxdbg_widgets.debugger.protocol import apply_message
from jaxdbg_widgets.debugger.session import Resume, Session
from jaxdbg_widgets.debugger.shard_session import ShardSession
from jaxdbg_widgets.debugger.transports.capability import Tier, detect_tier

Served = Session | ShardSession | ClusterSession
"""What a front end serves: one hit, the gathered shards of a run, or every process's hits."""

BACKEND_NAME = "jaxdbg"
PRIORITY = 10
RENDER_TIMEOUT_SECONDS = 5.0
"""How long a displayed debugger widget has to say it rendered before the typed prompt (or the
headless policy) takes over; ``$JAXDBG_RENDER_TIMEOUT`` overrides it."""
RENDER_TIMEOUT_ENV_VAR = "JAXDBG_RENDER_TIMEOUT"
RENDERED = {"type": "rendered"}
PROMPT = "(jdb) "


class MessageSource(Protocol):
    """Messages the widget's front end sent (``model.send(content)``), as the transports give them."""

    def get(self, timeout: float | None) -> Any | None: ...

    def wake(self) -> None:
        """Make a waiting ``get`` return ``None`` now: something else changed to redraw."""

    def close(self) -> None: ...


@dataclass
class FrontEnd:
    """Where commands come from; the defaults are the transports package, tests pass fakes."""

    detect_tier: Callable[[], Tier]
    open_inbox: Callable[[Any], MessageSource]
    read_line: Callable[[str], str | None]
    display: Callable[[Any], Callable[[Any], None]]


@dataclass
class _Run:
    key: Any
    hits: int = 0
    skip_rest: bool = False


_state_lock = threading.Lock()
_run: _Run | None = None
_history: list[str] = []
_outside_kernel_run = object()


def new_run() -> None:
    """Start counting breakpoints afresh (and stop skipping them after "continue all")."""
    global _run
    with _state_lock:
        _run = None


def _current_run() -> _Run:
    global _run
    key = _run_key()
    with _state_lock:
        if _run is None or _run.key != key:
            _run = _Run(key)
        return _run


def _run_key() -> Any:
    kernel = running_kernel()
    if kernel is None:
        return _outside_kernel_run
    msg_id = parent.request_id(kernel)
    return _outside_kernel_run if msg_id is None else msg_id


def _default_front_end() -> FrontEnd:
    from jaxdbg_widgets.debugger import transports

    return FrontEnd(
        detect_tier=detect_tier,
        open_inbox=lambda widget: transports.open_inbox(widget),
        read_line=_read_line,
        display=_display,
    )


def _read_line(prompt: str) -> str | None:
    """A typed command: through the kernel's stdin channel, or the terminal outside a kernel."""
    from jaxdbg_widgets.debugger import transports

    if running_kernel() is None:
        return input(prompt)
    return transports.read_line(prompt)


def _display(widget: Any) -> Callable[[Any], None]:
    from IPython.display import display

    handle = display(widget, display_id=True)
    return handle.update if handle is not None else lambda _obj: None


def make_backend(front_end: Callable[[], FrontEnd] = _default_front_end) -> Callable[..., None]:
    """A JAX debugger backend ``fn(frames, thread_id, **kwargs)`` using ``front_end``."""

    def backend(frames: Sequence[Any], thread_id: int | None, **kwargs: Any) -> None:
        _serve_hit(frames, thread_id, kwargs, _current_run(), front_end)

    return backend


def _serve_hit(
    frames: Sequence[Any],
    thread_id: int | None,
    kwargs: dict[str, Any],
    run: _Run,
    front_end: Callable[[], FrontEnd],
) -> None:
    """One breakpoint: count it, skip it if the run says so, else serve a session to its end."""
    with _state_lock:
        run.hits += 1
        if run.skip_rest:
            return
    session = Session(
        frames,
        thread_id=thread_id,
        batch_size=kwargs.get("batch_size"),
        batch_indices=kwargs.get("batch_indices"),
        batch_total=kwargs.get("batch_total"),
        device=kwargs.get("device"),
        shard=kwargs.get("shard"),
        hit=run.hits,
        stop="post-mortem" if post_mortem.opened() else None,
        history=_history,
    )
    try:
        resume = _serve_one(session, kwargs, run, front_end)
    except KeyboardInterrupt as interrupt:
        _skip_rest(run)
        error = KeyboardInterrupt(str(interrupt) or f"interrupted at {session.location}")
        if stops.release(error, thread_id):
            return
        raise_findable(error)
    except BaseException as error:
        _skip_rest(run)
        if isinstance(error, DebuggerQuit) and stops.release(error, thread_id):
            return
        raise_findable(error)
    finally:
        session.close()
        _history[:] = session.history
    _finish(session, resume, run)


def _serve_one(
    session: Session, kwargs: dict[str, Any], run: _Run, front_end: Callable[[], FrontEnd]
) -> Resume:
    """Serve a single hit, or gather a shard's hit into its run's one shard session."""
    if shard_serving.is_shard_hit(kwargs):
        return shard_serving.serve_hit(
            session, run.key, kwargs["axis_sizes"], lambda shards: _serve(shards, front_end())
        )
    return _serve(session, front_end())


def _skip_rest(run: _Run) -> None:
    with _state_lock:
        run.skip_rest = True


def _finish(session: Session, resume: Resume, run: _Run) -> None:
    if resume is Resume.CONTINUE_ALL:
        _skip_rest(run)
    elif resume is Resume.QUIT:
        _skip_rest(run)
        error = DebuggerQuit(
            f"the jaxdbg_widgets debugger was quit at {session.location}; "
            "the computation was stopped"
        )
        if stops.release(error, session.thread_id):
            return
        raise_findable(error)


def _serve(session: Served, front_end: FrontEnd) -> Resume:
    active = scripts.active()
    if active is not None:
        return _serve_script(session, active)
    elsewhere = relay.current()
    if elsewhere is not None:
        return elsewhere(session)
    tier = front_end.detect_tier()
    if tier in (Tier.SUBSHELL, Tier.PUMP):
        from jaxdbg_widgets.debugger.transports.inbox import NoTransport

        if render_memory.widgets_unseen():
            return _serve_lines(session, front_end, widget=True, watch=True)
        try:
            return _serve_widget(session, front_end)
        except NoTransport:
            return _serve_lines(session, front_end, widget=True)
    if tier in (Tier.STDIN, Tier.TERMINAL):
        return _serve_lines(session, front_end, widget=tier is Tier.STDIN)
    return _serve_headless(session)


def serve_gathered(session: ClusterSession) -> Resume:
    """Serve the hits of every process of a job through this kernel's best front end."""
    return _serve(session, _default_front_end())


def render_timeout() -> float:
    """Seconds a widget has to acknowledge its view: ``$JAXDBG_RENDER_TIMEOUT`` or the default."""
    try:
        return float(os.environ.get(RENDER_TIMEOUT_ENV_VAR, RENDER_TIMEOUT_SECONDS))
    except ValueError:
        return RENDER_TIMEOUT_SECONDS


def _serve_widget(session: Served, front_end: FrontEnd) -> Resume:
    """Serve the widget's clicks; without a rendered view, go on with typed commands.

    A view says ``{"type": "rendered"}`` when it draws (any message from it proves it too).
    If none arrives within :func:`render_timeout` seconds, or the transport fails, the widget
    is frozen to its static view and the same breakpoint continues through typed commands,
    which fall back to the headless policy where stdin is not allowed. A timeout is remembered
    (:mod:`~jaxdbg_widgets.debugger.render_memory`), so later hits do not wait again.
    """
    from jaxdbg_widgets.debugger.transports.inbox import NoTransport
    from jaxdbg_widgets.debugger.widget import DebuggerWidget

    builder = builder_for(session)
    mark = ended.reload_mark()
    widget = DebuggerWidget(view=builder.build())
    inbox = front_end.open_inbox(widget)
    update = front_end.display(widget)
    timeout = render_timeout()
    deadline = time.monotonic() + timeout
    rendered, fallback = False, None
    seen = getattr(session, "version", None)
    stop_watching = _wake_on_changes(session, inbox)
    try:
        while session.resume is None:
            content = inbox.get(None if rendered else max(0.0, deadline - time.monotonic()))
            if content is not None:
                if not rendered:
                    rendered = True
                    render_memory.note_rendered()
                if content != RENDERED:
                    apply_message(session, content)
                    if session.resume is None:  # once resumed, the frozen view is the next
                        widget.view = builder.build()
            elif not rendered and time.monotonic() >= deadline:
                fallback = f"no front end showed the debugger widget within {timeout:g} s"
                render_memory.note_timeout()
                break
            if session.resume is None:
                seen = _redraw_if_changed(session, seen, widget, builder)
    except NoTransport as error:
        fallback = str(error)
    finally:
        inbox.close()
        status = "typed prompt" if fallback else _status(session)
        _freeze(widget, builder.build(status), update, mark)
        builder.forget()
        stop_watching()
    if fallback is None:
        return session.resume
    print(f"jaxdbg: {fallback}; continuing without the widget", flush=True)
    return _serve_lines(session, front_end, widget=False)


def _wake_on_changes(session: Served, inbox: MessageSource) -> Callable[[], None]:
    """Wake ``inbox`` each time a shard session changes on another thread (a shard arrives,
    the run ends); returns the stop. A single hit changes only through its own messages."""
    if isinstance(session, ShardSession):
        changed = session.gathering.changed
    elif isinstance(session, ClusterSession):
        changed = session.changed
    else:
        return lambda: None
    stopped = threading.Event()

    def watch() -> None:
        seen = session.version
        while not stopped.is_set():
            with changed:
                while not stopped.is_set() and session.version == seen:
                    changed.wait()
                seen = session.version
            if not stopped.is_set():
                inbox.wake()

    watcher = threading.Thread(target=watch, name="jaxdbg-redraw", daemon=True)
    watcher.start()

    def stop() -> None:  # without waiting: the watcher ends as soon as it wakes
        stopped.set()
        with changed:
            changed.notify_all()

    return stop


def _redraw_if_changed(session: Served, seen: Any, widget: Any, builder: Any) -> Any:
    """Redraw a shard session when shards arrived or changed since ``seen``; the new mark."""
    version = getattr(session, "version", None)
    if version != seen:
        widget.view = builder.build()
    return version


def _serve_lines(
    session: Served, front_end: FrontEnd, *, widget: bool, watch: bool = False
) -> Resume:
    """Serve typed commands; ``widget`` shows the debugger widget beside them.

    ``watch`` also listens to that widget, so that its acknowledgement (a front end that draws
    widgets after all) brings the clickable widget back from the next hit on.
    """
    from jaxdbg_widgets.debugger.widget import DebuggerWidget

    builder = builder_for(session)
    mark = ended.reload_mark()
    view = DebuggerWidget(view=builder.build()) if widget else None
    inbox = _listen(view, front_end) if view is not None and watch else None
    update = front_end.display(view) if view is not None else None
    print(f"{_banner(session)}\n{session.context()}", flush=True)
    try:
        while session.resume is None:
            try:
                line = front_end.read_line(PROMPT)
            except EOFError:
                line = "EOF"
            if line is None:
                return _serve_headless(session)
            entry = session.run(line)
            if entry.output:
                print(entry.output, flush=True)
            if view is not None:
                view.view = builder.build()
        return session.resume
    finally:
        if inbox is not None:
            _note_acknowledgement(inbox)
        if view is not None and update is not None:
            _freeze(view, builder.build(_status(session)), update, mark)
        builder.forget()


def _listen(view: Any, front_end: FrontEnd) -> MessageSource | None:
    """An inbox on ``view``, or ``None`` where the transport refuses one."""
    from jaxdbg_widgets.debugger.transports.inbox import NoTransport

    try:
        return front_end.open_inbox(view)
    except NoTransport:
        return None


def _note_acknowledgement(inbox: MessageSource) -> None:
    """Remember a widget that spoke while typed commands were served; then close its inbox."""
    from jaxdbg_widgets.debugger.transports.inbox import NoTransport

    try:
        if inbox.get(0) is not None:
            render_memory.note_rendered()
    except (NoTransport, KeyboardInterrupt):
        pass  # the session is over either way; an interrupt has reached it already
    finally:
        inbox.close()


def _status(session: Served) -> str:
    """How the session ended, for the frozen view; no resume means it was interrupted."""
    return session.resume.value if session.resume is not None else "interrupted"


def _freeze(
    widget: Any, final: dict[str, Any], update: Callable[[Any], None], mark: ended.Mark
) -> None:
    """Show the final state, then replace the output by its static rendering; the widget stays
    open, frozen, for a page reloaded while the session waited (see :mod:`.ended`), and ``mark``
    (taken when the session started) tells whether one was."""
    widget.view = final
    update(static_html.FrozenView(final))
    ended.keep(widget, mark)


def _serve_script(session: Served, active: scripts.Script) -> Resume:
    lines = [_banner(session, stable=True)]
    while session.resume is None:
        command = active.next_command()
        if command is None:
            lines.append("(script has no more commands: continuing)")
            session.resume = Resume.CONTINUE
            break
        entry = session.run(command)
        lines.append(f"{PROMPT}{command}")
        if entry.output:
            lines.append(entry.output)
    print("\n".join(lines), flush=True)
    if active.keep_records:
        active.records.append(_scripted_record(session))
    return session.resume


def _scripted_record(session: Served) -> static_html.FrozenView:
    """The frozen record a widget would leave, its thread named as the scripted banner names
    it (no worker numbers, which follow the order threads arrive), so reruns match."""
    view = builder_for(session).build(_status(session))
    view["header"] = dict(view["header"], thread=_where(session, stable=True))
    return static_html.FrozenView(view)


def _serve_headless(session: Served) -> Resume:
    policy = headless.current_policy()
    if policy is headless.HeadlessPolicy.SCRIPT:
        return _serve_script(session, scripts.Script(headless.script_commands()))
    if policy is headless.HeadlessPolicy.RAISE:
        session.resume = Resume.QUIT
        raise DebuggerQuit(
            f"{_kind()} at {session.location} was reached with no front end to answer it "
            f"(headless policy 'raise'; see %jaxdbg headless or ${headless.ENV_VAR})"
        )
    print(
        f"jaxdbg: {_kind()} at {session.location} continued: no front end can answer "
        f"(headless policy 'continue'; see %jaxdbg headless or ${headless.ENV_VAR})",
        flush=True,
    )
    session.resume = Resume.CONTINUE
    return Resume.CONTINUE


def _kind() -> str:
    """``post-mortem`` for the debugger opened on an error, else ``breakpoint``."""
    return "post-mortem" if post_mortem.opened() else "breakpoint"


def _banner(session: Served, *, stable: bool = False) -> str:
    """``Breakpoint 1 at f (In[3]:5), main thread`` (``Post-mortem at ...`` on an error);
    ``stable`` hides thread numbers."""
    where = _where(session, stable=stable)
    batch = f", {session.batch_label}" if session.batch_size else ""
    what = "Post-mortem" if post_mortem.opened() else f"Breakpoint {session.hit}"
    return f"{what} at {session.location}, {where}{batch}"


def _where(session: Served, *, stable: bool) -> str:
    """The session's thread label; ``stable`` says ``worker thread`` for any numbered worker."""
    if stable and session.thread_id is not None:
        return "worker thread" + (f", {session.device}" if session.device else "")
    return session.thread_label


debugger_backend = make_backend()


def install(ip: Any = None) -> Callable[[], None]:
    """Register the backend as ``jaxdbg`` above JAX's CLI and Colab ones; return the undo."""
    return jax_registry.register(BACKEND_NAME, debugger_backend, PRIORITY)
