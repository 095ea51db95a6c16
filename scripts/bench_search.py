#!/usr/bin/env python3
"""Search speed: nodes per second, ours beside Fairy-Stockfish's, on the 30 positions of `shuai bench`
(engine/xiangqi/bench.py FENS), the same fixed time per position, both over UCI, in the same run;
then our `shuai bench` signature (fixed depth: total nodes, which identifies the search, and nps).

    .venv/bin/python scripts/bench_search.py [--movetime 2000] [--limit N] [--no-signature]

Each engine's figure is its own final `info ... nodes N ... time T` before `bestmove`: nps = sum N / sum T over the
positions (positions where a search ends early, e.g. on a found mate, weigh by their time), and the geometric
mean of the per-position ratios.  Note that an engine's last `info` may come from its last completed iteration
(ours does so), so its figure can cover less than the whole movetime; the wall time is printed beside it.  The positions are
searched one engine after the other (ucinewgame before each), so a load from other programs hits both alike.
"""
import argparse
import math
import os
import subprocess
import sys

from _common import ROOT, start_engines


def bench_fens() -> list[str]:
    from engine.xiangqi.bench import FENS
    return list(FENS)


def signature(cmd: list[str]) -> str:
    """The first summary line of `shuai bench` (the default evaluation's: the network's, where the game has one):
    nodes N time_ms T nps X."""
    out = subprocess.run(cmd + ["bench"], capture_output=True, text=True, cwd=ROOT, timeout=900)
    lines = [line for line in out.stdout.splitlines() if line.startswith("nodes ")]
    return lines[0] if lines else f"(no result: exit {out.returncode}: {out.stderr.strip()[-200:]})"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--movetime", type=int, default=2000, help="ms per position (default 2000)")
    ap.add_argument("--limit", type=int, default=0, help="only the first N positions (0: all)")
    ap.add_argument("--ours", default=None, help="our engine's command (default .venv/bin/shuai)")
    ap.add_argument("--reference", default="/usr/games/fairy-stockfish")
    ap.add_argument("--hash", type=int, default=64, help="Hash MB for both engines")
    ap.add_argument("--no-signature", dest="signature", action="store_false", help="skip `shuai bench`")
    args = ap.parse_args()

    fens = bench_fens()
    if args.limit:
        fens = fens[:args.limit]
    engines = start_engines(args.ours, args.reference, args.hash)
    names = [e.name for e in engines]
    print(f"{len(fens)} positions, go movetime {args.movetime}, Hash {args.hash} MB; "
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
            _, scored, last, w = e.search(fen, movetime=args.movetime)
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
    if args.signature:
        print(f"shuai bench (fixed depth, signature): {signature(engines[0].cmd)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
