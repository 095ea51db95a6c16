"""Mate finding within node budgets: the puzzles of tests/data/mate-puzzles.jsonl, searched by our engine in
this process with a fixed number of nodes each (deterministic, unlike `go movetime`, and unaffected by a loaded
machine), so that two builds can be compared exactly.

    shuai bench mates-nodes [--nodes 200000 --nodes 600000]

For each budget: how many puzzles end with a reported mate of at most the file's N moves ("found"), how many
with exactly N ("exact"; the file's N is not always the shortest mate), the CPU seconds, and the misses as
(N, reported mate or None).  The PVs are checked in tests/test_search.py and ``shuai bench mates``.
"""
import json
import time

import click

from ..searcher import Searcher, search_once
from ..xiangqi.position import Position
from . import DATA


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


@click.command("mates-nodes")
@click.option("--nodes", "budgets", type=click.IntRange(1), multiple=True, default=(200_000, 600_000),
              show_default=True, help="A node budget (repeat the option for each).")
def mates_nodes(budgets):
    """Mate finding within node budgets: the puzzles of tests/data/mate-puzzles.jsonl searched in this process
    with a fixed number of nodes each (deterministic, unaffected by a loaded machine)."""
    puzzles = [json.loads(line) for line in (DATA / "mate-puzzles.jsonl").read_text().splitlines()]
    for nodes in budgets:
        print(run(puzzles, nodes), flush=True)
