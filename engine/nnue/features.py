"""The network's inputs: one per (king bucket, piece kind, colour relative to the viewer, square seen by the viewer).

Both games use the same rule, parameterised by the board's size, the number of piece kinds and the game's king
bucket map: the viewer's own pieces come first, then the other side's, each kind a block of ``squares`` inputs;
the second side sees the board upside down (rank r as rank ``ranks - 1 - r``), so a position and its
colour-flipped twin give the same inputs to the side to move.  One bucket of inputs is 7 kinds x 2 x 90 = 1,260
inputs in xiangqi, 6 x 2 x 64 = 768 in chess.

A network may have one bucket, or as many as its game's ``net_king_buckets`` map names (xiangqi: three, the
general's file): then the square the viewer's own king stands on, seen by the viewer, picks the block of inputs
every piece of the position feeds -- what a piece is worth depends on where the king it defends or attacks
stands, which piece-square inputs alone cannot say.  ``offset`` is the first input of that block.
"""
import numpy as np
from numba import njit


def input_count(squares: int, kinds: int, buckets: int = 1) -> int:
    return buckets * 2 * kinds * squares


@njit(cache=True, inline="always")
def relative(square, viewer, files, ranks):
    """``square`` as ``viewer`` (0 or 1) sees it: the second side's view is upside down."""
    if viewer == 1:
        return (ranks - 1 - square // files) * files + square % files
    return square


@njit(cache=True, inline="always")
def feature(piece, square, viewer, offset, files, ranks, kinds):
    """The input of ``piece`` (colour * 8 + kind) on ``square`` as ``viewer`` (0 or 1) sees it, in the bucket
    whose first input is ``offset``."""
    return (offset + (((piece >> 3) ^ viewer) * kinds + (piece & 7) - 1) * files * ranks
            + relative(square, viewer, files, ranks))


def king_offsets(king_buckets, block: int) -> np.ndarray:
    """int64[squares]: the first input of the bucket of a king on each square as its own side sees it, by the
    map ``king_buckets`` and ``block`` inputs a bucket; for a network of one block (``king_buckets`` None), one
    0 that stands for every square."""
    if king_buckets is None:
        return np.zeros(1, np.int64)
    return np.asarray(king_buckets, np.int64) * block


def features_of(board: np.ndarray, viewer: int, files: int, ranks: int, kinds: int, offset: int = 0) -> np.ndarray:
    """The active inputs of ``board`` (int8 piece codes by square) for ``viewer`` (numpy; the reference's)."""
    squares = np.flatnonzero(board)
    pieces = board[squares].astype(np.int64)
    if viewer == 1:
        squares = (ranks - 1 - squares // files) * files + squares % files
    return offset + (((pieces >> 3) ^ viewer) * kinds + (pieces & 7) - 1) * files * ranks + squares


def mirror_files(boards: np.ndarray, files: int) -> np.ndarray:
    """Boards [N, squares] reflected left to right (file f as ``files - 1 - f``): the same position for the
    evaluation, which is symmetric that way (training data doubled; a mirrored king stands in the mirrored
    bucket, which learns from it)."""
    n = boards.shape[0]
    return boards.reshape(n, -1, files)[:, :, ::-1].reshape(n, -1)
