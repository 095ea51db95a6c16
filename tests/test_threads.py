"""Lazy SMP (engine.searcher, engine.tt): a table shared by threads without locks never hands back a torn
entry as valid; helper threads really search, their nodes are counted, the vote picks their move when it is
better; one thread stays deterministic; stop is prompt for any number of threads."""
import json
import threading
import time

import numpy as np
import pytest
from numba import njit

from engine import alphabeta as ab
from engine import tt
from engine.searcher import Limits, Searcher, helper_skips, search_once, vote
from engine.xiangqi.position import Position

from conftest import DATA

PUZZLES = [json.loads(line) for line in (DATA / "mate-puzzles.jsonl").read_text().splitlines()]
LOCK = np.uint64(0xC0FFEE)


@njit(inline="always")
def _consistent(move, score, depth, flag, static):
    """Every write of the hammer makes its fields from one number: a mix of two writes breaks this."""
    return (score == (move * 37) % 20000 - 10000 and depth == move % 100 and flag == 1 + move % 3
            and static == move % 1000 - 500)


@njit(nogil=True)
def _hammer(table, seed, seconds_of_ops, out):
    """Store and probe the same few buckets as fast as possible.  out: [probes found, found but inconsistent,
    raw reads that were torn (what a reader without the check would have taken)]."""
    x = np.uint64(seed)
    for _ in range(seconds_of_ops):
        x ^= x << np.uint64(13)
        x ^= x >> np.uint64(7)
        x ^= x << np.uint64(17)
        key = (x & np.uint64(3)) << np.uint64(1)            # 4 buckets, 8 entries
        move = np.int64((x >> np.uint64(8)) & np.uint64(0xFFFF)) | 1
        tt.tt_store(table, key, LOCK, move, (move * 37) % 20000 - 10000, move % 1000 - 500, move % 100, 1 + move % 3,
                    0, 1)
        found, m, s, d, f, e = tt.tt_probe(table, key ^ np.uint64(2), LOCK)
        if found:
            out[0] += 1
            if not _consistent(np.int64(m), np.int64(s), np.int64(d), np.int64(f), np.int64(e)):
                out[1] += 1
        i = np.int64(key ^ np.uint64(2))
        m, s, d, f, _, e = tt._decode(table[i, tt.MOVE_SCORE], table[i, tt.DEPTH_FLAG_AGE])
        if f != 0 and not _consistent(np.int64(m), np.int64(s), np.int64(d), np.int64(f), np.int64(e)):
            out[2] += 1


def test_a_table_hammered_by_threads_never_reads_a_torn_entry_back_as_valid():
    table = tt.new_table(1)
    counts = [np.zeros(3, np.int64) for _ in range(4)]
    _hammer(table, 1, 10, counts[0])                       # compiled before the threads start
    deadline = time.perf_counter() + 20
    while True:
        threads = [threading.Thread(target=_hammer, args=(table, 7 + k, 2_000_000, counts[k])) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        found, wrong, torn = (sum(int(c[i]) for c in counts) for i in range(3))
        assert wrong == 0, f"{wrong} torn entries read back as valid out of {found}"
        if torn > 0 or time.perf_counter() > deadline:
            break
    assert found > 1_000_000
    assert torn > 0, "the threads never tore an entry: the test proved nothing"


def test_helpers_search_and_their_nodes_are_counted():
    searcher = Searcher(16)
    searcher.set_threads(3)
    result = search_once(Position(), depth=9, searcher=searcher)
    assert result.best in Position().legal_move_names()
    main_nodes = int(searcher.ctrl[ab.C_NODES])
    helper_nodes = [int(work[0][ab.C_NODES]) for work in searcher._helpers]
    assert len(helper_nodes) == 2 and min(helper_nodes) > 0
    # The last report counts every thread's nodes (the helpers went on a little until they were stopped).
    assert main_nodes < result.info.nodes <= main_nodes + sum(helper_nodes)


def test_one_thread_is_deterministic_after_searching_with_several():
    fen = "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1CN1C1N2/9/R1BAKABR1 b - - 0 1"
    fresh = search_once(Position(fen), depth=8)
    searcher = Searcher(16)
    searcher.set_threads(2)
    search_once(Position(fen), depth=8, searcher=searcher)
    searcher.set_threads(1)
    searcher.new_game()
    again = search_once(Position(fen), depth=8, searcher=searcher)
    assert (again.best, again.info.nodes, again.info.score) == (fresh.best, fresh.info.nodes, fresh.info.score)


@pytest.mark.parametrize("threads", [2, 4])
def test_threads_find_the_mates_one_thread_finds(threads):
    """Mate-in-3 puzzles (tests/data/mate-puzzles.jsonl): the vote keeps a mate, the PV really mates."""
    searcher = Searcher(16)
    searcher.set_threads(threads)
    for p in [p for p in PUZZLES if p["mate_in"] == 3][:6]:
        searcher.new_game()
        result = search_once(Position(p["fen"]), nodes=150_000 * threads, searcher=searcher)
        assert result.info.mate is not None and 0 < result.info.mate <= 3, p
        pos = Position(p["fen"])
        for m in result.info.pv:
            pos.push(m)
        assert result.best == result.info.pv[0] and pos.legal_moves() == [], p


@pytest.mark.parametrize("threads", [1, 2, 8])
def test_stop_is_prompt_for_any_number_of_threads(threads):
    searcher = Searcher(16)
    searcher.set_threads(threads)
    done = threading.Event()
    out = []
    searcher.start(Position(), Limits(infinite=True), lambda i: None, lambda r: (out.append(r), done.set()))
    time.sleep(0.5)
    assert not done.is_set()
    t = time.perf_counter()
    searcher.stop()
    assert done.wait(2.0)
    latency = time.perf_counter() - t
    searcher.wait()
    assert out[0].best in Position().legal_move_names()
    assert latency < 0.1, f"bestmove {latency * 1000:.0f} ms after stop with {threads} threads"
    assert all(not t.is_alive() for t in searcher._helper_threads) and not searcher.searching


def test_helpers_start_at_staggered_depths():
    searched = {k: [d for d in range(1, 13) if not helper_skips(k, d)] for k in range(1, 7)}
    assert searched[1] == [1, 3, 5, 7, 9, 11] and searched[2] == [2, 4, 6, 8, 10, 12]
    assert searched[3] == [1, 4, 5, 8, 9, 12] and searched[4] == [3, 4, 7, 8, 11, 12]
    assert len({tuple(v) for v in searched.values()}) == 6


def test_the_vote_weighs_depth_and_score():
    main = (10, 101, 30, None)
    # A helper as deep with a clearly better score for another move outvotes the main thread ...
    assert vote([main, (10, 202, 90, [202, 5]), (9, 303, 20, [303])])[:3] == (10, 202, 90)
    # ... two threads agreeing outweigh one, and on a tie the main thread's move stays.
    assert vote([main, (10, 202, 40, [202]), (10, 101, 30, [101, 7])])[1] == 101
    assert vote([main, (10, 202, 30, [202])])[1] == 101
    # A stale shallow iteration, however good its score, has no say against a deep one.
    assert vote([(18, 101, 30, None), (5, 202, 300, [202]), (17, 101, 25, [101])])[:2] == (18, 101)
    assert vote([(18, 101, 30, None), (17, 202, 300, [202])])[:2] == (17, 202)
    # A mate found by any thread wins, the nearest one.
    assert vote([main, (7, 202, 31990, [202]), (6, 303, 31994, [303])])[1] == 303


def test_a_finished_iteration_ends_the_same_iteration_of_the_other_threads():
    """Threads share iterations: the first to finish a depth interrupts the threads still on it or below
    (OVERTAKEN), they move on; the main thread takes the helper's result; a stop is never turned into it."""
    from engine.searcher import OVERTAKEN
    searcher = Searcher(16)
    searcher.set_threads(3)
    searcher._use_game(Position().game)
    main, first, second = searcher.ctrl, searcher._helpers[0][0], searcher._helpers[1][0]
    for ctrl in (main, first, second):
        ctrl[:] = 0
    searcher._depths, searcher._finished, searcher._share_iterations = [7, 7, 9], 0, True
    assert not searcher._end(1, first, 7, finished=True)          # helper 1 finishes depth 7 first
    assert (main[ab.C_STOP], first[ab.C_STOP], second[ab.C_STOP]) == (OVERTAKEN, 0, 0)
    assert searcher._end(0, main, 7) and main[ab.C_STOP] == 0   # the main thread is told, and goes on
    searcher._begin(2, second, 6)                                 # a depth already finished ends at once
    assert second[ab.C_STOP] == OVERTAKEN
    searcher.stop()
    assert main[ab.C_STOP] == 1 and not searcher._end(0, main, 8)   # a stop stays a stop
