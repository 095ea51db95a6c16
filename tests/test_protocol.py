"""The protocol loop, driven as a GUI drives it: the real engine in a subprocess, talking through pipes.

Every read has a timeout, so a hung engine fails its test instead of hanging the suite.  Assertions are about
the protocol (formats, legality, timing, ordering), never about which move a particular search prefers.
"""
import os
import queue
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from engine.game import XIANGQI
from engine.protocol import ucci, uci
from engine.protocol.core import (MAX_DEPTH, MAX_MOVESTOGO, MAX_NODES, MAX_SECONDS, CommandError,
                                  _Search)
from engine.searcher import SearchInfo, SearchResult
from engine.xiangqi.position import START_FEN, Position

ROOT = Path(__file__).resolve().parent.parent

LOAD_TIMEOUT = 240.0     # isready after a cold JIT cache may take a while; a warm start takes about a second
TABLES_NOTE = "info string endgame tables: "              # what opened, said when the tables are (re)opened
EVAL_NOTE = "info string evaluation: "                    # which evaluation, said when it is (re)chosen
NOTES = (TABLES_NOTE, EVAL_NOTE)
REPLY_TIMEOUT = 10.0
SEARCH_TIMEOUT = 60.0
HANDSHAKE_LIMIT = 2.0    # a GUI gives 10 s (UCCI league) to 35 s; we answer from plain Python
STOP_LIMIT = 0.5         # bestmove after stop (the search itself promises ~0.1 s)

MOVE = r"[a-i][0-9][a-i][0-9]"
MATED_FEN = "R3k4/R8/9/9/9/9/9/9/9/3K5 b - - 0 1"          # black to move, checkmated
TWO_MOVES_FEN = "4k4/R8/9/4p4/9/9/9/9/9/3K5 b - - 0 1"     # black to move: exactly e6e5 and e9f9
LOPSIDED_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/9/9/4K4 w - - 0 1"   # red: a bare general vs everything

UCCI_OPTIONS = ["usemillisec", "batch", "ponder", "usebook", "bookfiles", "useegtb", "egtbpaths", "egtbcache",
                "egtbply", "hashsize", "threads", "pruning", "knowledge", "randomness", "newgame", "searchparams",
                "usennue", "evalfile"]
UCCI_DO_NOTHING = ["debug", "idle", "style", "promotion"]   # not offered
UCI_OPTIONS = ["Hash", "Threads", "Ponder", "MultiPV", "UCI_ShowWDL", "Move Overhead", "UCI_Variant", "EGTBPath",
               "EGTBCache", "EGTBProbeDepth", "Skill Level", "UCI_LimitStrength", "UCI_Elo", "OwnBook", "BookFile",
               "Best Book Move", "SearchParams", "Use NNUE", "EvalFile"]


class EngineProcess:
    """The engine as a GUI sees it: lines in, timestamped lines out."""

    def __init__(self, command=(sys.executable, "-m", "engine"), cwd=ROOT, env=None):
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(list(command), cwd=cwd, env=env, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.out: queue.Queue = queue.Queue()
        self.stderr: list[bytes] = []
        self.transcript: list[str] = []
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=lambda: self.stderr.extend(self.proc.stderr), daemon=True).start()

    def _read_stdout(self):
        for raw in self.proc.stdout:
            self.out.put((time.perf_counter(), raw.decode("utf-8", "replace").rstrip("\r\n")))
        self.out.put((time.perf_counter(), None))          # EOF

    def send(self, line) -> float:
        data = line if isinstance(line, bytes) else line.encode()
        self.transcript.append(f"> {data!r}")
        self.proc.stdin.write(data + b"\n")
        self.proc.stdin.flush()
        return time.perf_counter()

    def read(self, timeout: float):
        """(arrival time, line); line None at EOF.  Fails the test after ``timeout`` seconds."""
        try:
            t, line = self.out.get(timeout=timeout)
        except queue.Empty:
            pytest.fail(f"engine silent for {timeout} s; transcript:\n" + "\n".join(self.transcript[-40:])
                        + "\nstderr:\n" + b"".join(self.stderr).decode(errors="replace")[-3000:])
        self.transcript.append(f"< {line}")
        return t, line

    def read_until(self, pred, timeout: float = REPLY_TIMEOUT):
        """Lines up to and including the first one that satisfies ``pred``; (its arrival time, lines)."""
        deadline = time.perf_counter() + timeout
        lines = []
        while True:
            t, line = self.read(max(deadline - time.perf_counter(), 0.001))
            if line is None:
                pytest.fail("engine exited; transcript:\n" + "\n".join(self.transcript[-40:]))
            lines.append(line)
            if pred(line):
                return t, lines

    def silent_for(self, seconds: float) -> list[str]:
        """Whatever the engine prints during ``seconds``."""
        deadline = time.perf_counter() + seconds
        lines = []
        while (left := deadline - time.perf_counter()) > 0:
            try:
                _, line = self.out.get(timeout=left)
            except queue.Empty:
                break
            self.transcript.append(f"< {line}")
            if line is not None:
                lines.append(line)
        return lines

    def rest(self, timeout: float = REPLY_TIMEOUT) -> list[str]:
        """Every line until the engine closes its output."""
        deadline = time.perf_counter() + timeout
        lines = []
        while True:
            _, line = self.read(max(deadline - time.perf_counter(), 0.001))
            if line is None:
                return lines
            lines.append(line)

    def handshake(self, dialect: str) -> list[str]:
        self.send(dialect)
        _, lines = self.read_until(lambda ln: ln == f"{dialect}ok", HANDSHAKE_LIMIT + REPLY_TIMEOUT)
        return lines

    def ready(self):
        self.send("isready")
        self.read_until(lambda ln: ln == "readyok", LOAD_TIMEOUT)

    def bestmove(self, timeout: float = SEARCH_TIMEOUT):
        return self.read_until(lambda ln: ln.startswith(("bestmove", "nobestmove")), timeout)

    def close(self):
        if self.proc.poll() is None:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture
def engine():
    e = EngineProcess()
    yield e
    e.close()


def started(engine, dialect):
    """The engine after the handshake, ready, playing xiangqi (UCI's startpos means chess until UCI_Variant
    names xiangqi)."""
    engine.handshake(dialect)
    if dialect == "uci":
        engine.send("setoption name UCI_Variant value xiangqi")
    engine.ready()
    return engine


def after(fen, *moves):
    pos = Position(fen)
    for m in moves:
        pos.push(m)
    return pos


def parse_bestmove(line):
    m = re.fullmatch(rf"bestmove ({MOVE})(?: ponder ({MOVE}))?(?: (draw|resign))?", line)
    assert m, f"malformed bestmove line {line!r}"
    return m.group(1), m.group(2), m.group(3)


def assert_legal_reply(line, pos):
    best, ponder, _ = parse_bestmove(line)
    assert best in pos.legal_move_names(), f"{best} is not legal in {pos.fen()}"
    if ponder is not None:
        nxt = pos.copy()
        nxt.push(best)
        assert ponder in nxt.legal_move_names(), f"ponder move {ponder} is not legal after {best}"
    return best


# -- transcripts --------------------------------------------------------------------------------------------------

def test_ucci_transcript(engine):
    lines = engine.handshake("ucci")
    elapsed = time.perf_counter() - engine.started
    assert elapsed < HANDSHAKE_LIMIT, f"ucciok took {elapsed:.2f} s from process start"
    assert lines[0] == "id name Shuai"
    assert any(ln.startswith("id author ") for ln in lines)
    options = {}
    for ln in lines:
        if ln.startswith("option "):
            m = re.match(r"option (\w+) type (check|spin|combo|string|button)\b", ln)
            assert m, f"malformed option line {ln!r}"
            options[m.group(1)] = m.group(2)
    assert list(options) == UCCI_OPTIONS            # every option offered does something, and only those
    assert options["usemillisec"] == "check" and options["hashsize"] == "spin" and options["newgame"] == "button"
    for line in ("setoption usemillisec true", "setoption hashsize 16", "setoption newgame"):
        engine.send(line)
    for name in UCCI_DO_NOTHING:                    # what the spec and other engines have: accepted, silently
        engine.send(f"setoption {name} large")
    engine.send("isready")
    _, lines = engine.read_until(lambda ln: ln == "readyok", LOAD_TIMEOUT)
    assert lines[-1] == "readyok" and [ln for ln in lines[:-1] if not ln.startswith(NOTES)] == [], lines
    assert f"{EVAL_NOTE}network {XIANGQI.default_network} (128 hidden, 3 king buckets)" in lines
    engine.send("position startpos moves h2e2 h9g7")
    engine.send("go depth 3")
    _, lines = engine.bestmove()
    infos = lines[:-1]
    assert infos, "no info lines before bestmove"
    for ln in infos:
        assert re.fullmatch(rf"info depth \d+ score -?\d+(?: pv {MOVE}(?: {MOVE})*)?", ln) or \
            re.fullmatch(r"info time \d+ nodes \d+", ln), f"malformed UCCI info line {ln!r}"
    assert any(ln.startswith("info depth") for ln in infos)
    assert_legal_reply(lines[-1], after(START_FEN, "h2e2", "h9g7"))
    engine.send("quit")
    _, lines = engine.read_until(lambda ln: ln == "bye")
    assert engine.proc.wait(5) == 0


def test_uci_transcript(engine):
    lines = engine.handshake("uci")
    elapsed = time.perf_counter() - engine.started
    assert elapsed < HANDSHAKE_LIMIT, f"uciok took {elapsed:.2f} s from process start"
    assert lines[0].startswith("id name Shuai")
    names = [re.match(r"option name (.+?) type ", ln).group(1) for ln in lines if ln.startswith("option ")]
    assert set(UCI_OPTIONS) <= set(names)
    assert "option name UCI_Variant type combo default chess var chess var xiangqi" in lines
    for line in ("setoption name UCI_Variant value xiangqi", "setoption name Hash value 16",
                 "setoption name Threads value 4", "setoption name MultiPV value 3",
                 "setoption name Threads value 1", "setoption name MultiPV value 1",
                 "setoption name Ponder value true"):
        engine.send(line)
    engine.send("isready")
    _, lines = engine.read_until(lambda ln: ln == "readyok", LOAD_TIMEOUT)
    # Every option taken as it is: no line but the notes of the tables and the evaluation.
    assert not [ln for ln in lines if ln.startswith("info string") and not ln.startswith(NOTES)]
    engine.send("ucinewgame")
    fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
    engine.send(f"position fen {fen} moves b0c2 b9c7")
    engine.send("go depth 3")
    _, lines = engine.bestmove()
    infos = [ln for ln in lines[:-1] if not ln.startswith("info string")]
    assert infos
    for ln in infos:
        assert re.fullmatch(rf"info depth \d+ seldepth \d+ multipv 1 score (?:cp -?\d+|mate -?\d+) nodes \d+ "
                            rf"nps \d+ hashfull \d+ tbhits \d+ time \d+(?: pv {MOVE}(?: {MOVE})*)?", ln), \
            f"malformed UCI info line {ln!r}"
    pos = after(fen, "b0c2", "b9c7")
    assert_legal_reply(lines[-1], pos)
    # Timed searches end by themselves, well inside the time given.
    engine.send("go movetime 300")
    t0 = time.perf_counter()
    t, lines = engine.bestmove()
    assert t - t0 < 2.0
    assert_legal_reply(lines[-1], pos)
    t0 = engine.send("go wtime 2000 btime 2000 winc 0 binc 0")
    t, lines = engine.bestmove()
    assert t - t0 < 2.0, "used the whole clock (or more) on one move"
    assert_legal_reply(lines[-1], pos)
    engine.send("quit")
    assert "bye" not in engine.rest()
    assert engine.proc.wait(5) == 0


def test_commands_sent_before_loading_are_kept_in_order(engine):
    engine.send(b"ucci\nposition startpos moves h2e2\nbanmoves h9g7\ngo depth 2\nisready")
    seen = []
    deadline = time.perf_counter() + LOAD_TIMEOUT
    while not ({"readyok"} <= set(seen) and any(ln.startswith("bestmove") for ln in seen)):
        _, line = engine.read(max(deadline - time.perf_counter(), 0.001))
        assert line is not None
        seen.append(line)
    assert seen.index("ucciok") < seen.index("readyok")
    best = assert_legal_reply(next(ln for ln in seen if ln.startswith("bestmove")), after(START_FEN, "h2e2"))
    assert best != "h9g7"


# -- stop, ponder, go while searching, quit, EOF -------------------------------------------------------------------

@pytest.mark.parametrize("dialect", ["ucci", "uci"])
def test_stop_during_go_infinite_answers_at_once(engine, dialect):
    started(engine, dialect)
    engine.send("position startpos moves h2e2")
    engine.send("go infinite")
    early = engine.silent_for(0.7)
    assert not [ln for ln in early if ln.startswith("bestmove")], "bestmove before stop under go infinite"
    t0 = engine.send("stop")
    t, lines = engine.bestmove(REPLY_TIMEOUT)
    assert t - t0 < STOP_LIMIT, f"bestmove {t - t0:.3f} s after stop"
    assert_legal_reply(lines[-1], after(START_FEN, "h2e2"))
    engine.ready()                     # still alive and answering


@pytest.mark.parametrize("dialect", ["ucci", "uci"])
def test_position_during_a_search_answers_it_first(engine, dialect):
    """The one rule for commands that change what is searched: the running search is stopped and its bestmove
    (for the old position) printed before the new position is set; a bad position leaves the search running."""
    started(engine, dialect)
    engine.send("position startpos moves h2e2")
    engine.send("go infinite")
    engine.send("position fen nonsense")
    _, lines = engine.read_until(lambda ln: ln.startswith("info string error:"))
    assert not [ln for ln in lines if ln.startswith("bestmove")]
    engine.send("position startpos")
    engine.send("isready")
    _, lines = engine.read_until(lambda ln: ln == "readyok")
    moves = [ln for ln in lines if ln.startswith("bestmove")]
    assert len(moves) == 1, lines
    assert_legal_reply(moves[0], after(START_FEN, "h2e2"))
    engine.send("go depth 2")
    _, lines = engine.bestmove()
    assert_legal_reply(lines[-1], Position())


@pytest.mark.parametrize("dialect", ["ucci", "uci"])
def test_go_ponder_waits_for_ponderhit_or_stop(engine, dialect):
    started(engine, dialect)
    pos = after(START_FEN, "h2e2", "h9g7")
    engine.send("position startpos moves h2e2 h9g7")
    # A depth-limited ponder search finishes quickly, but its bestmove waits for ponderhit.
    engine.send("go ponder depth 2")
    assert not [ln for ln in engine.silent_for(1.0) if ln.startswith("bestmove")], "bestmove while pondering"
    engine.send("ponderhit")
    _, lines = engine.bestmove(SEARCH_TIMEOUT)
    assert_legal_reply(lines[-1], pos)
    # A timed ponder search: nothing until stop, then at once.
    engine.send("go ponder time 30 increment 0" if dialect == "ucci" else "go ponder wtime 30000 btime 30000")
    assert not [ln for ln in engine.silent_for(1.0) if ln.startswith("bestmove")], "bestmove while pondering"
    t0 = engine.send("stop")
    t, lines = engine.bestmove(REPLY_TIMEOUT)
    assert t - t0 < STOP_LIMIT
    assert_legal_reply(lines[-1], pos)


@pytest.mark.parametrize("dialect", ["ucci", "uci"])
def test_ponderhit_counts_the_time_spent_pondering(engine, dialect):
    """After 2 s of pondering on a 5 s + 0.1 s clock, ``ponderhit`` is answered at once: the move's budget (about
    0.4 s, at most 1.5 s) has been used since ``go``.  It used to start a fresh budget: 1.5 s more."""
    started(engine, dialect)
    engine.send("position startpos moves h2e2 h9g7")
    engine.send("go ponder time 5 increment 0.1" if dialect == "ucci" else
                "go ponder wtime 5000 btime 5000 winc 100 binc 100")
    assert not [ln for ln in engine.silent_for(2.0) if ln.startswith("bestmove")], "bestmove while pondering"
    t0 = engine.send("ponderhit")
    t, lines = engine.bestmove(REPLY_TIMEOUT)
    assert t - t0 < STOP_LIMIT, f"bestmove {t - t0:.2f} s after ponderhit"
    assert_legal_reply(lines[-1], after(START_FEN, "h2e2", "h9g7"))


def test_a_large_table_and_a_new_game_cost_the_next_go_nothing(engine):
    """``Hash 2048`` then ``ucinewgame`` then ``go movetime 500``: the bestmove within the move's time (it took
    4-6 s when the new game overwrote the whole table before the search).  1.0 s allows for a loaded machine;
    0.45 s is typical."""
    started(engine, "uci")
    for setup in ("setoption name Hash value 2048", "ucinewgame"):
        engine.send(setup)
        engine.send("position startpos")
        t0 = engine.send("go movetime 500")
        t, lines = engine.bestmove(REPLY_TIMEOUT)
        assert t - t0 < 1.0, f"bestmove {t - t0:.2f} s after go movetime 500 ({setup})"
        assert_legal_reply(lines[-1], Position())
    engine.send("setoption name Hash value 16")         # give the memory back


def test_move_overhead_shortens_every_budget(engine):
    """``Move Overhead`` 700 ms: ``go movetime 1000`` is answered after about 0.3 s (0.95 s by default)."""
    started(engine, "uci")
    engine.send("setoption name Move Overhead value 700")
    engine.send("position startpos")
    t0 = engine.send("go movetime 1000")
    t, lines = engine.bestmove(REPLY_TIMEOUT)
    assert t - t0 < 0.65, f"bestmove {t - t0:.2f} s after go movetime 1000"
    assert_legal_reply(lines[-1], Position())


@pytest.mark.parametrize("dialect", ["ucci", "uci"])
def test_threads_search_in_the_engine_process(engine, dialect):
    """Threads 2 through the protocol: the search runs, its move is legal, a stop is answered at once (the
    threads' figures are tests/test_threads.py's)."""
    started(engine, dialect)
    engine.send("setoption name Threads value 2" if dialect == "uci" else "setoption threads 2")
    engine.ready()
    engine.send("position startpos moves h2e2")
    engine.send("go infinite")
    early = engine.silent_for(1.5)
    t1 = engine.send("stop")
    t, lines = engine.bestmove(REPLY_TIMEOUT)
    assert t - t1 < STOP_LIMIT, f"bestmove {t - t1:.3f} s after stop"
    assert_legal_reply(lines[-1], after(START_FEN, "h2e2"))
    assert any(re.search(r"^info .*depth \d+ .*pv ", ln) for ln in early + lines)


@pytest.mark.parametrize("dialect", ["ucci", "uci"])
def test_a_long_search_says_something_every_second(engine, dialect):
    """Between long iterations the engine reports its progress (nodes, time, the root move being searched; UCI
    also nps, hashfull and the move's number): never a silence much over a second in 5 s of ``go infinite``."""
    started(engine, dialect)
    engine.send("position startpos")
    times = [engine.send("go infinite")]
    lines = []
    while times[-1] - times[0] < 5.0:
        t, line = engine.read(REPLY_TIMEOUT)
        assert line is not None, "engine exited"
        times.append(t)
        lines.append(line)
    engine.send("stop")
    engine.bestmove(REPLY_TIMEOUT)
    assert max(b - a for a, b in zip(times, times[1:])) < 1.5
    beat = (r"info nodes \d+ nps \d+ hashfull \d+ time \d+ currmove [a-i]\d[a-i]\d currmovenumber \d+"
            if dialect == "uci" else r"info time \d+ nodes \d+ currmove [a-i]\d[a-i]\d")
    assert any(re.fullmatch(beat, line) for line in lines), lines


@pytest.mark.parametrize("dialect", ["ucci", "uci"])
def test_go_while_searching_ends_the_old_search_first(engine, dialect):
    started(engine, dialect)
    engine.send("position startpos")
    engine.send("go infinite")
    engine.silent_for(0.3)
    engine.send("go depth 1")
    _, first = engine.bestmove(REPLY_TIMEOUT)
    _, second = engine.bestmove(SEARCH_TIMEOUT)
    pos = Position(START_FEN)
    assert_legal_reply(first[-1], pos)
    assert_legal_reply(second[-1], pos)
    assert not [ln for ln in engine.silent_for(0.3) if "bestmove" in ln]


@pytest.mark.parametrize("dialect", ["ucci", "uci"])
def test_quit_during_search_and_eof(dialect):
    e = EngineProcess()
    try:
        started(e, dialect)
        e.send("position startpos")
        e.send("go infinite")
        e.silent_for(0.3)
        e.send("quit")
        rest = e.rest()
        assert e.proc.wait(5) == 0
        assert any(ln.startswith("bestmove") for ln in rest)
        assert ("bye" in rest) == (dialect == "ucci")
    finally:
        e.close()
    e = EngineProcess()
    try:
        started(e, dialect)
        e.send("go infinite")
        e.silent_for(0.3)
        e.proc.stdin.close()                      # the GUI went away
        assert e.proc.wait(5) == 0
    finally:
        e.close()


# -- banned moves, no legal move, draw offers --------------------------------------------------------------------

def test_banmoves_are_respected(engine):
    started(engine, "ucci")
    legal = Position(TWO_MOVES_FEN).legal_move_names()
    assert sorted(legal) == ["e6e5", "e9f9"]
    for banned, expected in (("e6e5", "e9f9"), ("e9f9", "e6e5")):
        engine.send(f"position fen {TWO_MOVES_FEN}")
        engine.send(f"banmoves {banned}")
        engine.send("go depth 3")
        _, lines = engine.bestmove()
        assert parse_bestmove(lines[-1])[0] == expected
    # banmoves last until the next position command, over several searches
    engine.send(f"position fen {TWO_MOVES_FEN}")
    engine.send("banmoves e9f9")
    for _ in range(2):
        engine.send("go depth 2")
        _, lines = engine.bestmove()
        assert parse_bestmove(lines[-1])[0] == "e6e5"


def test_uci_multipv_reports_the_best_lines(engine):
    """MultiPV 3: every iteration reports lines 1, 2, 3 with three different first moves, scores not rising
    from line to line, and the bestmove is line 1's first move; back to 1, only line 1."""
    started(engine, "uci")
    engine.send("setoption name MultiPV value 3")
    engine.send("position startpos")
    engine.send("go depth 5")
    _, lines = engine.bestmove()
    last = {}
    for ln in lines:
        m = re.match(r"info depth (\d+) .*multipv (\d) score cp (-?\d+) .* pv (\S+)", ln)
        if m and m.group(1) == "5":
            last[int(m.group(2))] = (int(m.group(3)), m.group(4))
    assert sorted(last) == [1, 2, 3], lines
    assert len({move for _, move in last.values()}) == 3
    assert last[1][0] >= last[2][0] >= last[3][0]
    assert parse_bestmove(lines[-1])[0] == last[1][1]
    engine.send("setoption name MultiPV value 1")
    engine.send("go depth 3")
    _, lines = engine.bestmove()
    assert {re.search(r"multipv (\d+)", ln).group(1) for ln in lines if " multipv " in ln} == {"1"}


def test_uci_multipv_lines_are_best_first_at_every_depth(engine):
    """Each later line is searched alone, and its score could come out above an earlier line's (1. e4 e5 2. Nf3
    Nc6 in chess: line 4 above line 3 at depth 8, line 2 above line 1 elsewhere); the lines of every depth are
    reported best first, and the move played is line 1's."""
    started(engine, "uci")
    engine.send("setoption name MultiPV value 4")
    for position in ("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves e2e4 e7e5 g1f3 "
                     "b8c6", "position fen rnbqkb1r/pppp1ppp/4pn2/8/2PP4/8/PP2PPPP/RNBQKBNR w KQkq - 0 3",
                     "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves "
                     "h2e2 h9g7"):
        engine.send(position)
        engine.send("go depth 8")
        _, lines = engine.bestmove()
        by_depth = {}
        for ln in lines:
            m = re.match(r"info depth (\d+) .*multipv (\d) score cp (-?\d+) .* pv (\S+)", ln)
            if m:
                by_depth.setdefault(int(m.group(1)), {})[int(m.group(2))] = (int(m.group(3)), m.group(4))
        for depth, found in by_depth.items():
            scores = [found[k][0] for k in sorted(found)]
            assert scores == sorted(scores, reverse=True), (position, depth, found)
        assert parse_bestmove(lines[-1])[0] == by_depth[max(by_depth)][1][1]


def test_uci_searchmoves_restricts_the_root(engine):
    started(engine, "uci")
    engine.send(f"position fen {TWO_MOVES_FEN}")
    for only in ("e6e5", "e9f9"):
        engine.send(f"go depth 3 searchmoves {only}")
        _, lines = engine.bestmove()
        assert parse_bestmove(lines[-1])[0] == only


def test_ucci_no_legal_move_is_nobestmove(engine):
    assert Position(MATED_FEN).legal_move_names() == []
    started(engine, "ucci")
    engine.send(f"position fen {MATED_FEN}")
    engine.send("go depth 3")
    _, lines = engine.bestmove()
    assert lines[-1] == "nobestmove"
    engine.send("go depth 0")                     # the spec: depth 0 = static evaluation only -> nobestmove
    _, lines = engine.bestmove()
    assert lines[-1] == "nobestmove"
    engine.send("stop")                           # stop while idle: nobestmove, so a confused GUI never waits
    _, lines = engine.bestmove(REPLY_TIMEOUT)
    assert lines == ["nobestmove"]


def test_uci_no_legal_move_is_bestmove_none(engine):
    started(engine, "uci")
    engine.send(f"position fen {MATED_FEN}")
    engine.send("go depth 3")
    _, lines = engine.bestmove()
    assert lines[-2:] == ["info depth 0 score mate 0", "bestmove (none)"]
    # under go infinite even "no move" waits for stop, as in Stockfish
    engine.send("go infinite")
    assert not [ln for ln in engine.silent_for(0.5) if ln.startswith("bestmove")]
    t0 = engine.send("stop")
    t, lines = engine.bestmove(REPLY_TIMEOUT)
    assert lines[-1] == "bestmove (none)" and t - t0 < STOP_LIMIT
    engine.send("stop")                           # stop while idle: ignored in UCI
    assert engine.silent_for(0.3) == []


def test_ucci_go_draw_is_accepted_when_lost(engine):
    started(engine, "ucci")
    engine.send(f"position fen {LOPSIDED_FEN}")
    engine.send("go draw depth 3")
    _, lines = engine.bestmove()
    best, _, flag = parse_bestmove(lines[-1])
    assert best in Position(LOPSIDED_FEN).legal_move_names()
    assert flag == "draw"


def test_ucci_batch_mode_finishes_the_search_before_the_next_command(engine):
    started(engine, "ucci")
    engine.send("setoption batch true")
    engine.send("position startpos")
    engine.send("go depth 2")
    engine.send("isready")
    _, lines = engine.read_until(lambda ln: ln == "readyok", SEARCH_TIMEOUT)
    assert any(ln.startswith("bestmove") for ln in lines), "readyok came before the batch search's bestmove"


# -- perft --------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("dialect", ["ucci", "uci"])
def test_go_perft_3(engine, dialect):
    started(engine, dialect)
    engine.send("position startpos")
    engine.send("go perft 3")
    _, lines = engine.read_until(lambda ln: ln.startswith("Nodes searched"), SEARCH_TIMEOUT)
    assert lines[-1] == "Nodes searched: 79666"
    assert lines[-2] == ""
    per_move = [re.fullmatch(rf"({MOVE}): (\d+)", ln) for ln in lines[:-2]]
    assert all(per_move), lines[:-2]
    assert sorted(m.group(1) for m in per_move) == sorted(Position().legal_move_names())
    assert sum(int(m.group(2)) for m in per_move) == 79666


# -- bad input ----------------------------------------------------------------------------------------------------

COMMON_BAD = [
    b"foo", b"", b"   ", b"\xff\xfe\x80 go", b"\x00\x01\x02", b"position", b"position fen",
    b"position fen xyz", b"position fen rnbakabnr/9 w", b"position startpos junk",
    b"position startpos moves h2e2 h2e2", b"position startpos moves h2e2 zzzz", b"position startpos moves a0a5",
    b"go depth x", b"go depth -1", b"go nodes 0", b"go sideways", b"go depth", b"go perft 99", b"go perft",
    b"setoption", b"xyzzy 1 2 3",
]
UCCI_BAD = [b"setoption hashsize 99999", b"setoption hashsize abc", b"setoption batch maybe",
            b"setoption egtbply extreme", b"setoption nosuch 1", b"banmoves zzzz", b"ponderhit now",
            b"probe fen garbage", b"uci", b"go time abc", b"setoption egtbcache 0", b"setoption egtbply x",
            b"setoption egtbpaths /nonexistent/tables"]
UCI_BAD = [b"setoption name Hash value 0", b"setoption name Hash value big", b"setoption name UCI_Variant value shogi",
           b"setoption name NoSuch value 1", b"setoption Hash 16", b"setoption name Hash", b"debug maybe",
           b"ucci", b"banmoves h2e2", b"go wtime soon", b"setoption name EGTBCache value 0",
           b"setoption name EGTBProbeDepth value -1", b"setoption name EGTBPath value /nonexistent/tables"]


@pytest.mark.parametrize("dialect", ["ucci", "uci"])
def test_bad_input_gets_one_error_line_and_changes_nothing(engine, dialect):
    started(engine, dialect)
    engine.send("position startpos moves h2e2")
    good = after(START_FEN, "h2e2")
    for bad in COMMON_BAD + (UCCI_BAD if dialect == "ucci" else UCI_BAD):
        engine.send(bad)
        engine.send("isready")
        _, lines = engine.read_until(lambda ln: ln == "readyok")
        replies = lines[:-1]
        assert len(replies) == 1 and replies[0].startswith("info string error: "), (bad, replies)
    engine.send("d")
    _, lines = engine.read_until(lambda ln: ln.startswith("Fen: "))
    assert lines[-1] == f"Fen: {good.fen()}"
    engine.send("go depth 2")
    _, lines = engine.bestmove()
    assert_legal_reply(lines[-1], good)


@pytest.mark.parametrize("dialect", ["ucci", "uci", "xboard"])
def test_an_option_value_keeps_its_spacing(engine, dialect, tmp_path):
    """A path with two spaces in it reaches the option as sent (the words were joined by one space: 'missing')."""
    directory = tmp_path / "my  tables"
    directory.mkdir()
    if dialect == "xboard":
        engine.send("xboard")
        engine.send("protover 2")
        engine.read_until(lambda ln: ln == "feature done=1", LOAD_TIMEOUT)
        sent, sync, answer = f"egtpath shuai {directory}", "ping 1", "pong 1"
    else:
        started(engine, dialect)
        sent = (f"setoption egtbpaths {directory}" if dialect == "ucci" else
                f"setoption name EGTBPath value {directory}")
        sync, answer = "isready", "readyok"
    engine.send(sent)
    engine.send(sync)
    _, lines = engine.read_until(lambda ln: ln == answer)
    assert not [ln for ln in lines if "missing" in ln or "error" in ln.lower()], lines


def test_uci_searchmoves_with_an_illegal_move_still_searches_the_legal_ones(engine):
    """UCI: every go gets its bestmove.  A searchmoves list with a move not legal here (a typo, a move of another
    position) is one error line, and the legal ones are searched; with none legal, every move."""
    started(engine, "uci")
    engine.send(f"position fen {TWO_MOVES_FEN}")
    legal = Position(TWO_MOVES_FEN).legal_move_names()
    for searchmoves, expected in (("e6e5 a0a9", {"e6e5"}), ("a0a9 zz", set(legal))):
        engine.send(f"go depth 2 searchmoves {searchmoves}")
        _, lines = engine.bestmove()
        errors = [ln for ln in lines if ln.startswith("info string error: ")]
        assert len(errors) == 1 and "searchmoves" in errors[0], lines
        assert parse_bestmove(lines[-1])[0] in expected


def test_banmoves_with_an_illegal_move_still_bans_the_legal_ones(engine):
    started(engine, "ucci")
    engine.send(f"position fen {TWO_MOVES_FEN}")
    engine.send("banmoves h2e2 e9f9")
    engine.send("isready")
    _, lines = engine.read_until(lambda ln: ln == "readyok")
    assert len(lines) == 2 and lines[0].startswith("info string error: ")
    engine.send("go depth 2")
    _, lines = engine.bestmove()
    assert parse_bestmove(lines[-1])[0] == "e6e5"


# -- pure functions -----------------------------------------------------------------------------------------------

def test_ucci_time_units():
    assert ucci.parse_go("time 1500".split(), millisec=True).limits == {"time_left": 1.5}
    assert ucci.parse_go("time 3".split(), millisec=False).limits == {"time_left": 3.0}
    assert ucci.parse_go("time -20".split(), millisec=True).limits == {"time_left": 0.0}   # a fallen flag
    req = ucci.parse_go("time 300000 increment 2000 opptime 150000 oppincrement 1000".split(), millisec=True)
    assert req.limits == {"time_left": 300.0, "increment": 2.0}             # the opponent's clock is not used
    with pytest.raises(CommandError, match="opptime must be a number"):      # but still checked
        ucci.parse_go("time 300 opptime soon".split(), millisec=False)
    req = ucci.parse_go("time 300 movestogo 40".split(), millisec=False)
    assert req.limits == {"time_left": 300.0, "movestogo": 40}
    req = ucci.parse_go("ponder time 60".split(), millisec=False)
    assert req.limits == {"ponder": True, "time_left": 60.0}
    req = ucci.parse_go("draw depth 7".split(), millisec=False)
    assert req.draw and req.limits == {"depth": 7}
    assert ucci.parse_go(["infinite"], False).limits == {"infinite": True}
    # The spec's 'go [ponder|draw] depth <depth> | infinite', as front ends send it for analysis.
    assert ucci.parse_go("depth infinite".split(), False).limits == {"infinite": True}
    assert ucci.parse_go("ponder depth infinite".split(), False).limits == {"ponder": True, "infinite": True}
    assert ucci.parse_go("perft 4".split(), False).perft == 4


def test_uci_clock_is_the_side_to_move():
    args = "wtime 60000 btime 30000 winc 1000 binc 500 movestogo 20".split()
    red = uci.parse_go(args, red_to_move=True).limits
    assert red == {"time_left": 60.0, "increment": 1.0, "movestogo": 20}
    black = uci.parse_go(args, red_to_move=False).limits
    assert black == {"time_left": 30.0, "increment": 0.5, "movestogo": 20}
    with pytest.raises(CommandError, match="btime must be a number"):        # the opponent's clock is still checked
        uci.parse_go("wtime 60000 btime soon".split(), red_to_move=True)
    req = uci.parse_go("movetime 250 searchmoves h2e2 b0c2 depth 5".split(), True)
    assert req.limits == {"movetime": 0.25, "depth": 5} and req.searchmoves == ["h2e2", "b0c2"]
    assert uci.parse_go("mate 3".split(), True).limits == {"mate": 3}
    # Only the opponent's clock, or increments alone: a timed move on an empty clock (as Stockfish), not a search
    # that waits for 'stop' while the GUI waits for its move.
    assert uci.parse_go("wtime 1000 winc 0".split(), red_to_move=False).limits == {"time_left": 0.0}
    assert uci.parse_go("winc 100 binc 100".split(), True).limits == {"time_left": 0.0, "increment": 0.1}
    assert uci.parse_go("depth 5".split(), True).limits == {"depth": 5}             # no clock: none assumed


HUGE = "99999999999999999999"


def test_huge_numbers_are_capped_not_overflowed():
    """Issue 15: a huge time means plenty of time and a huge node count no limit -- values a timer or the
    compiled search can hold, never an OverflowError."""
    lim = ucci.parse_go(f"time {HUGE} increment {HUGE} movestogo {HUGE} depth {HUGE} nodes {HUGE}".split(),
                        millisec=False).limits
    assert lim == {"time_left": MAX_SECONDS, "increment": MAX_SECONDS, "movestogo": MAX_MOVESTOGO,
                   "depth": MAX_DEPTH, "nodes": MAX_NODES}
    assert ucci.parse_go(["time", "1e999"], millisec=True).limits == {"time_left": MAX_SECONDS}
    assert ucci.parse_go(["time", "-1e999"], millisec=True).limits == {"time_left": 0.0}
    lim = uci.parse_go(f"wtime {HUGE} btime {HUGE} winc {HUGE} movetime {HUGE} mate {HUGE}".split(), True).limits
    assert lim == {"time_left": MAX_SECONDS, "increment": MAX_SECONDS, "movetime": MAX_SECONDS, "mate": MAX_DEPTH}
    with pytest.raises(CommandError, match=r"nodes -99999.* out of range"):
        uci.parse_go(["nodes", "-" + HUGE], True)          # malformed, not "unlimited"
    with pytest.raises(CommandError, match="must be a number, not NaN"):
        uci.parse_go(["movetime", "nan"], True)
    with pytest.raises(CommandError, match=r"perft depth 99999.* out of range \(0\.\.12\)"):
        uci.parse_go(["perft", HUGE], True)                 # a command, not a limit: refused, not clamped


def test_huge_go_values_search_and_stop(engine):
    """The two crashes of issue 15, as a GUI sends them: each search starts, answers stop at once, and nothing
    reaches the catch-all or stderr."""
    started(engine, "ucci")
    for command in (f"go time {HUGE}", f"go nodes {HUGE}", f"go depth {HUGE}",
                    f"go time {HUGE} increment {HUGE} movestogo {HUGE}"):
        engine.send("position startpos")
        engine.send(command)
        time.sleep(0.3)
        engine.send("stop")
        _, lines = engine.read_until(lambda ln: ln.startswith("bestmove"), STOP_LIMIT + REPLY_TIMEOUT)
        assert not [ln for ln in lines if "error" in ln], (command, lines)
        parse_bestmove(lines[-1])
    engine.ready()
    assert not b"".join(engine.stderr), b"".join(engine.stderr).decode(errors="replace")


def _dialect(cls, **core):
    """A dialect over a stand-in core: the options at their defaults, and ``core``'s attributes."""
    from types import SimpleNamespace
    from engine.protocol.core import OPTIONS
    values = {key: option.default for key, option in OPTIONS.items()}
    return cls(SimpleNamespace(out=None, choose_games=lambda games, variant: None, values=values, **core))


def test_ucci_bestmove_flags():
    d = _dialect(ucci.UcciDialect)

    def line(score, mate, draw_offered, pv=("h2e2", "h9g7")):
        info = SearchInfo(5, 7, score, mate, 1000, 0.5, list(pv))
        s = _Search(1, ["h2e2"], ["h2e2"], False, False, draw_offered=draw_offered)
        return d.format_result(s, SearchResult("h2e2", None, info))[0]

    assert line(35, None, False) == "bestmove h2e2 ponder h9g7"
    assert line(35, None, True) == "bestmove h2e2 ponder h9g7"           # ahead: decline the draw
    assert line(-150, None, True).endswith(" draw")
    assert line(0, None, True).endswith(" draw")
    assert line(-150, None, False) == "bestmove h2e2 ponder h9g7"        # behind but not lost: play on
    assert line(-29990, -3, False).endswith(" resign")
    assert line(-29990, -3, True).endswith(" draw")                     # a draw beats resigning
    assert line(29990, 3, True) == "bestmove h2e2 ponder h9g7"
    # The answer to 'stop' of a ponder search not hit (a ponder miss) or of an analysis is no game move: neither
    # a resignation nor a draw accepted.
    for ponder, infinite in ((True, False), (False, True)):
        for draw_offered in (False, True):
            s = _Search(1, ["h2e2"], ["h2e2"], ponder, infinite, draw_offered=draw_offered)
            info = SearchInfo(5, 7, -29990, -3, 1000, 0.5, ["h2e2", "h9g7"])
            assert d.format_result(s, SearchResult("h2e2", None, info)) == ["bestmove h2e2 ponder h9g7"]
    s = _Search(1, [], [], False, False)
    assert d.format_result(s, SearchResult(None, None, None)) == ["nobestmove"]


def test_uci_info_and_bestmove_format():
    d = _dialect(uci.UciDialect)
    info = SearchInfo(6, 9, -42, None, 12345, 0.5, ["h2e2", "h9g7"], hashfull=17, tbhits=3)
    assert d.format_info(info) == ["info depth 6 seldepth 9 multipv 1 score cp -42 nodes 12345 nps 24690 "
                                   "hashfull 17 tbhits 3 time 500 pv h2e2 h9g7"]
    info = SearchInfo(9, 9, 29995, 3, 10, 0.0, ["h2e2"])
    assert " score mate 3 " in d.format_info(info)[0]
    s = _Search(1, ["h2e2"], ["h2e2"], False, False)
    assert d.format_result(s, SearchResult("h2e2", "h9g7", info)) == ["bestmove h2e2 ponder h9g7"]
    assert d.format_result(s, SearchResult(None, None, None))[-1] == "bestmove (none)"


def test_protocol_modules_do_not_import_the_jit_code():
    """The handshake must not wait for the compiled code: importing the protocol must not pull it in."""
    code = ("import sys; import engine.protocol.loop, engine.protocol.ucci, engine.protocol.uci, "
            "engine.protocol.xboard; "
            "bad = [m for m in ('numba', 'engine.searcher', 'engine.perft', 'engine.xiangqi.position') "
            "if m in sys.modules]; print(bad); sys.exit(1 if bad else 0)")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
                       env={**os.environ})
    assert r.returncode == 0, r.stdout + r.stderr


# -- endgame tables -------------------------------------------------------------------------------------------------

TB_WIN_FEN = "9/9/3ak4/9/9/9/9/9/3K1R3/9 w - - 0 1"            # KRvKA: Red mates in 9 plies
TB_LOSS_FEN = "3a5/9/4k4/9/9/9/9/2R6/9/3K5 b - - 0 1"          # KRvKA: Black is mated in 8 plies


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    from engine.egtb.build import Builder
    from engine.game import XIANGQI
    d = tmp_path_factory.mktemp("tables")
    Builder(XIANGQI, d).build(["KRvKA"])
    return d


def ucci_probe(engine, position):
    """The reply to ``probe <position>``: every line up to and including ``pophash ...``."""
    engine.send(f"probe {position}")
    return engine.read_until(lambda ln: ln.startswith("pophash"))[1]


def test_ucci_probe_and_search_with_tables(engine, tables):
    from engine.xiangqi.tables import Tablebases
    started(engine, "ucci")
    engine.send(f"setoption egtbpaths {tables}")
    engine.send("isready")                                  # the tables open and say what they are
    _, lines = engine.read_until(lambda ln: ln == "readyok")
    assert lines == [f"{TABLES_NOTE}{len(list(tables.glob('*.xtb')))} xiangqi (perpetual check and chase rule)",
                     "readyok"]
    assert ucci_probe(engine, f"fen {TB_WIN_FEN}") == ["win 9", "pophash"]   # nothing searched: empty hash reply
    assert ucci_probe(engine, f"fen {TB_LOSS_FEN}")[0] == "loss 8"
    engine.send(f"position fen {TB_WIN_FEN}")
    engine.send("go depth 20")
    _, lines = engine.bestmove()
    best = parse_bestmove(lines[-1])[0]
    assert best == Tablebases(tables).best_move(Position(TB_WIN_FEN))
    assert f"info depth 9 score {30000 - 9} pv {best} " in "\n".join(lines)
    engine.send("setoption useegtb false")
    assert ucci_probe(engine, f"fen {TB_WIN_FEN}")[0] == "unknown"
    # After a search the hash table answers probe (the spec's pophash fields) for the positions it searched.
    engine.send(f"position fen {START_FEN}")
    engine.send("go depth 4")
    _, lines = engine.bestmove()
    lines = ucci_probe(engine, f"fen {START_FEN} moves {parse_bestmove(lines[-1])[0]}")
    assert lines[0] == "unknown"
    assert re.fullmatch(rf"pophash bestmove {MOVE}(?: lowerbound -?\d+ depth \d+)?(?: upperbound -?\d+ depth \d+)?",
                        lines[1]) and "bound" in lines[1], lines


def test_uci_search_with_tables_reports_tbhits_and_mate(engine, tables):
    started(engine, "uci")
    engine.send(f"setoption name EGTBPath value {tables}")
    engine.send("setoption name EGTBProbeDepth value 1")
    engine.send("setoption name EGTBCache value 8")
    engine.send(f"position fen {TB_LOSS_FEN}")
    engine.send("go movetime 5000")
    t0 = time.perf_counter()
    t, lines = engine.bestmove()
    assert t - t0 < 1.0                                        # the tables answer; no search
    info = [ln for ln in lines if ln.startswith("info depth")][-1]
    assert " score mate -4 " in info and re.search(r" tbhits [1-9]\d* ", info)
    assert len(info.split(" pv ")[1].split()) == 8
    assert_legal_reply(lines[-1], Position(TB_LOSS_FEN))


@pytest.mark.parametrize("dialect", ["ucci", "uci"])
def test_corrupt_tables_are_reported_once_and_the_engine_plays_on(engine, tables, tmp_path, dialect):
    """A damaged chunk is found when first read (here by the search): one error line, then the engine plays
    without that table; a truncated file is found when the tables are opened."""
    from engine.egtb.store import TableFile
    from engine.xiangqi.tables import MAGIC
    for f in tables.glob("*.xtb"):
        (tmp_path / f.name).write_bytes(f.read_bytes())
    path = tmp_path / "KRvKA.xtb"
    data = bytearray(path.read_bytes())
    with TableFile(path, MAGIC) as f:
        offsets = [int(o) for o in f.offsets]
    for off in offsets[:-1]:
        data[off + 5] ^= 0xFF                                   # every chunk's data
    path.write_bytes(bytes(data))
    (tmp_path / "KRvK.xtb").write_bytes((tables / "KRvK.xtb").read_bytes()[:100])     # truncated
    started(engine, dialect)
    option = (f"setoption egtbpaths {tmp_path}" if dialect == "ucci"
              else f"setoption name EGTBPath value {tmp_path}")
    engine.send(option)
    engine.send("isready")
    _, lines = engine.read_until(lambda ln: ln == "readyok")
    assert len(lines) == 3 and lines[0].startswith("info string error: ") and "KRvK" in lines[0], lines
    assert lines[1] == f"{TABLES_NOTE}{len(list(tables.glob('*.xtb'))) - 1} xiangqi (perpetual check and chase rule)"
    engine.send(f"position fen {TB_WIN_FEN}")
    engine.send("go depth 3")
    _, lines = engine.bestmove()
    errors = [ln for ln in lines if ln.startswith("info string error: ")]
    assert len(errors) == 1 and "KRvKA" in errors[0] and "checksum" in errors[0], lines
    assert_legal_reply(lines[-1], Position(TB_WIN_FEN))
    engine.send("go depth 3")
    _, lines = engine.bestmove()
    assert not [ln for ln in lines if ln.startswith("info string")]
    assert_legal_reply(lines[-1], Position(TB_WIN_FEN))
