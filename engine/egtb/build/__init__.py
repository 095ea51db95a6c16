"""Building sets of tables, for any game: dependency order (fewer pieces first), files written atomically and
recorded in the directory's manifest (``engine.egtb.manifest``), timing figures.  A tool above the games: the
game's parts (material names, file suffix and magic, generator) come from its ``Game`` (``game.tables()``, see
``engine.<game>.tables``)."""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from .. import manifest
from ..store import (DEFAULT_CHUNK, DEFAULT_RULE, RULE_FLAGS, TableError, TableFile, max_distance,
                    remove_stale_temporaries, table_path, write_table)


@dataclass
class BuildRecord:
    name: str
    entries: int
    seconds: float
    bytes: int
    cpu_seconds: float
    levels: int
    max_dist: int
    rule_changed: int           # decided by the rule pass ...
    built: bool                 # False: the file existed already
    rule_chase: int = 0         # ... of them, by its perpetual-chase rounds (the rest: checks, propagation)

    def line(self) -> str:
        """The log line of a table just built."""
        return (f"{self.name}: {self.entries} entries, {self.seconds:.1f} s (cpu {self.cpu_seconds:.1f} s), "
                f"{self.bytes} bytes, longest mate {self.max_dist} plies"
                + (f", {self.rule_changed} changed by the rule" if self.rule_changed else "")
                + (f" ({self.rule_chase} by perpetual chase)" if self.rule_chase else ""))


def plan(names, parse) -> list:
    """Canonical materials to build for ``names``, each after everything it captures into (``parse``: the
    game's material parser)."""
    order = []
    seen = set()
    for name in names:
        root = parse(name).canonical()[0] if isinstance(name, str) else name.canonical()[0]
        stack = [(root, False)]
        while stack:                                   # iterative post-order (no recursion)
            m, expanded = stack.pop()
            if m in seen:
                continue
            if expanded:
                seen.add(m)
                order.append(m)
                continue
            stack.append((m, True))
            for sub in reversed(m.subtables()):
                if sub not in seen:
                    stack.append((sub, False))
    return order


class Builder:
    """Builds a game's tables into a directory."""

    def __init__(self, game, directory="tablebases", chunk: int = DEFAULT_CHUNK, rule: str = DEFAULT_RULE,
                 threads: int = 2):
        """``game``: the Game whose tables these are; ``rule``: the rule its rule pass applies -- "chase"
        (perpetual check and chase), "check" or "none" (``RULE_FLAGS``; a game without a rule pass is always
        "none")."""
        if rule not in RULE_FLAGS:
            raise ValueError(f"unknown rule {rule!r} (one of {', '.join(RULE_FLAGS)})")
        self.game, self.parts = game, game.tables()
        self.suffix, self.magic, self.parse = self.parts.SUFFIX, self.parts.MAGIC, self.parts.parse_material
        self.directory = Path(directory)
        self.chunk = chunk
        self.rule = rule if self.parts.RULE_PASS else "none"
        self.threads = threads
        self._memo = {}

    def generate(self, material, progress):
        """(values, stats) of ``material``, its smaller tables read through ``self.load``."""
        return self.game.table_generator().generate_table(material, self.load, progress, threads=self.threads,
                                                          rule=self.rule)

    def load(self, material):
        """The values of a smaller table, from its file (checked against its material before it sizes an
        array; TableError)."""
        if material not in self._memo:
            with TableFile(table_path(self.directory, material.name, self.suffix), self.magic) as f:
                f.check_material(material)
                self._check_rule(f)
                self._memo[material] = f.read_all()
        return self._memo[material]

    def kept(self, names, log=None) -> list:
        """The names worth a table: materials where no side can mate (chess's KvK, KNvK, KBvK) need none."""
        kept = []
        for n in names:
            m = self.parse(n) if isinstance(n, str) else n
            if not m.canonical()[0].has_table():
                if log:
                    log(f"{m.name}: no table needed (no side can mate: always a draw)")
                continue
            kept.append(n)
        return kept

    def build(self, names, force: bool = False, progress=None, log=None) -> list[BuildRecord]:
        """Build ``names`` and whatever they need.  ``force`` rebuilds the named tables even if their files
        exist (their dependencies only when missing).  ``progress(material, fraction, text)``."""
        names = self.kept(names, log)
        wanted = {self.parse(n).canonical()[0] if isinstance(n, str) else n for n in names}
        records = []
        order = plan(names, self.parse)
        needed = {sub for m in order for sub in m.subtables()}
        if self.directory.is_dir():
            remove_stale_temporaries(self.directory, self.suffix)     # a killed build's half-written files
        for m in order:
            path = table_path(self.directory, m.name, self.suffix)
            if path.exists() and not (force and m in wanted):
                present = self.present(path, m, log)
                if present is not None:
                    records.append(present)
                    continue
            cb = (lambda f, t, m=m: progress(m, f, t)) if progress else None
            records.append(self.build_one(m, cb, keep=m in needed))
            if log:
                log(records[-1].line())
        return records

    def _check_rule(self, f) -> None:
        """A table built under another rule (``--rule``) is not one of this build's: its draws would stand for
        the rule's results, or the other way round, in every table that captures into it."""
        if f.rule != self.rule:
            raise TableError(f"{f.label}: built under --rule {f.rule}; this build is --rule {self.rule}")

    def present(self, path, material, log=None):
        """The record of a table file already built, or None when the file is broken or built under the other
        rule setting (it is rebuilt).  A file the directory's manifest does not list -- a build killed between
        the table's rename and the manifest's update leaves one -- is read whole and its digest recorded."""
        try:
            with TableFile(path, self.magic) as f:
                f.check_material(material)
                self._check_rule(f)
                if manifest.expected_digest(path) is None:
                    f.verify()
                    manifest.record(path.parent, {path.name: f.digest()})
                return BuildRecord(material.name, f.size, 0.0, path.stat().st_size, 0.0, 0, f.max_dist, 0, False)
        except (TableError, OSError) as e:
            if log:
                log(f"rebuilding {path.name}: {e}")
            return None

    def build_one(self, material, progress=None, keep: bool = False) -> BuildRecord:
        """Generate one table (its smaller tables read through ``self.load``) and write its file atomically.
        ``keep``: hold its values in memory for the tables built next that capture into it."""
        path = table_path(self.directory, material.name, self.suffix)
        t0 = time.perf_counter()
        c0 = time.process_time()
        values, stats = self.generate(material, progress)
        nbytes = write_table(path, material.name, values, material.npos, self.magic, self.chunk,
                             rule=self.rule)
        if keep:
            self._memo[material] = values
        return BuildRecord(material.name, material.size, time.perf_counter() - t0, nbytes,
                           time.process_time() - c0, stats.levels, max_distance(values), stats.rule_changed, True,
                           stats.rule_chase)


def build_quick_set(name, directory) -> list[BuildRecord]:
    """Build the quick set of the game called ``name`` (what ``shuai setup`` builds) into ``directory``; the
    records of its tables.  Named by game, so that a worker process can be sent it."""
    from ...game import game_named
    game = game_named(name)
    return Builder(game, directory).build(game.tables().QUICK_SET)
