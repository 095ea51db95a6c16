"""Sets of board squares for numba code that must not allocate: two uint64 words, squares 0-63 in ``lo`` and
64-89 in ``hi`` (numba's heap allocation would cost more than the short loops that use them).  Members are found
again with a de Bruijn multiplication."""
import numpy as np
from numba import njit

EMPTY = np.uint64(0)
ONE = np.uint64(1)
_DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)
_SHIFT = np.uint64(58)


def _debruijn_table():
    table = np.zeros(64, np.int64)
    for i in range(64):
        table[((1 << i) * int(_DEBRUIJN) % (1 << 64)) >> 58] = i
    return table


_DEBRUIJN_INDEX = _debruijn_table()


@njit(cache=True, inline="always")
def add_square(lo, hi, s):
    """The set (``lo``, ``hi``) with square ``s`` added."""
    if s < 64:
        return lo | (ONE << np.uint64(s)), hi
    return lo, hi | (ONE << np.uint64(s - 64))


@njit(cache=True, inline="always")
def lowest(word):
    """The index of the lowest set bit of a non-empty ``word`` (remove it with ``word &= word - ONE``)."""
    return _DEBRUIJN_INDEX[((word & (~word + ONE)) * _DEBRUIJN) >> _SHIFT]
