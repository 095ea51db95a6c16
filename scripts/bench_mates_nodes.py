#!/usr/bin/env python3
"""Mate finding within node budgets: the puzzles of tests/data/mate-puzzles.jsonl, searched by our engine in
this process with a fixed number of nodes each (deterministic, unlike `go movetime`, and unaffected by a loaded
machine), so that two builds can be compared exactly.

    .venv/bin/python scripts/bench_mates_nodes.py [--nodes 200000 600000]

For each budget: how many puzzles end with a reported mate of at most the file's N moves ("found"), how many
with exactly N ("exact"; the file's N is not always the shortest mate), the CPU seconds, and the misses as
(N, reported mate or None).  The PVs are checked in tests/test_search.py and scripts/bench_mates.py.
"""
import argparse
import json
import time

from _common import DATA
from engine.searcher import Searcher, search_once
from engine.xiangqi.position import Position


def run(puzzles: list[dict], nodes: int) -> str:
    searcher = Searcher(64)
    found = exact = 0
    misses = []
    start = time.process_time()
    for p in puzzles:
        searcher.new_game()
        mate = search_once(Position(p["fen"]), nodes=nodes, searcher=searcher).info.mate
        if mate is not None and 0 < mate <= p["mate_in"]:
            found += 1
            exact += mate == p["mate_in"]
        else:
            misses.append((p["mate_in"], mate))
    n = len(puzzles)
    return (f"nodes {nodes:>9,}: found {found}/{n} ({100 * found / n:.1f}%), exact {exact} ({100 * exact / n:.1f}%), "
            f"cpu {time.process_time() - start:.0f} s, misses {misses}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nodes", type=int, nargs="+", default=[200_000, 600_000])
    args = ap.parse_args()
    puzzles = [json.loads(line) for line in (DATA / "mate-puzzles.jsonl").read_text().splitlines()]
    for nodes in args.nodes:
        print(run(puzzles, nodes), flush=True)


if __name__ == "__main__":
    main()
