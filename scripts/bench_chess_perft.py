#!/usr/bin/env python3
"""Chess move-generation speed: perft on positions of tests/data/chess-perft.epd, ours beside Stockfish's in the
same run (the same node counts are required: both count leaves in bulk at depth 1).

    .venv/bin/python scripts/bench_chess_perft.py [--reference /usr/games/stockfish] [--quick]

Ours is timed around one ``perft_count`` call, after a warm-up call has loaded the numba kernels
(``_common.time_perft``); Stockfish's from `go perft N` to its `Nodes searched` line (one process per position,
started and readied first).
"""
import argparse
import shutil
import sys

from _common import DATA, perft_cases, reference_perft, time_perft

CHESS_EPD = DATA / "chess-perft.epd"

# (line of the EPD file, depth): the start position at 5, the well-known positions at 4 or 5 (chessprogramming's
# perft positions 2-6) and a few positions from random games (castling, en passant, promotions).
RUNS = [(0, 5), (1, 4), (1, 5), (2, 5), (3, 5), (5, 4), (6, 4), (60, 5), (100, 5), (130, 5)]
QUICK = [(0, 5), (1, 4), (3, 4), (5, 4), (100, 4)]


def reference(engine, fen, depth):
    """Stockfish over UCI: wall time from `go perft` to its `Nodes searched` line."""
    return reference_perft(engine, fen, depth, {"Threads": "1"})


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reference", default="/usr/games/stockfish")
    ap.add_argument("--quick", action="store_true", help="depth 4 or 5 on five positions only")
    args = ap.parse_args()
    cases = perft_cases(CHESS_EPD)
    have_ref = shutil.which(args.reference) is not None
    if not have_ref:
        print(f"(no {args.reference}: `apt-get install -y stockfish` to compare)")
    print("chess perft        depth        nodes   shuai Mnps   stockfish Mnps   ratio   match")
    tot = {"n": 0, "t": 0.0, "rt": 0.0}
    all_ok = True
    for line, depth in (QUICK if args.quick else RUNS):
        fen, counts = cases[line]
        n, t = time_perft(fen, depth)
        ok = n == counts.get(depth, n)
        tot["n"] += n
        tot["t"] += t
        row = f"  epd line {line + 1:>3}   {depth:5}   {n:>10}   {n / t / 1e6:10.2f}"
        if have_ref:
            rn, rt = reference(args.reference, fen, depth)
            ok &= rn == n
            tot["rt"] += rt
            row += f"   {rn / rt / 1e6:14.2f}   {rt / t:5.2f}"
        all_ok &= ok
        print(row + ("   ok" if ok else "   MISMATCH"))
    summary = f"  all                    {tot['n']:>10}   {tot['n'] / tot['t'] / 1e6:10.2f}"
    if have_ref:
        summary += f"   {tot['n'] / tot['rt'] / 1e6:14.2f}   {tot['rt'] / tot['t']:5.2f}"
    print(summary)
    print("(ratio: Stockfish's time over ours; below 1, Stockfish is faster)" if have_ref else "")
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
