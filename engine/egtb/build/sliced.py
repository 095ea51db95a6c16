"""One table built by several Ray workers: its index cut into slices, each held by an actor
(``TableSlice``: the values, counters and capture levels of its entries, 5 bytes an entry), the retrograde
passes run as waves of tasks.  No machine ever holds the whole table.

* **Initialisation:** every actor runs pass 1 over its own entries (each reads the smaller tables, which
  reach it through the object store).
* **A level** is one wave: each actor finds its events (entries settled at the previous distance) and their
  predecessors; those in its own slice it settles at once, the others it sends, grouped by the slice that
  holds them, to their actors, which settle them next (``settle_all``); then the capture levels due
  (``sched_scan``).  Settling commutes within a level, so the values are exactly those of the one-machine
  generator (``generate_table``), whatever order the messages arrive in.
* **The perpetual-check pass** (:mod:`engine.egtb.build.rule`) is made of the same kind of waves -- each step
  pushes to predecessors, those of other slices as messages -- with a counter and a flag an entry in place
  of the levels' counter and capture level; the coordinator runs the same driver (``rule_pass``) as a local
  build, over the slices.
* **The file:** each actor encodes its own chunks (the slices are cut on chunk boundaries); the coordinator
  (a task of its own, which holds no CPU while it waits) puts the header and the chunk table in front.  The
  bytes are those of a local build.

The generator's kernels are the game's (``game.table_generator()``: ``init_range``, ``propagate``,
``settle_all``, ``sched_scan``, ``capture_tables``, ``rule_step``): a game whose tables can be sliced (its
``SLICEABLE``: xiangqi's) has a generator of this form; chess tables are built whole by one worker.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import stat
import tempfile
import time
from pathlib import Path

import numpy as np

from ...game import game_named
from . import BuildRecord
from .levels import BuildStats, run_levels
from .rule import has_rule_results, rule_pass, rule_receive, rule_scan
from ...files import atomic_writer
from ..store import (DEFAULT_RULE, TableFile, encode_chunks, max_distance, table_parts, table_path, unpack_tables,
                     widest_code)


def slice_bounds(size: int, slices: int, chunk: int) -> list[tuple[int, int]]:
    """``slices`` ranges covering [0, size), cut on chunk boundaries (no empty one)."""
    chunks = -(-size // chunk)
    per = -(-chunks // max(1, slices))
    return [(lo * chunk, min(size, (lo + per) * chunk)) for lo in range(0, chunks, per)]


def scratch_directory() -> tuple[Path, bool]:
    """Where this user's actors keep the smaller tables' raw files: ``<tmp>/shuai-<uid>``, created with mode 0700
    and used only when it is a real directory (not a symlink) of this user that nobody else can write -- a file
    planted in the shared ``/tmp`` must never feed a build.  When it is not (another user made it first, or a
    system without user ids), a fresh private directory (``tempfile.mkdtemp``) of this actor alone.  Returns
    (the directory, whether it is that fresh one, to be deleted with the actor)."""
    if hasattr(os, "getuid"):
        shared = Path(tempfile.gettempdir()) / f"shuai-{os.getuid()}"
        try:
            shared.mkdir(mode=0o700, exist_ok=True)
            st = shared.lstat()
            if stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o077:
                return shared, False
        except OSError:
            pass
    return Path(tempfile.mkdtemp(prefix="shuai-subs-")), True


def _smaller_tables(game, material, dep_names: list, dep_files: list) -> tuple[tuple, Path, bool]:
    """The arrays of ``capture_tables`` for an actor, and the file behind them: the smaller tables' values,
    decompressed once per machine into one raw file (2 bytes an entry) that every actor there maps, so that
    the operating system shares its pages among them and reads in what the captures touch -- an actor needs
    no memory of its own for the smaller tables, which together are larger than the table it builds.  The
    file is named by the SHA-256 of the smaller tables' bytes, lives in the user's private
    ``scratch_directory``, and is mapped only once its size is exactly theirs.  Returns (the arrays, the file,
    whether its directory is the actor's own)."""
    subs = material.subtables()
    if not subs:
        return game.table_generator().capture_tables(material, None, None), None, False
    key = hashlib.sha256()
    for name, data in zip(dep_names, dep_files):
        key.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    directory, own = scratch_directory()
    path = directory / f"subs-{material.name}-{key.hexdigest()[:32]}.u16"
    expected = 2 * sum(sub.size for sub in subs)
    if not _raw_file_of_size(path, expected):
        parts = game.tables()
        with tempfile.TemporaryDirectory(prefix="shuai-slice-") as d, atomic_writer(path) as out:
            unpack_tables(d, parts, dep_names, dep_files)      # each checked whole before it is read
            for sub in subs:
                with TableFile(table_path(d, sub.name, parts.SUFFIX), parts.MAGIC) as f:
                    for i in range(f.nchunks):
                        out.write(f.read_chunk(i).tobytes())
        # another actor of this machine may have done the same: equal bytes, the last rename wins
    if not _raw_file_of_size(path, expected):
        raise RuntimeError(f"{path}: not the {expected} bytes of the smaller tables of {material.name}")
    # copy-on-write: the same (writable) array type as a table in memory, so the kernels are not compiled again
    values = np.memmap(path, np.uint16, "c")
    return game.table_generator().capture_tables(material, None, values), path, own


def _raw_file_of_size(path: Path, size: int) -> bool:
    try:
        st = path.lstat()
    except FileNotFoundError:
        return False
    return stat.S_ISREG(st.st_mode) and st.st_size == size


class TableSlice:
    """The entries [lo, hi) of a table under construction (a Ray actor)."""

    def __init__(self, game_name: str, name: str, lo: int, hi: int, bounds: list, dep_names: list, *dep_files):
        game = game_named(game_name)
        self.gen = game.table_generator()
        self.material = game.tables().parse_material(name).canonical()[0]
        self.spec, self.slot_pieces = self.material.spec(), self.material.slot_pieces()
        self.lo, self.hi = lo, hi
        self.starts = np.array([b[0] for b in bounds], np.int64)
        self.subs, self.subs_path, self.own_directory = _smaller_tables(game, self.material, dep_names, dep_files)
        n = hi - lo
        self.vals = np.zeros(n, np.uint16)
        self.counter = np.zeros(n, np.uint8)
        self.sched = np.zeros(n, np.uint16)
        self.out = np.zeros(1 << 16, np.int64)

    def init(self) -> int:
        """Pass 1 over the slice; the largest capture level it scheduled."""
        return int(self.gen.init_range(self.spec, self.vals, self.counter, self.sched, self.lo, self.lo, self.hi,
                               *self.subs))

    def propagate(self, level: int) -> list:
        """The slice's events of ``level``: [positions settled here, then the predecessor indices for each
        slice, in slice order (none for this one)]."""
        settled, self.out, n = self.gen.propagate(self.spec, self.slot_pieces, self.vals, self.counter, self.sched,
                                          self.lo, self.lo, self.hi, level, self.out)
        return [int(settled)] + self._by_slice(self.out[:n])

    def settle(self, level: int, *parts) -> int:
        """The predecessors the other slices found in this one."""
        return sum(int(self.gen.settle_all(self.vals, self.counter, self.sched, self.lo, part, level))
                   for part in parts if part.size)

    def sched_scan(self, level: int) -> int:
        return int(self.gen.sched_scan(self.vals, self.counter, self.sched, level, 0, self.vals.shape[0]))

    def rule_begin(self) -> bool:
        """Trade the levels' arrays for the rule pass's (two counters and a flag an entry); do the smaller
        tables hold rule-decided results?"""
        self.cnt, self.counter, self.sched = self.counter, None, None
        self.ways = np.zeros(self.vals.shape[0], np.uint8)
        self.flag = np.zeros(self.vals.shape[0], np.uint8)
        return has_rule_results(self.subs)

    def rule_step(self, step: int, checker: int, goal: int, code: int) -> list:
        """A step of the rule pass over the slice: [positions taken, then the messages for each slice]."""
        taken, self.out, n = self.gen.rule_step(self.spec, self.slot_pieces, self.vals, self.cnt, self.ways, self.flag,
                                                self.lo, self.lo, self.hi, step, checker, goal, code, *self.subs,
                                                self.out)
        return [int(taken)] + self._by_slice(self.out[:n], 4)

    def rule_receive(self, step: int, *parts) -> int:
        for part in parts:
            if part.size:
                rule_receive(self.vals, self.cnt, self.ways, self.flag, self.lo, part, step)
        return 0

    def rule_scan(self, scan: int, checker: int, order: int) -> int:
        return int(rule_scan(self.vals, self.cnt, self.ways, self.flag, self.material.npos, self.lo, self.lo,
                              self.hi, scan, checker, order))

    def summary(self) -> tuple[int, int]:
        """(the widest code, the longest mate) of the slice: what the file header needs."""
        return widest_code(self.vals), max_distance(self.vals)

    def encode(self, value_bytes: int, chunk: int) -> tuple[list, float]:
        """The slice's stored chunks, and the CPU seconds this actor has used."""
        self.cnt = self.ways = self.flag = None
        return encode_chunks(self.vals, value_bytes, chunk, threads=1), time.process_time()

    def close(self) -> None:
        """Delete the smaller tables' raw file (the first actor of a machine to finish does; the others keep
        their mapping of it)."""
        self.subs = None
        if self.subs_path is not None:
            self.subs_path.unlink(missing_ok=True)
            if self.own_directory:
                shutil.rmtree(self.subs_path.parent, ignore_errors=True)

    def _by_slice(self, found: np.ndarray, scale: int = 1) -> list:
        """``found`` (indices times ``scale``, plus a tag below it) sorted and cut by the slice that holds them."""
        found = np.sort(found)
        return np.split(found, np.searchsorted(found, self.starts[1:] * scale))


def _exchange(ray, actors, send: str, send_args: tuple, receive: str, receive_args: tuple) -> int:
    """One wave: every actor runs ``send`` (it returns [a count, then what it found for each slice]); each
    actor then ``receive``s what the others found for it.  Returns the sum of all the counts."""
    k = len(actors)
    found = [getattr(a, send).options(num_returns=k + 1).remote(*send_args) for a in actors]
    counts = [found[i][0] for i in range(k)]
    counts += [getattr(actors[j], receive).remote(*receive_args, *[found[i][j + 1] for i in range(k) if i != j])
               for j in range(k)]
    return sum(ray.get(counts))


class SlicedRuleTable:
    """The rule pass's steps (see ``engine.egtb.build.rule.WholeTable``) run over the slices' actors."""

    def __init__(self, ray, actors):
        self.ray, self.actors = ray, actors
        self.sub_has_rule = any(ray.get([a.rule_begin.remote() for a in actors]))

    def step(self, step, checker=0, goal=0, code=0) -> int:
        return _exchange(self.ray, self.actors, "rule_step", (step, checker, goal, code), "rule_receive", (step,))

    def trapped(self, checker, goal, goals) -> int:
        """Unknown here (a slice does not hold the positions its moves lead to): every round is run -- the
        whole table skips only rounds that remove nothing, so the results are the same."""
        return -1

    def scan(self, scan, checker=0, order=0) -> int:
        return sum(self.ray.get([a.rule_scan.remote(scan, checker, order) for a in self.actors]))


def build_sliced(ray, game, material, dep_names: list, dep_files: list, slices: int, chunk: int,
                 rule: str = DEFAULT_RULE, progress=None) -> tuple[list, BuildRecord]:
    """Build ``material`` (canonical, of the Game ``game``) with ``slices`` actors, each given the smaller tables
    as ``dep_files`` (their bytes, in the order of ``dep_names``).  Returns (the byte strings of its file, its
    record): the same file as a local build's, the values never gathered in one place."""
    t0, c0 = time.perf_counter(), time.process_time()
    report = progress or (lambda f, t: None)
    stats = BuildStats()
    bounds = slice_bounds(material.size, slices, chunk)
    from ray.util.placement_group import placement_group, remove_placement_group
    from ray.util.scheduling_strategies import PlacementGroupSchedulingStrategy
    # as byte arrays, which the actors of a machine read in place from its object store
    refs = [ray.put(np.frombuffer(data, np.uint8)) for data in dep_files]
    # The slices start together or not at all (a placement group reserves their CPUs at once, spread over the
    # machines): two sliced tables each holding part of the CPUs would wait for each other for ever.
    group = placement_group([{"CPU": 1}] * len(bounds), strategy="SPREAD")
    ray.get(group.ready())
    actor = ray.remote(num_cpus=1, max_restarts=0)(TableSlice)
    actors = [actor.options(scheduling_strategy=PlacementGroupSchedulingStrategy(group, i))
              .remote(game.name, material.name, lo, hi, bounds, dep_names, *refs) for i, (lo, hi) in enumerate(bounds)]
    try:
        max_sched = max(ray.get([a.init.remote() for a in actors]))
        report(0.3, "init")

        def one_level(level):
            settled = _exchange(ray, actors, "propagate", (level,), "settle", (level,))
            if level <= max_sched:
                settled += sum(ray.get([a.sched_scan.remote(level) for a in actors]))
            return settled
        stats.levels = run_levels(one_level, max_sched, report)
        if rule != "none":
            stats.rule_changed, stats.rule_chase = rule_pass(material, SlicedRuleTable(ray, actors), report,
                                                             chase=rule == "chase")
        summaries = ray.get([a.summary.remote() for a in actors])
        value_bytes = 1 if max(s[0] for s in summaries) < 256 else 2
        max_dist = max(s[1] for s in summaries)
        report(0.95, "compressing")
        encoded = ray.get([a.encode.remote(value_bytes, chunk) for a in actors])
        blobs = [b for part, _ in encoded for b in part]
    finally:
        try:
            ray.get([a.close.remote() for a in actors])
        except Exception:               # an actor already gone: the build fails for what killed it
            pass
        for a in actors:
            ray.kill(a)
        remove_placement_group(group)
    parts = table_parts(material.name, material.size, material.npos, chunk, value_bytes, max_dist, rule, blobs,
                        game.tables().MAGIC)
    report(1.0, "done")
    cpu = time.process_time() - c0 + sum(c for _, c in encoded)
    return parts, BuildRecord(material.name, material.size, time.perf_counter() - t0, sum(len(b) for b in parts), cpu,
                              stats.levels, max_dist, stats.rule_changed, True, stats.rule_chase)
