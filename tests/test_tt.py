"""The transposition table (engine.tt): store and probe, mate scores relative to the node, replacement,
table size, hashfull, the static evaluation it keeps and the search reads."""
import numpy as np

from engine import tt
from engine.scores import MATE_SCORE


def test_tt_store_probe_and_mate_adjustment():
    table = tt.new_table(1)
    key, lock = np.uint64(0xDEADBEEF12345678), np.uint64(0x1234ABCD)
    assert not tt.tt_probe(table, key, lock)[0]
    # A mate in 5 plies seen from ply 3 is stored as mate in 2 plies from the node ...
    tt.tt_store(table, key, lock, 1234, MATE_SCORE - 5, 321, 7, tt.BOUND_EXACT, 3, 1)
    found, move, score, depth, flag, static = tt.tt_probe(table, key, lock)
    assert (found, move, depth, flag, static) == (True, 1234, 7, tt.BOUND_EXACT, 321)
    assert score == MATE_SCORE - 2
    # ... and read back at ply 6 as mate in 8 plies from the root.
    assert tt.score_from_tt(score, 6) == MATE_SCORE - 8
    # Depth-preferred: a shallower result of another position in the bucket does not evict the deep one.
    other_lock = np.uint64(0x0BADF00D)
    tt.tt_store(table, key, other_lock, 99, 10, tt.NO_EVAL, 2, tt.BOUND_LOWER, 0, 1)
    assert tt.tt_probe(table, key, lock)[:4] == (True, 1234, MATE_SCORE - 2, 7)
    assert tt.tt_probe(table, key, other_lock) == (True, 99, 10, 2, tt.BOUND_LOWER, tt.NO_EVAL)
    assert not tt.tt_probe(table, key, np.uint64(1))[0]          # a different lock never matches
    # A result without a move keeps the position's old best move.
    tt.tt_store(table, key, lock, 0, 50, -19999, 9, tt.BOUND_UPPER, 0, 1)
    assert tt.tt_probe(table, key, lock) == (True, 1234, 50, 9, tt.BOUND_UPPER, -19999)


def test_a_torn_entry_is_a_miss():
    """Threads share the table without locks: an entry half-written by one thread while another reads it
    mixes two writes; every such mix fails the check instead of reading back as valid."""
    table = tt.new_table(1)
    key, lock = np.uint64(4), np.uint64(0x5EED)
    tt.tt_store(table, key, lock, 77, -300, 45, 5, tt.BOUND_LOWER, 0, 3)
    first = table[4].copy()
    assert tt.tt_entry(table, 4)[1:] == (77, -300, 5, tt.BOUND_LOWER, 3, 45)
    tt.tt_store(table, key, lock, 91, 120, 46, 8, tt.BOUND_EXACT, 0, 4)
    second = table[4].copy()
    assert tt.tt_probe(table, key, lock) == (True, 91, 120, 8, tt.BOUND_EXACT, 46)
    for word in range(tt.ENTRY_WORDS):
        table[4] = second
        table[4, word] = first[word]            # one word still the old write's
        assert not tt.tt_probe(table, key, lock)[0], word


def test_table_size_follows_hash_option():
    assert tt.new_table(1).nbytes <= 1 << 20 and tt.new_table(64).nbytes > 32 << 20


def test_hashfull_counts_the_current_search_per_mille():
    table = tt.new_table(1)
    assert tt.tt_hashfull(table, 1) == 0
    for k in range(100):          # 100 buckets of the first 1000 entries, slot 0 of each
        tt.tt_store(table, np.uint64(2 * k), np.uint64(k + 1), 0, 0, 0, 1, tt.BOUND_EXACT, 0, 1)
    assert tt.tt_hashfull(table, 1) == 100
    assert tt.tt_hashfull(table, 2) == 0                          # entries of an older search do not count
    assert tt.tt_hashfull(table, 1 + 64) == 100                   # the age counts searches modulo 64


def test_table_rule_scores_are_stored_relative_to_the_node():
    """A tablebase result decided by the perpetual-check rule scores RULE_SCORE - order - ply, a distance from
    the root like a mate: stored at one ply and read back at another, it must be the score the tables give at
    the second ply (it used to keep the first ply's, a win or loss some plies off)."""
    from engine.egtb.codes import RULE_BASE
    from engine.egtb.probe import tb_score
    for code in (RULE_BASE + 7, RULE_BASE + 6, RULE_BASE + 2 * 600 + 1):      # won, lost, order past the cap
        for stored_at, read_at in ((3, 9), (12, 1), (0, 40)):
            assert tt.score_from_tt(tt.score_to_tt(tb_score(code, stored_at), stored_at),
                                    read_at) == tb_score(code, read_at), (code, stored_at, read_at)
    table = tt.new_table(1)
    key, lock = np.uint64(77), np.uint64(0xC0FFEE)
    tt.tt_store(table, key, lock, 5, tb_score(RULE_BASE + 7, 4), 0, 6, tt.BOUND_EXACT, 4, 1)
    assert tt.score_from_tt(tt.tt_probe(table, key, lock)[2], 10) == tb_score(RULE_BASE + 7, 10)
    # Evaluations, draws and rule wins of the repetition judge are plain scores.
    for score in (0, 1500, -19999):
        assert tt.score_to_tt(score, 30) == score == tt.score_from_tt(score, 30)



def test_the_search_takes_a_positions_static_evaluation_from_the_table():
    """A node whose position the table holds does not evaluate it again: it reads the stored evaluation.
    Planted: every child of the root stored with a bogus static evaluation of 7777 (and a bound that settles
    nothing); a depth-1 search, whose children stand pat in quiescence, must then score every move -7777."""
    from engine.searcher import Searcher, search_once
    from engine.xiangqi.position import Position
    for clock in (0, 60):
        searcher = Searcher(1)
        pos = Position(f"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - {clock} 1")
        for move in pos.legal_moves():
            pos.push(move)
            assert not pos.in_check()
            key, lock = pos.keys[pos.ply]
            tt.tt_store(searcher.tt, key, lock, 0, -20000, 7777, 0, tt.BOUND_LOWER, 0, searcher.age + 1)
            pos.pop()
        result = search_once(pos, depth=1, searcher=searcher)
        assert result.info.score == -7777, clock
    assert search_once(pos, depth=1).info.score > -100        # the position itself is about level

