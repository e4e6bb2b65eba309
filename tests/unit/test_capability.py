"""Transport tier detection: the kernel checks fill the capability table, the tiers read it."""

from types import SimpleNamespace

import pytest

from jaxdbg_widgets import _capabilities
from jaxdbg_widgets.debugger.transports.capability import Tier, detect_tier, widget_tier


@pytest.fixture(autouse=True)
def unchecked(monkeypatch):
    """Each test starts as a kernel that no load has checked, and leaves the table as it was."""
    monkeypatch.setattr(_capabilities, "_table", {})


class _ParentTracking:
    """The parent-header surface both clickable tiers need, with ipykernel's signatures."""

    def __init__(self, allow_stdin: bool) -> None:
        self._parent_ident = {"shell": b""}
        self._allow_stdin = allow_stdin

    def get_parent(self, channel="shell"):
        return {}

    def set_parent(self, ident, parent, channel="shell"):
        return None

    def raw_input(self, prompt=""):
        return ""


class _SubshellKernel(_ParentTracking):
    def __init__(self, allow_stdin: bool) -> None:
        super().__init__(allow_stdin)
        manager = SimpleNamespace(
            get_shell_channel_to_subshell_socket=lambda sid: None,
            _create_subshell=lambda: "id",
            list_subshell=lambda: [],
        )
        self.shell_channel_thread = SimpleNamespace(manager=manager, io_loop=None)
        self.comm_manager = None


class _Session:
    def feed_identities(self, msg_list, copy=True):
        return [], msg_list

    def unpack(self, data):
        return {}

    def deserialize(self, frames, content=True, copy=True):
        return {}


class _PumpKernel(_ParentTracking):
    def __init__(self, allow_stdin: bool = True) -> None:
        super().__init__(allow_stdin)
        self.msg_queue = SimpleNamespace(qsize=lambda: 0, get_nowait=None, put_nowait=None)
        self.shell_stream = SimpleNamespace(flush=lambda *a: None, socket=None)
        self.session = _Session()
        self.shell_handlers = {"comm_msg": print, "comm_close": print}


def _has_subshell_comms() -> bool:
    try:
        from ipykernel.comm.comm import BaseComm
    except ImportError:
        return False
    return hasattr(BaseComm, "_reply_subshell_for")


def test_ipykernel7_kernel_supports_subshells():
    if not _has_subshell_comms():
        pytest.skip("this ipykernel predates subshells (< 7.4)")
    assert widget_tier(_SubshellKernel(True)) is Tier.SUBSHELL
    assert detect_tier(_SubshellKernel(True)) is Tier.SUBSHELL


def test_ipykernel6_kernel_pumps():
    assert detect_tier(_PumpKernel()) is Tier.PUMP


def test_a_changed_signature_turns_the_clickable_tier_off():
    kernel = _PumpKernel()
    kernel.set_parent = lambda ident, parent: None  # an ipykernel without the channel argument
    assert widget_tier(kernel) is None
    assert detect_tier(kernel) is Tier.STDIN


def test_a_kernel_with_a_shell_channel_thread_never_pumps():
    kernel = _PumpKernel()
    kernel.shell_channel_thread = SimpleNamespace()
    assert widget_tier(kernel) is None


def test_kernel_without_either_falls_back_to_stdin():
    assert detect_tier(SimpleNamespace(_allow_stdin=True)) is Tier.STDIN


def test_the_tier_is_read_from_the_table_and_never_probed_again():
    kernel = _PumpKernel()
    assert widget_tier(kernel) is Tier.PUMP
    del kernel.msg_queue  # a probe now would fail; the recorded check still answers
    assert widget_tier(kernel) is Tier.PUMP
    _capabilities.check("ipykernel", "shell-pump", "pumping", lambda: 1 / 0)  # turned off later
    assert widget_tier(kernel) is None


def test_request_without_stdin_is_headless():
    assert detect_tier(_SubshellKernel(False)) is Tier.HEADLESS
    assert detect_tier(_PumpKernel(False)) is Tier.HEADLESS
