"""Every widget draws over the rules the widgets share (``js/widgets.css``), loaded first."""

import pytest

from jaxdbg_widgets._assets import stylesheet
from jaxdbg_widgets.comms.widget import CommunicationWidget
from jaxdbg_widgets.debugger.widget.widget import DebuggerWidget
from jaxdbg_widgets.memory.widget import MemoryWidget
from jaxdbg_widgets.nans.widget import NonfiniteWidget
from jaxdbg_widgets.notebook.printlog_widget import PrintLogWidget
from jaxdbg_widgets.pictures.widget import PicturesWidget
from jaxdbg_widgets.sharding.widget import ShardingWidget


@pytest.mark.parametrize(
    "widget",
    [
        CommunicationWidget,
        DebuggerWidget,
        MemoryWidget,
        NonfiniteWidget,
        PrintLogWidget,
        PicturesWidget,
        ShardingWidget,
    ],
)
def test_each_widget_loads_the_shared_rules_before_its_own(widget):
    shared = stylesheet("widgets.css")
    assert widget._css.startswith(shared)
    assert widget._css.count(shared) == 1
