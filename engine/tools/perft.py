"""Move-generation speed: perft on the shared positions, ours beside a reference engine's in the same run
(Fairy-Stockfish for xiangqi, Stockfish for chess; the node counts must agree), and for xiangqi the engine's
start-up time with a cold and a warm numba cache.

Ours is timed around one ``perft_count`` call, after a warm-up call has loaded the numba kernels; the
reference's from `go perft N` to its `Nodes searched` line (one process per position, started and readied first).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

import click

from . import DATA, ROOT



class Plan(NamedTuple):
    """A game's perft benchmark: its positions, the reference engine and its options, and the (line, depth)
    runs (None: every line at --depth)."""
    epd: str
    reference: str
    options: dict
    runs: list | None = None
    quick: list | None = None


PLANS = {
    "xiangqi": Plan("xiangqi-perft.epd", "/usr/games/fairy-stockfish", {"UCI_Variant": "xiangqi"}),
    # the start position at 5, the well-known positions at 4 or 5 (chessprogramming's perft positions 2-6) and a
    # few positions from random games (castling, en passant, promotions)
    "chess": Plan("chess-perft.epd", "/usr/games/stockfish", {"Threads": "1"},
                  runs=[(0, 5), (1, 4), (1, 5), (2, 5), (3, 5), (5, 4), (6, 4), (60, 5), (100, 5), (130, 5)],
                  quick=[(0, 5), (1, 4), (3, 4), (5, 4), (100, 4)]),
}


def perft_cases(path: Path) -> list[tuple[str, dict[int, int]]]:
    """The positions of an EPD perft file (``FEN ;D1 44 ;D2 1920 ...``) as (fen, {depth: nodes})."""
    cases = []
    for line in Path(path).read_text().splitlines():
        if not line.strip():
            continue
        fen, *counts = line.split(";")
        cases.append((fen.strip(), {int(c.split()[0][1:]): int(c.split()[1]) for c in counts}))
    return cases


def time_perft(fen: str, depth: int) -> tuple[int, float]:
    """Our perft of ``fen`` (either game, told by its ranks): (nodes, wall seconds of one ``perft_count`` call,
    after a call at depth 2 has loaded the game's kernels from numba's cache)."""
    from ..game import position_of_fen
    from ..perft import perft_count
    pos = position_of_fen(fen)
    perft_count(pos, min(depth, 2))
    t = time.perf_counter()
    nodes = perft_count(pos, depth)
    return nodes, time.perf_counter() - t


def reference_perft(engine: str, fen: str, depth: int, options: dict[str, str]) -> tuple[int, float]:
    """A reference engine's perft over UCI, its options set first: (nodes, wall seconds from `go perft` to its
    `Nodes searched` line)."""
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    setup = "".join(f"setoption name {name} value {value}\n" for name, value in options.items())
    p.stdin.write(f"uci\n{setup}position fen {fen}\nisready\n")
    p.stdin.flush()
    for line in p.stdout:
        if line.strip() == "readyok":
            break
    t = time.perf_counter()
    p.stdin.write(f"go perft {depth}\n")
    p.stdin.flush()
    nodes = elapsed = None
    for line in p.stdout:
        if line.startswith("Nodes searched"):
            elapsed = time.perf_counter() - t
            nodes = int(line.split(":")[1])
            break
    p.stdin.write("quit\n")
    p.stdin.flush()
    p.wait(timeout=10)
    if nodes is None:
        raise RuntimeError(f"{engine} gave no 'Nodes searched' line for {fen}")
    return nodes, elapsed


def compare(runs, reference: str, options: dict, label: str) -> bool:
    """Print ours beside the reference for each (fen, depth, expected counts); True if every count agrees."""
    have_ref = shutil.which(reference) is not None
    if not have_ref:
        click.echo(f"(no {reference}: `apt-get install -y {Path(reference).name}` to compare)")
    click.echo(f"{label:18} depth        nodes   shuai Mnps   reference Mnps   ratio   match")
    total_nodes, total_time, total_ref = 0, 0.0, 0.0
    all_ok = True
    for name, fen, depth, counts in runs:
        n, t = time_perft(fen, depth)
        ok = n == counts.get(depth, n)
        total_nodes, total_time = total_nodes + n, total_time + t
        row = f"  {name:16} {depth:5}   {n:>10}   {n / t / 1e6:10.2f}"
        if have_ref:
            rn, rt = reference_perft(reference, fen, depth, options)
            ok &= rn == n
            total_ref += rt
            row += f"   {rn / rt / 1e6:14.2f}   {rt / t:5.2f}"
        all_ok &= ok
        click.echo(row + ("   ok" if ok else "   MISMATCH"))
    summary = f"  {'all':16}         {total_nodes:>10}   {total_nodes / total_time / 1e6:10.2f}"
    if have_ref:
        summary += f"   {total_nodes / total_ref / 1e6:14.2f}   {total_ref / total_time:5.2f}"
        summary += "\n(ratio: the reference's time over ours; below 1, the reference is faster)"
    click.echo(summary)
    return all_ok


def startup_times():
    """`shuai perft 1` with an empty numba cache (first compile) and again with it filled."""
    cache = tempfile.mkdtemp(prefix="shuai-cache-")
    env = dict(os.environ, SHUAI_CACHE_DIR=cache)
    times = []
    try:
        for _ in range(2):
            t = time.perf_counter()
            subprocess.run([sys.executable, "-m", "engine", "perft", "1"], env=env, check=True,
                           capture_output=True, cwd=ROOT)
            times.append(time.perf_counter() - t)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    return times


@click.command()
@click.option("--game", type=click.Choice(list(PLANS)), default="xiangqi", show_default=True)
@click.option("--depth", type=click.IntRange(1), default=5, show_default=True,
              help="The depth of every position, where the game's plan sets none (xiangqi).")
@click.option("--quick", is_flag=True, help="The plan's quick runs (chess: depth 4 or 5 on five positions).")
@click.option("--reference", default=None,
              help="The reference engine.  [default: /usr/games/fairy-stockfish; chess /usr/games/stockfish]")
@click.option("--startup", is_flag=True, help="Time `shuai perft 1` with numba's cache cold and warm too.")
def perft(game, depth, quick, reference, startup):
    """Move-generation speed: perft of the shared positions (tests/data/xiangqi-perft.epd, chess-perft.epd),
    ours beside the reference engine's, the counts checked.  Exits 1 on a mismatch."""
    plan = PLANS[game]
    cases = perft_cases(DATA / plan.epd)
    chosen = plan.quick if quick else plan.runs
    runs = [(f"epd line {line + 1}", cases[line][0], d, cases[line][1]) for line, d in chosen] if chosen else \
        [(f"position {i}", fen, depth, counts) for i, (fen, counts) in enumerate(cases)]
    ok = compare(runs, reference or plan.reference, plan.options, f"{game} perft")
    if startup:
        cold, warm = startup_times()
        click.echo(f"start-up (`shuai perft 1`): cold cache {cold:.1f} s, warm cache {warm:.2f} s")
    sys.exit(0 if ok else 1)
