"""One xiangqi table built by several Ray workers: its index cut into slices, each held by an actor
(``TableSlice``: the values, counters and capture levels of its entries, 5 bytes an entry), the retrograde
passes run as waves of tasks.

* **Initialisation:** every actor runs pass 1 over its own entries (each reads the smaller tables, which
  reach it through the object store).
* **A level** is one wave: each actor finds its events (entries settled at the previous distance) and their
  predecessors; those in its own slice it settles at once, the others it sends, grouped by the slice that
  holds them, to their actors, which settle them next (``_settle_all``); then the capture levels due
  (``_sched_scan``).  Settling commutes within a level, so the values are exactly those of the one-machine
  generator (``generate_table``), whatever order the messages arrive in.
* **The end:** the coordinator (a task of its own, which holds no CPU while it waits) gathers the values
  (2 bytes an entry), runs the perpetual-check pass there when the table needs one, and the file is written
  by the same code as a local build.

Only xiangqi tables are sliced; chess tables are built whole by one worker.
"""
from __future__ import annotations

import tempfile
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from .generate import (BuildStats, _init_range, _propagate, _sched_scan, _settle_all, capture_tables, rule_pass)
from .index import parse_material
from .levels import run_levels


def slice_bounds(size: int, slices: int, chunk: int) -> list[tuple[int, int]]:
    """``slices`` ranges covering [0, size), cut on chunk boundaries (no empty one)."""
    chunks = -(-size // chunk)
    per = -(-chunks // max(1, slices))
    return [(lo * chunk, min(size, (lo + per) * chunk)) for lo in range(0, chunks, per)]


def _smaller_tables(material, dep_names, dep_files):
    """The arrays of ``capture_tables`` from the smaller tables' file bytes."""
    from .build import Builder
    from .cluster_build import unpack_tables
    with tempfile.TemporaryDirectory(prefix="shuai-slice-") as d:
        builder = Builder(d)
        unpack_tables(d, builder.suffix, dep_names, dep_files)
        return capture_tables(material, builder.load)


class TableSlice:
    """The entries [lo, hi) of a table under construction (a Ray actor)."""

    def __init__(self, name: str, lo: int, hi: int, bounds: list, dep_names: list, *dep_files):
        self.material = parse_material(name).canonical()[0]
        self.spec, self.slot_pieces = self.material.spec(), self.material.slot_pieces()
        self.lo, self.hi = lo, hi
        self.starts = np.array([b[0] for b in bounds], np.int64)
        self.subs = _smaller_tables(self.material, dep_names, dep_files)
        n = hi - lo
        self.vals = np.zeros(n, np.uint16)
        self.counter = np.zeros(n, np.uint8)
        self.sched = np.zeros(n, np.uint16)
        self.out = np.zeros(1 << 16, np.int64)

    def init(self) -> int:
        """Pass 1 over the slice; the largest capture level it scheduled."""
        return int(_init_range(self.spec, self.vals, self.counter, self.sched, self.lo, self.lo, self.hi,
                               *self.subs))

    def propagate(self, level: int) -> list:
        """The slice's events of ``level``: [positions settled here, then the predecessor indices for each
        slice, in slice order (none for this one)]."""
        settled, self.out, n = _propagate(self.spec, self.slot_pieces, self.vals, self.counter, self.sched,
                                          self.lo, self.lo, self.hi, level, self.out)
        found = np.sort(self.out[:n])
        cuts = np.searchsorted(found, self.starts[1:])
        return [int(settled)] + np.split(found, cuts)

    def settle(self, level: int, *parts) -> int:
        """The predecessors the other slices found in this one."""
        return sum(int(_settle_all(self.vals, self.counter, self.sched, self.lo, part, level))
                   for part in parts if part.size)

    def sched_scan(self, level: int) -> int:
        return int(_sched_scan(self.vals, self.counter, self.sched, level, 0, self.vals.shape[0]))

    def values(self) -> np.ndarray:
        return self.vals


def generate_sliced(ray, material, load_sub, dep_names: list, dep_files: list, slices: int, chunk: int,
                    rule: bool = True, progress=None, threads: int = 1):
    """The values of ``material`` (canonical), built by ``slices`` actors; returns (values, BuildStats) as
    ``generate_table`` does, and the same values.  The actors get the smaller tables as ``dep_files`` (their
    bytes, in the order of ``dep_names``); the perpetual-check pass, here, reads them through ``load_sub``."""
    report = progress or (lambda f, t: None)
    stats = BuildStats()
    bounds = slice_bounds(material.size, slices, chunk)
    from ray.util.placement_group import placement_group, remove_placement_group
    from ray.util.scheduling_strategies import PlacementGroupSchedulingStrategy
    refs = [ray.put(data) for data in dep_files]
    k = len(bounds)
    # The slices start together or not at all (a placement group reserves their CPUs at once, spread over the
    # machines): two sliced tables each holding part of the CPUs would wait for each other for ever.
    group = placement_group([{"CPU": 1}] * k, strategy="SPREAD")
    ray.get(group.ready())
    actor = ray.remote(num_cpus=1, max_restarts=0)(TableSlice)
    actors = [actor.options(scheduling_strategy=PlacementGroupSchedulingStrategy(group, i))
              .remote(material.name, lo, hi, bounds, dep_names, *refs) for i, (lo, hi) in enumerate(bounds)]
    try:
        max_sched = max(ray.get([a.init.remote() for a in actors]))
        report(0.3, "init")

        def one_level(level):
            found = [a.propagate.options(num_returns=k + 1).remote(level) for a in actors]
            waves = [found[i][0] for i in range(k)]
            waves += [actors[j].settle.remote(level, *[found[i][j + 1] for i in range(k) if i != j])
                      for j in range(k)]
            if level <= max_sched:
                waves += [a.sched_scan.remote(level) for a in actors]
            return sum(ray.get(waves))
        stats.levels = run_levels(one_level, max_sched, report)
        vals = np.concatenate(ray.get([a.values.remote() for a in actors]))
    finally:
        for a in actors:
            ray.kill(a)
        remove_placement_group(group)
    if rule:
        subs = capture_tables(material, load_sub)
        with ThreadPoolExecutor(max(1, threads)) as pool:
            stats.rule_changed = rule_pass(material, vals, *subs, pool, report)
    report(1.0, "done")
    return vals, stats
