"""The cluster entry point's refusals: missing ipyparallel, no engine count, wrong devices."""

import sys

import pytest

from jaxdbg_widgets.multiprocess import job as job


def test_a_missing_ipyparallel_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "ipyparallel", None)
    with pytest.raises(ImportError, match=r"jaxdbg-widgets\[multiprocess\]"):
        job.cluster(2)


def test_starting_a_cluster_needs_an_engine_count():
    with pytest.raises(ValueError, match="needs n"):
        job.cluster()


def test_engines_with_another_device_count_are_named():
    with pytest.raises(RuntimeError, match=r"engine 3: 8.*restart those engines"):
        job._check_devices([2, 3], [2, 8], 2)
    job._check_devices([2, 3], [2, 8], None)  # None takes what the engines have


def test_engines_of_another_job_are_refused():
    answers = [{"processes": 2, "local_devices": 2}] * 2 + [{"processes": 4, "local_devices": 2}]
    with pytest.raises(RuntimeError, match=r"jobs of \[2, 4\] processes, not one job of 3"):
        job._check_joined([0, 1, 2], answers, 2)


def test_an_engine_error_is_one_line_with_its_exception_name():
    class RemoteError(Exception):
        ename, evalue = "RuntimeError", "must be called before any JAX computations\nmore"

    assert job._reason(RemoteError()) == (
        "RuntimeError: must be called before any JAX computations"
    )


def test_engines_that_ran_jax_are_refused_before_any_engine_waits_to_join():
    answers = [{"joined": False, "started": False}, {"joined": False, "started": True}]
    with pytest.raises(RuntimeError, match=r"engines \[5\] ran JAX before joining"):
        job._join(None, [4, 5], answers, 2, "127.0.0.1", 1)  # no client call is made
