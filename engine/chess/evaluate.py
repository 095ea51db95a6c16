"""Static evaluation for chess (numba): ``evaluate(board, st)`` -> centipawns from the side to move's view.

Scale: a pawn is about 100 in the middle game (``engine.scores``: |eval| stays far below 20000).

Terms, each side from its own view, White's minus Black's, tapered between middle game (mg) and ending (eg) by
the game phase (knights and bishops 1, rooks 2, queens 4; 24 at the start):

* material, and piece-square terms made from a few shapes -- centralisation for knights, bishops and queens,
  the seventh rank for rooks, advancement for pawns, shelter on the back rank for the king in the middle game
  and centralisation in the ending;
* mobility: squares each knight, bishop, rook and queen attacks that hold no own piece, against a par count;
* pawn structure: passed pawns by rank, doubled and isolated pawns;
* the bishop pair, rooks on open and half-open files, the king's pawn shield;
* a tempo for the side to move; and a side with no pawns and at most a minor piece's advantage cannot win, so
  its advantage is scaled down.

The weights are this project's own round starting figures (below), not another engine's tables; they are the
values the project's tuner is to fit (``engine/tune`` fits xiangqi's so far).  Every term is colour-symmetric
(tests/test_chess.py checks it on mirrored positions).
"""
import numpy as np
from numba import njit

from .bitboard import FILE_BB, KNIGHT_ATTACKS, PAWN_ATTACKS, ZERO, bb, bishop_attacks, lsb, \
    popcount, rook_attacks
from .constants import BISHOP, BLACK, BLACK_BIT, KING, KNIGHT, NSQ, PAWN, QUEEN, ROOK, ST_BB, ST_KING, ST_OCC, \
    ST_SIDE, WHITE

# Nominal values by kind for the search (MVV/LVA, SEE, delta pruning).  The king is 0: never captured.
PIECE_VALUE = np.array([0, 100, 320, 330, 500, 950, 0, 0], np.int32)

MATERIAL_MG = np.array([0, 100, 320, 330, 480, 950, 0], np.int32)
MATERIAL_EG = np.array([0, 120, 300, 320, 540, 1000, 0], np.int32)
PHASE_WEIGHT = np.array([0, 0, 1, 1, 2, 4, 0], np.int32)
PHASE_FULL = 24
# Mobility: (count - par) * weight, per kind (mg, eg).
MOBILITY_PAR = np.array([0, 0, 4, 6, 7, 13, 0], np.int32)
MOBILITY_MG = np.array([0, 0, 4, 5, 3, 2, 0], np.int32)
MOBILITY_EG = np.array([0, 0, 4, 5, 5, 4, 0], np.int32)
# Pawn structure, by the pawn's rank from its own side (0..7).
PASSED_MG = np.array([0, 5, 10, 15, 25, 45, 70, 0], np.int32)
PASSED_EG = np.array([0, 10, 20, 35, 55, 85, 130, 0], np.int32)
DOUBLED_MG, DOUBLED_EG = 10, 20
ISOLATED_MG, ISOLATED_EG = 12, 15
BISHOP_PAIR_MG, BISHOP_PAIR_EG = 30, 50
ROOK_OPEN_MG, ROOK_OPEN_EG = 25, 10
ROOK_HALF_OPEN_MG, ROOK_HALF_OPEN_EG = 12, 5
SHIELD_MG = 12                  # per own pawn on the three files around the king, one or two ranks ahead
TEMPO = 12
NO_PAWN_DIVISOR = 8             # no pawns and at most a minor ahead: the advantage is divided by this


def _piece_square_tables():
    """[kind, square] from White's view, (mg, eg): the shapes named in the module docstring."""
    mg = np.zeros((7, NSQ), np.int32)
    eg = np.zeros((7, NSQ), np.int32)
    for sq in range(NSQ):
        f, r = sq % 8, sq // 8
        centre = max(abs(f - 3.5), abs(r - 3.5)) - 0.5          # 0 in the middle four squares .. 3 on the edge
        mg[KNIGHT, sq] = int(20 - 14 * centre)
        eg[KNIGHT, sq] = int(15 - 10 * centre)
        mg[BISHOP, sq] = int(10 - 6 * centre)
        eg[BISHOP, sq] = int(8 - 5 * centre)
        mg[ROOK, sq] = 20 if r == 6 else (5 if 2 < f < 5 and r == 0 else 0)
        mg[QUEEN, sq] = int(4 - 3 * centre)
        eg[QUEEN, sq] = int(10 - 6 * centre)
        if 1 <= r <= 6:
            mg[PAWN, sq] = (0, 0, 4, 10, 18, 30, 50)[r] + (8 if 2 <= f <= 5 and 2 <= r <= 4 else 0)
            eg[PAWN, sq] = (0, 0, 5, 12, 25, 45, 75)[r]
        mg[KING, sq] = -35 * r + (25 if r == 0 and f in (1, 2, 6) else 0) - (10 if r == 0 and f in (3, 4, 5) else 0)
        eg[KING, sq] = int(20 - 12 * centre)
    return mg, eg


PST_MG, PST_EG = _piece_square_tables()


def _pawn_masks():
    """[colour, square]: the squares ahead on its file (doubled pawns), ahead on its own and the adjacent files
    (passed pawns), and the king's shield (one and two ranks ahead, own and adjacent files)."""
    file_ahead = np.zeros((2, NSQ), np.uint64)
    passed = np.zeros((2, NSQ), np.uint64)
    shield = np.zeros((2, NSQ), np.uint64)
    for colour, step in ((WHITE, 1), (BLACK, -1)):
        for sq in range(NSQ):
            f, r = sq % 8, sq // 8
            for rr in range(8):
                if (rr - r) * step <= 0:
                    continue
                for ff in (f - 1, f, f + 1):
                    if 0 <= ff < 8:
                        bit = np.uint64(1 << (rr * 8 + ff))
                        passed[colour, sq] |= bit
                        if ff == f:
                            file_ahead[colour, sq] |= bit
                        if (rr - r) * step <= 2:
                            shield[colour, sq] |= bit
    return file_ahead, passed, shield


FILE_AHEAD, PASSED_MASK, SHIELD_MASK = _pawn_masks()


@njit(cache=True, inline="always")
def _own_square(colour, sq):
    """The square as seen from ``colour``'s side (Black's board mirrored by rank)."""
    return sq if colour == WHITE else sq ^ 56


@njit(cache=True)
def _side_terms(st, colour, occ):
    """(mg, eg, phase, pawn count, non-pawn material) of one side."""
    mg = 0
    eg = 0
    phase = 0
    own = bb(st, ST_OCC + colour)
    base = ST_BB + colour * BLACK_BIT
    enemy_base = ST_BB + (colour ^ 1) * BLACK_BIT
    own_pawns = bb(st, base + PAWN)
    enemy_pawns = bb(st, enemy_base + PAWN)
    enemy_pawn_attacks = ZERO
    ep = enemy_pawns
    while ep:
        s = lsb(ep)
        ep &= ep - np.uint64(1)
        enemy_pawn_attacks |= PAWN_ATTACKS[colour ^ 1][s]
    non_pawn = 0
    for kind in range(PAWN, KING + 1):
        group = bb(st, base + kind)
        while group:
            sq = lsb(group)
            group &= group - np.uint64(1)
            o = _own_square(colour, sq)
            mg += MATERIAL_MG[kind] + PST_MG[kind, o]
            eg += MATERIAL_EG[kind] + PST_EG[kind, o]
            phase += PHASE_WEIGHT[kind]
            if kind == PAWN:
                rank = o >> 3
                f = sq & 7
                adjacent = (FILE_BB[f - 1] if f > 0 else ZERO) | (FILE_BB[f + 1] if f < 7 else ZERO)
                if (own_pawns & adjacent) == ZERO:
                    mg -= ISOLATED_MG
                    eg -= ISOLATED_EG
                if (enemy_pawns & PASSED_MASK[colour, sq]) == ZERO:
                    mg += PASSED_MG[rank]
                    eg += PASSED_EG[rank]
                if (own_pawns & FILE_AHEAD[colour, sq]) != ZERO:
                    mg -= DOUBLED_MG
                    eg -= DOUBLED_EG
            elif kind != KING:
                non_pawn += MATERIAL_MG[kind]
                if kind == KNIGHT:
                    att = KNIGHT_ATTACKS[sq]
                elif kind == BISHOP:
                    att = bishop_attacks(sq, occ)
                elif kind == ROOK:
                    att = rook_attacks(sq, occ)
                    file_bb = FILE_BB[sq & 7]
                    if (own_pawns & file_bb) == ZERO:
                        if (enemy_pawns & file_bb) == ZERO:
                            mg += ROOK_OPEN_MG
                            eg += ROOK_OPEN_EG
                        else:
                            mg += ROOK_HALF_OPEN_MG
                            eg += ROOK_HALF_OPEN_EG
                else:
                    att = bishop_attacks(sq, occ) | rook_attacks(sq, occ)
                mobility = popcount(att & ~own & ~enemy_pawn_attacks) - MOBILITY_PAR[kind]
                mg += mobility * MOBILITY_MG[kind]
                eg += mobility * MOBILITY_EG[kind]
    if popcount(bb(st, base + BISHOP)) >= 2:
        mg += BISHOP_PAIR_MG
        eg += BISHOP_PAIR_EG
    # The king's shelter: own pawns in front of it, one or two ranks ahead on its own and the adjacent files.
    king = st[ST_KING + colour]
    mg += SHIELD_MG * min(popcount(SHIELD_MASK[colour, king] & own_pawns), 3)
    return mg, eg, phase, popcount(own_pawns), non_pawn


@njit(cache=True)
def evaluate(board, st):
    occ = bb(st, ST_OCC) | bb(st, ST_OCC + 1)
    wmg, weg, wphase, wpawns, wmat = _side_terms(st, WHITE, occ)
    bmg, beg, bphase, bpawns, bmat = _side_terms(st, BLACK, occ)
    phase = min(wphase + bphase, PHASE_FULL)
    mg = wmg - bmg
    eg = weg - beg
    score = (mg * phase + eg * (PHASE_FULL - phase)) // PHASE_FULL
    # Without pawns, an advantage of at most a minor piece rarely wins.
    if score > 0 and wpawns == 0 and wmat - bmat <= MATERIAL_MG[BISHOP]:
        score //= NO_PAWN_DIVISOR
    elif score < 0 and bpawns == 0 and bmat - wmat <= MATERIAL_MG[BISHOP]:
        score = -((-score) // NO_PAWN_DIVISOR)
    if st[ST_SIDE] == BLACK:
        score = -score
    return score + TEMPO
