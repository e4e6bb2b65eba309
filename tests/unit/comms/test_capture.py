"""XLA's stderr read at the file-descriptor level during compile, and its remat warnings tied to lines."""

import os

from jaxdbg_widgets.comms.api import communication_map_from_text
from jaxdbg_widgets.comms.capture import captured_stderr, remat_warnings
from jaxdbg_widgets.comms.hlo import read_hlo
from jaxdbg_widgets.comms.html import render_html
from jaxdbg_widgets.comms.model import build_communication_map

from .test_hlo import MODULE

WARNING = (
    "W0000 00:00:1.000 123 spmd_partitioner.cc:652] Involuntary full rematerialization. The "
    "compiler was not able to go from sharding {devices=[2,4]<=[8]} to {devices=[4,2]<=[8]} "
    "without doing a full rematerialization of the tensor for HLO operation: %reshape = "
    'f32[8,24]{1,0} reshape(%p), metadata={op_name="jit(step)/reshape" stack_frame_id=3}. '
    "You probably want to enrich the sharding annotations to prevent this from happening.\n"
)


def test_what_c_code_writes_to_fd_2_is_captured_and_written_back(capfd):
    with captured_stderr() as err:
        os.write(2, WARNING.encode())
    assert err.text == WARNING
    assert capfd.readouterr().err == WARNING  # the user still sees it


def test_each_warning_is_one_entry_and_other_log_lines_are_not():
    text = "I0000 00:00 cpu_client.cc:1] started\n" + WARNING + "W0000 other.cc:2] unrelated\n"
    (entry,) = remat_warnings(text)
    assert entry.startswith("Involuntary full rematerialization. The compiler")
    assert "stack_frame_id=3" in entry
    assert remat_warnings("nothing to see\n") == []


def test_a_warning_is_tied_to_the_line_its_metadata_names():
    comms = build_communication_map(read_hlo(MODULE), remat_texts=remat_warnings(WARNING))
    (warning,) = comms.remat
    assert warning.source is not None and warning.source.line == 42
    assert warning.source.label == "line 42 of model.py"
    html = render_html(comms)
    assert "XLA rematerialization warnings" in html and "line 42 of model.py" in html
    assert communication_map_from_text(MODULE).remat == ()
