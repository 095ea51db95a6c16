"""The plan for the large xiangqi tables (tablebases/README.md, *The plan*): per set, the tables it adds, their
entries, the largest table, memory, disk and CPU time -- extrapolated from rates measured here.

    .venv/bin/python scripts/tb_plan.py [--cpu-one 1.0] [--cpu-two 7.9] [--bytes-entry 9.2]

Rates (defaults: measured with ``make bench-cluster`` and ``shuai tb build``, see the README):
CPU seconds an entry for a table where one side has every attacker (the default set) and where both sides have
some (the perpetual-check pass dominates); file bytes an entry for both kinds; peak memory an entry of a build
on one machine (the smaller tables it reads included).  A sliced build holds 5 bytes an entry of its slice
on each worker, plus the smaller tables, mapped from a local file (2 bytes an entry, shared by the machine).
"""
from __future__ import annotations

import sys
from pathlib import Path

import click

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.xiangqi.tables.index import parse_material  # noqa: E402

ATTACKERS = "RNCP"
SETS = [
    ("KXvKYAABB: one attacker against one attacker and full defenders (车对马士象全 …)",
     [f"K{x}vK{y}AABB" for x in ATTACKERS for y in ATTACKERS]),
    ("KXYvKAABB: two attackers against full defenders (车马对士象全 …)",
     [f"K{x}{y}vKAABB" for i, x in enumerate(ATTACKERS) for y in ATTACKERS[i:]]),
    ("KXAABBvKYAABB: one attacker each, full defenders on both sides (车士象全对马士象全 …)",
     [f"K{x}AABBvK{y}AABB" for i, x in enumerate(ATTACKERS) for y in ATTACKERS[i:]]),
    ("KXYAABBvKZAABB: two attackers and full defenders against one attacker and full defenders",
     [f"K{x}{y}AABBvK{z}AABB" for i, x in enumerate(ATTACKERS) for y in ATTACKERS[i:] for z in ATTACKERS]),
]


def closure(names, known: set) -> list:
    """The canonical tables ``names`` need (themselves included) that ``known`` does not hold yet."""
    out, stack = [], [parse_material(n).canonical()[0] for n in names]
    while stack:
        m = stack.pop()
        if m in known:
            continue
        known.add(m)
        out.append(m)
        stack.extend(m.subtables())
    return out


def two_sided(m) -> bool:
    red, black = m.name.split("v")
    return any(c in ATTACKERS for c in red) and any(c in ATTACKERS for c in black)


def size_text(n: float) -> str:
    for unit, scale in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n:.0f} B"


@click.command()
@click.option("--cpu-one", type=float, default=1.0, show_default=True, help="CPU µs an entry, one side attacking.")
@click.option("--cpu-two", type=float, default=7.9, show_default=True, help="CPU µs an entry, both sides attacking.")
@click.option("--disk-one", type=float, default=0.087, show_default=True,
              help="File bytes an entry, one side attacking.")
@click.option("--disk-two", type=float, default=0.16, show_default=True,
              help="File bytes an entry, both sides attacking.")
@click.option("--bytes-entry", type=float, default=9.2, show_default=True,
              help="Peak memory an entry of a whole build.")
def main(cpu_one, cpu_two, disk_one, disk_two, bytes_entry):
    """The plan for the large xiangqi tables: per set, the tables, entries, memory, disk and CPU time."""
    known: set = set()
    print("| set | tables (own + new smaller ones) | entries | largest table | memory to build it whole | "
          "smaller tables it maps | disk | CPU-hours | hours on 16 / 256 cores |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for title, names in SETS:
        tables = closure(names, known)
        own = len({parse_material(n).canonical()[0] for n in names})
        entries = sum(m.size for m in tables)
        largest = max(tables, key=lambda m: m.size)
        subs = sum(s.size for s in largest.subtables())
        cpu = sum(m.size * (cpu_two if two_sided(m) else cpu_one) for m in tables) / 1e6 / 3600
        disk = sum(m.size * (disk_two if two_sided(m) else disk_one) for m in tables)
        print(f"| {title} | {own} + {len(tables) - own} | {entries:.2e} | {largest.size:.2e} ({largest.name}) | "
              f"{size_text(largest.size * bytes_entry)} | {size_text(2 * subs)} | {size_text(disk)} | "
              f"{cpu:,.0f} | {cpu / 16:,.1f} / {cpu / 256:,.1f} |")


if __name__ == "__main__":
    main()
