"""Endgame tablebase benchmark.

1. build time (wall and CPU) and file size per table;
2. probe speed: from the search kernel (numba, chunk in memory), from the kernel with a disk read (objmode),
   and from Python;
3. the cache's memory stays under its limit while random positions of every table are probed;
4. the search with and without tables on won positions the tables know (mates found, exact distances, time);
5. for random won positions with a distance of at most 11 plies, Fairy-Stockfish (``go mate N``) confirms a
   mate in exactly that many moves; random drawn positions are not mated by a deep search.

    shuai bench egtb [--dir DIR] [--table KRvK --table KNvKA ...] [--verify 500] [--draws 50] [--search 40]

Without ``--dir`` the tables are built into a temporary directory first (which is the build benchmark).
"""
from __future__ import annotations

import os
import queue
import random
import subprocess
import sys
import tempfile
import threading
import time

import click
import numpy as np

from ..egtb.build import Builder
from ..egtb.codes import DIST0, RULE_BASE
from ..egtb.material import MAX_SLOTS
from ..egtb.probe import code_plies
from ..egtb.store import TableFile, table_path
from ..egtb.tableset import TableSet
from ..game import XIANGQI
from ..xiangqi.position import board_fen, Position
from ..xiangqi.tables import MAGIC, SUFFIX, Tablebases
from ..xiangqi.tables.index import decode, parse_material
from ..xiangqi.tables.probe import tb_probe

DEFAULT_TABLES = ["KRvK", "KNvK", "KCvK", "KPvK", "KRvKA", "KRvKAA", "KRvKB", "KRvKAB", "KNvKA", "KNvKB",
                  "KNvKAA", "KPvKA", "KPvKB", "KCvKA", "KRvKAABB", "KCPvK", "KRNvK", "KNPvK", "KCPvKA"]
FSF = "/usr/games/fairy-stockfish"


def sample_positions(directory, names, rng, want, predicate):
    """Random legal positions (name, fen, code) with predicate(code) true, spread over the tables (round robin,
    so tables with few such positions give what they have and the others make up the number)."""
    per_table = []
    for name in names:
        m = parse_material(name)
        with TableFile(table_path(directory, name, SUFFIX), MAGIC) as f:
            codes = f.read_all()
        spec = m.spec()
        psq = np.zeros(MAX_SLOTS, np.int64)
        board = np.zeros(90, np.int8)
        uniq = np.unique(codes)
        good = uniq[np.array([predicate(int(c)) for c in uniq], bool)]
        cand = np.flatnonzero(np.isin(codes, good))
        rng.shuffle(cand)
        got = []
        for idx in cand:
            side = decode(int(idx), spec, psq, board)
            if side < 0:
                continue
            fen = board_fen(board, side)
            try:
                Position(fen)                      # the file fills illegal entries: keep legal positions only
            except ValueError:
                continue
            got.append((name, fen, int(codes[idx])))
            if len(got) >= want:
                break
        per_table.append(got)
    out = []
    for i in range(want):
        for got in per_table:
            if i < len(got):
                out.append(got[i])
    out = out[:want]
    rng.shuffle(out)
    return out


class Fsf:
    """A Fairy-Stockfish process speaking UCI with UCI_Variant xiangqi."""

    def __init__(self, path=FSF):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.q = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.send("uci")
        self.wait("uciok")
        self.send("setoption name UCI_Variant value xiangqi")
        self.send("setoption name Threads value 1")
        self.send("setoption name Hash value 64")
        self.send("isready")
        self.wait("readyok")

    def _read(self):
        for line in self.p.stdout:
            self.q.put(line.strip())

    def send(self, s):
        self.p.stdin.write(s + "\n")
        self.p.stdin.flush()

    def wait(self, prefix, timeout=30):
        end = time.time() + timeout
        while True:
            line = self.q.get(timeout=max(0.1, end - time.time()))
            if line.startswith(prefix):
                return line

    def search(self, fen, go, limit):
        """Last score of the search ('mate', n) / ('cp', x) / None; the search is stopped after ``limit`` s."""
        self.send("ucinewgame")
        self.send(f"position fen {fen}")
        self.send(go)
        score = None
        end = time.time() + limit
        stopped = False
        while True:
            try:
                line = self.q.get(timeout=0.05)
            except queue.Empty:
                line = ""
            if line.startswith("info") and " score " in line:
                parts = line.split()
                i = parts.index("score")
                score = (parts[i + 1], int(parts[i + 2]))
            elif line.startswith("bestmove"):
                return score, stopped
            if not stopped and time.time() > end:
                self.send("stop")
                stopped = True

    def close(self):
        self.send("quit")
        self.p.wait(5)


def bench_probe(directory, names, memory_mb):
    from numba import njit

    @njit(nogil=True)
    def probe_all(tb, boards, sides, allow_disk):
        total = 0
        for i in range(boards.shape[0]):
            total += tb_probe(tb, boards[i], sides[i], allow_disk)
        return total

    rng = random.Random(11)
    fens = [fen for _, fen, _ in sample_positions(directory, names, rng, 20000, lambda c: c != 1)]
    positions = [Position(f) for f in fens]
    boards = np.array([p.board for p in positions], np.int8)
    sides = np.array([p.side for p in positions], np.int64)
    big = Tablebases(directory, memory_mb=1024)
    probe_all(big.arrays, boards[:10], sides[:10], True)                # compile
    big = Tablebases(directory, memory_mb=1024)
    t = time.perf_counter()
    probe_all(big.arrays, boards, sides, True)
    first = time.perf_counter() - t
    loads = big.stats()["loads"]
    t = time.perf_counter()
    reps = 20
    for _ in range(reps):
        probe_all(big.arrays, boards, sides, False)
    cached = (time.perf_counter() - t) / (reps * len(boards))
    t = time.perf_counter()
    for p in positions[:2000]:
        big.probe_code(p.board, p.side)
    python = (time.perf_counter() - t) / 2000
    print(f"probe, search kernel, chunk in memory:   {cached * 1e9:8.0f} ns")
    print(f"probe, search kernel, first touch:       {first / len(boards) * 1e6:8.1f} us per probe "
          f"({loads} chunk loads from disk, {first / max(1, loads) * 1e6:.0f} us per load incl. objmode)")
    print(f"probe from Python (Tablebases.probe_code): {python * 1e6:6.1f} us")
    # Memory limit: many more chunks than fit.
    small = Tablebases(directory, memory_mb=memory_mb)
    worst = 0
    for i in range(0, len(boards), 500):
        probe_all(small.arrays, boards[i:i + 500], sides[i:i + 500], True)
        worst = max(worst, small.pool.resident * small.pool.width * 2)
    st = small.stats()
    ok = st["cache_bytes"] <= st["limit_bytes"] and worst <= st["limit_bytes"]
    print(f"cache limit {memory_mb} MB: pool {st['cache_bytes']} bytes, at most {worst} bytes of chunks resident, "
          f"{st['loads']} loads, {st['evictions']} evictions -> {'under the limit' if ok else 'OVER THE LIMIT'}")
    # Values agree between the small and the big cache.
    a = probe_all(small.arrays, boards[:3000], sides[:3000], True)
    b = probe_all(big.arrays, boards[:3000], sides[:3000], True)
    assert a == b
    return ok


def verify_with_fsf(directory, names, count, draws, max_plies, limit):
    if not os.path.exists(FSF):
        print(f"{FSF} not found: apt-get install -y fairy-stockfish -- verification skipped")
        return True
    rng = random.Random(2024)
    wins = sample_positions(directory, names, rng, count,
                            lambda c: DIST0 <= c < RULE_BASE and (c - DIST0) % 2 == 1 and c - DIST0 <= max_plies)
    fsf = Fsf()
    bad = 0
    slow = 0
    t0 = time.time()
    for i, (name, fen, code) in enumerate(wins):
        d = code_plies(code)
        moves = (d + 1) // 2
        score, stopped = fsf.search(fen, f"go mate {moves}", limit)
        if score != ("mate", moves):
            if stopped and score != ("mate", moves):
                slow += 1
            bad += 1
            print(f"  MISMATCH {name} {fen}: table win in {d} plies (mate {moves}), Fairy-Stockfish {score}"
                  + (" (stopped)" if stopped else ""))
    print(f"{len(wins)} won positions (<= {max_plies} plies) over {len(names)} tables: {len(wins) - bad} confirmed "
          f"by Fairy-Stockfish 'go mate N' ({time.time() - t0:.0f} s)")
    drawn = sample_positions(directory, names, rng, draws, lambda c: c == 0)
    mated = 0
    for name, fen, code in drawn:
        score, _ = fsf.search(fen, "go depth 16", limit)
        if score and score[0] == "mate":
            mated += 1
            print(f"  DRAW MATED? {name} {fen}: {score}")
    print(f"{len(drawn)} drawn positions: {len(drawn) - mated} without a mate score at depth 16")
    fsf.close()
    return bad == 0 and mated == 0


def bench_search(directory, names, count, movetime):
    """Won positions the tables know (distance 13-41 plies, tables of four pieces or more), searched for
    ``movetime`` seconds without tables, then with them: mates found, exact distances, time to move."""
    from engine.searcher import Searcher, search_once
    big = [n for n in names if parse_material(n).pieces >= 4]
    if not big or count <= 0:
        return
    rng = random.Random(77)
    wins = sample_positions(directory, big, rng, count,
                            lambda c: DIST0 <= c < RULE_BASE and (c - DIST0) % 2 == 1 and 13 <= c - DIST0 <= 41)
    with_tables = Searcher(64)
    with_tables.set_tablebases(TableSet(directory))
    plain = Searcher(64)
    found = exact = table_exact = 0
    plain_time = table_time = 0.0
    for name, fen, code in wins:
        d = code_plies(code)
        plain.new_game()
        t = time.perf_counter()
        r = search_once(Position(fen), movetime=movetime, searcher=plain)
        plain_time += time.perf_counter() - t
        if r.info.mate is not None and r.info.mate > 0:
            found += 1
            exact += 2 * r.info.mate - 1 == d
        t = time.perf_counter()
        r = search_once(Position(fen), movetime=movetime, searcher=with_tables)
        table_time += time.perf_counter() - t
        table_exact += r.info.mate is not None and 2 * r.info.mate - 1 == d
    n = len(wins)
    print(f"search: {n} won positions (13-41 plies to mate) of {', '.join(big)}")
    print(f"  without tables, {movetime:g} s each: a mate seen in {found}/{n}, the exact distance in {exact}/{n} "
          f"({plain_time / n:.2f} s a move)")
    print(f"  with tables: the exact distance in {table_exact}/{n} ({table_time / n * 1000:.1f} ms a move)")


@click.command()
@click.option("--dir", "directory", type=click.Path(file_okay=False),
              help="An existing table directory.  [default: build into a temporary one]")
@click.option("--table", "tables", multiple=True, default=DEFAULT_TABLES, show_default=True,
              help="A table to build and measure (repeat the option for each).")
@click.option("--verify", type=click.IntRange(0), default=500, show_default=True,
              help="Won positions to check with Fairy-Stockfish.")
@click.option("--draws", type=click.IntRange(0), default=50, show_default=True)
@click.option("--max-plies", type=click.IntRange(1), default=11, show_default=True)
@click.option("--limit", type=click.FloatRange(0.01), default=20.0, show_default=True,
              help="Seconds per Fairy-Stockfish search.")
@click.option("--memory-mb", type=click.FloatRange(0.01), default=1.0, show_default=True,
              help="Cache limit for the memory check.")
@click.option("--search", "searched", type=click.IntRange(0), default=40, show_default=True,
              help="Won positions searched with and without tables.")
@click.option("--movetime", type=click.FloatRange(0.01), default=1.0, show_default=True,
              help="Seconds per search without tables.")
def egtb(directory, tables, verify, draws, max_plies, limit, memory_mb, searched, movetime):
    """Endgame tables: build time and size, probe speed, the cache's memory limit, the search with and without
    tables, and Fairy-Stockfish's confirmation of won and drawn positions.  Exits 1 on a failed check."""
    tmp = None
    if directory is None:
        tmp = tempfile.TemporaryDirectory()
        directory = tmp.name
    print(f"tables in {directory}")
    records = Builder(XIANGQI, directory).build(list(tables))
    print(f"{'table':<10} {'entries':>10} {'build s':>8} {'cpu s':>7} {'bytes':>9} {'bits/entry':>10} "
          f"{'longest':>7}")
    for r in records:
        bits = 8 * r.bytes / r.entries
        print(f"{r.name:<10} {r.entries:>10} {r.seconds:>8.2f} {r.cpu_seconds:>7.2f} {r.bytes:>9} {bits:>10.3f} "
              f"{r.max_dist:>7}" + ("" if r.built else "  (present)"))
    names = list(tables)
    ok = bench_probe(directory, names, memory_mb)
    bench_search(directory, names, searched, movetime)
    ok = verify_with_fsf(directory, names, verify, draws, max_plies, limit) and ok
    print("OK" if ok else "FAILED")
    sys.exit(0 if ok else 1)
