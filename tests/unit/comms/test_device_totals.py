"""Bytes sent per device, counted once per group form, agree with counting each collective."""

import numpy as np

from jaxdbg_widgets.comms.cost import member_traffic, per_partition, sent_per_device
from jaxdbg_widgets.comms.hlo import read_hlo

from .test_hlo import MODULE

PARTS = 8
# Two all-gathers and an all-reduce over the same iota groups, one over explicit groups, and a
# permute (a ring with one device paired with itself).
MIXED = f"""HloModule mixed, num_partitions={PARTS}
ENTRY %main (p: f32[16]) -> f32[16] {{
  %p = f32[16]{{0}} parameter(0)
  %ag1 = f32[64]{{0}} all-gather(%p), replica_groups=[2,4]<=[8], dimensions={{0}}
  %ag2 = f32[64]{{0}} all-gather(%p), replica_groups=[2,4]<=[8], dimensions={{0}}
  %ar = f32[16]{{0}} all-reduce(%p), replica_groups=[2,4]<=[8], to_apply=%add
  %rs = f32[8]{{0}} reduce-scatter(%p), replica_groups={{{{0,1}},{{2,3}}}}, dimensions={{0}}, to_apply=%add
  %cp = f32[16]{{0}} collective-permute(%p), source_target_pairs={{{{0,1}},{{1,2}},{{2,0}},{{5,5}}}}
  ROOT %r = f32[16]{{0}} copy(%p)
}}"""


def one_by_one(module, executions):
    total = np.zeros(module.partitions, dtype=np.int64)
    for hlo, times in zip(module.collectives, executions, strict=True):
        total += per_partition(hlo, module.partitions)[0][: module.partitions] * times
    return total


def test_grouped_count_matches_each_collective_counted_alone():
    for text in (MIXED, MODULE):
        module = read_hlo(text)
        executions = [1 + i % 3 for i in range(len(module.collectives))]
        executed = [
            (hlo, member_traffic(hlo)[0], times)
            for hlo, times in zip(module.collectives, executions, strict=True)
        ]
        got = sent_per_device(executed, module.partitions)
        np.testing.assert_array_equal(got, one_by_one(module, executions))


def test_the_mixed_module_by_hand():
    module = read_hlo(MIXED)
    assert not module.unread and len(module.collectives) == 5
    executed = [(hlo, member_traffic(hlo)[0], 1) for hlo in module.collectives]
    got = sent_per_device(executed, PARTS)
    # all-gathers: 3/4 of 256 B each; all-reduce: 2 * 3/4 of 64 B; every device in a group of 4
    groups = 2 * 192 + 96
    # reduce-scatter over pairs: 1/2 of the 64 B input, devices 0-3 only
    # permute: 64 B from each of 0, 1, 2; 5 sends to itself (nothing)
    want = [groups + 32 + 64] * 3 + [groups + 32] + [groups] * 4
    assert got.tolist() == want
