"""Sessions nobody clicks: scripted answers, the headless policy, and the banner a typed or
scripted session prints first."""

from __future__ import annotations

from jaxdbg_widgets.core.errors import DebuggerQuit
from jaxdbg_widgets.debugger.serve import headless, post_mortem, scripts
from jaxdbg_widgets.debugger.serve.front_end import PROMPT, status
from jaxdbg_widgets.debugger.session.base import Resume, Served
from jaxdbg_widgets.debugger.view.builders import builder_for
from jaxdbg_widgets.debugger.widget import static_html


def serve_script(session: Served, active: scripts.Script) -> Resume:
    """Answer ``session`` with the script's next commands; continue when they run out."""
    lines = [banner(session, stable=True)]
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
    view = builder_for(session).build(status(session))
    view["header"] = dict(view["header"], thread=_where(session, stable=True))
    return static_html.FrozenView(view)


def serve_headless(session: Served) -> Resume:
    """No front end can answer: script, raise or continue, as the headless policy says."""
    policy = headless.current_policy()
    if policy is headless.HeadlessPolicy.SCRIPT:
        return serve_script(session, scripts.Script(headless.script_commands()))
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


def banner(session: Served, *, stable: bool = False) -> str:
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
