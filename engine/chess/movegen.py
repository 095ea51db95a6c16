"""Chess move generation, attacks and legality on bitboards (numba kernels).

Generation is pseudo-legal, by target masks: outside check, captures (``GEN_CAPTURES``: captures, en passant
and promotions to a queen -- the moves quiescence searches) or every move (``GEN_ALL``, castling included,
whose squares are tested for attacks here).  In check a dedicated evasion generator takes over: king steps,
and, against a single checker, captures of it and interpositions -- nothing else is generated.

``is_legal`` then decides for the few moves that can still leave the own king attacked: king steps (the
destination is tested with the king off the board, so it cannot hide behind itself), en passant (two pawns
leave one rank at once) and moves of a piece on a line with its king that leave that line (a pin, tested by
the sliders' attacks from the king after the move).  Every other move is legal without a look at the board.
"""
import numpy as np
from numba import njit

from ..moving import move_from, pack_move
from .bitboard import (BETWEEN, KING_ATTACKS, KNIGHT_ATTACKS, LINE, PAWN_ATTACKS, SQUARE_BB, ZERO, bb,
                       bishop_attacks, lsb, rook_attacks)
from .board import CASTLING_ROOK_FROM, PROMOTION_FLAG, move_target, promoted_piece
from .constants import (PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, WHITE, BLACK, BLACK_BIT, WHITE_OO, WHITE_OOO,
                        BLACK_OO, BLACK_OOO, ST_SIDE, ST_KING, ST_CASTLING, ST_EP, ST_BB, ST_OCC, MAX_MOVES)

GEN_ALL, GEN_CAPTURES = 0, 1
QUEEN_PROMOTION = 3                 # the promotion bits of a queen (constants.PROMOTION_KINDS)


@njit(cache=True, inline="always")
def pieces(st, colour, kind):
    return bb(st, ST_BB + colour * BLACK_BIT + kind)


@njit(cache=True, inline="always")
def occupied(st):
    return bb(st, ST_OCC) | bb(st, ST_OCC + 1)


@njit(cache=True)
def attackers_to(st, sq, occ):
    """Pieces of both colours that attack ``sq`` with ``occ`` as the occupied squares."""
    rooks = pieces(st, WHITE, ROOK) | pieces(st, WHITE, QUEEN) | pieces(st, BLACK, ROOK) | pieces(st, BLACK, QUEEN)
    bishops = (pieces(st, WHITE, BISHOP) | pieces(st, WHITE, QUEEN) | pieces(st, BLACK, BISHOP)
               | pieces(st, BLACK, QUEEN))
    return ((PAWN_ATTACKS[BLACK][sq] & pieces(st, WHITE, PAWN)) | (PAWN_ATTACKS[WHITE][sq] & pieces(st, BLACK, PAWN))
            | (KNIGHT_ATTACKS[sq] & (pieces(st, WHITE, KNIGHT) | pieces(st, BLACK, KNIGHT)))
            | (KING_ATTACKS[sq] & (pieces(st, WHITE, KING) | pieces(st, BLACK, KING)))
            | (rook_attacks(sq, occ) & rooks) | (bishop_attacks(sq, occ) & bishops))


@njit(cache=True)
def is_attacked(st, sq, by):
    """Does a piece of ``by`` attack ``sq``?"""
    return (attackers_to(st, sq, occupied(st)) & bb(st, ST_OCC + by)) != ZERO


@njit(cache=True)
def checkers(st):
    """The enemy pieces giving check to the side to move."""
    us = st[ST_SIDE]
    return attackers_to(st, st[ST_KING + us], occupied(st)) & bb(st, ST_OCC + (us ^ 1))


@njit(cache=True)
def in_check(board, st):
    return checkers(st) != ZERO


@njit(cache=True, inline="always")
def _add_targets(moves, n, frm, targets):
    while targets:
        to = lsb(targets)
        targets &= targets - np.uint64(1)
        moves[n] = pack_move(frm, to, 0)
        n += 1
    return n


@njit(cache=True, inline="always")
def _add_pawn_move(moves, n, frm, to, mode):
    """A pawn move; on the last rank one move per promotion piece (queen only for GEN_CAPTURES)."""
    if to < 8 or to >= 56:
        if mode == GEN_CAPTURES:
            moves[n] = pack_move(frm, to | PROMOTION_FLAG, QUEEN_PROMOTION)
            return n + 1
        for promotion in range(QUEEN_PROMOTION, -1, -1):
            moves[n] = pack_move(frm, to | PROMOTION_FLAG, promotion)
            n += 1
        return n
    moves[n] = pack_move(frm, to, 0)
    return n + 1


@njit(cache=True)
def _pawn_moves(st, moves, n, us, capture_target, quiet_target, promotion_target, ep, ep_allowed, mode):
    """Pawn captures onto ``capture_target``, pushes onto ``quiet_target``, promoting pushes onto
    ``promotion_target``, and en passant when ``ep_allowed``."""
    empty = ~occupied(st)
    forward = 8 if us == WHITE else -8
    double_from = 1 if us == WHITE else 6             # the rank a double step starts from
    pawns = pieces(st, us, PAWN)
    while pawns:
        frm = lsb(pawns)
        pawns &= pawns - np.uint64(1)
        caps = PAWN_ATTACKS[us][frm] & capture_target
        while caps:
            to = lsb(caps)
            caps &= caps - np.uint64(1)
            n = _add_pawn_move(moves, n, frm, to, mode)
        if ep_allowed and ep != 0 and (PAWN_ATTACKS[us][frm] & SQUARE_BB[ep]):
            moves[n] = pack_move(frm, ep, 0)
            n += 1
        to = frm + forward
        if empty & SQUARE_BB[to]:
            if to < 8 or to >= 56:
                if promotion_target & SQUARE_BB[to]:
                    n = _add_pawn_move(moves, n, frm, to, mode)
            else:
                if quiet_target & SQUARE_BB[to]:
                    moves[n] = pack_move(frm, to, 0)
                    n += 1
                to2 = to + forward
                if frm >> 3 == double_from and quiet_target & empty & SQUARE_BB[to2]:
                    moves[n] = pack_move(frm, to2, 0)
                    n += 1
    return n


@njit(cache=True)
def _piece_moves(st, moves, n, us, targets):
    """Knight, bishop, rook and queen moves onto ``targets``."""
    occ = occupied(st)
    for kind in (KNIGHT, BISHOP, ROOK, QUEEN):
        group = pieces(st, us, kind)
        while group:
            frm = lsb(group)
            group &= group - np.uint64(1)
            if kind == KNIGHT:
                att = KNIGHT_ATTACKS[frm]
            elif kind == BISHOP:
                att = bishop_attacks(frm, occ)
            elif kind == ROOK:
                att = rook_attacks(frm, occ)
            else:
                att = bishop_attacks(frm, occ) | rook_attacks(frm, occ)
            n = _add_targets(moves, n, frm, att & targets)
    return n


@njit(cache=True)
def _castling_moves(st, moves, n, us):
    rights = st[ST_CASTLING]
    occ = occupied(st)
    them = us ^ 1
    king = 4 if us == WHITE else 60
    short, long_ = (WHITE_OO, WHITE_OOO) if us == WHITE else (BLACK_OO, BLACK_OOO)
    if rights & short and not (BETWEEN[king, CASTLING_ROOK_FROM[king + 2]] & occ):
        if not is_attacked(st, king + 1, them) and not is_attacked(st, king + 2, them):
            moves[n] = pack_move(king, king + 2, 0)
            n += 1
    if rights & long_ and not (BETWEEN[king, CASTLING_ROOK_FROM[king - 2]] & occ):
        if not is_attacked(st, king - 1, them) and not is_attacked(st, king - 2, them):
            moves[n] = pack_move(king, king - 2, 0)
            n += 1
    return n


@njit(cache=True)
def generate(board, st, moves, mode):
    """Pseudo-legal moves of the side to move into ``moves`` (GEN_ALL or GEN_CAPTURES; evasions when in
    check); returns their number.  Castling is generated only when fully legal."""
    us = st[ST_SIDE]
    own = bb(st, ST_OCC + us)
    enemy = bb(st, ST_OCC + (us ^ 1))
    ksq = st[ST_KING + us]
    ep = st[ST_EP]
    check = checkers(st)
    quiet_all = ~(own | enemy) if mode == GEN_ALL else ZERO
    n = _add_targets(moves, 0, ksq, KING_ATTACKS[ksq] & (enemy | quiet_all))
    if check:
        if check & (check - np.uint64(1)):
            return n                                    # double check: only the king may move
        checker = lsb(check)
        block = BETWEEN[ksq, checker]
        # En passant evades a check by the pawn it captures.
        ep_ok = ep != 0 and (ep - 8 if us == WHITE else ep + 8) == checker
        n = _pawn_moves(st, moves, n, us, check, block & quiet_all, block, ep, ep_ok, mode)
        return _piece_moves(st, moves, n, us, check | (block & quiet_all))
    n = _pawn_moves(st, moves, n, us, enemy, quiet_all, ~(own | enemy), ep, True, mode)
    n = _piece_moves(st, moves, n, us, enemy | quiet_all)
    if mode == GEN_ALL:
        n = _castling_moves(st, moves, n, us)
    return n


@njit(cache=True)
def is_legal(board, st, move, checked):
    """Is a move from ``generate`` (in this position) legal?"""
    frm = move_from(move)
    to = move_target(move)
    piece = board[frm]
    us = piece >> 3
    them = us ^ 1
    enemy = bb(st, ST_OCC + them)
    occ = occupied(st)
    if piece & 7 == KING:
        if to - frm == 2 or frm - to == 2:
            return True                                 # castling: tested when generated
        return (attackers_to(st, to, occ ^ SQUARE_BB[frm]) & enemy & ~SQUARE_BB[to]) == ZERO
    ksq = st[ST_KING + us]
    if piece & 7 == PAWN and (frm & 7) != (to & 7) and board[to] == 0:
        # En passant: the capturing and the captured pawn leave the board's lines at once.
        cap_sq = to - 8 if us == WHITE else to + 8
        after = (occ ^ SQUARE_BB[frm] ^ SQUARE_BB[cap_sq]) | SQUARE_BB[to]
        return (attackers_to(st, ksq, after) & enemy & ~SQUARE_BB[cap_sq]) == ZERO
    line = LINE[ksq, frm]
    if line == ZERO or line & SQUARE_BB[to]:
        return True                                     # not on a line with the king, or staying on it
    after = (occ ^ SQUARE_BB[frm]) | SQUARE_BB[to]
    sliders = ((rook_attacks(ksq, after) & (pieces(st, them, ROOK) | pieces(st, them, QUEEN)))
               | (bishop_attacks(ksq, after) & (pieces(st, them, BISHOP) | pieces(st, them, QUEEN))))
    return (sliders & ~SQUARE_BB[to]) == ZERO


@njit(cache=True)
def gives_check(board, st, move):
    """Does a (legal) move give check: directly, by discovery, by promotion, en passant or castling?"""
    frm = move_from(move)
    to = move_target(move)
    piece = board[frm]
    us = piece >> 3
    ksq = st[ST_KING + (us ^ 1)]
    king_bit = SQUARE_BB[ksq]
    landed = promoted_piece(piece, move)
    occ = (occupied(st) ^ SQUARE_BB[frm]) | SQUARE_BB[to]
    rooks = (pieces(st, us, ROOK) | pieces(st, us, QUEEN)) & ~SQUARE_BB[frm]
    bishops = (pieces(st, us, BISHOP) | pieces(st, us, QUEEN)) & ~SQUARE_BB[frm]
    kind = landed & 7
    if kind == ROOK or kind == QUEEN:
        rooks |= SQUARE_BB[to]
    if kind == BISHOP or kind == QUEEN:
        bishops |= SQUARE_BB[to]
    if piece & 7 == PAWN and board[to] == 0 and (frm & 7) != (to & 7):
        occ ^= SQUARE_BB[to - 8 if us == WHITE else to + 8]        # en passant
    if piece & 7 == KING and (to - frm == 2 or frm - to == 2):
        rf, rt = CASTLING_ROOK_FROM[to], to + (1 if to < frm else -1)
        occ = (occ ^ SQUARE_BB[rf]) | SQUARE_BB[rt]
        rooks = (rooks & ~SQUARE_BB[rf]) | SQUARE_BB[rt]
    if (rook_attacks(ksq, occ) & rooks) or (bishop_attacks(ksq, occ) & bishops):
        return True
    if kind == KNIGHT:
        return (KNIGHT_ATTACKS[to] & king_bit) != ZERO
    if kind == PAWN:
        return (PAWN_ATTACKS[us][to] & king_bit) != ZERO
    return False


@njit(cache=True)
def generate_legal(board, st, moves, mode):
    """Legal moves only (the Python edge and the referee; the search filters lazily)."""
    n = generate(board, st, moves, mode)
    checked = in_check(board, st)
    k = 0
    for i in range(n):
        if is_legal(board, st, moves[i], checked):
            moves[k] = moves[i]
            k += 1
    return k


def move_buffer():
    return np.zeros(MAX_MOVES, np.int32)
