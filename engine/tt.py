"""Transposition table: the Zobrist key picks the bucket, an independent 32-bit lock verifies the entry (two
keys colliding on both is negligible), depth-preferred replacement, bound flags, mate scores stored relative
to the node (a mate found at ply 10 of one search is a mate in the same number of plies from the node in any
other).  The move field holds a packed move (``engine.move``: 16 bits, chess promotions included).

The table is a structured numpy array of two-entry buckets: slot 0 keeps the deepest result (replaced only by
an equal or deeper search, or by anything once it is from an older search), slot 1 always takes the newest,
so fresh results are never lost to an old deep one.
"""
import numpy as np
from numba import njit

from .scores import MATE_BOUND

TT_ENTRY = np.dtype([("lock", np.uint32), ("move", np.uint16), ("score", np.int16), ("depth", np.int8),
                     ("flag", np.uint8), ("age", np.uint8), ("pad", np.uint8)])
BOUND_NONE, BOUND_UPPER, BOUND_LOWER, BOUND_EXACT = 0, 1, 2, 3


def new_table(megabytes: int) -> np.ndarray:
    """A table of the largest power-of-two number of entries that fits in ``megabytes``.  ``np.zeros`` takes
    fresh zeroed pages from the operating system, which hands each one over when it is first written: a table of
    gigabytes costs nothing until the search fills it (a ``go`` right after ``setoption Hash`` or ``ucinewgame``
    keeps its whole budget)."""
    entries = max(2, (max(1, megabytes) << 20) // TT_ENTRY.itemsize)
    entries = 1 << (entries.bit_length() - 1)
    return np.zeros(entries, TT_ENTRY)


def cleared(table: np.ndarray) -> np.ndarray:
    """An empty table of the same size: a fresh one (see ``new_table``) rather than the old one overwritten,
    which costs a second a gigabyte."""
    return np.zeros(table.shape, table.dtype)


@njit(cache=True, inline="always")
def score_to_tt(score, ply):
    """Mate scores count from the root while searching, from the node in the table."""
    if score > MATE_BOUND:
        return score + ply
    if score < -MATE_BOUND:
        return score - ply
    return score


@njit(cache=True, inline="always")
def score_from_tt(score, ply):
    if score > MATE_BOUND:
        return score - ply
    if score < -MATE_BOUND:
        return score + ply
    return score


@njit(cache=True)
def tt_probe(tt, key, lock):
    """Index of the entry for this position, or -1."""
    i = np.int64(key & np.uint64(len(tt) - 2))
    lk = np.uint32(lock)
    if tt[i].lock == lk and tt[i].flag != BOUND_NONE:
        return i
    if tt[i + 1].lock == lk and tt[i + 1].flag != BOUND_NONE:
        return i + 1
    return -1


@njit(cache=True)
def tt_store(tt, key, lock, move, score, depth, flag, ply, age):
    i = np.int64(key & np.uint64(len(tt) - 2))
    lk = np.uint32(lock)
    e = tt[i]
    if not (e.lock == lk or e.flag == BOUND_NONE or depth >= e.depth or e.age != age):
        i += 1                                            # the deep slot stays; the newest goes to slot 1
    e = tt[i]
    if move == 0 and e.lock == lk:
        move = e.move                                     # keep the old best move when we found none
    e.lock = lk
    e.move = move
    e.score = score_to_tt(score, ply)
    e.depth = max(-128, min(127, depth))
    e.flag = flag
    e.age = age


@njit(cache=True)
def tt_hashfull(tt, age):
    """Per mille of the first 1000 entries used by the current search (UCI ``hashfull``)."""
    n = min(1000, len(tt))
    used = 0
    for i in range(n):
        if tt[i].flag != BOUND_NONE and tt[i].age == age:
            used += 1
    return used * 1000 // n
