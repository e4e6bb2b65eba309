"""Run every ``bench/bench_*.py`` (or those named on the command line) and print one table.

Each module has ``run() -> list[Row]``. Usage: ``python -m bench [core sharding ...]``.
"""

from __future__ import annotations

import dataclasses
import importlib
import os
import pkgutil
import sys

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")

import bench
from bench import report


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


def main(argv: list[str]) -> int:
    rows: list[report.Row] = []
    for name in _modules(argv):
        print(f"running {name} ...", file=sys.stderr, flush=True)
        command = f"python -m bench {name.removeprefix('bench_')}"
        rows.extend(
            row if row.command else dataclasses.replace(row, command=command)
            for row in importlib.import_module(f"bench.{name}").run()
        )
    print(report.format_table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
