"""The network's arithmetic compiled with numba, equal to the numpy reference (``engine.nnue.network``) bit for bit.

``net`` is the tuple ``(w1, b1, w2, b2, acc, acc_keys, king_offsets, acc_offsets)``: the weights (shared,
read-only, between threads; ``w1`` with one more row of zeros, the input "none"; ``king_offsets[square]`` the
first input of the king bucket of a king on ``square`` as its side sees it) and one search thread's
accumulators: ``acc[row, viewer]`` is the accumulator of the position at ply ``row`` of the game
(``st[ST_PLY]``) as ``viewer`` (0 or 1) sees it, in the bucket whose first input is ``acc_offsets[row,
viewer]``, valid when ``acc_keys[row]`` is that position's Zobrist key.  A position whose parent's row is valid
is updated from it by the move between them (``update``: the inputs it removes and adds, at most two of each --
a capture, castling, a promotion), at the cost of a few rows of ``w1``; any other, and a viewer whose king
changed bucket, is built afresh (``refresh``).

``net_evaluate``, the search's entry, is a template kernel (``engine.template``) compiled per game: the game
supplies ``net_move_inputs`` (which pieces the move played at a ply took off which squares and put on which)
and its geometry (``FILES``, ``RANKS``, ``KINDS``) and ``NULL_MOVE``.
"""
import numpy as np
from numba import njit

from ..layout import H_MOVE, ST_KING, ST_PLY, ST_SIDE
from ..scores import EVAL_LIMIT
from ..template import Template
from .features import feature, relative
from .network import OUTPUT_DIVISOR, QA

TEMPLATE = Template(globals(), interface=("net_move_inputs", "FILES", "RANKS", "KINDS", "NULL_MOVE"))


@njit(cache=True)
def refresh(acc, board, viewer, offset, w1, b1, files, ranks, kinds):
    """``acc`` (int16[hidden]) := the accumulator of ``board`` as ``viewer`` sees it, in the bucket whose first
    input is ``offset``."""
    hidden = b1.shape[0]
    acc[:] = b1
    for sq in range(files * ranks):
        p = board[sq]
        if p != 0:
            f = feature(p, sq, viewer, offset, files, ranks, kinds)
            for h in range(hidden):
                acc[h] += w1[f, h]


@njit(cache=True, inline="always")
def king_offset(net, st, viewer, files, ranks):
    """The first input of the bucket of ``viewer``'s king where it stands (a map of one entry: every square's)."""
    offsets = net[6]
    if offsets.shape[0] == 1:
        return offsets[0]
    return offsets[relative(st[ST_KING + viewer], viewer, files, ranks)]


@njit(cache=True, inline="always")
def _input(piece, square, viewer, offset, none, files, ranks, kinds):
    return none if piece == 0 else feature(piece, square, viewer, offset, files, ranks, kinds)


@njit(cache=True)
def update(net, board, st, row, gone1, from1, gone2, from2, new1, to1, new2, to2, files, ranks, kinds):
    """``acc[row]`` := ``acc[row - 1]`` with pieces ``gone1`` on ``from1`` and ``gone2`` on ``from2`` taken off and
    ``new1`` on ``to1``, ``new2`` on ``to2`` put on (a piece 0 is no piece); a viewer whose king left its
    bucket is built afresh from ``board``."""
    w1, b1, acc, offsets = net[0], net[1], net[4], net[7]
    none = w1.shape[0] - 1
    hidden = acc.shape[2]
    for viewer in range(2):
        offset = king_offset(net, st, viewer, files, ranks)
        offsets[row, viewer] = offset
        if offset != offsets[row - 1, viewer]:
            refresh(acc[row, viewer], board, viewer, offset, w1, b1, files, ranks, kinds)
            continue
        r1 = _input(gone1, from1, viewer, offset, none, files, ranks, kinds)
        r2 = _input(gone2, from2, viewer, offset, none, files, ranks, kinds)
        a1 = _input(new1, to1, viewer, offset, none, files, ranks, kinds)
        a2 = _input(new2, to2, viewer, offset, none, files, ranks, kinds)
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
def build(board, st, row, net, files, ranks, kinds):
    """Both accumulators of ``acc[row]`` built afresh from ``board``, each in its king's bucket."""
    for viewer in range(2):
        offset = king_offset(net, st, viewer, files, ranks)
        net[7][row, viewer] = offset
        refresh(net[4][row, viewer], board, viewer, offset, net[0], net[1], files, ranks, kinds)


@njit(cache=True)
def finish(board, st, row, net, keys, updated, files, ranks, kinds):
    """The score for the side to move at ``row``: its accumulators built afresh unless ``updated``; the row
    then marked valid for the position's key."""
    if not updated:
        build(board, st, row, net, files, ranks, kinds)
    net[5][row] = keys[row, 0]
    side = st[ST_SIDE]
    return output(net[4][row, side], net[4][row, 1 - side], net[2], net[3])


@TEMPLATE.kernel(inline="always")
def net_evaluate(board, st, hist, keys, net):
    """The network's score for the side to move: the accumulators updated from the parent's by the last move
    when those are valid, else built afresh."""
    row = st[ST_PLY]
    updated = parent_valid(net, keys, row)
    if updated:
        move = hist[row - 1, H_MOVE]
        if move == NULL_MOVE:  # noqa: F821  (the game's, bound by engine.template)
            update(net, board, st, row, 0, 0, 0, 0, 0, 0, 0, 0, FILES, RANKS, KINDS)  # noqa: F821
        else:
            gone1, from1, gone2, from2, new1, to1, new2, to2 = net_move_inputs(board, hist, row - 1, move)  # noqa
            update(net, board, st, row, gone1, from1, gone2, from2, new1, to1, new2, to2,
                   FILES, RANKS, KINDS)  # noqa: F821
    return finish(board, st, row, net, keys, updated, FILES, RANKS, KINDS)  # noqa: F821


@njit(cache=True)
def evaluate_fresh(board, st, row, net, files, ranks, kinds):
    """The network's score of ``board`` for the side to move (``st``), its accumulators built afresh in
    ``acc[row]`` (no key recorded: for tools and tests)."""
    build(board, st, row, net, files, ranks, kinds)
    side = st[ST_SIDE]
    return output(net[4][row, side], net[4][row, 1 - side], net[2], net[3])


def thread_net(weights, rows: int):
    """A search thread's ``net``: the network's ``weights`` (``Network.arrays()``) and fresh accumulators for
    ``rows`` plies."""
    w1, b1, w2, b2, king_offsets = weights
    return (w1, b1, w2, b2, np.zeros((rows, 2, b1.shape[0]), np.int16), np.zeros(rows, np.uint64), king_offsets,
            np.zeros((rows, 2), np.int64))


def empty_net():
    """A net of no hidden units: what the search is given when no network is in use (never evaluated)."""
    return thread_net((np.zeros((1, 0), np.int16), np.zeros(0, np.int16), np.zeros(0, np.int16),
                       np.zeros(1, np.int64), np.zeros(1, np.int64)), 1)


def net_type():
    """numba type of the ``net`` tuple (for explicit kernel signatures, see engine.alphabeta)."""
    from numba import typeof
    return typeof(empty_net())
