"""Static exchange evaluation for chess (numba): does a move win at least ``threshold`` once every capture on
its destination square has been made, each side taking with its least valuable piece and stopping when
going on would lose?  Bitboards make it cheap: the attackers of the square are one mask, a capture removes a
bit, and the sliders behind it (x-rays) are found by looking again from the square with the new occupancy.
"""
from numba import njit

from ..moving import move_from
from .bitboard import SQUARE_BB, ZERO, bb, bishop_attacks, lsb, rook_attacks
from .board import is_promotion, move_target
from .constants import BISHOP, BLACK_BIT, KING, PAWN, QUEEN, ROOK, ST_BB, ST_OCC
from .evaluate import PIECE_VALUE
from .movegen import attackers_to, occupied


@njit(cache=True)
def see_ge(board, st, move, threshold):
    frm = move_from(move)
    to = move_target(move)
    piece = board[frm]
    if is_promotion(move) or (piece & 7 == KING and (to - frm == 2 or frm - to == 2)) or \
            (piece & 7 == PAWN and board[to] == 0 and (frm & 7) != (to & 7)):
        return threshold <= 0                       # promotions, castling, en passant: not judged here
    # ``balance``: what the side that moved has won so far, minus the threshold, with the piece last moved
    # onto the square as the next thing to lose.
    balance = PIECE_VALUE[board[to] & 7] - threshold
    if balance < 0:
        return False
    balance = PIECE_VALUE[piece & 7] - balance
    if balance <= 0:
        return True                                 # even losing the mover keeps the threshold
    occ = occupied(st) ^ SQUARE_BB[frm] ^ SQUARE_BB[to]
    attackers = attackers_to(st, to, occ)
    diagonal = bb(st, ST_BB + BISHOP) | bb(st, ST_BB + QUEEN) | bb(st, ST_BB + BLACK_BIT + BISHOP) | \
        bb(st, ST_BB + BLACK_BIT + QUEEN)
    straight = bb(st, ST_BB + ROOK) | bb(st, ST_BB + QUEEN) | bb(st, ST_BB + BLACK_BIT + ROOK) | \
        bb(st, ST_BB + BLACK_BIT + QUEEN)
    side = piece >> 3
    result = 1                                      # 1: the mover's side is ahead of the threshold
    while True:
        side ^= 1
        attackers &= occ
        mine = attackers & bb(st, ST_OCC + side)
        if mine == ZERO:
            break
        result ^= 1
        kind = PAWN
        group = ZERO
        for k in range(PAWN, KING + 1):
            group = mine & bb(st, ST_BB + side * BLACK_BIT + k)
            if group != ZERO:
                kind = k
                break
        if kind == KING:
            # The king may take only if nothing of the other side still attacks the square.
            if (attackers & bb(st, ST_OCC + (side ^ 1))) != ZERO:
                result ^= 1
            break
        balance = PIECE_VALUE[kind] - balance
        if balance < result:
            break
        occ ^= SQUARE_BB[lsb(group)]
        if kind == PAWN or kind == BISHOP or kind == QUEEN:
            attackers |= bishop_attacks(to, occ) & diagonal
        if kind == ROOK or kind == QUEEN:
            attackers |= rook_attacks(to, occ) & straight
    return result == 1
