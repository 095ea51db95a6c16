"""Transposition table: the Zobrist key picks the bucket, an independent 32-bit lock verifies the entry (two
keys colliding on both is negligible), depth-preferred replacement, bound flags, mate scores stored relative
to the node (a mate found at ply 10 of one search is a mate in the same number of plies from the node in any
other; the tables' rule results count plies likewise).  The move field holds a packed move (``engine.move``:
16 bits, chess promotions included).  An entry also keeps the position's static evaluation (``NO_EVAL`` for a
node in check, which has none), as the game computed it: a node that finds its position here does not compute
it again, and the search's tree is the same.

The table is a structured numpy array of two-entry buckets: slot 0 keeps the deepest result (replaced only by
an equal or deeper search, or by anything once it is from an older search), slot 1 always takes the newest,
so fresh results are never lost to an old deep one.

Shared by the threads of a search without locks (Lazy SMP, ``engine.searcher``).  An entry is written field
by field, so a thread may read one that another is half-way through writing: a torn entry.  Its ``check`` is
the position's lock mixed with all the entry's data (Hyatt's lockless hashing), and a reader takes the data
only when the check matches what it read: a torn entry is a miss, never a wrong move, score or bound.  Each
field is read once (``tt_probe`` returns the values, not the entry).
"""
import numpy as np
from numba import njit

from . import memory
from .scores import DISTANCE_BOUND

# An entry is three 32-bit words: the check, then move | score << 16, then depth | flag << 8 | age << 10 |
# static evaluation << 16.  The age counts searches modulo 64 (AGE_MASK): it is only ever compared for equality.
# Words rather than a structured array because each is read exactly once into a local: numba's record fields
# were measured to tear (threads hammering one table read ~1 in 1000 mixed entries back as valid), words not.
CHECK, MOVE_SCORE, DEPTH_FLAG_AGE = range(3)
ENTRY_WORDS = 3
ENTRY_BYTES = 4 * ENTRY_WORDS
BOUND_NONE, BOUND_UPPER, BOUND_LOWER, BOUND_EXACT = 0, 1, 2, 3
AGE_MASK = 63
NO_EVAL = -32768                            # the stored static evaluation of a node that has none (in check)
_MIX = np.uint64(0x9E3779B97F4A7C15)        # an odd 64-bit multiplier (the golden ratio): every data bit
                                            # reaches the high half that the check keeps


def new_table(megabytes: int) -> np.ndarray:
    """A table of the largest power-of-two number of entries that fits in ``megabytes``, resident up to
    ``engine.memory.RESIDENT_LIMIT`` (its pages written now, not by the first searches)."""
    entries = max(2, (max(1, megabytes) << 20) // ENTRY_BYTES)
    entries = 1 << (entries.bit_length() - 1)
    return memory.zeros((entries, ENTRY_WORDS), np.uint32)


def cleared(table: np.ndarray) -> np.ndarray:
    """An empty table of the same size: ``table`` emptied in place if it is resident (its pages stay so), else a
    fresh lazy one (overwriting gigabytes that were never written would cost seconds, a second a gigabyte)."""
    if memory.is_resident(table):
        table.fill(0)
        return table
    return memory.zeros(table.shape, table.dtype)


@njit(cache=True, inline="always")
def score_to_tt(score, ply):
    """Scores that count a distance (mates, tablebase rule results: ``DISTANCE_BOUND``) count it from the root
    while searching, from the node in the table."""
    if score > DISTANCE_BOUND:
        return score + ply
    if score < -DISTANCE_BOUND:
        return score - ply
    return score


@njit(cache=True, inline="always")
def score_from_tt(score, ply):
    if score > DISTANCE_BOUND:
        return score - ply
    if score < -DISTANCE_BOUND:
        return score + ply
    return score


@njit(cache=True, inline="always")
def _check(lock, move_score, depth_flag_age):
    """The check word of an entry: the lock mixed with both data words (see the module doc)."""
    data = np.uint64(move_score) | (np.uint64(depth_flag_age) << np.uint64(32))
    return np.uint32(np.uint64(lock) & np.uint64(0xFFFFFFFF)) ^ np.uint32((data * _MIX) >> np.uint64(32))


@njit(cache=True, inline="always")
def _decode(move_score, depth_flag_age):
    """(move, stored score, depth, flag, age, static evaluation) of an entry's data words."""
    return (np.uint16(move_score & 0xFFFF), np.int16(np.uint16(move_score >> 16)),
            np.int8(np.uint8(depth_flag_age & 0xFF)), np.uint8((depth_flag_age >> 8) & 3),
            np.uint8((depth_flag_age >> 10) & AGE_MASK), np.int16(np.uint16(depth_flag_age >> 16)))


@njit(cache=True, inline="always")
def _read(tt, i, lock):
    """Entry ``i`` read once: (holds this position, move, stored score, depth, flag, age, static evaluation)."""
    check = tt[i, CHECK]
    move_score = tt[i, MOVE_SCORE]
    depth_flag_age = tt[i, DEPTH_FLAG_AGE]
    move, score, depth, flag, age, static = _decode(move_score, depth_flag_age)
    return check == _check(lock, move_score, depth_flag_age), move, score, depth, flag, age, static


@njit(cache=True)
def tt_probe(tt, key, lock):
    """What the table holds for this position: (found, move, stored score, depth, bound flag, static
    evaluation); the score as stored (``score_from_tt`` makes it the caller's).  ``found`` is False for an
    empty, foreign or torn entry."""
    i = np.int64(key & np.uint64(len(tt) - 2))
    for slot in range(2):
        ok, move, score, depth, flag, age, static = _read(tt, i + slot, lock)
        if ok and flag != BOUND_NONE:
            return True, move, score, depth, flag, static
    return False, np.uint16(0), np.int16(0), np.int8(0), np.uint8(BOUND_NONE), np.int16(NO_EVAL)


@njit(cache=True)
def tt_store(tt, key, lock, move, score, static, depth, flag, ply, age):
    """Store a node's result: its best move (0: none found), score, static evaluation (``NO_EVAL``: none),
    depth and bound, found at ``ply`` of the search of this ``age``."""
    age &= AGE_MASK
    i = np.int64(key & np.uint64(len(tt) - 2))
    ok, old_move, old_score, old_depth, old_flag, old_age, old_static = _read(tt, i, lock)
    if not (ok or old_flag == BOUND_NONE or depth >= old_depth or old_age != age):
        i += 1                                            # the deep slot stays; the newest goes to slot 1
        ok, old_move, old_score, old_depth, old_flag, old_age, old_static = _read(tt, i, lock)
    if move == 0 and ok:
        move = old_move                                   # keep the old best move when we found none
    move_score = np.uint32(move & 0xFFFF) | (np.uint32(np.uint16(np.int16(score_to_tt(score, ply)))) << np.uint32(16))
    depth_flag_age = (np.uint32(np.uint8(np.int8(max(-128, min(127, depth))))) | (np.uint32(flag & 3) << np.uint32(8))
                      | (np.uint32(age) << np.uint32(10))
                      | (np.uint32(np.uint16(np.int16(max(NO_EVAL, min(32767, static))))) << np.uint32(16)))
    tt[i, CHECK] = _check(lock, move_score, depth_flag_age)
    tt[i, MOVE_SCORE] = move_score
    tt[i, DEPTH_FLAG_AGE] = depth_flag_age


def tt_entry(tt: np.ndarray, i: int) -> tuple:
    """Entry ``i`` decoded, for tests and tools: (check, move, stored score, depth, flag, age, static evaluation)."""
    return (int(tt[i, CHECK]),) + tuple(int(v) for v in _decode(tt[i, MOVE_SCORE], tt[i, DEPTH_FLAG_AGE]))


@njit(cache=True)
def tt_hashfull(tt, age):
    """Per mille of the first 1000 entries used by the current search (UCI ``hashfull``)."""
    n = min(1000, len(tt))
    used = 0
    for i in range(n):
        word = tt[i, DEPTH_FLAG_AGE]
        if (word >> 8) & 3 != BOUND_NONE and (word >> 10) & AGE_MASK == age & AGE_MASK:
            used += 1
    return used * 1000 // n
