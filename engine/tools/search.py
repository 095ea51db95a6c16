"""Search speed: nodes per second, ours beside Fairy-Stockfish's, on the 30 positions of `shuai bench`
(engine/xiangqi/bench.py FENS), the same fixed time per position, both over UCI, in the same run;
then our `shuai bench` signature (fixed depth: total nodes, which identifies the search, and nps).

    shuai bench search [--movetime 2000] [--limit N] [--no-signature]

Each engine's figure is its own final `info ... nodes N ... time T` before `bestmove`: nps = sum N / sum T over the
positions (positions where a search ends early, e.g. on a found mate, weigh by their time), and the geometric
mean of the per-position ratios.  Note that an engine's last `info` may come from its last completed iteration
(ours does so), so its figure can cover less than the whole movetime; the wall time is printed beside it.  The positions are
searched one engine after the other (ucinewgame before each), so a load from other programs hits both alike.
"""
import math
import os
import subprocess
import sys

import click

from . import ROOT
from .uci import engine_options, start_engines


def bench_fens() -> list[str]:
    from ..xiangqi.bench import FENS
    return list(FENS)


def signature(cmd: list[str]) -> str:
    """The first summary line of `shuai bench` (the default evaluation's: the network's, where the game has one):
    nodes N time_ms T nps X."""
    out = subprocess.run(cmd + ["bench"], capture_output=True, text=True, cwd=ROOT, timeout=900)
    lines = [line for line in out.stdout.splitlines() if line.startswith("nodes ")]
    return lines[0] if lines else f"(no result: exit {out.returncode}: {out.stderr.strip()[-200:]})"


@click.command()
@click.option("--movetime", type=click.IntRange(1), default=2000, show_default=True, help="ms per position.")
@click.option("--limit", type=click.IntRange(0), default=0, help="Only the first N positions (0: all).")
@engine_options
@click.option("--signature/--no-signature", "with_signature", default=True, help="Run `shuai bench` after.")
def search(movetime, limit, ours, reference, hash_mb, with_signature):
    """Search speed: nodes per second, ours beside Fairy-Stockfish's, on the 30 positions of `shuai bench` at
    the same fixed time per position, both over UCI; then our `shuai bench` signature."""

    fens = bench_fens()
    if limit:
        fens = fens[:limit]
    engines = start_engines(ours, reference, hash_mb)
    names = [e.name for e in engines]
    print(f"{len(fens)} positions, go movetime {movetime}, Hash {hash_mb} MB; "
          + ", ".join(f"{e.name} = {e.id_name}" for e in engines)
          + f"; load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    head = "".join(f"   {n + ' depth':>14} {n + ' knps':>14}" for n in names)
    print(f"  pos{head}" + ("    ratio" if len(names) > 1 else ""))
    tot = {n: [0, 0] for n in names}          # nodes, ms
    wall = {n: 0.0 for n in names}
    ratios = []
    for i, fen in enumerate(fens):
        row, knps = [], []
        for e in engines:
            _, scored, last, w = e.search(fen, movetime=movetime)
            nodes, ms = last.get("nodes", 0), last.get("time", 0)
            tot[e.name][0] += nodes
            tot[e.name][1] += ms
            wall[e.name] += w
            knps.append(nodes / ms if ms >= 10 else None)        # (a search over in < 10 ms: no rate)
            shown = f"{knps[-1]:14.1f}" if knps[-1] is not None else f"{'-':>14}"
            row.append(f"   {scored.get('depth', last.get('depth', 0)):>14} {shown}")
        ratio = ""
        if len(knps) > 1 and None not in knps[:2]:
            ratios.append(knps[0] / knps[1])
            ratio = f"   {ratios[-1]:6.2f}"
        print(f"  {i + 1:3}" + "".join(row) + ratio, flush=True)
    nps = {n: tot[n][0] / tot[n][1] * 1000 if tot[n][1] else 0.0 for n in names}
    print("total" + "".join(f"   {tot[n][0]:>14} {nps[n] / 1000:14.1f}" for n in names)
          + (f"   {nps[names[0]] / nps[names[1]]:6.2f}" if len(names) > 1 and nps[names[1]] else ""))
    for n in names:
        print(f"{n}: {tot[n][0]} nodes in {tot[n][1] / 1000:.1f} s engine time ({wall[n]:.1f} s wall): "
              f"{nps[n]:,.0f} nodes/s")
    print(f"load average now {os.getloadavg()[0]:.2f} (1 min), {os.getloadavg()[1]:.2f} (5 min)")
    if len(names) > 1 and nps[names[1]]:
        geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios)) if ratios else float("nan")
        print(f"ratio {names[0]} / {names[1]}: {nps[names[0]] / nps[names[1]]:.2f} (total nodes / total time); "
              f"geometric mean of the {len(ratios)} per-position ratios {geo:.2f}")
    for e in engines:
        e.close()
    if with_signature:
        print(f"shuai bench (fixed depth, signature): {signature(engines[0].cmd)}")
    return 0
