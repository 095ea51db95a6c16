"""Building sets of tables: dependency order (fewer pieces first), files written atomically, timing figures."""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from .index import Material, parse_material
from .store import (MAGIC, SUFFIX, TableFile, max_distance, remove_stale_temporaries, table_path, write_table,
                    DEFAULT_CHUNK)

DEFENDERS = ["", "A", "AA", "B", "BB", "AB", "AAB", "ABB", "AABB"]
ATTACKERS = "RNCP"
#: Every ending with one attacking piece against any advisors and elephants.
ONE_ATTACKER = [f"K{a}vK{d}" for a in ATTACKERS for d in DEFENDERS]
#: Two attacking pieces against up to two defenders: the candidates ...
TWO_ATTACKER_ALL = [f"K{a}{b}vK{d}" for i, a in enumerate(ATTACKERS) for b in ATTACKERS[i:]
                    for d in ("", "A", "B", "AA", "AB", "BB")]
#: ... and those that ``make tablebases`` builds (all that fit in the 30-minute budget; see tablebases/README.md).
TWO_ATTACKER_DEFAULT = list(TWO_ATTACKER_ALL)
DEFAULT_SET = ONE_ATTACKER + TWO_ATTACKER_DEFAULT


@dataclass
class BuildRecord:
    name: str
    entries: int
    seconds: float
    bytes: int
    cpu_seconds: float
    levels: int
    max_dist: int
    rule_changed: int
    built: bool                 # False: the file existed already

    def line(self) -> str:
        """The log line of a table just built."""
        return (f"{self.name}: {self.entries} entries, {self.seconds:.1f} s (cpu {self.cpu_seconds:.1f} s), "
                f"{self.bytes} bytes, longest mate {self.max_dist} plies"
                + (f", {self.rule_changed} changed by the perpetual-check rule" if self.rule_changed else ""))


def plan(names, parse=parse_material) -> list[Material]:
    """Canonical materials to build for ``names``, each after everything it captures into (``parse``: the
    game's material parser, xiangqi's by default)."""
    order: list[Material] = []
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
    """Builds xiangqi tables; ``chess_build.ChessBuilder`` overrides the game's hooks (material parser, file
    suffix and magic, generator)."""

    suffix = SUFFIX
    magic = MAGIC

    @staticmethod
    def parse(name: str):
        return parse_material(name)

    def generate(self, material, progress):
        """(values, stats) of ``material``, its smaller tables read through ``self.load``."""
        from .generate import generate_table
        return generate_table(material, self.load, progress, threads=self.threads, rule=self.rule)

    def __init__(self, directory="tablebases", chunk: int = DEFAULT_CHUNK, rule: bool = True, threads: int = 2):
        self.directory = Path(directory)
        self.chunk = chunk
        self.rule = rule
        self.threads = threads
        self._memo = {}

    def load(self, material: Material):
        if material not in self._memo:
            with TableFile(table_path(self.directory, material.name, self.suffix), self.magic) as f:
                self._memo[material] = f.read_all()
        return self._memo[material]

    def kept(self, names, log=None) -> list:
        """The names worth a table (chess drops the endings where no side can mate)."""
        return list(names)

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

    def present(self, path, material, log=None):
        """The record of a table file already built, or None when the file is broken (it is rebuilt)."""
        try:
            with TableFile(path, self.magic) as f:
                return BuildRecord(material.name, f.size, 0.0, path.stat().st_size, 0.0, 0, f.max_dist, 0, False)
        except Exception as e:
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
        nbytes = write_table(path, material.name, values, material.npos, self.chunk, rule_applied=self.rule,
                             magic=self.magic)
        if keep:
            self._memo[material] = values
        return BuildRecord(material.name, material.size, time.perf_counter() - t0, nbytes,
                           time.process_time() - c0, stats.levels, max_distance(values), stats.rule_changed, True)


def make_builder(game: str, directory, chunk: int, rule: bool = True, threads: int = 2) -> Builder:
    """The builder of ``game`` ("xiangqi" or "chess")."""
    if game == "chess":
        from .chess_build import ChessBuilder
        return ChessBuilder(directory, chunk=chunk, threads=threads)
    return Builder(directory, chunk=chunk, rule=rule, threads=threads)
