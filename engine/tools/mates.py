"""Mate finding: the puzzles of tests/data/mate-puzzles.jsonl, ours beside Fairy-Stockfish's in the same run.

    shuai bench mates [--movetime 1000] [--limit N] [--parallel] [--no-prove]

Both engines are driven over UCI as one persistent process each (`ucinewgame`, `position fen`, `go movetime`
per puzzle) by the match runner's UCI adapter (engine/match/engines.py, wrapped in engine/tools/uci.py).  For
each puzzle the last `info ... score mate N ... pv ...` line before `bestmove` counts:

- found:            N equals the puzzle's mate_in (the file's figure, which is not always the shortest mate);
- found (shortest): 0 < N <= mate_in and the PV, played with pyffish (Fairy-Stockfish's rules, an oracle
                    independent of our move generator), is legal and ends after exactly 2N-1 plies in a position
                    where the side to move has no legal move (checkmate or stalemate: both lose in xiangqi).

A reported mate whose PV does not verify is listed (a truncated PV is "unverified", a wrong one "BAD PV").
Mates shorter than the file's are then proved forced (unless --no-prove): every defence is enumerated with
pyffish, the attacking moves come from the PV or, off it, from the reference engine; a line that fails only
means "not proved".
"""
import json
import os
import sys
import threading
import time
from pathlib import Path

import click

from ..match.engines import EngineError
from . import DATA
from .uci import VARIANT, UciEngine, engine_options, start_engines

PUZZLES = DATA / "mate-puzzles.jsonl"


def verify_pv(fen: str, pv: list[str], n: int) -> str:
    """'ok' if pv is legal and mates after exactly 2n-1 plies; else 'truncated', or 'bad: why'."""
    import pyffish as sf
    plies = 2 * n - 1
    if n <= 0:
        return "bad: not a win for the side to move"
    for i, move in enumerate(pv[:plies]):
        legal = sf.legal_moves(VARIANT, fen, pv[:i])
        if move not in legal:
            return f"bad: ply {i + 1} {move} is illegal"
        if i < plies - 1 and not sf.legal_moves(VARIANT, fen, pv[:i + 1]):
            return f"bad: mate already after ply {i + 1}"
    if len(pv) < plies:
        return "truncated"
    if sf.legal_moves(VARIANT, fen, pv[:plies]):
        return "bad: no mate at the end of the PV"
    return "ok"


class Prover:
    """Proves 'mate in at most n' for the side to move: every defence from pyffish, attacking moves from the PV
    (while the line follows it) or from the reference engine; a budget caps the engine queries."""

    def __init__(self, engine: UciEngine, movetime: int = 200, budget: int = 400):
        self.engine, self.movetime, self.budget = engine, movetime, budget

    def prove(self, fen: str, n: int, pv: list[str]) -> str:
        self.queries = 0
        self.cache: dict = {}
        try:
            return "proved" if self._attack(fen, [], n, pv) else "not proved"
        except EngineError as e:
            return f"not proved ({e})"
        except _Budget:
            return "not proved (budget)"

    def _attack(self, fen, line, n, pv) -> bool:
        import pyffish as sf
        key = (sf.get_fen(VARIANT, fen, line), n)
        if key in self.cache:
            return self.cache[key]
        tried = []
        if pv and pv[:len(line)] == line and len(pv) > len(line):
            tried.append(pv[len(line)])           # the reported line first
        ok = bool(tried) and self._mates(fen, line + tried, n, pv)
        if not ok:                                # off the PV, or the PV move fails: ask the reference engine
            if self.queries >= self.budget:
                raise _Budget
            self.queries += 1
            best, *_ = self.engine.search(fen, line, self.movetime, newgame=False)
            ok = bool(best) and best not in tried and self._mates(fen, line + [best], n, pv)
        self.cache[key] = ok
        return ok

    def _mates(self, fen, line, n, pv) -> bool:
        """After the attacker's move (the last of line): does every defence lose within n-1 more moves?"""
        import pyffish as sf
        if line[-1] not in sf.legal_moves(VARIANT, fen, line[:-1]):
            return False
        replies = sf.legal_moves(VARIANT, fen, line)
        if not replies:
            return True
        if n <= 1:
            return False
        return all(self._attack(fen, line + [r], n - 1, pv) for r in replies)


class _Budget(Exception):
    pass


def load_puzzles(path: Path) -> list[dict]:
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def run_one(engine: UciEngine, fen: str, movetime: int) -> dict:
    try:
        best, scored, last, wall = engine.search(fen, movetime=movetime)
    except EngineError as e:
        return {"error": str(e), "wall": float("nan"), "mate": None, "pv": [], "nodes": 0}
    mate = scored.get("value") if scored.get("kind") == "mate" else None
    return {"best": best, "mate": mate, "cp": scored.get("value") if scored.get("kind") == "cp" else None,
            "pv": scored.get("pv", []), "wall": wall, "nodes": last.get("nodes", 0), "depth": scored.get("depth")}


@click.command()
@click.option("--puzzles", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=PUZZLES,
              show_default="tests/data/mate-puzzles.jsonl")
@click.option("--movetime", type=click.IntRange(1), default=1000, show_default=True, help="ms per puzzle.")
@click.option("--limit", type=click.IntRange(0), default=0, help="Only the first N puzzles (0: all).")
@engine_options
@click.option("--parallel", is_flag=True,
              help="Search each puzzle with both engines at once (one core each) instead of in turn.")
@click.option("--prove/--no-prove", default=True, help="Try to prove mates shorter than the file's.")
@click.option("--json", "json_out", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the per-puzzle results here.")
def mates(puzzles, movetime, limit, ours, reference, hash_mb, parallel, prove, json_out):
    """Mate finding: the puzzles of tests/data/mate-puzzles.jsonl, ours beside Fairy-Stockfish's in the same
    run, each mate's PV verified with pyffish (the module's docstring tells how they count)."""
    puzzles_file = puzzles

    puzzles = load_puzzles(puzzles_file)
    if limit:
        puzzles = puzzles[:limit]
    try:
        import pyffish  # noqa: F401
    except ImportError:
        sys.exit("pyffish is needed to verify the mates (pip install pyffish)")
    engines = start_engines(ours, reference, hash_mb)
    names = [e.name for e in engines]
    print(f"{len(puzzles)} puzzles from {puzzles_file.name}, go movetime {movetime}, Hash {hash_mb} MB, "
          f"{'both engines at once' if parallel else 'engines in turn'}; "
          + ", ".join(f"{e.name} = {e.id_name}" for e in engines)
          + f"; load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")

    results = []
    t0 = time.perf_counter()
    for k, pz in enumerate(puzzles):
        fen, want = pz["fen"], int(pz["mate_in"])
        if parallel and len(engines) > 1:
            out = [None] * len(engines)
            threads = [threading.Thread(target=lambda i=i, e=e: out.__setitem__(i, run_one(e, fen, movetime)))
                       for i, e in enumerate(engines)]
            for th in threads:
                th.start()
            for th in threads:
                th.join()
        else:
            out = [run_one(e, fen, movetime) for e in engines]
        row = {"index": k + 1, "fen": fen, "mate_in": want}
        for name, r in zip(names, out):
            n = r["mate"]
            r["verified"] = verify_pv(fen, r["pv"], n) if n is not None else None
            r["found"] = n == want
            r["shortest"] = n is not None and 0 < n <= want and r["verified"] == "ok"
            row[name] = r
        results.append(row)
        marks = "  ".join(
            f"{name} {('#' + str(row[name]['mate'])) if row[name]['mate'] is not None else ('cp ' + str(row[name].get('cp'))) if row[name].get('cp') is not None else row[name].get('error', '-'):>8} "
            f"{row[name]['wall']:5.2f}s{'' if row[name]['verified'] in (None, 'ok') else ' [' + row[name]['verified'] + ']'}"
            for name in names)
        print(f"  {k + 1:3}/{len(puzzles)}  mate_in {want}  {marks}", flush=True)
    elapsed = time.perf_counter() - t0

    # Mates shorter than the file's, proved forced with pyffish (+ the reference engine for attacking moves).
    proofs = {}
    if prove:
        prover_engine = engines[-1]
        prover = Prover(prover_engine)
        for row in results:
            for name in names:
                r = row[name]
                if r["shortest"] and r["mate"] < row["mate_in"]:
                    key = (row["index"], r["mate"])
                    if key not in proofs:
                        proofs[key] = prover.prove(row["fen"], r["mate"], r["pv"])
                    r["proof"] = proofs[key]

    n = len(results)
    print()
    print(f"{'':18}" + "".join(f"{name:>16}" for name in names))
    def line(label, values):
        print(f"{label:18}" + "".join(f"{v:>16}" for v in values))
    line("found (= file)", [f"{sum(r[x]['found'] for r in results)}/{n} {100 * sum(r[x]['found'] for r in results) / n:5.1f}%" for x in names])
    line("found (shortest)", [f"{sum(r[x]['shortest'] for r in results)}/{n} {100 * sum(r[x]['shortest'] for r in results) / n:5.1f}%" for x in names])
    line("any mate score", [str(sum(r[x]['mate'] is not None for r in results)) for x in names])
    line("PV unverified", [str(sum(r[x]['verified'] == 'truncated' for r in results)) for x in names])
    line("PV wrong", [str(sum(str(r[x]['verified']).startswith('bad') for r in results)) for x in names])
    line("errors/hangs", [str(sum('error' in r[x] for r in results)) for x in names])
    line("mean s/puzzle", [f"{sum(r[x]['wall'] for r in results if 'error' not in r[x]) / n:.3f}" for x in names])
    walls = {x: sorted(r[x]['wall'] for r in results if 'error' not in r[x]) for x in names}
    line("median s/puzzle", [f"{walls[x][len(walls[x]) // 2]:.3f}" if walls[x] else "-" for x in names])
    for depth in sorted({r["mate_in"] for r in results}):
        rows = [r for r in results if r["mate_in"] == depth]
        line(f"  mate_in {depth} ({len(rows)})", [f"{sum(r[x]['shortest'] for r in rows)}" for x in names])
    print(f"total wall time {elapsed:.0f} s; load average now {os.getloadavg()[0]:.2f} (1 min), "
          f"{os.getloadavg()[1]:.2f} (5 min)")

    print("\nDisagreements (with the file, between the engines, or a PV that does not verify):")
    any_listed = False
    for row in results:
        rs = [row[x] for x in names]
        odd = (any(not r["found"] for r in rs) or len({r["mate"] for r in rs}) > 1
               or any(r["verified"] not in (None, "ok") for r in rs))
        if not odd:
            continue
        any_listed = True
        parts = []
        for x in names:
            r = row[x]
            what = (f"#{r['mate']}" if r["mate"] is not None else f"cp {r['cp']}" if r.get("cp") is not None
                    else r.get("error", "no score"))
            extra = "" if r["verified"] in (None, "ok") else f" PV {r['verified']}"
            if "proof" in r:
                extra += f" ({r['proof']})"
            parts.append(f"{x} {what}{extra} pv {' '.join(r['pv'][:2 * (r['mate'] or 1) - 1]) or '-'}")
        print(f"  #{row['index']:3} mate_in {row['mate_in']}: " + "; ".join(parts) + f"   {row['fen']}")
    if not any_listed:
        print("  none")
    if proofs:
        shorter = sorted({k[0] for k, v in proofs.items() if v == "proved"})
        print(f"\nPuzzles whose file mate_in is not the shortest (a shorter mate proved forced): "
              f"{len(shorter)}: {', '.join('#' + str(i) for i in shorter) or '-'}")
    if json_out:
        json_out.write_text(json.dumps(results, indent=1))
    for e in engines:
        e.close()
    return 0
