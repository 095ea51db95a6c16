#!/usr/bin/env python3
"""Move-generation speed: perft on the shared positions, ours beside Fairy-Stockfish's in the same run,
and the engine's start-up time with a cold and a warm numba cache.

    .venv/bin/python scripts/bench_perft.py [--depth 5] [--reference /usr/games/fairy-stockfish]
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

from _common import ROOT, perft_cases, reference_perft, time_perft


def reference(engine, fen, depth):
    """Fairy-Stockfish over UCI: wall time from `go perft` to its `Nodes searched` line."""
    return reference_perft(engine, fen, depth, {"UCI_Variant": "xiangqi"})


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


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--depth", type=int, default=5)
    ap.add_argument("--reference", default="/usr/games/fairy-stockfish")
    args = ap.parse_args()
    have_ref = shutil.which(args.reference) is not None
    if not have_ref:
        print(f"(no {args.reference}: `apt-get install -y fairy-stockfish` to compare)")
    print(f"perft {args.depth}            nodes   shuai Mnps   fairy-sf Mnps   ratio   match")
    tot = {"n": 0, "t": 0.0, "rt": 0.0}
    all_ok = True
    for i, (fen, counts) in enumerate(perft_cases()):
        n, t = time_perft(fen, args.depth)
        ok = n == counts.get(args.depth, n)
        all_ok &= ok
        tot["n"] += n
        tot["t"] += t
        line = f"  position {i}  {n:>12}   {n / t / 1e6:10.2f}"
        if have_ref:
            rn, rt = reference(args.reference, fen, args.depth)
            ok &= rn == n
            tot["rt"] += rt
            line += f"   {rn / rt / 1e6:13.2f}   {rt / t:5.2f}"
        print(line + ("   ok" if ok else "   MISMATCH"))
    summary = f"  all          {tot['n']:>12}   {tot['n'] / tot['t'] / 1e6:10.2f}"
    if have_ref:
        summary += f"   {tot['n'] / tot['rt'] / 1e6:13.2f}   {tot['rt'] / tot['t']:5.2f}"
    print(summary)
    cold, warm = startup_times()
    print(f"start-up (`shuai perft 1`): cold cache {cold:.1f} s, warm cache {warm:.2f} s")
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
