"""Static evaluation (numba): ``evaluate(board, st)`` -> centipawn-like score from the side to move's view.

Scale: a pawn before the river is worth about 100, a rook about 950; crossed pawns gain value (up to ~4 pawns
in an ending, near the palace), advisors and elephants about 90-180 depending on how much the opponent threatens.
|eval| stays far below 20000 (mate scores are ~30000).

Terms, all computed in one pass over the 90 squares plus a few look-ups:

* material + piece-square tables, middle game (MG) and ending (EG), tapered by a phase from the rooks (6),
  horses and cannons (3 each) left on the board (quadratic curve: it stays a middle game until little is left);
* pawns: a "quiet" table plus an extra for crossed pawns that grows with the side's attacking potential
  (crossed rooks/horses 2, crossed cannons/pawns 1, plus 2 per piece of material superiority, capped at 8);
* cannon strong in the middle game, weak in the ending; horse the opposite (EG shifts);
* advisors/elephants: each is worth more when the opponent has attacking potential; a missing advisor against two
  rooks ("缺仕怕双车"), missing elephants against cannons and missing advisors against horses cost extra;
* general safety: the general's table (home square best in the middle game), the hollow cannon (空头炮) and the
  cannon pinning a horse in the palace centre (炮镇窝心马) against a general with both advisors on its back rank,
  a central cannon with two screens and a bottom cannon (沉底炮) against a general whose advisors stand to one side,
  the general standing in the palace centre while it has both advisors;
* rook mobility (empty squares along its four lines); horse mobility (safe-ish destinations, trapped horses);
* mop-up in won endings: when one side has no rook, horse or cannon left and the other has enough to mate, the
  strong side is rewarded for every palace square of the lone general it controls and for bringing horses,
  pawns and cannons close; a side with no rook/horse/cannon/pawn cannot win, so its advantage is scaled down;
* a small tempo bonus for the side to move.

The tables started from ElephantEye's preeval tables (xqbase/eleeye, LGPL; Morning Yellow), rescaled by 4.5,
re-oriented to our board (rank 0 = Red's back rank) and adjusted (every pawn +35, horse/cannon ending shifts);
ElephantEye's pattern terms (hollow/central/bottom cannon, attack-dependent advisors) inspired the
king-safety terms.  Every term is colour- and left-right-symmetric (tests/test_evaluate.py checks it).
"""
import numpy as np
from numba import njit

from .board import (NSQ, KING, ADVISOR, ELEPHANT, HORSE, ROOK, CANNON, PAWN, RED, BLACK, BLACK_BIT,
                    ST_SIDE, ST_KING, RAYS, HORSE_TO, HORSE_LEG, LEGAL_SQUARES)
from .movegen import king_attacked

# Nominal middle-game values by kind (search: MVV/LVA, futility and delta margins).  The general is 0: it is
# never captured, and as an attacker its captures are always safe (they are legal only when unprotected).
# Crossed pawns are worth ~150-300 in this evaluation, more in an ending.
PIECE_VALUE = np.array([0, 0, 150, 150, 450, 950, 450, 100], np.int32)


def _board_table(text):
    """A table written as Red sees the board (rank 9 first, file a left) -> int32[90] indexed by square."""
    rows = [[int(v) for v in line.split()] for line in text.strip().splitlines()]
    assert len(rows) == 10 and all(len(r) == 9 for r in rows)
    table = np.zeros(NSQ, np.int32)
    for i, row in enumerate(rows):
        for f, v in enumerate(row):
            table[(9 - i) * 9 + f] = v
    return table


# --------------------------------------------------------------------------------------------------------------
# Piece-square tables for Red, material included (Black's are the same tables with ranks mirrored).
# --------------------------------------------------------------------------------------------------------------
KING_MG = _board_table("""
       0    0    0    0    0    0    0    0    0
       0    0    0    0    0    0    0    0    0
       0    0    0    0    0    0    0    0    0
       0    0    0    0    0    0    0    0    0
       0    0    0    0    0    0    0    0    0
       0    0    0    0    0    0    0    0    0
       0    0    0    0    0    0    0    0    0
       0    0    0    5    5    5    0    0    0
       0    0    0    9    9    9    0    0    0
       0    0    0   50   68   50    0    0    0
""")
KING_EG = _board_table("""
       0    0    0    0    0    0    0    0    0
       0    0    0    0    0    0    0    0    0
       0    0    0    0    0    0    0    0    0
       0    0    0    0    0    0    0    0    0
       0    0    0    0    0    0    0    0    0
       0    0    0    0    0    0    0    0    0
       0    0    0    0    0    0    0    0    0
       0    0    0   23   68   23    0    0    0
       0    0    0   14   59   14    0    0    0
       0    0    0    5   50    5    0    0    0
""")
PAWN_MG = _board_table("""
      76   76   76   85   94   85   76   76   76
     121  143  188  224  233  224  188  143  121
     121  143  179  202  202  202  179  143  121
     121  139  157  166  170  166  157  139  121
      98  116  125  157  166  157  125  116   98
      67    0   94    0  107    0   94    0   67
      67    0   67    0  103    0   67    0   67
       0    0    0    0    0    0    0    0    0
       0    0    0    0    0    0    0    0    0
       0    0    0    0    0    0    0    0    0
""")
PAWN_EG = _board_table("""
      80   80   80  103  103  103   80   80   80
      80  103  125  238  305  238  125  103   80
     148  170  170  193  193  193  170  170  148
     193  215  215  238  238  238  215  215  193
     148  170  170  193  193  193  170  170  148
     148    0  148    0  148    0  148    0  148
     125    0  125    0  125    0  125    0  125
       0    0    0    0    0    0    0    0    0
       0    0    0    0    0    0    0    0    0
       0    0    0    0    0    0    0    0    0
""")
PAWN_ATTACK_MG = _board_table("""
       0    0    0    0    0    0    0    0    0
      90  113  158  189  203  189  158  113   90
      90  113  144  167  167  167  144  113   90
      90  104  122  135  140  135  122  104   90
      68   86   95  122  135  122   95   86   68
       0    0    0    0    0    0    0    0    0
       0    0    0    0    0    0    0    0    0
       0    0    0    0    0    0    0    0    0
       0    0    0    0    0    0    0    0    0
       0    0    0    0    0    0    0    0    0
""")
PAWN_ATTACK_EG = _board_table("""
       0    0    0    0    0    0    0    0    0
     180  180  180  180  180  180  180  180  180
     180  180  180  180  180  180  180  180  180
     180  180  180  158  158  158  180  180  180
     203  180  158  158  158  158  158  180  203
      90    0   68    0   90    0   68    0   90
      90    0   68    0   90    0   68    0   90
       0    0    0    0    0    0    0    0    0
       0    0    0    0    0    0    0    0    0
       0    0    0    0    0    0    0    0    0
""")
HORSE_MG = _board_table("""
     405  405  405  432  405  432  405  405  405
     405  432  464  437  423  437  464  432  405
     414  441  446  464  446  464  446  441  414
     419  486  450  482  450  482  450  486  419
     405  450  446  464  468  464  446  450  405
     405  441  455  459  464  459  455  441  405
     414  423  441  428  441  428  441  423  414
     419  414  423  428  414  428  423  414  419
     383  405  414  419  351  419  414  405  383
     396  383  405  396  405  396  405  383  396
""")
HORSE_EG = _board_table("""
     414  423  432  432  432  432  432  423  414
     423  432  441  441  441  441  441  432  423
     432  441  450  450  450  450  450  441  432
     432  441  450  450  450  450  450  441  432
     432  441  450  450  450  450  450  441  432
     423  432  441  441  441  441  441  432  423
     423  432  441  441  441  441  441  432  423
     414  423  432  432  432  432  432  423  414
     405  414  423  414  414  414  423  414  405
     396  405  414  405  405  405  414  405  396
""")
ROOK_MG = _board_table("""
     927  936  932  959  963  959  932  936  927
     927  954  941  972 1049  972  941  954  927
     927  936  932  963  972  963  932  936  927
     927  959  959  972  972  972  959  959  927
     936  950  950  963  968  963  950  950  936
     936  954  954  963  968  963  954  954  936
     918  941  918  954  963  954  918  941  918
     891  936  918  954  954  954  918  936  891
     900  936  927  954  900  954  927  936  900
     873  927  918  954  900  954  918  927  873
""")
ROOK_EG = _board_table("""
     819  819  819  828  837  828  819  819  819
     828  828  828  837  855  837  828  828  828
     819  819  819  828  837  828  819  819  819
     810  810  810  819  828  819  810  810  810
     810  810  810  819  828  819  810  810  810
     810  810  810  819  828  819  810  810  810
     810  810  810  819  828  819  810  810  810
     810  810  810  819  828  819  810  810  810
     810  810  810  819  828  819  810  810  810
     810  810  810  819  828  819  810  810  810
""")
CANNON_MG = _board_table("""
     450  450  432  410  405  410  432  450  450
     441  441  432  414  401  414  432  441  441
     437  437  432  410  414  410  432  437  437
     432  446  446  441  450  441  446  446  432
     432  432  432  432  450  432  432  432  432
     428  432  446  432  450  432  446  432  428
     432  432  432  432  432  432  432  432  432
     437  432  450  446  455  446  450  432  437
     432  437  441  441  441  441  441  437  432
     432  432  437  446  446  446  437  432  432
""")
CANNON_EG = _board_table("""
     450  450  450  450  450  450  450  450  450
     450  450  450  450  450  450  450  450  450
     450  450  450  450  450  450  450  450  450
     450  450  450  459  468  459  450  450  450
     450  450  450  459  468  459  450  450  450
     450  450  450  459  468  459  450  450  450
     450  450  450  459  468  459  450  450  450
     450  450  450  459  468  459  450  450  450
     450  450  450  468  477  468  450  450  450
     450  450  450  468  477  468  450  450  450
""")

# Advisors and elephants: only the square matters here (their value is added per piece below): the edge
# elephant squares are a little worse, the palace centre (advisor) and the elephant's centre square better.
DEFENDER_POS = _board_table("""
       0    0    0    0    0    0    0    0    0
       0    0    0    0    0    0    0    0    0
       0    0    0    0    0    0    0    0    0
       0    0    0    0    0    0    0    0    0
       0    0    0    0    0    0    0    0    0
       0    0    0    0    0    0    0    0    0
       0    0    0    0    0    0    0    0    0
      -9    0    0    0   14    0    0    0   -9
       0    0    0    0   14    0    0    0    0
       0    0    0    0    0    0    0    0    0
""")

HORSE_EG_SHIFT = 20         # horses gain in the ending ...
CANNON_EG_SHIFT = -40       # ... cannons lose (fewer screens)


def _flip(sq):
    return (9 - sq // 9) * 9 + sq % 9


def _build_tables():
    by_kind = {KING: (KING_MG, KING_EG), ADVISOR: (DEFENDER_POS, DEFENDER_POS),
               ELEPHANT: (DEFENDER_POS, DEFENDER_POS), HORSE: (HORSE_MG, HORSE_EG + HORSE_EG_SHIFT),
               ROOK: (ROOK_MG, ROOK_EG), CANNON: (CANNON_MG, CANNON_EG + CANNON_EG_SHIFT), PAWN: (PAWN_MG, PAWN_EG)}
    mg = np.zeros((16, NSQ), np.int32)          # indexed by piece code: Red's entries > 0, Black's < 0
    eg = np.zeros((16, NSQ), np.int32)
    att_mg = np.zeros((2, NSQ), np.int32)       # extra for a crossed pawn, times (own attack potential / 8)
    att_eg = np.zeros((2, NSQ), np.int32)
    for kind, (tm, te) in by_kind.items():
        assert all(tm[sq] == tm[sq - sq % 9 + 8 - sq % 9] for sq in range(NSQ))      # left-right symmetric
        assert all(te[sq] == te[sq - sq % 9 + 8 - sq % 9] for sq in range(NSQ))
        for sq in range(NSQ):
            if LEGAL_SQUARES[RED, kind, sq]:
                mg[kind, sq], eg[kind, sq] = tm[sq], te[sq]
            if LEGAL_SQUARES[BLACK, kind, sq]:
                mg[BLACK_BIT + kind, sq], eg[BLACK_BIT + kind, sq] = -tm[_flip(sq)], -te[_flip(sq)]
    for sq in range(NSQ):
        att_mg[RED, sq], att_eg[RED, sq] = PAWN_ATTACK_MG[sq], PAWN_ATTACK_EG[sq]
        att_mg[BLACK, sq], att_eg[BLACK, sq] = PAWN_ATTACK_MG[_flip(sq)], PAWN_ATTACK_EG[_flip(sq)]
    return mg, eg, att_mg, att_eg


PST_MG, PST_EG, PAWN_ATT_MG, PAWN_ATT_EG = _build_tables()

# Squares a horse does badly on: the board's edge and the two palace centres.
HORSE_BAD = np.zeros(NSQ, np.bool_)
for _sq in range(NSQ):
    HORSE_BAD[_sq] = _sq % 9 in (0, 8) or _sq // 9 in (0, 9) or _sq in (13, 76)
del _sq
# By the number of good horse moves (leg free, not onto an edge square or an own piece): trapped horses lose.
HORSE_MOBILITY = np.array([-45, -22, -6, 0, 3, 6, 8, 10, 12], np.int32)
ROOK_MOBILITY = 3                   # per empty square a rook sees along its rank and file

# Cannon threats against a general at home, indexed by the cannon's rank counted from that general's back rank.
HOLLOW_THREAT = np.array([0, 0, 0, 270, 293, 315, 338, 360, 360, 360], np.int32)   # 空头炮 (halved in the ending)
CENTRAL_THREAT = np.array([0, 0, 0, 225, 203, 180, 158, 135, 135, 135], np.int32)  # 炮镇窝心马
BOTTOM_THREAT = np.array([180, 135, 0, 0, 0, 0, 0, 135, 180], np.int32)            # 沉底炮, by file, x attack/8
SHAPE_NONE, SHAPE_CENTER, SHAPE_SIDE = 0, 1, 2

# Advisors and elephants ("defenders"): each is worth DEF_BASE + DEF_THREAT * t, t = the opponent's attack
# potential / 8, and a side gets DEF_ATTACKLESS * (1 - t) whatever it has left, so a full set is worth the same
# under any threat and every missing defender costs more the more the opponent can attack.
DEF_BASE, DEF_THREAT, DEF_ATTACKLESS = 90, 90, 360
ADVISOR_LEAK = 300                  # missing an advisor against two rooks, x t
ELEPHANT_VS_CANNON = 15             # per missing elephant per enemy cannon
ADVISOR_VS_HORSE = 15               # per missing advisor per enemy horse
KING_IN_CENTRE = 90                 # general on the palace centre while it has both advisors
ATTACK_MAX = 8

TOTAL_PHASE = 48                    # 4 rooks x 6 + 8 horses/cannons x 3
TEMPO_MG, TEMPO_EG = 20, 10

# Mop-up: per palace square of the lone general that the strong side attacks, and per step of closeness.
MOP_CONFINE = 40
MOP_NEAR = 6
PALACE = np.array([[3, 4, 5, 12, 13, 14, 21, 22, 23], [66, 67, 68, 75, 76, 77, 84, 85, 86]], np.int8)


@njit(cache=True, inline="always")
def _tdiv(a, b):
    """Integer division rounding toward zero, so that negating the input negates the output (colour symmetry)."""
    if a >= 0:
        return a // b
    return -((-a) // b)


@njit(cache=True)
def mop_up(board, weak_king, strong):
    """Bonus for ``strong`` against a general without rooks, horses or cannons: palace squares it controls
    (the general lifted, so squares behind it on a checking line count) and attackers brought close."""
    weak = strong ^ 1
    confined = 0
    general = board[weak_king]
    board[weak_king] = 0                # lifted: the squares behind it on a checking line count as covered
    for i in range(9):
        if king_attacked(board, PALACE[weak, i], strong):
            confined += 1
    board[weak_king] = general
    near = 0
    kf = weak_king % 9
    kr = weak_king // 9
    for sq in range(NSQ):
        p = board[sq]
        if p == 0 or (p >> 3) != strong:
            continue
        k = p & 7
        if k == HORSE or k == PAWN or k == CANNON:
            d = abs(sq % 9 - kf) + abs(sq // 9 - kr)
            if d < 10:
                near += 10 - d
    return MOP_CONFINE * confined + MOP_NEAR * near


@njit(cache=True)
def _cannon_threat(board, sq, colour, shape):
    """(hollow, central, bottom) threat of ``colour``'s cannon on ``sq`` against the other general, which stands
    at home with advisor shape ``shape`` (centre: both advisors on the back rank; side: one of them in the centre)."""
    f = sq % 9
    r = sq // 9
    if colour == RED:
        king, centre, back, rr, step = 85, 76, 9, 9 - r, 9
    else:
        king, centre, back, rr, step = 4, 13, 0, r, -9
    if f == 4:
        n = 0
        for s in range(sq + step, king, step):
            if board[s] != 0:
                n += 1
        if shape == SHAPE_CENTER:
            if n == 0:
                return HOLLOW_THREAT[rr], 0, 0
            if n == 2 and board[centre] == (colour ^ 1) * BLACK_BIT + HORSE:
                return 0, CENTRAL_THREAT[rr], 0
        elif n == 2:
            return 0, CENTRAL_THREAT[rr] // 4, 0
    elif shape == SHAPE_SIDE and r == back:
        lo, hi = (sq + 1, king) if sq < king else (king + 1, sq)
        for s in range(lo, hi):
            if board[s] != 0:
                return 0, 0, 0
        return 0, 0, BOTTOM_THREAT[f]
    return 0, 0, 0


@njit(cache=True)
def evaluate(board, st):
    """Static score of the position from the side to move's point of view (see the module docstring)."""
    king_r = st[ST_KING]
    king_b = st[ST_KING + 1]
    # Advisor shapes around a general at home (for the cannon patterns).
    shape_r = SHAPE_NONE
    if board[4] == KING:
        a_d, a_f, a_c = board[3] == ADVISOR, board[5] == ADVISOR, board[13] == ADVISOR
        if a_d and a_f:
            shape_r = SHAPE_CENTER
        elif a_c and (a_d or a_f):
            shape_r = SHAPE_SIDE
    shape_b = SHAPE_NONE
    if board[85] == BLACK_BIT + KING:
        a_d, a_f, a_c = board[84] == BLACK_BIT + ADVISOR, board[86] == BLACK_BIT + ADVISOR, \
            board[76] == BLACK_BIT + ADVISOR
        if a_d and a_f:
            shape_b = SHAPE_CENTER
        elif a_c and (a_d or a_f):
            shape_b = SHAPE_SIDE

    mg = 0
    eg = 0
    # Per colour (suffix 0 = Red, 1 = Black).
    nr0 = nh0 = nc0 = na0 = ne0 = np0 = cp0 = 0
    nr1 = nh1 = nc1 = na1 = ne1 = np1 = cp1 = 0
    att0 = att1 = 0                 # attack potential from crossed pieces
    pam0 = pae0 = pam1 = pae1 = 0   # crossed-pawn extras, scaled by the attack potential later
    mob0 = mob1 = 0                 # rook + horse mobility
    cannon0 = cannon0b = cannon1 = cannon1b = -1

    for sq in range(NSQ):
        p = board[sq]
        if p == 0:
            continue
        mg += PST_MG[p, sq]
        eg += PST_EG[p, sq]
        kind = p & 7
        if kind == PAWN:
            if p == PAWN:
                np0 += 1
                if sq >= 45:
                    att0 += 1
                    cp0 += 1
                    pam0 += PAWN_ATT_MG[0, sq]
                    pae0 += PAWN_ATT_EG[0, sq]
            else:
                np1 += 1
                if sq < 45:
                    att1 += 1
                    cp1 += 1
                    pam1 += PAWN_ATT_MG[1, sq]
                    pae1 += PAWN_ATT_EG[1, sq]
        elif kind == ROOK:
            mob = 0
            for d in range(4):
                for i in range(10):
                    s = RAYS[sq, d, i]
                    if s < 0 or board[s] != 0:
                        break
                    mob += 1
            if p == ROOK:
                nr0 += 1
                mob0 += ROOK_MOBILITY * mob
                if sq >= 45:
                    att0 += 2
            else:
                nr1 += 1
                mob1 += ROOK_MOBILITY * mob
                if sq < 45:
                    att1 += 2
        elif kind == HORSE:
            colour = p >> 3
            good = 0
            for i in range(8):
                t = HORSE_TO[sq, i]
                if t < 0:
                    break
                if board[HORSE_LEG[sq, i]] != 0 or HORSE_BAD[t]:
                    continue
                q = board[t]
                if q != 0 and (q >> 3) == colour:
                    continue
                good += 1
            if colour == 0:
                nh0 += 1
                mob0 += HORSE_MOBILITY[good]
                if sq >= 45:
                    att0 += 2
            else:
                nh1 += 1
                mob1 += HORSE_MOBILITY[good]
                if sq < 45:
                    att1 += 2
        elif kind == CANNON:
            if p == CANNON:
                nc0 += 1
                if sq >= 45:
                    att0 += 1
                if cannon0 < 0:
                    cannon0 = sq
                else:
                    cannon0b = sq
            else:
                nc1 += 1
                if sq < 45:
                    att1 += 1
                if cannon1 < 0:
                    cannon1 = sq
                else:
                    cannon1b = sq
        elif kind == ADVISOR:
            if p == ADVISOR:
                na0 += 1
            else:
                na1 += 1
        elif kind == ELEPHANT:
            if p == ELEPHANT:
                ne0 += 1
            else:
                ne1 += 1

    # Cannon threats against a general at home (hollow: halved in the ending; bottom: x attack potential / 8).
    hollow0 = central0 = bottom0 = hollow1 = central1 = bottom1 = 0
    if shape_r != SHAPE_NONE:
        if cannon1 >= 0:
            h, c, b = _cannon_threat(board, cannon1, BLACK, shape_r)
            hollow0 += h
            central0 += c
            bottom0 += b
        if cannon1b >= 0:
            h, c, b = _cannon_threat(board, cannon1b, BLACK, shape_r)
            hollow0 += h
            central0 += c
            bottom0 += b
    if shape_b != SHAPE_NONE:
        if cannon0 >= 0:
            h, c, b = _cannon_threat(board, cannon0, RED, shape_b)
            hollow1 += h
            central1 += c
            bottom1 += b
        if cannon0b >= 0:
            h, c, b = _cannon_threat(board, cannon0b, RED, shape_b)
            hollow1 += h
            central1 += c
            bottom1 += b

    # Attack potential: crossed pieces plus material superiority in rooks, horses and cannons.
    sv0 = 2 * nr0 + nh0 + nc0
    sv1 = 2 * nr1 + nh1 + nc1
    if sv0 > sv1:
        att0 += 2 * (sv0 - sv1)
    else:
        att1 += 2 * (sv1 - sv0)
    if att0 > ATTACK_MAX:
        att0 = ATTACK_MAX
    if att1 > ATTACK_MAX:
        att1 = ATTACK_MAX

    # Defenders and general safety, in eighths.
    def0 = (na0 + ne0) * (DEF_BASE * 8 + DEF_THREAT * att1) + DEF_ATTACKLESS * (8 - att1)
    def0 -= 8 * ((2 - ne0) * nc1 * ELEPHANT_VS_CANNON + (2 - na0) * nh1 * ADVISOR_VS_HORSE)
    if na0 < 2 and nr1 == 2:
        def0 -= ADVISOR_LEAK * att1
    if king_r == 13 and na0 == 2:
        def0 -= 8 * KING_IN_CENTRE
    def0 -= bottom0 * att1 + 8 * central0
    def1 = (na1 + ne1) * (DEF_BASE * 8 + DEF_THREAT * att0) + DEF_ATTACKLESS * (8 - att0)
    def1 -= 8 * ((2 - ne1) * nc0 * ELEPHANT_VS_CANNON + (2 - na1) * nh0 * ADVISOR_VS_HORSE)
    if na1 < 2 and nr0 == 2:
        def1 -= ADVISOR_LEAK * att0
    if king_b == 76 and na1 == 2:
        def1 -= 8 * KING_IN_CENTRE
    def1 -= bottom1 * att0 + 8 * central1

    common = def0 - def1 + 8 * (mob0 - mob1)
    mg8 = 8 * mg + pam0 * att0 - pam1 * att1 + common - 8 * (hollow0 - hollow1)
    eg8 = 8 * eg + pae0 * att0 - pae1 * att1 + common - 4 * (hollow0 - hollow1)

    m = 6 * (nr0 + nr1) + 3 * (nh0 + nh1 + nc0 + nc1)
    if m > TOTAL_PHASE:
        m = TOTAL_PHASE
    ph = (2 * TOTAL_PHASE - m) * m // TOTAL_PHASE
    score = _tdiv(mg8 * ph + eg8 * (TOTAL_PHASE - ph), 8 * TOTAL_PHASE)

    # Won endings: drive the lone general into a corner of its palace.
    if nr1 + nh1 + nc1 == 0:
        power = sv0 + cp0
        if power >= 2 or (power >= 1 and nh0 + cp0 >= 1 and na1 + ne1 == 0):
            score += mop_up(board, king_b, RED)
    if nr0 + nh0 + nc0 == 0:
        power = sv1 + cp1
        if power >= 2 or (power >= 1 and nh1 + cp1 >= 1 and na0 + ne0 == 0):
            score -= mop_up(board, king_r, BLACK)
    # A side without rooks, horses, cannons and pawns cannot win.
    if score > 0 and nr0 + nh0 + nc0 + np0 == 0:
        score = score // 8
    elif score < 0 and nr1 + nh1 + nc1 + np1 == 0:
        score = -((-score) // 8)

    if st[ST_SIDE] != RED:
        score = -score
    return score + (TEMPO_MG * ph + TEMPO_EG * (TOTAL_PHASE - ph)) // TOTAL_PHASE
