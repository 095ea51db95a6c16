"""Static evaluation (numba): ``evaluate(board, st)`` -> centipawn-like score from the side to move's view.

Scale: a pawn before the river is worth about 100, a rook about 950; crossed pawns gain value (up to ~4 pawns
in an ending, near the palace), advisors and elephants about 90-180 depending on how much the opponent threatens.
|eval| stays far below 20000 (mate scores are ~30000).

The board is scanned once, as two camps (the halves either side of the river: a piece in the other side's camp
has crossed); per-side helpers then compute each side's terms from its own view, and the score is Red's minus
Black's.  Terms:

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
from collections import namedtuple

import numpy as np
from numba import njit

from .board import (FILES, RANKS, NSQ, square, KING, ADVISOR, ELEPHANT, HORSE, ROOK, CANNON, PAWN, RED, BLACK,
                    BLACK_BIT, ST_SIDE, ST_KING, ORTHO, RAYS, HORSE_TO, HORSE_LEG, LEGAL_SQUARES)
from .movegen import king_attacked

# Nominal middle-game values by kind (search: MVV/LVA, futility and delta margins).  The general is 0: it is
# never captured, and as an attacker its captures are always safe (they are legal only when unprotected).
# Crossed pawns are worth ~150-300 in this evaluation, more in an ending.
PIECE_VALUE = np.array([0, 0, 150, 150, 450, 950, 450, 100], np.int32)


def _board_table(text):
    """A table written as Red sees the board (rank 9 first, file a left) -> int32[90] indexed by square."""
    rows = [[int(v) for v in line.split()] for line in text.strip().splitlines()]
    assert len(rows) == RANKS and all(len(r) == FILES for r in rows)
    table = np.zeros(NSQ, np.int32)
    for i, row in enumerate(rows):
        for f, v in enumerate(row):
            table[square(f, RANKS - 1 - i)] = v
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
    """The square seen from the other side (ranks mirrored)."""
    return square(sq % FILES, RANKS - 1 - sq // FILES)


def _mirror(sq):
    """The square with files mirrored."""
    return square(FILES - 1 - sq % FILES, sq // FILES)


def _build_tables():
    by_kind = {KING: (KING_MG, KING_EG), ADVISOR: (DEFENDER_POS, DEFENDER_POS),
               ELEPHANT: (DEFENDER_POS, DEFENDER_POS), HORSE: (HORSE_MG, HORSE_EG + HORSE_EG_SHIFT),
               ROOK: (ROOK_MG, ROOK_EG), CANNON: (CANNON_MG, CANNON_EG + CANNON_EG_SHIFT), PAWN: (PAWN_MG, PAWN_EG)}
    mg = np.zeros((2 * BLACK_BIT, NSQ), np.int32)   # indexed by piece code: Red's entries > 0, Black's < 0
    eg = np.zeros((2 * BLACK_BIT, NSQ), np.int32)
    att_mg = np.zeros((2, NSQ), np.int32)       # extra for a crossed pawn, times (own attack potential / 8)
    att_eg = np.zeros((2, NSQ), np.int32)
    for kind, (tm, te) in by_kind.items():
        assert all(tm[sq] == tm[_mirror(sq)] and te[sq] == te[_mirror(sq)] for sq in range(NSQ))  # left-right
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

# --------------------------------------------------------------------------------------------------------------
# Named squares and directions, tables indexed by colour (RED, BLACK).
# --------------------------------------------------------------------------------------------------------------
CENTRE_FILE = FILES // 2                                # file e: the generals' file
BACK_RANK = np.array([0, RANKS - 1], np.int64)          # each side's own back rank
KING_HOME = np.array([square(CENTRE_FILE, r) for r in BACK_RANK], np.int64)              # e0 / e9
HOME_ADVISORS = np.array([[h - 1, h + 1] for h in KING_HOME], np.int64)                  # d0 f0 / d9 f9
PALACE = np.array([np.flatnonzero(LEGAL_SQUARES[c, KING]) for c in (RED, BLACK)], np.int8)    # 9 squares each
NORTH, SOUTH, EAST, WEST = (ORTHO.index(step) for step in ((0, 1), (0, -1), (1, 0), (-1, 0)))   # RAYS directions
FORWARD = np.array([NORTH, SOUTH], np.int64)            # towards the opponent
PALACE_CENTRE = np.array([RAYS[KING_HOME[c], FORWARD[c], 0] for c in (RED, BLACK)], np.int64)  # e1 / e8
# The board's two halves ("camps") either side of the river: Red's is ranks 0-4, Black's ranks 5-9.  A piece in
# the other side's camp has crossed the river.
CAMP_SIZE = NSQ // 2
CAMP_START = np.array([0, CAMP_SIZE], np.int64)

# Squares a horse does badly on: the board's edge and the two palace centres.
HORSE_BAD = np.zeros(NSQ, np.bool_)
for _sq in range(NSQ):
    HORSE_BAD[_sq] = (_sq % FILES in (0, FILES - 1) or _sq // FILES in (0, RANKS - 1)
                      or _sq in PALACE_CENTRE)
del _sq
# By the number of good horse moves (leg free, not onto an edge square or an own piece): trapped horses lose.
HORSE_MOBILITY = np.array([-45, -22, -6, 0, 3, 6, 8, 10, 12], np.int32)
ROOK_MOBILITY = 3                   # per empty square a rook sees along its rank and file

# Cannon threats against a general at home, indexed by the cannon's rank counted from that general's back rank.
HOLLOW_THREAT = np.array([0, 0, 0, 270, 293, 315, 338, 360, 360, 360], np.int32)   # 空头炮 (halved in the ending)
CENTRAL_THREAT = np.array([0, 0, 0, 225, 203, 180, 158, 135, 135, 135], np.int32)  # 炮镇窝心马
BOTTOM_THREAT = np.array([180, 135, 0, 0, 0, 0, 0, 135, 180], np.int32)            # 沉底炮, by file, x attack/8
SHAPE_NONE, SHAPE_CENTER, SHAPE_SIDE = 0, 1, 2
CENTRAL_SCREENS = 2                 # the central cannon: two pieces between it and the general
CENTRAL_VS_SIDE = 4                 # ... against a general whose advisors stand to one side: a quarter

# Attack potential (0..ATTACK_MAX): crossed pieces by kind, plus SUPERIORITY per unit of material superiority
# (material: rooks count ROOK_MATERIAL, horses and cannons 1).
CROSSED_ATTACK = np.array([0, 0, 0, 0, 2, 2, 1, 1], np.int64)     # by kind: horse, rook 2; cannon, pawn 1
ROOK_MATERIAL = 2
SUPERIORITY = 2
ATTACK_MAX = 8
SCALE = ATTACK_MAX                  # terms are summed in 1/ATTACK_MAX units so that "x attack/8" stays exact

# Advisors and elephants ("defenders"): each is worth DEF_BASE + DEF_THREAT * t, t = the opponent's attack
# potential / 8, and a side gets DEF_ATTACKLESS * (1 - t) whatever it has left, so a full set is worth the same
# under any threat and every missing defender costs more the more the opponent can attack.
DEF_BASE, DEF_THREAT, DEF_ATTACKLESS = 90, 90, 360
PAIR = 2                            # a full set of advisors or elephants; two rooks
ADVISOR_LEAK = 300                  # missing an advisor against two rooks, x t
ELEPHANT_VS_CANNON = 15             # per missing elephant per enemy cannon
ADVISOR_VS_HORSE = 15               # per missing advisor per enemy horse
KING_IN_CENTRE = 90                 # general on the palace centre while it has both advisors

PHASE_ROOK, PHASE_MINOR = 6, 3      # game phase per rook, per horse or cannon
TOTAL_PHASE = 4 * PHASE_ROOK + 8 * PHASE_MINOR     # all 4 rooks and 8 horses/cannons on the board
TEMPO_MG, TEMPO_EG = 20, 10

# Mop-up: per palace square of the lone general that the strong side attacks, and per step of closeness.
MOP_CONFINE = 40
MOP_NEAR = 6
MOP_RANGE = 10                      # attackers this many steps (file + rank distance) away or more earn nothing
MATING_POWER = 2                    # material plus crossed pawns that mates any lone general
NO_WIN_DIVISOR = 8                  # a side that cannot win keeps this fraction of its advantage

# The census: how many pieces of each code (colour * 8 + kind) are on the board, CENSUS_BITS bits per code.
CENSUS_BITS = 4                     # 15 at most per code (a side has at most 5 of a kind); 15 codes fit in 60 bits
CENSUS_MASK = (1 << CENSUS_BITS) - 1

# One camp as scanned by _scan_camp: mg/eg: material, tables and mobility of all its pieces in Red's view (Black's
# negative); census: its pieces; for the invader's (crossed) pieces in it: their attack potential, the number
# of pawns and those pawns' extras (to be multiplied by the invader's attack potential / 8).
Camp = namedtuple("Camp", "mg eg census attack pawns pawn_mg pawn_eg")
# One side's pieces, as _side_of counts them from the census and the scan of the camp it attacks.
Side = namedtuple("Side", "rooks horses cannons advisors elephants pawns crossed_pawns attack pawn_mg pawn_eg")


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
    confined = 0
    general = board[weak_king]
    board[weak_king] = 0                # lifted: the squares behind it on a checking line count as covered
    for sq in PALACE[strong ^ 1]:
        if king_attacked(board, sq, strong):
            confined += 1
    board[weak_king] = general
    near = 0
    for sq in range(NSQ):
        p = board[sq]
        kind = p & 7
        if p != 0 and (p >> 3) == strong and (kind == HORSE or kind == PAWN or kind == CANNON):
            d = abs(sq % FILES - weak_king % FILES) + abs(sq // FILES - weak_king // FILES)
            if d < MOP_RANGE:
                near += MOP_RANGE - d
    return MOP_CONFINE * confined + MOP_NEAR * near


@njit(cache=True, inline="always")
def _rook_mobility(board, sq):
    """Empty squares along the rook's rank and file, up to the first piece."""
    mob = 0
    for d in range(RAYS.shape[1]):
        for i in range(RAYS.shape[2]):
            s = RAYS[sq, d, i]
            if s < 0 or board[s] != 0:
                break
            mob += 1
    return mob


@njit(cache=True, inline="always")
def _horse_moves(board, sq, colour):
    """Good horse moves: leg free, not onto a bad square or a piece of its own."""
    good = 0
    for i in range(HORSE_TO.shape[1]):
        t = HORSE_TO[sq, i]
        if t < 0:
            break
        if board[HORSE_LEG[sq, i]] != 0 or HORSE_BAD[t]:
            continue
        q = board[t]
        if q != 0 and (q >> 3) == colour:
            continue
        good += 1
    return good


@njit(cache=True, inline="always")
def _scan_camp(board, invader):
    """The pieces in the camp that ``invader`` attacks (its opponent's half) -> Camp.  The two calls, one per
    invader, cover the board once."""
    mg = eg = census = attack = pawns = pawn_mg = pawn_eg = 0
    start = CAMP_START[invader ^ 1]
    for sq in range(start, start + CAMP_SIZE):
        p = board[sq]
        if p == 0:
            continue
        kind = p & 7
        colour = p >> 3
        mobility = 0
        if kind == ROOK:
            mobility = ROOK_MOBILITY * _rook_mobility(board, sq)
        elif kind == HORSE:
            mobility = HORSE_MOBILITY[_horse_moves(board, sq, colour)]
        if colour != RED:
            mobility = -mobility
        mg += PST_MG[p, sq] + mobility
        eg += PST_EG[p, sq] + mobility
        census += 1 << (CENSUS_BITS * (p - 1))
        if colour == invader:
            attack += CROSSED_ATTACK[kind]
            if kind == PAWN:
                pawns += 1
                pawn_mg += PAWN_ATT_MG[colour, sq]
                pawn_eg += PAWN_ATT_EG[colour, sq]
    return Camp(mg, eg, census, attack, pawns, pawn_mg, pawn_eg)


@njit(cache=True)
def _count(census, colour, kind):
    """How many pieces of ``colour`` and ``kind`` the census counted."""
    return (census >> (CENSUS_BITS * (colour * BLACK_BIT + kind - 1))) & CENSUS_MASK


@njit(cache=True)
def _side_of(census, attacked_camp, colour):
    """``colour``'s Side from the board's census and the scan of the camp it attacks."""
    return Side(_count(census, colour, ROOK), _count(census, colour, HORSE), _count(census, colour, CANNON),
                _count(census, colour, ADVISOR), _count(census, colour, ELEPHANT), _count(census, colour, PAWN),
                attacked_camp.pawns, attacked_camp.attack, attacked_camp.pawn_mg, attacked_camp.pawn_eg)


@njit(cache=True)
def _material(side):
    """Rooks, horses and cannons, a rook counting ROOK_MATERIAL."""
    return ROOK_MATERIAL * side.rooks + side.horses + side.cannons


@njit(cache=True)
def _attack(own, enemy):
    """Attack potential: crossed pieces plus material superiority, capped at ATTACK_MAX."""
    return min(own.attack + SUPERIORITY * max(_material(own) - _material(enemy), 0), ATTACK_MAX)


@njit(cache=True)
def _home_shape(board, colour):
    """Advisor shape around ``colour``'s general if it stands at home (for the cannon patterns)."""
    base = colour * BLACK_BIT
    if board[KING_HOME[colour]] != base + KING:
        return SHAPE_NONE
    left = board[HOME_ADVISORS[colour, 0]] == base + ADVISOR
    right = board[HOME_ADVISORS[colour, 1]] == base + ADVISOR
    centre = board[PALACE_CENTRE[colour]] == base + ADVISOR
    if left and right:
        return SHAPE_CENTER
    if centre and (left or right):
        return SHAPE_SIDE
    return SHAPE_NONE


@njit(cache=True)
def _cannon_threat(board, colour, shape):
    """(hollow, central, bottom) threats of the enemy cannons against ``colour``'s general, which stands at home
    with advisor shape ``shape`` (centre: both advisors on the back rank; side: one of them in the centre):
    cannons on its file behind 0 or CENTRAL_SCREENS pieces, and (side shape) on its back rank with nothing between."""
    king = KING_HOME[colour]
    cannon = (colour ^ 1) * BLACK_BIT + CANNON
    hollow = central = bottom = 0
    screens = 0                         # pieces seen so far along the general's file
    for s in RAYS[king, FORWARD[colour]]:
        if s < 0 or screens > CENTRAL_SCREENS:
            break
        q = board[s]
        if q == 0:
            continue
        if q == cannon:
            rank = abs(s // FILES - BACK_RANK[colour])
            if shape == SHAPE_CENTER:
                if screens == 0:
                    hollow += HOLLOW_THREAT[rank]
                elif screens == CENTRAL_SCREENS and board[PALACE_CENTRE[colour]] == colour * BLACK_BIT + HORSE:
                    central += CENTRAL_THREAT[rank]
            elif screens == CENTRAL_SCREENS:
                central += CENTRAL_THREAT[rank] // CENTRAL_VS_SIDE
        screens += 1
    if shape == SHAPE_SIDE:
        for d in (EAST, WEST):
            for s in RAYS[king, d]:
                if s < 0:
                    break
                if board[s] != 0:                   # the first piece along the back rank
                    if board[s] == cannon:
                        bottom += BOTTOM_THREAT[s % FILES]
                    break
    return hollow, central, bottom


@njit(cache=True, inline="always")
def _side_terms(board, colour, king, own, enemy, own_attack, enemy_attack):
    """``colour``'s terms besides material, tables and mobility, in 1/SCALE units from its own view -> (mg, eg):
    its crossed pawns' extras, its defenders and the safety of its general on ``king``."""
    hollow = central = bottom = 0
    shape = _home_shape(board, colour)
    if shape != SHAPE_NONE:
        hollow, central, bottom = _cannon_threat(board, colour, shape)
    safety = ((own.advisors + own.elephants) * (DEF_BASE * SCALE + DEF_THREAT * enemy_attack)
              + DEF_ATTACKLESS * (SCALE - enemy_attack))
    safety -= SCALE * ((PAIR - own.elephants) * enemy.cannons * ELEPHANT_VS_CANNON
                       + (PAIR - own.advisors) * enemy.horses * ADVISOR_VS_HORSE)
    if own.advisors < PAIR and enemy.rooks == PAIR:
        safety -= ADVISOR_LEAK * enemy_attack
    if king == PALACE_CENTRE[colour] and own.advisors == PAIR:
        safety -= SCALE * KING_IN_CENTRE
    safety -= bottom * enemy_attack + SCALE * central
    mg = own.pawn_mg * own_attack + safety - SCALE * hollow
    eg = own.pawn_eg * own_attack + safety - (SCALE // 2) * hollow     # the hollow cannon: halved in the ending
    return mg, eg


@njit(cache=True)
def _mop_up_bonus(board, strong, own, weak, weak_king):
    """Mop-up bonus for ``strong`` if the other side has no rook, horse or cannon left and ``strong`` can mate."""
    if _material(weak) != 0:
        return 0
    # Enough to mate anything, or a horse or crossed pawn against a general without defenders.
    if (_material(own) + own.crossed_pawns >= MATING_POWER
            or (own.horses + own.crossed_pawns >= 1 and weak.advisors + weak.elephants == 0)):
        return mop_up(board, weak_king, strong)
    return 0


@njit(cache=True)
def evaluate(board, st):
    """Static score of the position from the side to move's point of view (see the module docstring)."""
    red_camp = _scan_camp(board, BLACK)
    black_camp = _scan_camp(board, RED)
    census = red_camp.census + black_camp.census
    red = _side_of(census, black_camp, RED)
    black = _side_of(census, red_camp, BLACK)
    att_red = _attack(red, black)
    att_black = _attack(black, red)
    mg_red, eg_red = _side_terms(board, RED, st[ST_KING + RED], red, black, att_red, att_black)
    mg_black, eg_black = _side_terms(board, BLACK, st[ST_KING + BLACK], black, red, att_black, att_red)
    mg8 = SCALE * (red_camp.mg + black_camp.mg) + mg_red - mg_black
    eg8 = SCALE * (red_camp.eg + black_camp.eg) + eg_red - eg_black

    # Phase: TOTAL_PHASE (full middle game) down to 0, on the curve m * (2 - m / TOTAL_PHASE).
    m = min(PHASE_ROOK * (red.rooks + black.rooks)
            + PHASE_MINOR * (red.horses + black.horses + red.cannons + black.cannons), TOTAL_PHASE)
    ph = (2 * TOTAL_PHASE - m) * m // TOTAL_PHASE
    score = _tdiv(mg8 * ph + eg8 * (TOTAL_PHASE - ph), SCALE * TOTAL_PHASE)

    # Won endings: drive the lone general into a corner of its palace.
    score += _mop_up_bonus(board, RED, red, black, st[ST_KING + BLACK])
    score -= _mop_up_bonus(board, BLACK, black, red, st[ST_KING + RED])
    # A side without rooks, horses, cannons and pawns cannot win.
    if (score > 0 and _material(red) + red.pawns == 0) or (score < 0 and _material(black) + black.pawns == 0):
        score = _tdiv(score, NO_WIN_DIVISOR)

    if st[ST_SIDE] != RED:
        score = -score
    return score + (TEMPO_MG * ph + TEMPO_EG * (TOTAL_PHASE - ph)) // TOTAL_PHASE
