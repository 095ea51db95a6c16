"""Xiangqi as the shared search sees it: the game interface (``alphabeta.GAME_INTERFACE``, ``perft``), and the
search and perft compiled for it (``engine.template``).

The search and perft are loaded from numba's cache (or compiled, once) on first use; no other game's kernels
are ever imported.
"""
import numpy as np
from numba import njit

from .. import alphabeta as _alphabeta, perft as _perft
from ..egtb.probe import arrays_type as tables_type, tb_node_score  # noqa: F401
from ..template import instantiate
from ..nnue import kernels as _nnue
from ..moving import move_from, move_to
from ..scores import MATE_SCORE, NO_SCORE
from .board import (H_CAPTURED, H_CHECK, H_CLOCK, H_MOVE, NULL_MOVE, MAX_MOVES, PIECE_CODES, NSQ,  # noqa: F401
                    ST_PLY, ST_SIDE, BLACK_BIT, HORSE, ROOK, CANNON, PAWN, ADVISOR, ELEPHANT, new_state, make_move,
                    unmake_move, make_null_move, unmake_null_move)
from .constants import FILES, KINDS, MOVE_LIMIT_PLIES, NAME, RANKS  # noqa: F401
from .evaluate import PIECE_VALUE, evaluate  # noqa: F401
from .movegen import GEN_ALL, GEN_CAPTURES, generate, gives_check, in_check, is_legal  # noqa: F401
from .repetition import repetition_score  # noqa: F401
from .see import see_ge as _see_ge
from .tables.probe import tb_probe

HISTORY_SIZE = PIECE_CODES * NSQ        # quiet-move history by (piece code, destination)
MVV_SCALE, LVA_SCALE = 16, 16           # captures ordered by victim value first, cheaper attacker second


@njit(cache=True, inline="always")
def generate_moves(board, st, moves, mode):
    """Pseudo-legal moves of the side to move (GEN_ALL or GEN_CAPTURES) into ``moves``; their number."""
    return generate(board, st[ST_SIDE], moves, mode)


@njit(cache=True, inline="always")
def see_ge(board, st, move, threshold):
    """Does the capture win at least ``threshold`` (static exchange; the board alone decides in xiangqi)?"""
    return _see_ge(board, move, threshold)


@njit(cache=True, inline="always")
def is_capture(board, move):
    return board[move_to(move)] != 0


@njit(cache=True, inline="always")
def capture_order(board, move):
    """MVV/LVA: the most valuable victim first, then the least valuable attacker."""
    return (PIECE_VALUE[board[move_to(move)] & 7] * MVV_SCALE
            - PIECE_VALUE[board[move_from(move)] & 7] // LVA_SCALE)


@njit(cache=True, inline="always")
def captured_value(board, move):
    """Nominal value of the piece a capture takes (quiescence's delta pruning)."""
    return PIECE_VALUE[board[move_to(move)] & 7]


@njit(cache=True, inline="always")
def history_index(board, move):
    """The moving piece and its destination, as one index below HISTORY_SIZE."""
    return board[move_from(move)] * NSQ + move_to(move)


@njit(cache=True)
def null_move_allowed(board, st):
    """Enough pieces for null-move pruning to be safe: a rook, or two horses/cannons (zugzwang is real in
    xiangqi endings with only soldiers, advisors and elephants)."""
    count = 0
    base = st[ST_SIDE] * BLACK_BIT
    for sq in range(NSQ):
        p = board[sq] - base
        if p == ROOK:
            return True
        if p == HORSE or p == CANNON:
            count += 1
    return count >= 2


@njit(cache=True, inline="always")
def no_move_score(checked, ply):
    """No legal move loses in xiangqi, in check or not."""
    return -MATE_SCORE + ply


@njit(cache=True, inline="always")
def probe_tables(tb, board, st, hist, allow_disk, ply):
    """The tables' score of a node entered by a capture (the only way into smaller material; a node entered
    quietly is in the tables only if its parent was, and that one returned), else NO_SCORE."""
    if hist[st[ST_PLY] - 1, H_CAPTURED] == 0:
        return NO_SCORE
    return tb_node_score(tb_probe(tb, board, st[ST_SIDE], allow_disk), ply)


@njit(cache=True, inline="always")
def net_move_inputs(board, hist, ply, move):
    """What the move played at ``ply`` changed for the network (``engine.nnue.kernels``), as (piece taken off,
    its square) twice and (piece put on, its square) twice, 0 for none: the mover off and on, the captured
    piece off."""
    to = move_to(move)
    return board[to], move_from(move), hist[ply, H_CAPTURED], to, board[to], to, 0, 0


net_evaluate = instantiate(_nnue.TEMPLATE, globals(), NAME).net_evaluate


alphabeta = instantiate(_alphabeta.TEMPLATE, globals(), NAME)   # alphabeta.search, alphabeta.pvs ...
perft = instantiate(_perft.TEMPLATE, globals(), NAME)           # perft.count, perft.perft
