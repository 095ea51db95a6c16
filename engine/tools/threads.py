"""Lazy SMP: time to depth and nodes per second with 1, 2, ... threads, on the 30 positions of `shuai bench`
(each game's ``bench.FENS``), each searched to a fixed depth from an empty table, in the same run.

    shuai bench threads [--threads 1,2] [--depth 18] [--game xiangqi] [--hash 64] [--rounds 1]
    shuai bench threads --stop-latency [--threads 1,2,4,8,16]

For each thread count: the wall time until the search has completed the depth (the main thread's iteration;
helpers fill the table ahead of it), summed over the positions; the speed-up is the 1-thread time over that
time (the geometric mean of the per-position ratios beside it); nps is the nodes of all threads over the wall
time.  The thread counts alternate position by position (and ``--rounds`` repeats the set), so a load from
other programs hits them alike.  Lazy SMP is not deterministic: more rounds, steadier figures.  Run it on an
idle machine: a thread count above the cores measures the scheduler.

``--stop-latency``: for each thread count, 10 times: ``go infinite`` from the start position for 0.5 s, then
``stop``; the time from ``stop`` to the ``bestmove`` callback (median and worst, ms).
"""
import math
import os
import threading
import time

import click

from ..game import game_named
from ..searcher import Limits, Searcher

DEPTH = 18      # xiangqi: 0.7 s a position on one thread here, long enough for the helpers to matter


def time_to_depth(searcher: Searcher, position, depth: int) -> tuple[float, int, int]:
    """(seconds, nodes, depth reported) of one search of ``position`` to ``depth`` from an empty table."""
    searcher.new_game()
    result = []
    start = time.perf_counter()
    searcher.start(position, Limits(depth=depth), lambda info: None, result.append)
    searcher.wait()
    info = result[0].info
    return time.perf_counter() - start, info.nodes if info else 0, info.depth if info else 0


def measure_stop_latency(counts: list[int], game, hash_mb: int) -> None:
    print(f"stop latency, {game.name}, go infinite 0.5 s then stop, 10 times; load average "
          f"{os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(f"{'threads':>8} {'median ms':>10} {'worst ms':>9}")
    for n in counts:
        searcher = Searcher(hash_mb)
        searcher.set_threads(n)
        times = []
        for _ in range(10):
            done = threading.Event()
            searcher.start(game.Position(), Limits(infinite=True), lambda info: None, lambda r: done.set())
            time.sleep(0.5)
            start = time.perf_counter()
            searcher.stop()
            done.wait()
            times.append((time.perf_counter() - start) * 1000)
            searcher.wait()
        times.sort()
        print(f"{n:8} {times[len(times) // 2]:10.2f} {times[-1]:9.2f}", flush=True)


@click.command()
@click.option("--threads", "thread_counts", default="1,2", show_default=True,
              help="Thread counts, the first the baseline.")
@click.option("--depth", type=click.IntRange(1), default=DEPTH, show_default=True, help="Depth of every search.")
@click.option("--game", "game_name", type=click.Choice(["xiangqi", "chess"]), default="xiangqi", show_default=True)
@click.option("--hash", "hash_mb", type=click.IntRange(1), default=64, show_default=True, help="MB.")
@click.option("--limit", type=click.IntRange(0), default=0, help="Only the first N positions (0: all).")
@click.option("--rounds", type=click.IntRange(1), default=1, show_default=True, help="Times through the positions.")
@click.option("--stop-latency", is_flag=True, help="Measure stop latency instead.")
def threads(thread_counts, depth, game_name, hash_mb, limit, rounds, stop_latency):
    """Lazy SMP: time to depth and nodes per second with 1, 2, ... threads on the bench positions."""
    game = game_named(game_name)
    if stop_latency:
        measure_stop_latency([int(n) for n in thread_counts.split(",")], game, hash_mb)
        return
    bench = game.bench()
    fens = list(bench.FENS)[:limit or None]
    counts = [int(n) for n in thread_counts.split(",")]
    searchers = {}
    for n in counts:
        searchers[n] = Searcher(hash_mb)
        searchers[n].set_threads(n)
        time_to_depth(searchers[n], game.Position(fens[0]), 2)      # kernels loaded, work arrays made
    print(f"{game_name}: {len(fens)} positions x {rounds}, depth {depth}, Hash {hash_mb} MB, threads "
          f"{thread_counts}; load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    seconds = {n: 0.0 for n in counts}
    nodes = {n: 0 for n in counts}
    log_ratio = {n: 0.0 for n in counts}
    for _ in range(rounds):
        for i, fen in enumerate(fens):
            row = {n: time_to_depth(searchers[n], game.Position(fen), depth) for n in counts}
            for n, (s, k, d) in row.items():
                seconds[n] += s
                nodes[n] += k
                log_ratio[n] += math.log(row[counts[0]][0] / max(s, 1e-6))
            print(f"  {i + 1:2}  " + "  ".join(f"{n}t {s:6.2f}s {k:9} nodes d{d}" for n, (s, k, d) in row.items()),
                  flush=True)
    base = seconds[counts[0]]
    total = rounds * len(fens)
    print(f"{'threads':>8} {'time s':>9} {'speed-up':>9} {'geo mean':>9} {'knps':>8}")
    for n in counts:
        print(f"{n:8} {seconds[n]:9.1f} {base / seconds[n]:9.2f} {math.exp(log_ratio[n] / total):9.2f} "
              f"{nodes[n] / seconds[n] / 1000:8.0f}")
