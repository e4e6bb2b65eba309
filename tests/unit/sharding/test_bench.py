from bench import bench_sharding
from bench.report import Row, format_table, race


def test_race_runs_each_contender_equally_and_rotates_who_goes_first():
    order = []
    times = race({name: lambda name=name: order.append(name) for name in "abc"}, rounds=4)
    assert set(times) == {"a", "b", "c"}
    assert [order.count(name) for name in "abc"] == [4, 4, 4]
    assert order[0::3] == ["a", "b", "c", "a"]


def test_every_row_prints_the_command_that_reproduces_it():
    row = Row("x", 1.0, 3.0, "ms", "peer", ">= 2x faster", True, "python -m bench.bench_sharding x")
    table = format_table([row])
    assert "3.00x" in table and "$ python -m bench.bench_sharding x" in table


def test_sharding_rows_compare_like_with_like():
    rows = bench_sharding.run(["2d-256"])
    assert [r.name.split(",")[0] for r in rows] == [
        "sharding text (no colour",
        "sharding html",
        "sharding widget state (view model + JSON)",
    ]
    assert {r.peer_name for r in rows} == {"jax.debug.visualize_sharding"}
    assert {r.command for r in rows} == {"python -m bench.bench_sharding 2d-256"}
