"""Chess as the shared search sees it: the game interface (``alphabeta.GAME_INTERFACE``, ``perft``), and the
search and perft compiled for it (``engine.template``).  A chess process never loads xiangqi's kernels.
"""
import numpy as np
from numba import njit

from .. import alphabeta as _alphabeta, perft as _perft
from ..egtb.probe import arrays_type as tables_type, tb_node_score  # noqa: F401
from ..template import instantiate
from ..nnue import kernels as _nnue
from ..moving import move_from, move_promotion
from ..scores import DRAW_SCORE, MATE_SCORE, NO_SCORE
from .board import (CASTLING_ROOK_FROM, CASTLING_ROOK_TO, NULL_MOVE, captured_square, is_promotion,  # noqa: F401
                    make_move, make_null_move, move_target, new_state, unmake_move, unmake_null_move)
from .constants import (BISHOP, H_CAPTURED, H_CHECK, H_CLOCK, H_MOVE, KNIGHT, MAX_MOVES, MOVE_LIMIT_PLIES,  # noqa: F401
                        NAME, NSQ, PAWN, PIECE_CODES, PROMOTION_KINDS, QUEEN, ROOK, ST_BB, ST_CASTLING, ST_EP, ST_PLY,
                        ST_SIDE, BLACK_BIT, FILES, H_EP, H_MOVED, KING, KINDS, RANKS)
from .bitboard import bb
from .evaluate import PIECE_VALUE, evaluate  # noqa: F401
from .movegen import GEN_ALL, GEN_CAPTURES, generate, gives_check, in_check, is_legal  # noqa: F401
from .see import see_ge  # noqa: F401
from .tables.probe import tb_probe

HISTORY_SIZE = PIECE_CODES * NSQ        # quiet-move history by (piece code, destination)
MVV_SCALE, LVA_SCALE = 16, 16           # captures ordered by victim value first, cheaper attacker second


@njit(cache=True, inline="always")
def generate_moves(board, st, moves, mode):
    """Pseudo-legal moves of the side to move (GEN_ALL or GEN_CAPTURES; evasions in check) into ``moves``."""
    return generate(board, st, moves, mode)


@njit(cache=True, inline="always")
def victim_kind(board, move):
    """The kind of piece a move captures (a pawn for en passant), 0 if none."""
    frm = move_from(move)
    to = move_target(move)
    victim = board[to] & 7
    if victim == 0 and board[frm] & 7 == PAWN and (frm & 7) != (to & 7):
        victim = PAWN
    return victim


@njit(cache=True, inline="always")
def _gain(board, move):
    """Material a tactical move wins at once: the victim (a pawn for en passant) and a queen promotion's gain."""
    gain = PIECE_VALUE[victim_kind(board, move)]
    if is_promotion(move) and PROMOTION_KINDS[move_promotion(move)] == QUEEN:
        gain += PIECE_VALUE[QUEEN] - PIECE_VALUE[PAWN]
    return gain


@njit(cache=True, inline="always")
def is_capture(board, move):
    """Captures, en passant and promotions to a queen: the tactical moves (ordered as captures, searched by
    quiescence, never reduced as quiets)."""
    return _gain(board, move) > 0


@njit(cache=True, inline="always")
def capture_order(board, move):
    """MVV/LVA: the most valuable victim first, then the least valuable attacker."""
    return _gain(board, move) * MVV_SCALE - PIECE_VALUE[board[move_from(move)] & 7] // LVA_SCALE


@njit(cache=True, inline="always")
def captured_value(board, move):
    return _gain(board, move)


@njit(cache=True, inline="always")
def history_index(board, move):
    return board[move_from(move)] * NSQ + move_target(move)


@njit(cache=True)
def null_move_allowed(board, st):
    """The side to move has a piece besides pawns and king (zugzwang is common in pawn endings)."""
    base = ST_BB + st[ST_SIDE] * BLACK_BIT
    return (bb(st, base + KNIGHT) | bb(st, base + BISHOP) | bb(st, base + ROOK) | bb(st, base + QUEEN)) != 0


@njit(cache=True, inline="always")
def no_move_score(checked, ply):
    """Checkmate loses; stalemate is a draw."""
    return -MATE_SCORE + ply if checked else DRAW_SCORE


@njit(cache=True)
def repetition_score(board, st, hist, keys):
    """A draw if the position occurred before, since the last capture or pawn move and with no null move in
    between (the search scores the first repetition as the draw a threefold one would be)."""
    ply = st[ST_PLY]
    first = max(0, ply - hist[ply, H_CLOCK])
    i = ply - 2
    while i >= first:
        if hist[i, H_MOVE] == NULL_MOVE or hist[i + 1, H_MOVE] == NULL_MOVE:
            break
        if keys[i, 0] == keys[ply, 0] and keys[i, 1] == keys[ply, 1]:
            return DRAW_SCORE
        i -= 2
    return NO_SCORE


@njit(cache=True, inline="always")
def probe_tables(tb, board, st, hist, allow_disk, ply):
    """The tables' score of a node entered by a capture or a promotion (the only moves that change the
    material; a node entered otherwise is in the tables only if its parent was, and that one returned), else
    NO_SCORE.  Positions with castling rights or an en-passant square are not table entries: NO_SCORE."""
    last = st[ST_PLY] - 1
    if hist[last, H_CAPTURED] == 0 and not is_promotion(hist[last, H_MOVE]):
        return NO_SCORE
    if st[ST_CASTLING] != 0 or st[ST_EP] != 0:
        return NO_SCORE
    return tb_node_score(tb_probe(tb, board, st[ST_SIDE], allow_disk), ply)


@njit(cache=True, inline="always")
def net_move_inputs(board, hist, ply, move):
    """What the move played at ``ply`` changed for the network (``engine.nnue.kernels``), as (piece taken off,
    its square) twice and (piece put on, its square) twice, 0 for none: the mover off its square and on --
    promoted -- its new one; the captured piece off, en passant on its own square; castling's rook moved."""
    frm = move_from(move)
    to = move_target(move)
    moved = hist[ply, H_MOVED]
    if moved & 7 == KING and (to - frm == 2 or frm - to == 2):
        rook_to = CASTLING_ROOK_TO[to]
        return moved, frm, board[rook_to], CASTLING_ROOK_FROM[to], moved, to, board[rook_to], rook_to
    return moved, frm, hist[ply, H_CAPTURED], captured_square(moved, to, hist[ply, H_EP]), board[to], to, 0, 0


net_evaluate = instantiate(_nnue.TEMPLATE, globals(), NAME).net_evaluate


alphabeta = instantiate(_alphabeta.TEMPLATE, globals(), NAME)   # alphabeta.search, alphabeta.pvs ...
perft = instantiate(_perft.TEMPLATE, globals(), NAME)           # perft.count, perft.perft
