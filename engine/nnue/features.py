"""The network's inputs: one per (piece kind, colour relative to the viewer, square seen by the viewer).

Both games use the same rule, parameterised by the board's size and the number of piece kinds: the viewer's
own pieces come first, then the other side's, each kind a block of ``squares`` inputs; the second side sees
the board upside down (rank r as rank ``ranks - 1 - r``), so a position and its colour-flipped twin give the
same inputs to the side to move.  Xiangqi: 7 kinds x 2 x 90 = 1,260 inputs; chess: 6 x 2 x 64 = 768.
"""
import numpy as np
from numba import njit


def input_count(squares: int, kinds: int) -> int:
    return 2 * kinds * squares


@njit(cache=True, inline="always")
def feature(piece, square, viewer, files, ranks, kinds):
    """The input of ``piece`` (colour * 8 + kind) on ``square`` as ``viewer`` (0 or 1) sees it."""
    if viewer == 1:
        square = (ranks - 1 - square // files) * files + square % files
    return ((((piece >> 3) ^ viewer) * kinds + (piece & 7) - 1) * files * ranks) + square


def features_of(board: np.ndarray, viewer: int, files: int, ranks: int, kinds: int) -> np.ndarray:
    """The active inputs of ``board`` (int8 piece codes by square) for ``viewer`` (numpy; the reference's)."""
    squares = np.flatnonzero(board)
    pieces = board[squares].astype(np.int64)
    if viewer == 1:
        squares = (ranks - 1 - squares // files) * files + squares % files
    return (((pieces >> 3) ^ viewer) * kinds + (pieces & 7) - 1) * files * ranks + squares


def mirror_files(boards: np.ndarray, files: int) -> np.ndarray:
    """Boards [N, squares] reflected left to right (file f as ``files - 1 - f``): the same position for the
    evaluation, which is symmetric that way (training data doubled)."""
    n = boards.shape[0]
    return boards.reshape(n, -1, files)[:, :, ::-1].reshape(n, -1)
