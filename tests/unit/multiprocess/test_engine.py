"""What each engine does for the job: its device flags and the outbox of its prints."""

import os
import sys

import pytest

from jaxdbg_widgets._kernel.cell_files import PROCESS_PART
from jaxdbg_widgets.core.sinks import PrintRecord
from jaxdbg_widgets.multiprocess import engine

# prepare sets how this process's JAX names files in programs: each test puts it back
pytestmark = pytest.mark.usefixtures("file_names_kept")


def test_the_device_count_flag_is_set_and_an_old_one_replaced():
    flags = "--xla_dump_to=/tmp/x --xla_force_host_platform_device_count=8"
    assert engine.with_device_count(flags, 2) == (
        "--xla_dump_to=/tmp/x --xla_force_host_platform_device_count=2"
    )
    assert engine.with_device_count("", 4) == "--xla_force_host_platform_device_count=4"


def test_prepare_sets_this_process_flags_and_says_jax_is_imported(monkeypatch):
    monkeypatch.setenv("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
    answer = engine.prepare(3)
    assert os.environ["XLA_FLAGS"] == "--xla_force_host_platform_device_count=3"
    assert answer["pid"] == os.getpid()
    assert answer["imported"] is ("jax" in sys.modules)
    assert answer["joined"] is False  # this test process never ran jax.distributed


def test_prepare_has_programs_name_cell_files_alike_unless_the_user_chose():
    import jax

    jax.config.update(engine.FILE_NAMES_OPTION, None)
    engine.prepare(None)
    assert getattr(jax.config, engine.FILE_NAMES_OPTION) == PROCESS_PART
    jax.config.update(engine.FILE_NAMES_OPTION, r"^/srv/")
    engine.prepare(None)
    assert getattr(jax.config, engine.FILE_NAMES_OPTION) == r"^/srv/"


def test_prepare_with_no_device_count_leaves_the_flags(monkeypatch):
    monkeypatch.setenv("XLA_FLAGS", "--xla_dump_to=/tmp/x")
    engine.prepare(None)
    assert os.environ["XLA_FLAGS"] == "--xla_dump_to=/tmp/x"


def _record(text, process=1):
    return PrintRecord(text, "/m.py", 3, "f", 0.0, (1.5,), None, ("x",), process)


def test_the_outbox_gives_prints_once_in_order_with_summaries_and_their_process():
    box = engine.Outbox()
    box.add(_record("a"))
    box.add(_record("b"))
    taken = box.take()
    assert [PrintRecord(*r).text for r in taken["records"]] == ["a", "b"]
    first = PrintRecord(*taken["records"][0])
    assert first.process == 1
    assert first.names is None and first.values == (("x", "1.5"),)
    assert box.take() == {"records": [], "dropped": 0}


def test_the_outbox_counts_the_prints_it_dropped_when_full():
    box = engine.Outbox(capacity=2)
    for text in "abcde":
        box.add(_record(text))
    taken = box.take()
    assert [PrintRecord(*r).text for r in taken["records"]] == ["d", "e"]
    assert taken["dropped"] == 3
    box.add(_record("f"))
    assert box.take()["dropped"] == 0


def test_an_engine_without_the_extension_has_no_prints(monkeypatch):
    monkeypatch.setattr(engine, "_outbox", None)
    assert engine.take_prints() == {"records": [], "dropped": 0}


@pytest.mark.parametrize("host", ["127.0.0.1"])
def test_a_free_port_is_free(host):
    import socket

    port = engine.free_port(host)
    with socket.socket() as sock:
        sock.bind((host, port))


def test_prepare_says_jax_already_picked_its_devices(monkeypatch):
    import jax

    # restored afterwards; JAX picks its devices here with the suite's flags, not prepare's
    monkeypatch.setenv("XLA_FLAGS", os.environ.get("XLA_FLAGS", ""))
    jax.devices()
    assert engine.prepare(2)["started"] is True


def test_jax_writes_a_cells_file_alike_and_the_readers_take_it_as_this_process_file():
    import jax
    import jax.numpy as jnp
    from ipykernel.compiler import get_tmp_directory

    from jaxdbg_widgets.comms.hlo import read_hlo
    from jaxdbg_widgets.memory.schedule import read_schedule

    own = os.path.join(get_tmp_directory(), "4242.py")
    space: dict = {}
    exec(compile("def f(x):\n    return jnp.sin(x).sum()\n", own, "exec"), {"jnp": jnp}, space)
    engine.name_cell_files_alike()
    text = jax.jit(space["f"]).lower(jnp.ones(4)).compile().as_text()
    assert '"ipykernel_/4242.py"' in text and get_tmp_directory() not in text
    # JAX writes file names in a table of frames, or (older JAX) in each instruction
    framed = {frame.file for frame in read_hlo(text).frames.values()}
    written = {i.source_file for ops in read_schedule(text).computations.values() for i in ops}
    assert own in framed | written and "ipykernel_/4242.py" not in framed | written
