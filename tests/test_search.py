"""The search: known mates found with the right distance, banned moves, stopping, movetime, time management.
(The transposition table is tested in test_tt.py, the time budgets in test_timeman.py.)"""
import json
import threading
import time

import pytest

from conftest import DATA
from engine.scores import MATE_SCORE
from engine.searcher import Limits, Searcher, search_once
from engine.xiangqi.position import Position

PUZZLES = [json.loads(line) for line in (DATA / "mate-puzzles.jsonl").read_text().splitlines()]
# Puzzles whose stated distance is too short: with best defence the mate takes longer (Fairy-Stockfish agrees).
LONGER_THAN_STATED = {"3a1k3/5NP2/4P3b/9/9/4c1N2/2p1C1n2/B4K3/9/3A1A3 w - - 0 1": 5}


@pytest.fixture(scope="module")
def searcher():
    return Searcher(16)


def _mate_line_is_real(fen, pv):
    """The PV is legal and ends with the side to move unable to move (mate, or no-move loss)."""
    pos = Position(fen)
    for m in pv:
        pos.push(m)
    return pos.legal_moves() == []


MATE_NODES = 150_000        # every puzzle below needs at most ~70,000 nodes to see its mate (2026-11-23)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_mates_found_within_a_node_budget(searcher, n):
    """Every mate-in-n puzzle (first 25 of each): within a fixed node budget (deterministic, unlike a time
    limit; pruning makes the depth at which a mate appears vary) a mate is found, at most n moves long, with a
    PV that really mates; and it is exactly the puzzle's n unless a shorter mate exists."""
    cases = [p for p in PUZZLES if p["mate_in"] == n][:25]
    exact = 0
    for p in cases:
        searcher.new_game()
        result = search_once(Position(p["fen"]), nodes=MATE_NODES, searcher=searcher)
        info = result.info
        assert info.mate is not None and 0 < info.mate <= LONGER_THAN_STATED.get(p["fen"], n), p
        assert len(info.pv) == 2 * info.mate - 1 and _mate_line_is_real(p["fen"], info.pv), p
        exact += info.mate == n
    assert exact >= 0.7 * len(cases)     # game-derived puzzles often have a shorter mate than they say


def test_mated_side_reports_negative_mate(searcher):
    # Black to move, mated next move whatever it does (mate in 1 for Red after any reply).
    fen = PUZZLES[0]["fen"]
    pos = Position(fen)
    pos.push(search_once(pos, depth=1, searcher=searcher).best)
    assert pos.legal_moves() == []
    result = search_once(Position(fen), depth=3, searcher=searcher)
    assert result.info.mate == 1 and result.info.score == MATE_SCORE - 1


def test_no_legal_move_gives_no_best_move():
    result = search_once(Position("5k3/9/4r4/9/9/9/9/9/r8/3K5 w - - 0 1"), depth=3)
    assert result.best is None


def test_banned_moves_are_not_played():
    pos = Position()
    legal = pos.legal_move_names()
    out = []
    s = Searcher(16)
    s.start(pos, Limits(depth=3), lambda i: None, out.append, banned=[m for m in legal if m != "a0a1"])
    s.wait()
    assert out[0].best == "a0a1"


def test_stop_ends_an_infinite_search_quickly(searcher):
    done = threading.Event()
    out = []
    searcher.new_game()
    searcher.start(Position(), Limits(infinite=True), lambda i: None, lambda r: (out.append(r), done.set()))
    time.sleep(0.5)
    assert not done.is_set(), "no bestmove before stop under go infinite"
    t = time.perf_counter()
    searcher.stop()
    assert done.wait(2.0)
    assert time.perf_counter() - t < 0.3 and out[0].best in Position().legal_move_names()


def test_movetime_is_respected(searcher):
    t = time.perf_counter()
    result = search_once(Position(), movetime=0.3, searcher=searcher)
    assert 0.15 < time.perf_counter() - t < 1.0 and result.best


def test_the_moves_time_counts_from_when_go_arrived(searcher):
    """``Limits.started``: what the protocol did after ``go`` arrived (the first ``go`` opens the tables) is in
    the move's time, as it is on the GUI's clock.  0.8 s of a 1 s movetime already gone: the move comes about
    0.15 s after the search starts (not 0.95 s), and the search's own time counts the 0.8 s."""
    pos = Position("2bakab2/9/2n1c1n2/p1p1p1p1p/9/9/P1P1P1P1P/2N1C1N2/9/2BAKAB2 w - - 0 1")   # in no book
    _run(searcher, pos, Limits(depth=1))        # the game's kernels loaded: that is no part of this move
    _, result, seconds = _run(searcher, pos, Limits(movetime=1.0, started=time.perf_counter() - 0.8))
    assert result.best and seconds < 0.6, seconds
    assert result.info.time >= 0.8


# -- time management in the search (the budgets themselves: test_timeman.py) -----------------------------------
# Black in check with a single evasion (f8f7), in a full middle game: any search deeper than 1 takes time.
ONE_MOVE_FEN = "1rba1abnr/5k1R1/9/pc2p3p/2p3p2/8P/P1P1P1P2/N8/4K4/R1BA1AB2 b - - 1 9"


def _run(searcher, pos, limits, stop_at_depth=None):
    """Start a search; return (infos, result, seconds to on_done).  With ``stop_at_depth``: call stop() once an
    iteration that deep has been reported (the search must not have ended before)."""
    infos, out, done = [], [], threading.Event()
    t = time.perf_counter()
    searcher.start(pos, limits, infos.append, lambda r: (out.append(r), done.set()))
    if stop_at_depth is not None:
        deadline = time.perf_counter() + 10.0
        while not any(i.depth >= stop_at_depth for i in infos) and time.perf_counter() < deadline:
            time.sleep(0.005)
        assert not done.is_set(), "the search ended before stop"
        searcher.stop()
    assert done.wait(20.0)
    return infos, out[0], time.perf_counter() - t


def test_a_ponderhit_after_the_search_ended_does_not_stop_the_next_search(searcher):
    """A ponder search that ends by itself (a mate found: `go ponder mate 1`) waits for ponderhit; the clock that
    ponderhit then arms (hard limit 0.12 s here) must not stop the next search."""
    try:
        infos, out, done = [], [], threading.Event()
        searcher.start(Position(PUZZLES[0]["fen"]), Limits(ponder=True, time_left=1.0, mate=1), infos.append,
                       lambda r: (out.append(r), done.set()))
        assert not done.wait(0.3) and infos and infos[-1].mate == 1
        searcher.ponderhit()
        assert done.wait(2.0) and out[0].best
        out2, done2 = [], threading.Event()
        searcher.start(Position(), Limits(infinite=True), lambda i: None, lambda r: (out2.append(r), done2.set()))
        assert not done2.wait(0.5), "stopped by the previous search's clock"
        searcher.stop()
        assert done2.wait(2.0) and out2[0].best in Position().legal_move_names()
    finally:                                                         # a failure leaves no search running
        searcher.stop()
        searcher.wait()


def test_one_legal_move_is_played_at_once(searcher):
    pos = Position(ONE_MOVE_FEN)
    assert pos.legal_move_names() == ["f8f7"]
    search_once(pos, depth=1, searcher=searcher)                     # compiled and warm
    # On the clock (budget: soft 2.7 s, hard 10.8 s): one iteration, depth 1.
    infos, result, seconds = _run(searcher, pos, Limits(time_left=60.0, increment=1.0))
    assert [i.depth for i in infos] == [1] and result.best == "f8f7" and result.info.pv[0] == "f8f7"
    assert seconds < 2.0                                             # in fact a few ms
    # Not when a movetime, a depth, a node count or an endless search was asked for: an analyser or a mate
    # puzzle wants the only move's score (the puzzles whose first move is forced were reported as `cp`).
    infos, result, seconds = _run(searcher, pos, Limits(movetime=0.5))
    assert len(infos) > 3 and result.best == "f8f7" and 0.45 < seconds < 2.0
    infos, result, _ = _run(searcher, pos, Limits(depth=4, time_left=60.0))
    assert [i.depth for i in infos] == [1, 2, 3, 4] and result.best == "f8f7"
    infos, result, _ = _run(searcher, pos, Limits(infinite=True), stop_at_depth=3)
    assert result.best == "f8f7"


def test_one_legal_move_while_pondering_waits_for_ponderhit(searcher):
    """Pondering with a single move on the clock: one iteration, then no bestmove until ponderhit, and at once
    after it."""
    try:
        infos, out, done = [], [], threading.Event()
        searcher.start(Position(ONE_MOVE_FEN), Limits(ponder=True, time_left=60.0, increment=1.0), infos.append,
                       lambda r: (out.append(r), done.set()))
        assert not done.wait(0.3)
        assert [i.depth for i in infos] == [1]
        searcher.ponderhit()
        assert done.wait(2.0) and out[0].best == "f8f7"
    finally:                                                         # a failure leaves no search running
        searcher.stop()
        searcher.wait()


def test_clock_search_stops_between_iterations_and_within_the_hard_limit(searcher):
    from engine.timeman import budget
    limits = Limits(time_left=10.0, increment=0.1)                    # soft 0.4 s, hard 1.6 s
    searcher.new_game()
    infos, result, seconds = _run(searcher, Position(), limits)
    assert seconds < budget(limits).hard + 1.0
    depths = [i.depth for i in infos]
    assert depths == list(range(1, len(depths) + 1)) and len(depths) >= 3
    assert result.best == result.info.pv[0] == infos[-1].pv[0] and result.best in Position().legal_move_names()


def test_the_time_parameters_reach_the_clock_of_a_search():
    """SearchParams' time manager parameters plan the searcher's clock: 60 moves to go instead of 16 on a clock
    of 10 s is a soft limit of 9.75 s / 60; a short search all the same (well within that), the move legal."""
    from engine.search_params import time_values
    from engine.timeman import budget
    searcher = Searcher(16)
    searcher.set_params({"TIME_MOVES_TO_GO": 60})
    limits = Limits(time_left=10.0)
    infos, result, seconds = _run(searcher, Position(), limits)
    assert searcher.clock.budget == budget(limits, time_values({"TIME_MOVES_TO_GO": 60}))
    assert searcher.clock.budget.soft == pytest.approx(9.75 / 60) and seconds < 1.0
    assert result.best in Position().legal_move_names()


def test_a_hard_stop_keeps_a_best_move_of_the_search(searcher):
    """Cut in the middle of an iteration (movetime: the hard limit is the soft one), the move played is the last
    completed iteration's, or the cut iteration's once one of its root moves has finished and beaten it; the
    last info reported is that move's."""
    searcher.new_game()
    for fen in (Position().fen(), "2ba2b2/5k2r/9/CP7/7np/4p1B2/8P/N4A3/3K5/5A3 w - - 1 31"):
        infos, result, _ = _run(searcher, Position(fen), Limits(movetime=0.25))
        assert infos and result.best == result.info.pv[0] and result.info is infos[-1]
        assert result.best in Position(fen).legal_move_names()


def test_multipv_lines_start_with_different_moves_after_any_stop():
    """A node limit stops the search inside an iteration (deterministically, at many points); whatever the
    iteration had finished, the last report of each of the 3 lines names a different legal move, as a GUI that
    keeps the last report per line number shows them (python-chess's analyse does)."""
    from engine.chess.position import Position as ChessPosition
    for pos in (Position(), ChessPosition()):
        legal = set(pos.legal_move_names())
        for nodes in range(2_000, 60_000, 2_900):
            last = {}
            s = Searcher(16)
            s.start(pos, Limits(nodes=nodes, multipv=3), lambda i: last.__setitem__(i.multipv, i.pv[0]), lambda r: None)
            s.wait()
            assert sorted(last) == [1, 2, 3], nodes
            assert len(set(last.values())) == 3 and set(last.values()) <= legal, (nodes, last)


@pytest.mark.parametrize("fen, mate", [
    ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80", "a1a8"),                # chess: the 50-move rule's 100th ply mates
    ("3k5/R8/9/9/9/9/9/9/9/4K3R w - - 119 80", "i0i9"),            # xiangqi: the 60-move rule's 120th ply mates
])
def test_a_mate_on_the_last_ply_of_the_move_limit_is_a_mate(fen, mate):
    """Every quiet move here reaches the move limit; the one that mates wins all the same (the referee judges
    mate first), where the search used to score it as the draw of the limit like the others."""
    from engine.game import game_of_fen
    result = search_once(game_of_fen(fen).position(fen), depth=3)
    assert result.best == mate and result.info.mate == 1


def test_a_stop_before_the_first_iteration_completes_plays_a_searched_move(monkeypatch):
    """Stopped before depth 1 completed (a `stop` or a hard limit in the first milliseconds), the search
    completes that iteration unstopped (a few milliseconds) rather than play the first move of its list."""
    import engine.searcher.aspiration as searcher_module    # the iterations' and the helpers' one window
    from engine.alphabeta import C_STOP
    pos = Position()
    searched = search_once(pos, depth=1)
    assert searched.best != pos.game.move_name(pos.legal_moves()[0])      # the list's first is not the move

    def stopped_at_once(kernels, args, depth, score):
        args[6][C_STOP] = 1
        return 0, None
    monkeypatch.setattr(searcher_module, "_aspirated", stopped_at_once)
    result = search_once(pos, depth=5)
    assert (result.best, result.info.depth, result.info.score) == (searched.best, 1, searched.info.score)


def test_a_stop_after_an_aspiration_fails_high_keeps_the_move_that_failed_high():
    """An aspiration pass that fails high has found a better move; stopped in the wider re-search before any
    move completes, the iteration still reports the fail-high (its move is at the front of the root's list)."""
    import numpy as np
    from engine.alphabeta import C_STOP, CTRL_LEN
    from engine.searcher import ASPIRATION_DEPTH, ASPIRATION_WINDOW, _aspirated

    class Kernels:
        windows = []

        def search(self, *args):
            alpha, beta = args[-2:]
            self.windows.append((alpha, beta))
            if len(self.windows) == 1:
                return beta + 5                     # fails high
            args[6][C_STOP] = 1                     # stopped during the re-search
            return 0
    ctrl = np.zeros(CTRL_LEN, np.int64)
    args = (None,) * 6 + (ctrl,)
    assert _aspirated(Kernels(), args, ASPIRATION_DEPTH, 100) == (0, 100 + ASPIRATION_WINDOW + 5)
    assert Kernels.windows[1][0] == Kernels.windows[0][0] and Kernels.windows[1][1] > Kernels.windows[0][1]


def test_the_tables_line_of_a_pv_is_walked_within_its_time_and_the_stop():
    """The PV's continuation through the tables is walked in Python between iterations, reading chunks from the
    disk: it is bounded by TABLE_LINE_SECONDS and by the search's stop (the clock's hard limit), so a slow disk
    cannot make a won ending lose on time.  (It used to walk up to MAX_TB_PV plies, whatever they cost.)"""
    from engine.alphabeta import C_STOP
    from engine.searcher import MAX_TB_PV, TABLE_LINE_SECONDS

    class SlowTables:
        names = ["slow"]
        probes = 0

        def rank_moves(self, pos):
            SlowTables.probes += 1
            time.sleep(0.02)                                    # a chunk read from a slow disk
            return [(1, pos.legal_moves()[0], type("Result", (), {"plies": 5})())]
    s = Searcher(1)
    s._tables = SlowTables()
    warm = Position()
    warm.push(warm.legal_moves()[0])                            # the kernels loaded before the clock runs
    start = time.perf_counter()
    line = s._table_line(Position(), [])
    assert 1 <= len(line) < MAX_TB_PV and time.perf_counter() - start < TABLE_LINE_SECONDS + 0.1
    SlowTables.probes = 0
    stopper = threading.Timer(0.1, lambda: s.ctrl.__setitem__(C_STOP, 1))
    stopper.start()
    start = time.perf_counter()
    line = s._table_line(Position(), [], seconds=None)           # a root in the tables: only the stop bounds it
    assert time.perf_counter() - start < 0.1 + 0.1 and 1 <= SlowTables.probes < MAX_TB_PV


def test_a_table_entry_does_not_settle_a_node_near_the_move_limit():
    """The move limit (60 moves in xiangqi, 50 in chess) draws the game, and nothing in the key tells the
    search how near it is: a table entry does not settle a node whose search (its depth and a horizon of
    extensions) may reach the limit; before, a search next to the limit took cuts from searches far from it."""
    from engine.alphabeta import sees_move_limit
    assert not sees_move_limit(10, 12, 120, 4) and sees_move_limit(106, 12, 120, 4)
    assert sees_move_limit(119, 0, 120, 1) and not sees_move_limit(100, 12, 120, 4)
