"""The network's arithmetic compiled with numba, equal to the numpy reference (``engine.nnue.network``) bit for bit.

``net`` is the tuple ``(w1, b1, w2, b2, acc, acc_keys)``: the weights (shared, read-only, between threads; ``w1``
with one more row of zeros, the input "none") and one search thread's accumulators: ``acc[row, viewer]`` is
the accumulator of the position at ply ``row`` of the game (``st[ST_PLY]``) as ``viewer`` (0 or 1) sees it,
valid when ``acc_keys[row]`` is that position's Zobrist key.  A position whose parent's row is valid is
updated from it by the move between them (``update``: the inputs it removes and adds, at most two of each --
a capture, castling, a promotion), at the cost of a few rows of ``w1``; any other is built afresh
(``refresh``).

``net_evaluate``, the search's entry, is a template kernel (``engine.template``) compiled per game: the game
supplies ``net_move_inputs`` (which pieces the move played at a ply took off which squares and put on which)
and its geometry (``FILES``, ``RANKS``, ``KINDS``) and ``NULL_MOVE``.
"""
import numpy as np
from numba import njit

from ..layout import H_MOVE, ST_PLY, ST_SIDE
from ..scores import EVAL_LIMIT
from ..template import Template
from .features import feature
from .network import OUTPUT_DIVISOR, QA

TEMPLATE = Template(globals(), interface=("net_move_inputs", "FILES", "RANKS", "KINDS", "NULL_MOVE"))


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


@njit(cache=True, inline="always")
def _input(piece, square, viewer, none, files, ranks, kinds):
    return none if piece == 0 else feature(piece, square, viewer, files, ranks, kinds)


@njit(cache=True)
def update(net, row, gone1, from1, gone2, from2, new1, to1, new2, to2, files, ranks, kinds):
    """``acc[row]`` := ``acc[row - 1]`` with pieces ``gone1`` on ``from1`` and ``gone2`` on ``from2`` taken off and
    ``new1`` on ``to1``, ``new2`` on ``to2`` put on (a piece 0 is no piece)."""
    w1, acc = net[0], net[4]
    none = w1.shape[0] - 1
    hidden = acc.shape[2]
    for viewer in range(2):
        r1 = _input(gone1, from1, viewer, none, files, ranks, kinds)
        r2 = _input(gone2, from2, viewer, none, files, ranks, kinds)
        a1 = _input(new1, to1, viewer, none, files, ranks, kinds)
        a2 = _input(new2, to2, viewer, none, files, ranks, kinds)
        before = acc[row - 1, viewer]
        after = acc[row, viewer]
        for h in range(hidden):
            after[h] = before[h] - w1[r1, h] - w1[r2, h] + w1[a1, h] + w1[a2, h]


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
    return min(max((total + b2[0]) // OUTPUT_DIVISOR, -EVAL_LIMIT), EVAL_LIMIT)


@njit(cache=True, inline="always")
def parent_valid(net, keys, row):
    """Does row ``row - 1`` hold the accumulators of the position before the last move?"""
    return row > 0 and net[5][row - 1] == keys[row - 1, 0]


@njit(cache=True)
def finish(board, side, row, net, keys, updated, files, ranks, kinds):
    """The score for ``side`` to move at ``row``: its accumulators built afresh unless ``updated``; the row
    then marked valid for the position's key."""
    w1, b1, w2, b2, acc, acc_keys = net
    if not updated:
        refresh(acc[row, 0], board, 0, w1, b1, files, ranks, kinds)
        refresh(acc[row, 1], board, 1, w1, b1, files, ranks, kinds)
    acc_keys[row] = keys[row, 0]
    return output(acc[row, side], acc[row, 1 - side], w2, b2)


@TEMPLATE.kernel(inline="always")
def net_evaluate(board, st, hist, keys, net):
    """The network's score for the side to move: the accumulators updated from the parent's by the last move
    when those are valid, else built afresh."""
    row = st[ST_PLY]
    updated = parent_valid(net, keys, row)
    if updated:
        move = hist[row - 1, H_MOVE]
        if move == NULL_MOVE:  # noqa: F821  (the game's, bound by engine.template)
            update(net, row, 0, 0, 0, 0, 0, 0, 0, 0, FILES, RANKS, KINDS)  # noqa: F821
        else:
            gone1, from1, gone2, from2, new1, to1, new2, to2 = net_move_inputs(board, hist, row - 1, move)  # noqa
            update(net, row, gone1, from1, gone2, from2, new1, to1, new2, to2, FILES, RANKS, KINDS)  # noqa: F821
    return finish(board, st[ST_SIDE], row, net, keys, updated, FILES, RANKS, KINDS)  # noqa: F821


@njit(cache=True)
def evaluate_fresh(board, side, row, net, files, ranks, kinds):
    """The network's score of ``board`` for ``side`` to move, its accumulators built afresh in ``acc[row]`` (no
    key recorded: for tools and tests)."""
    w1, b1, w2, b2, acc, _ = net
    refresh(acc[row, 0], board, 0, w1, b1, files, ranks, kinds)
    refresh(acc[row, 1], board, 1, w1, b1, files, ranks, kinds)
    return output(acc[row, side], acc[row, 1 - side], w2, b2)


def thread_net(weights, rows: int):
    """A search thread's ``net``: the network's ``weights`` (``Network.arrays()``) and fresh accumulators for
    ``rows`` plies."""
    hidden = weights[1].shape[0]
    return tuple(weights) + (np.zeros((rows, 2, hidden), np.int16), np.zeros(rows, np.uint64))


def empty_net():
    """A net of no hidden units: what the search is given when no network is in use (never evaluated)."""
    return thread_net((np.zeros((1, 0), np.int16), np.zeros(0, np.int16), np.zeros(0, np.int16),
                       np.zeros(1, np.int64)), 1)


def net_type():
    """numba type of the ``net`` tuple (for explicit kernel signatures, see engine.alphabeta)."""
    from numba import typeof
    return typeof(empty_net())
