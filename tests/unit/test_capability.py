"""Transport tier detection against stand-in kernel objects."""

from types import SimpleNamespace

from jaxdbg_widgets.debugger.transports.capability import Tier, detect_tier, widget_tier


def _parent_tracking():
    return dict(get_parent=lambda channel=None: {}, set_parent=lambda *a: None, _parent_ident={})


def _subshell_kernel(allow_stdin: bool):
    manager = SimpleNamespace(
        get_shell_channel_to_subshell_socket=lambda sid: None,
        _create_subshell=lambda: "id",
        list_subshell=lambda: [],
    )
    return SimpleNamespace(
        shell_channel_thread=SimpleNamespace(manager=manager, io_loop=None),
        comm_manager=None,
        _allow_stdin=allow_stdin,
        **_parent_tracking(),
    )


def test_ipykernel7_kernel_supports_subshells():
    assert widget_tier(_subshell_kernel(True)) is Tier.SUBSHELL
    assert detect_tier(_subshell_kernel(True)) is Tier.SUBSHELL


def test_ipykernel6_kernel_pumps():
    queue = SimpleNamespace(qsize=lambda: 0, get_nowait=None, put_nowait=None)
    kernel = SimpleNamespace(
        do_one_iteration=lambda: None,
        shell_stream=object(),
        dispatch_shell=lambda msg: None,
        msg_queue=queue,
        _allow_stdin=True,
        **_parent_tracking(),
    )
    assert detect_tier(kernel) is Tier.PUMP


def test_kernel_without_either_falls_back_to_stdin():
    assert detect_tier(SimpleNamespace(_allow_stdin=True)) is Tier.STDIN


def test_request_without_stdin_is_headless():
    assert detect_tier(_subshell_kernel(False)) is Tier.HEADLESS
