"""The network's arithmetic compiled with numba, equal to the numpy reference (``engine.nnue.network``) bit for bit.

``net`` is the tuple ``(w1, b1, w2, b2, acc)``: the weights (shared, read-only, between threads) and the
accumulators of one search thread, ``acc[row, viewer, hidden]``, one row per ply of the game so that a later
version can update them move by move.  The geometry (``files, ranks, kinds``) is the game's, passed by its
kernels.
"""
import numpy as np
from numba import njit

from .features import feature
from .network import OUTPUT_DIVISOR, QA


@njit(cache=True)
def refresh(acc, board, viewer, w1, b1, files, ranks, kinds):
    """``acc`` (int16[hidden]) := the accumulator of ``board`` as ``viewer`` sees it."""
    hidden = b1.shape[0]
    acc[:] = b1
    for sq in range(files * ranks):
        p = board[sq]
        if p != 0:
            f = feature(p, sq, viewer, files, ranks, kinds)
            for h in range(hidden):
                acc[h] += w1[f, h]


@njit(cache=True)
def output(us, them, w2, b2):
    """The score from the two accumulators (the side to move's first)."""
    hidden = us.shape[0]
    total = np.int64(0)
    for h in range(hidden):
        c = min(max(np.int64(us[h]), 0), QA)
        total += c * c * w2[h]
    for h in range(hidden):
        c = min(max(np.int64(them[h]), 0), QA)
        total += c * c * w2[hidden + h]
    return (total + b2[0]) // OUTPUT_DIVISOR


@njit(cache=True)
def evaluate(board, side, row, net, files, ranks, kinds):
    """The network's score of ``board`` for ``side`` to move, its accumulators built afresh in ``acc[row]``."""
    w1, b1, w2, b2, acc = net
    refresh(acc[row, 0], board, side, w1, b1, files, ranks, kinds)
    refresh(acc[row, 1], board, 1 - side, w1, b1, files, ranks, kinds)
    return output(acc[row, 0], acc[row, 1], w2, b2)


def empty_net():
    """A net of no hidden units: what the search is given when no network is in use (never evaluated)."""
    return (np.zeros((1, 0), np.int16), np.zeros(0, np.int16), np.zeros(0, np.int16), np.zeros(1, np.int64),
            np.zeros((1, 2, 0), np.int16))


def net_type():
    """numba type of the ``net`` tuple (for explicit kernel signatures, see engine.alphabeta)."""
    from numba import typeof
    return typeof(empty_net())
