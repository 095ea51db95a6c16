"""Xiangqi's moves as the table generator walks them: a capture's value read from the smaller table it leads
into, and a position's predecessors (un-moves, non-captures only) for both boards of its mirror class.  Used by
the levels (:mod:`.generate`) and the perpetual-check pass (:mod:`.rule`)."""
import numpy as np
from numba import njit

from ....egtb.material import MAX_SLOTS
from ...board import (NSQ, ST_LEN, MAX_MOVES, ADVISOR, ELEPHANT, HORSE, ROOK, CANNON, PAWN, RAYS, KING_TO,
                     ADVISOR_TO, ELEPHANT_TO, ELEPHANT_EYE, HORSE_FROM, HORSE_FROM_LEG, PAWN_FROM, LEGAL_SQUARES,
                     lift_move, unlift_move)
from ..index import MIRROR, KP_CODE, encode_board, encode_slots


@njit(cache=True)
def position_work():
    """The work arrays of a kernel that decodes positions and walks their moves: the slots' squares, a scratch
    copy of them for ``capture_code``, the board, the board's state and a move list."""
    return (np.zeros(MAX_SLOTS, np.int64), np.zeros(MAX_SLOTS, np.int64), np.zeros(NSQ, np.int8),
            np.zeros(ST_LEN, np.int32), np.zeros(MAX_MOVES, np.int32))


@njit(cache=True, inline="always")
def capture_code(board, side, frm, to, sub_specs, sub_vals, sub_off, cap_sub, cap_flip, work):
    """Value code, in the smaller table the capture leads into, of the position after ``side`` captures from
    ``frm`` on ``to`` (the board is restored)."""
    cap = lift_move(board, frm, to)
    t = cap_sub[cap]
    sidx = encode_board(board, side ^ 1, sub_specs[t], cap_flip[cap], work)
    unlift_move(board, frm, to, cap)
    return sub_vals[sub_off[t] + sidx]


@njit(cache=True, inline="always")
def empty_origins(board, squares, blocks, blockable, allowed, out, n):
    """Append to ``out`` the empty squares of ``squares`` (a ``-1``-terminated table row) that ``allowed`` permits
    -- with ``blockable``, only where the matching square of ``blocks`` is empty too."""
    for i in range(len(squares)):
        f = squares[i]
        if f < 0:
            break
        if board[f] == 0 and allowed[f] and not (blockable and board[blocks[i]] != 0):
            out[n] = f
            n += 1
    return n


@njit(cache=True, inline="always")
def unmove_squares(board, sq, piece, out):
    """Squares ``piece`` (standing on ``sq``) could have come from by a non-capture; returns their number."""
    n = 0
    kind = piece & 7
    colour = piece >> 3
    allowed = LEGAL_SQUARES[colour, kind]          # a soldier never stood behind its start; the others always may
    if kind == ROOK or kind == CANNON:
        for d in range(4):
            for i in range(10):
                f = RAYS[sq, d, i]
                if f < 0 or board[f] != 0:
                    break
                out[n] = f
                n += 1
    elif kind == HORSE:
        n = empty_origins(board, HORSE_FROM[sq], HORSE_FROM_LEG[sq], True, allowed, out, n)
    elif kind == PAWN:
        n = empty_origins(board, PAWN_FROM[colour, sq], PAWN_FROM[colour, sq], False, allowed, out, n)
    elif kind == ELEPHANT:
        n = empty_origins(board, ELEPHANT_TO[sq], ELEPHANT_EYE[sq], True, allowed, out, n)
    elif kind == ADVISOR:
        n = empty_origins(board, ADVISOR_TO[sq], ADVISOR_TO[sq], False, allowed, out, n)
    else:
        n = empty_origins(board, KING_TO[sq], KING_TO[sq], False, allowed, out, n)
    return n


MAX_PREDECESSORS = 2 * 16 * 17         # both mirror images x pieces x the squares a rook can come from


@njit(cache=True, inline="always")
def predecessors(spec, slot_pieces, psq, board, froms, mover, preds, counted, moved, origin):
    """The predecessors of the position decoded in ``psq``/``board`` (left changed): the indices reached by
    un-moving a piece of ``mover`` (non-captures), for both boards of its mirror class.  ``counted[k]``: the
    predecessor board is the representative of its class -- a move into the event counts once for its stored
    position only when restricted to these (a predecessor of the other board makes the same move mirrored).
    ``moved[k]``, ``origin[k]``: the slot un-moved and the square it came from, on the board as decoded (the
    other image's moves mirrored back: what a label of the move -- a chase -- is computed on).  Returns how
    many."""
    nslots = spec[3]
    both = (psq[0] % 9) != 4 or (psq[1] % 9) != 4          # a class of two boards: process both
    n = 0
    for image in range(2 if both else 1):
        if image == 1:
            for s in range(nslots):
                board[psq[s]] = 0
            for s in range(nslots):
                psq[s] = MIRROR[psq[s]]
                board[psq[s]] = slot_pieces[s]
        for s in range(nslots):
            piece = slot_pieces[s]
            if (piece >> 3) != mover:
                continue
            sq = psq[s]
            nf = unmove_squares(board, sq, piece, froms)
            if nf == 0:
                continue
            board[sq] = 0
            for j in range(nf):
                psq[s] = froms[j]
                preds[n] = encode_slots(psq, spec, mover)
                counted[n] = (KP_CODE[psq[0] * NSQ + psq[1]] & 1) == 0
                moved[n] = s
                origin[n] = froms[j] if image == 0 else MIRROR[froms[j]]
                n += 1
            psq[s] = sq
            board[sq] = piece
    return n
