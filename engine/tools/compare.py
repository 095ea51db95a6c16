"""Speed of the working tree against an earlier commit, measured in one run on this machine: ``shuai bench`` and
perft, for both games, the two trees alternated run by run (and which goes first, run by run) so that a busy
spell of the machine hits both alike.

    shuai bench compare BASE [--runs 3]

BASE is checked out into a git worktree under the temporary directory (kept, with its numba cache, for the next
comparison with the same commit); both trees are run with this interpreter (PYTHONPATH selects the tree) and
each keeps its own numba cache, warmed before anything is timed.  Prints, per measurement,
the node count of each tree (they must be equal: a refactor changes no search) and the median nodes/s of each,
with the change in per cent.
"""
from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import click

from . import ROOT

# The bench runs twice in one process and the second run is timed: before d46704c `shuai bench` charged the
# loading of the search's kernels from numba's cache (about 350 ms) to its first search, so a base older than
# that would look slower than it is.
BENCH_WARM = ("import sys; from engine.benchmark import run_bench; "
              "run_bench(game=sys.argv[1], out=lambda line: None); run_bench(game=sys.argv[1])")
# The same with the game's own network (the default evaluation of xiangqi since 2026-11-28).
BENCH_NETWORK = ("import sys; from engine.benchmark import run_bench; from engine.game import game_named; "
                 "from engine.nnue.network import load; g = game_named(sys.argv[1]); "
                 "n = load(g.default_network, g); "
                 "run_bench(game=g.name, out=lambda line: None, network=n); run_bench(game=g.name, network=n)")
MEASURES = {                     # name -> the interpreter's arguments
    "bench xiangqi network": ["-c", BENCH_NETWORK, "xiangqi"],
    "bench xiangqi": ["-c", BENCH_WARM, "xiangqi"],
    "bench chess": ["-c", BENCH_WARM, "chess"],
    "perft 5 xiangqi": ["-m", "engine", "perft", "5"],
    "perft 5 chess": ["-m", "engine", "perft", "5", "--game", "chess"],
}


def shuai(tree: Path, args: list[str]) -> str:
    """The output of this interpreter run with ``args`` in ``tree`` (its package and its own numba cache)."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    env.pop("SHUAI_CACHE_DIR", None)
    out = subprocess.run([sys.executable, *args], cwd=tree, env=env, capture_output=True, text=True, check=True)
    return out.stdout


def nodes_and_nps(text: str) -> tuple[int, int]:
    found = re.findall(r"nodes (\d+) time_ms \d+ nps (\d+)", text)
    if not found:
        raise RuntimeError(f"no 'nodes ... nps ...' line in:\n{text}")
    nodes, nps = found[0]
    return int(nodes), int(nps)


@click.command()
@click.argument("base")
@click.option("--runs", type=click.IntRange(1), default=3, show_default=True,
              help="Runs of each measurement per tree.")
@click.option("--measure", "only", type=click.Choice(list(MEASURES)), multiple=True,
              help="Only this measurement (repeatable).")
def compare(base, runs, only):
    """Speed of the working tree against the commit BASE in one run on this machine: `shuai bench` and perft of
    both games, the trees alternated; the node counts (equal for a refactor) and the median nodes/s of each."""
    base_ref = base
    commit = subprocess.run(["git", "rev-parse", base_ref], cwd=ROOT, capture_output=True, text=True,
                            check=True).stdout.strip()
    base = Path(tempfile.gettempdir()) / f"shuai-bench-{commit[:12]}"
    if not base.is_dir():
        subprocess.run(["git", "worktree", "add", "--detach", "-q", str(base), commit], cwd=ROOT, check=True)
    trees = {"base": base, "new": ROOT}
    for tree in trees.values():          # compile or load every kernel before the clock matters
        shuai(tree, ["-m", "engine", "warmup"])
    print(f"{'measure':21} {'nodes base':>12} {'nodes new':>12} {'nps base':>10} {'nps new':>10} {'change':>7}")
    for name, command in MEASURES.items():
        if only and name not in only:
            continue
        seen = {t: [] for t in trees}
        nodes = {}
        for run in range(runs):
            for label, tree in list(trees.items())[::1 if run % 2 == 0 else -1]:     # who goes first alternates
                n, nps = nodes_and_nps(shuai(tree, command))
                nodes[label] = n
                seen[label].append(nps)
        b, w = statistics.median(seen["base"]), statistics.median(seen["new"])
        print(f"{name:21} {nodes['base']:>12} {nodes['new']:>12} {b:>10.0f} {w:>10.0f} "
              f"{(w / b - 1) * 100:>+6.1f}%", flush=True)
