"""Repetition detection and its judgement by the Asian rules (seed 001).

Detection: the stack of Zobrist keys (``keys``) is walked back two plies at a time, no further than the last
capture (``H_CLOCK``) nor across a null move; a small hash of the keys on the path (``reps`` in the search)
answers "can this position have occurred?" in O(1) first, so the walk is rare.

Judgement of a cycle, in its common engine form: a side that gave check with every one of its moves in the
cycle while the other did not loses ("perpetual check"); otherwise the repetition is a draw.  (Perpetual chase
joins here with the full rules module.)  ``hist[i, H_CHECK]`` says whether the side to move at ply index i
was in check, i.e. whether the move that led there gave check.
"""
from numba import njit

from .tt import MATE_BOUND
from .xiangqi.board import H_CHECK, H_CLOCK, H_MOVE, NULL_MOVE, ST_PLY

REP_MASK = 4095
NO_REPETITION = -32768
BAN_SCORE = MATE_BOUND - 100      # a win by the repetition rules: above every evaluation, below every mate


@njit(cache=True)
def find_repetition(st, hist, keys):
    """Ply index of the latest earlier occurrence of the current position, or -1."""
    n = st[ST_PLY]
    first = n - hist[n, H_CLOCK]
    key = keys[n, 0]
    lock = keys[n, 1]
    i = n - 1
    while i >= first and i >= 0:
        if hist[i, H_MOVE] == NULL_MOVE:
            return -1
        if (n - i) % 2 == 0 and keys[i, 0] == key and keys[i, 1] == lock:
            return i
        i -= 1
    return -1


@njit(cache=True)
def judge_cycle(st, hist, start):
    """Score, for the side to move, of the cycle from ply index ``start`` to now."""
    n = st[ST_PLY]
    mover_checks = True          # the side to move now made the moves at n-2, n-4, ...
    other_checks = True          # the other side made the moves at n-1, n-3, ...
    for j in range(start, n):
        gave_check = hist[j + 1, H_CHECK] != 0
        if (n - j) % 2 == 0:
            mover_checks &= gave_check
        else:
            other_checks &= gave_check
    if mover_checks and not other_checks:
        return -BAN_SCORE
    if other_checks and not mover_checks:
        return BAN_SCORE
    return 0


@njit(cache=True)
def repetition_score(st, hist, keys):
    start = find_repetition(st, hist, keys)
    if start < 0:
        return NO_REPETITION
    return judge_cycle(st, hist, start)
