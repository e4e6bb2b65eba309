"""Replica groups in each written form, and the mesh axes they span, against hand expansion."""

import numpy as np
import pytest

from jaxdbg_widgets.comms.groups import (
    UnreadGroups,
    axes_span,
    pair_span,
    parse_groups,
    parse_pairs,
)


def test_explicit_groups_and_the_empty_list_meaning_every_partition():
    assert parse_groups("{{0,1},{2,3}}", 4).tolist() == [[0, 1], [2, 3]]
    assert parse_groups("{}", 4).tolist() == [[0, 1, 2, 3]]


def test_iota_groups_plain_and_transposed():
    assert parse_groups("[2,4]<=[8]", 8).tolist() == [[0, 1, 2, 3], [4, 5, 6, 7]]
    assert parse_groups("[4,2]<=[2,4]T(1,0)", 8).tolist() == [[0, 4], [1, 5], [2, 6], [3, 7]]


def test_mesh_form_with_device_ids_and_sub_axes():
    text = "mesh['a'=2,'b'=4] {'a'}"
    assert parse_groups(text, 8).tolist() == [[0, 4], [1, 5], [2, 6], [3, 7]]
    permuted = "mesh['a'=1,'b'=4,'c'=2], device_ids=([2,4]T(1,0)) {'b'}"
    # ids = arange(8).reshape(2, 4).T laid on (1, 4, 2): b runs down the first index.
    assert parse_groups(permuted, 8).tolist() == [[0, 1, 2, 3], [4, 5, 6, 7]]
    # 'b':(2)2 is the minor half of b (size 4 = 2 x 2): partners 1 apart in b.
    sub = "mesh['a'=2,'b'=4] {'b':(2)2}"
    assert parse_groups(sub, 8).tolist() == [[0, 1], [2, 3], [4, 5], [6, 7]]


def test_unknown_forms_raise_instead_of_guessing():
    for text in ("[2,3]<=[8]", "{{0,1},{2}}", "mesh['a'=2] {'z'}", "groups(0,1)"):
        with pytest.raises(UnreadGroups):
            parse_groups(text, 8)


def test_axes_on_one_two_and_three_dimensional_meshes():
    assert axes_span(np.arange(8).reshape(1, 8), (8,), ("d",)).axes == ("d",)
    two = parse_groups("[4,2]<=[2,4]T(1,0)", 8)
    assert axes_span(two, (2, 4), ("x", "y")).axes == ("x",)
    assert axes_span(parse_groups("[2,4]<=[8]", 8), (2, 4), ("x", "y")).axes == ("y",)
    # a 2x2x2 mesh (a, b, c): groups over a and c are {0,1,4,5} and {2,3,6,7}.
    three = parse_groups("{{0,1,4,5},{2,3,6,7}}", 8)
    span = axes_span(three, (2, 2, 2), ("a", "b", "c"))
    assert (span.axes, span.whole) == (("a", "c"), True)


def test_a_partial_group_says_so():
    span = axes_span(parse_groups("mesh['a'=2,'b'=4] {'b':(2)2}", 8), (2, 4), ("x", "y"))
    assert span.axes == ("y",) and not span.whole and "groups of 2 within 4" in span.note


def test_pairs_span_the_axes_they_cross():
    pairs = parse_pairs("{{0,4},{4,0},{1,5},{5,1}}")
    assert pairs.shape == (4, 2)
    assert pair_span(pairs, (2, 4), ("x", "y")).axes == ("x",)
    with pytest.raises(UnreadGroups):
        parse_pairs("{{0,1,2}}")
