"""Run every ``bench/bench_*.py`` (or those named on the command line) and print one table.

Each module has ``run() -> list[Row]`` and runs in its own interpreter.
Usage: ``python -m bench [core sharding ...]``.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import os
import pkgutil
import subprocess
import sys

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")

import bench
from bench import report

_ROWS_FLAG = "--rows-json"


def _modules(selected: list[str]) -> list[str]:
    names = sorted(
        m.name for m in pkgutil.iter_modules(bench.__path__) if m.name.startswith("bench_")
    )
    if not selected:
        return names
    wanted = {f"bench_{s.removeprefix('bench_')}" for s in selected}
    unknown = wanted - set(names)
    if unknown:
        raise SystemExit(
            f"unknown benchmark(s): {', '.join(sorted(unknown))}; have {', '.join(names)}"
        )
    return [n for n in names if n in wanted]


def _rows(name: str) -> list[report.Row]:
    """One benchmark module's rows, each with the command that reproduces it."""
    command = f"python -m bench {name.removeprefix('bench_')}"
    return [
        row if row.command else dataclasses.replace(row, command=command)
        for row in importlib.import_module(f"bench.{name}").run()
    ]


def _rows_in_own_process(name: str) -> list[report.Row]:
    """The module's rows measured in a fresh interpreter, so no module runs on a heap, caches
    or threads that an earlier one left behind."""
    done = subprocess.run(
        [sys.executable, "-m", "bench", _ROWS_FLAG, name],
        stdout=subprocess.PIPE,
        text=True,
        check=True,
    )
    return [report.Row(**fields) for fields in json.loads(done.stdout.splitlines()[-1])]


def main(argv: list[str]) -> int:
    if argv[:1] == [_ROWS_FLAG]:
        print(json.dumps([dataclasses.asdict(row) for row in _rows(argv[1])]))
        return 0
    rows: list[report.Row] = []
    for name in _modules(argv):
        print(f"running {name} ...", file=sys.stderr, flush=True)
        rows.extend(_rows_in_own_process(name))
    print(report.format_table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
