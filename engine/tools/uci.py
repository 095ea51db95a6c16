"""Engines over UCI for the tools that compare ours with a reference (Fairy-Stockfish, Stockfish): one
persistent process each, one search at a time, moves in pyffish's dialect (ranks 1-10).
"""
from __future__ import annotations

import re
import shutil
import sys
import time

import click

from ..match.engines import (RESIGN, Clocks, EngineError, EngineHung, EngineSpec, GameSetup, TimeControl,
                             start_engine, to_iccs)
from . import ROOT


VARIANT = "xiangqi"
_MOVE = re.compile(r"^([a-i])(\d+)([a-i])(\d+)$")


def default_ours() -> list[str]:
    exe = ROOT / ".venv" / "bin" / "shuai"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "engine"]


def shift_ranks(move: str, delta: int) -> str:
    """Renumber the ranks of a coordinate move (ranks 0-9 <-> 1-10)."""
    m = _MOVE.match(move)
    if not m:
        return move
    return f"{m[1]}{int(m[2]) + delta}{m[3]}{int(m[4]) + delta}"


def parse_info(line: str) -> dict:
    """The fields of a UCI `info` line that matter here; score 'bound' is set for lower/upper bounds."""
    tok = line.split()
    info = {}
    i = 1
    while i < len(tok):
        t = tok[i]
        if t in ("depth", "seldepth", "nodes", "nps", "time", "multipv", "hashfull"):
            if i + 1 < len(tok) and tok[i + 1].lstrip("-").isdigit():
                info[t] = int(tok[i + 1])
            i += 2
        elif t == "score" and i + 2 < len(tok):
            info["kind"], info["value"] = tok[i + 1], int(tok[i + 2])
            i += 3
            if i < len(tok) and tok[i] in ("lowerbound", "upperbound"):
                info["bound"] = tok[i]
                i += 1
        elif t == "pv":
            info["pv"] = tok[i + 1:]
            break
        elif t == "string":
            break
        else:
            i += 1
    return info


def engine_options(command):
    """The options of a tool that runs our engine beside a reference: --ours, --reference, --hash."""
    for option in reversed([
            click.option("--ours", default=None, help="Our engine's command.  [default: .venv/bin/shuai]"),
            click.option("--reference", default="/usr/games/fairy-stockfish", show_default=True),
            click.option("--hash", "hash_mb", type=click.IntRange(1), default=64, show_default=True,
                         help="Hash MB for both engines.")]):
        command = option(command)
    return command


def start_engines(ours, reference: str, hash_mb: int) -> list:
    """Our engine (``ours``: its command line, default .venv/bin/shuai) and, when installed, the reference."""
    engines = [UciEngine("shuai", ours.split() if ours else default_ours(), 0, {"Hash": hash_mb}, cwd=ROOT)]
    if shutil.which(reference):
        engines.append(UciEngine("fairy-sf", [reference], None, {"Hash": hash_mb}))
    else:
        print(f"(no {reference}: `apt-get install -y fairy-stockfish` to compare)")
    return engines


class UciEngine:
    """One persistent UCI engine process for a benchmark: one search at a time, moves in ranks 1-10 (pyffish's
    dialect, whatever the engine's own).

    The process, its reader thread, the handshake (``UCI_Variant xiangqi`` is set when the engine offers it),
    the options and the rank dialect are the match runner's (:class:`engine.match.engines.UciEngine`); the
    ``info`` lines of a search are collected through its ``line_hook``.  Failures raise the match runner's
    :class:`~engine.match.engines.EngineError` (EngineHung, EngineCrashed); a hung or dead engine is started
    afresh.  ``ranks_from``: the engine's first rank number, 0 or 1; None: 1 if it offers ``UCI_Variant``
    (Fairy-Stockfish), else 0 -- ours offers that option too but numbers ranks 0-9.
    """

    def __init__(self, name: str, cmd: list[str], ranks_from, options: dict, cwd=None,
                 handshake_timeout: float = 60.0):
        self.name, self.cmd = name, list(cmd)
        self.spec = EngineSpec(cmd=self.cmd, proto="uci", name=name, dir=str(cwd) if cwd else None,
                               ranks=ranks_from, options={k: str(v) for k, v in options.items()})
        self.handshake_timeout = handshake_timeout
        self.start()

    def start(self):
        self.engine = start_engine(self.spec, handshake_timeout=self.handshake_timeout)
        self.id_name = self.engine.id_name or self.name

    def search(self, fen: str, moves=(), movetime: int = 1000, grace: float = 10.0, newgame=True):
        """Search ``fen`` after ``moves`` for ``movetime`` ms; return (bestmove, last scored info, last info,
        wall seconds), moves in ranks 1-10.  EngineHung when no bestmove comes within movetime + grace."""
        eng = self.engine
        if eng.dead:
            self.restart()
            eng = self.engine
        # (+0.5 ms: the adapter sends int(seconds * 1000), which would turn e.g. 1001 ms into 1000)
        tc = TimeControl(movetime=(movetime + 0.5) / 1000)
        if newgame:
            eng.new_game(GameSetup(fen), tc)              # ucinewgame, isready
        else:
            eng.sync()
        lines: list[str] = []
        eng.line_hook = lines.append
        try:
            t0 = eng.go(fen, [shift_ranks(m, -1) for m in moves], Clocks(tc, tc.movetime, tc.movetime, True))
            limit = movetime / 1000 + grace
            got = eng.read_move(t0 + limit)
            if got is None:                          # a hang: give it a moment, else restart the process
                try:
                    eng.stop()
                    if eng.read_move(time.monotonic() + 5) is None:
                        self.restart()
                except EngineError:
                    self.restart()
                raise EngineHung(f"{self.name}: no bestmove in {limit:.0f} s")
        finally:
            eng.line_hook = None
        t, move = got
        scored, last = {}, {}
        for line in lines:
            if line.startswith("info "):
                info = parse_info(line)
                if "nodes" in info or "kind" in info:
                    last = info
                if "kind" in info and "bound" not in info and info.get("multipv", 1) == 1:
                    scored = info
        scored, last = dict(scored), dict(last)   # (often the same line: renumber each copy once)
        for info in (scored, last):
            if "pv" in info:
                info["pv"] = [self._to_ffish(x) for x in info["pv"]]
        best = None if move == RESIGN else shift_ranks(move, 1)    # (RESIGN: bestmove (none))
        return best, scored, last, t - t0

    def _to_ffish(self, move: str) -> str:
        iccs = to_iccs(move, self.engine.ranks_from)
        return move if iccs is None else shift_ranks(iccs, 1)

    def restart(self):
        self.engine.kill()
        self.start()

    def close(self):
        self.engine.quit()
