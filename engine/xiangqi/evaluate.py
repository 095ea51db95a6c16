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

Every weight is an entry of one parameter vector ``W`` (named blocks, ``LAYOUT``), read from the generated
module ``eval_params.py``, which the tuner (``engine/tune``, ``make tune``) writes with its provenance;
``evaluate_trace`` is the same code reporting each parameter's coefficient, which is what the tuner fits.  The
structural constants below (attack potential, phase weights, mop-up) are not tuned.  The values in use today are
still the hand-written tables this evaluation started with, converted unchanged: they were derived from
ElephantEye's preeval tables (xqbase/eleeye, LGPL; Morning Yellow), rescaled by 4.5 and adjusted, and
ElephantEye's pattern terms (hollow/central/bottom cannon, attack-dependent advisors) inspired the king-safety
terms.  Issue 13 replaces them with values fitted from material-only starting values to the project's own games.
Every term is colour- and left-right-symmetric (tests/test_evaluate.py checks it).
"""
from collections import namedtuple

import numpy as np
from numba import njit

from .board import (FILES, RANKS, NSQ, square, KING, ADVISOR, ELEPHANT, HORSE, ROOK, CANNON, PAWN, RED, BLACK,
                    BLACK_BIT, ST_SIDE, ST_KING, ORTHO, RAYS, HORSE_TO, HORSE_LEG, LEGAL_SQUARES)
from .eval_params import PARAMS
from .movegen import king_attacked
from ..tune.params import HALF_BOARD, HALF_FILES, half_board_values

# Nominal middle-game values by kind (search: MVV/LVA, futility and delta margins).  The general is 0: it is
# never captured, and as an attacker its captures are always safe (they are legal only when unprotected).
# Crossed pawns are worth ~150-300 in this evaluation, more in an ending.
PIECE_VALUE = np.array([0, 0, 150, 150, 450, 950, 450, 100], np.int32)


# --------------------------------------------------------------------------------------------------------------
# The parameters: one vector W, in named blocks (LAYOUT), with values from eval_params.py (written by the tuner,
# engine/tune).  Half-board blocks (HALF_BOARD values) are piece-square terms, left-right symmetric, indexed by
# HALF_SQUARE[colour, square] from the piece owner's side.
# --------------------------------------------------------------------------------------------------------------
SCALE = 8                           # terms are summed in 1/SCALE units so that "x attack/8" stays exact
KINDS = ("", "king", "advisor", "elephant", "horse", "rook", "cannon", "pawn")     # by kind code
# (name, size): a name ending in _mg is a middle-game term, _eg (or _eg_half: in half-centipawns) an ending term,
# any other name both; each kind's two piece-square tables come first, in kind order (PST, PST_STRIDE).
LAYOUT = tuple([(f"{KINDS[k]}_{ph}", HALF_BOARD) for k in range(KING, PAWN + 1) for ph in ("mg", "eg")]
               + [("crossed_pawn_attack_mg", HALF_BOARD), ("crossed_pawn_attack_eg", HALF_BOARD),
                  ("rook_mobility_mg", 1), ("rook_mobility_eg", 1), ("horse_mobility_mg", 9), ("horse_mobility_eg", 9),
                  ("defender", 1), ("defender_threatened", 1), ("defence_without_threat", 1),
                  ("elephant_missing_vs_cannon", 1), ("advisor_missing_vs_horse", 1),
                  ("advisor_missing_vs_two_rooks", 1), ("general_in_palace_centre", 1),
                  ("hollow_cannon_mg", RANKS), ("hollow_cannon_eg_half", RANKS), ("central_cannon", RANKS),
                  ("bottom_cannon", HALF_FILES), ("tempo_mg", 1), ("tempo_eg", 1)])
OFFSET = {}
_at = 0
for _name, _size in LAYOUT:
    OFFSET[_name] = _at
    _at += _size
N_PARAMS = _at
del _at, _name, _size


def _load_params():
    w = np.zeros(N_PARAMS, np.int32)
    for name, size in LAYOUT:
        values = list(PARAMS[name])
        assert len(values) == size, name
        w[OFFSET[name]:OFFSET[name] + size] = half_board_values(values) if size == HALF_BOARD else values
    assert set(PARAMS) == {name for name, _ in LAYOUT}, "eval_params.py and LAYOUT disagree"
    return w


W = _load_params()
PST = OFFSET["king_mg"]                 # kind k's mg table at PST + (k - 1) * PST_STRIDE, its eg table HALF_BOARD on
PST_STRIDE = 2 * HALF_BOARD
PAWN_ATTACK_MG, PAWN_ATTACK_EG = OFFSET["crossed_pawn_attack_mg"], OFFSET["crossed_pawn_attack_eg"]
ROOK_MOBILITY_MG, ROOK_MOBILITY_EG = OFFSET["rook_mobility_mg"], OFFSET["rook_mobility_eg"]
HORSE_MOBILITY_MG, HORSE_MOBILITY_EG = OFFSET["horse_mobility_mg"], OFFSET["horse_mobility_eg"]
DEF_BASE, DEF_THREAT, DEF_ATTACKLESS = OFFSET["defender"], OFFSET["defender_threatened"], \
    OFFSET["defence_without_threat"]
ELEPHANT_VS_CANNON, ADVISOR_VS_HORSE = OFFSET["elephant_missing_vs_cannon"], OFFSET["advisor_missing_vs_horse"]
ADVISOR_LEAK, KING_IN_CENTRE = OFFSET["advisor_missing_vs_two_rooks"], OFFSET["general_in_palace_centre"]
HOLLOW_MG, HOLLOW_EG_HALF = OFFSET["hollow_cannon_mg"], OFFSET["hollow_cannon_eg_half"]
CENTRAL_THREAT, BOTTOM_THREAT = OFFSET["central_cannon"], OFFSET["bottom_cannon"]
TEMPO_MG_AT, TEMPO_EG_AT = OFFSET["tempo_mg"], OFFSET["tempo_eg"]
TEMPO_MG, TEMPO_EG = int(W[TEMPO_MG_AT]), int(W[TEMPO_EG_AT])


def _half_square(colour, sq):
    """The half-board index of ``sq`` for a piece of ``colour``: its rank from its own side, its file folded."""
    rank, file = sq // FILES, sq % FILES
    return (rank if colour == RED else RANKS - 1 - rank) * HALF_FILES + min(file, FILES - 1 - file)


HALF_SQUARE = np.array([[_half_square(c, sq) for sq in range(NSQ)] for c in (RED, BLACK)], np.int64)


def _board_tables():
    """W's piece-square terms spread over the board, by piece code (Black's negative) and square, as the
    evaluation reads them (one lookup; measured 5% faster than indexing W): the tables' mg and eg values and
    the index of the mg parameter (the eg one is HALF_BOARD further); crossed-pawn extras by colour."""
    index = np.zeros((2 * BLACK_BIT, NSQ), np.int64)
    for colour in (RED, BLACK):
        for kind in range(KING, PAWN + 1):
            index[colour * BLACK_BIT + kind] = PST + (kind - 1) * PST_STRIDE + HALF_SQUARE[colour]
    sign = np.array([1 if code < BLACK_BIT else -1 for code in range(2 * BLACK_BIT)], np.int32)[:, None]
    pawn_mg = W[PAWN_ATTACK_MG + HALF_SQUARE]
    pawn_eg = W[PAWN_ATTACK_EG + HALF_SQUARE]
    return index, sign * W[index], sign * W[index + HALF_BOARD], pawn_mg, pawn_eg


PST_INDEX, PST_MG, PST_EG, PAWN_ATT_MG, PAWN_ATT_EG = _board_tables()

# The trace (``evaluate_trace``): the coefficient of every parameter in the score, as the tuner needs it.
# [0, N) middle-game counts and [N, 2N) ending counts of each parameter, in 1/SCALE units, Red's view (Black's
# pieces count negative); then the phase (0..TOTAL_PHASE), a flag for the terms that are not linear in the
# parameters (mop-up, a side that cannot win), and scratch space for the crossed pawns' squares.
TRACE_PHASE = 2 * N_PARAMS
TRACE_NONLINEAR = TRACE_PHASE + 1
TRACE_PAWNS = TRACE_PHASE + 2          # [colour * HALF_BOARD + half square]: crossed pawns counted there
TRACE_SIZE = TRACE_PAWNS + 2 * HALF_BOARD


@njit(cache=True, inline="always")
def _term(trace, index, phase_mg, phase_eg, count):
    """Record ``count`` uses of parameter ``index`` in the trace (numba prunes this when ``trace`` is None)."""
    if trace is not None:
        if phase_mg:
            trace[index] += count
        if phase_eg:
            trace[N_PARAMS + index] += count

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
# Horse mobility (horse_mobility_*) is indexed by the number of good horse moves (leg free, not onto an edge
# square or an own piece): trapped horses lose; rook mobility (rook_mobility_*) is per empty square a rook sees
# along its rank and file.
# Cannon threats against a general at home: hollow_cannon_* (空头炮) and central_cannon (炮镇窝心马) are indexed
# by the cannon's rank counted from that general's back rank, bottom_cannon (沉底炮) by its folded file, x attack/8.
SHAPE_NONE, SHAPE_CENTER, SHAPE_SIDE = 0, 1, 2
CENTRAL_SCREENS = 2                 # the central cannon: two pieces between it and the general
CENTRAL_VS_SIDE = 4                 # ... against a general whose advisors stand to one side: a quarter

# Attack potential (0..ATTACK_MAX): crossed pieces by kind, plus SUPERIORITY per unit of material superiority
# (material: rooks count ROOK_MATERIAL, horses and cannons 1).
CROSSED_ATTACK = np.array([0, 0, 0, 0, 2, 2, 1, 1], np.int64)     # by kind: horse, rook 2; cannon, pawn 1
ROOK_MATERIAL = 2
SUPERIORITY = 2
ATTACK_MAX = SCALE                  # attack potential is counted in 1/SCALE units

# Advisors and elephants ("defenders"): each is worth defender + defender_threatened * t, t = the opponent's
# attack potential / 8, and a side gets defence_without_threat * (1 - t) whatever it has left, so a full set can
# be worth the same under any threat and every missing defender costs more the more the opponent can attack.
# Then: per missing elephant per enemy cannon, per missing advisor per enemy horse, an advisor missing against
# two rooks (x t), the general on the palace centre while it has both advisors.
PAIR = 2                            # a full set of advisors or elephants; two rooks

PHASE_ROOK, PHASE_MINOR = 6, 3      # game phase per rook, per horse or cannon
TOTAL_PHASE = 4 * PHASE_ROOK + 8 * PHASE_MINOR     # all 4 rooks and 8 horses/cannons on the board

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
def _scan_camp(board, invader, trace):
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
        sign = 1 if colour == RED else -1
        mg += PST_MG[p, sq]
        eg += PST_EG[p, sq]
        _term(trace, PST_INDEX[p, sq], True, False, sign * SCALE)
        _term(trace, PST_INDEX[p, sq] + HALF_BOARD, False, True, sign * SCALE)
        if kind == ROOK:
            n = _rook_mobility(board, sq)
            mg += sign * n * W[ROOK_MOBILITY_MG]
            eg += sign * n * W[ROOK_MOBILITY_EG]
            _term(trace, ROOK_MOBILITY_MG, True, False, sign * SCALE * n)
            _term(trace, ROOK_MOBILITY_EG, False, True, sign * SCALE * n)
        elif kind == HORSE:
            n = _horse_moves(board, sq, colour)
            mg += sign * W[HORSE_MOBILITY_MG + n]
            eg += sign * W[HORSE_MOBILITY_EG + n]
            _term(trace, HORSE_MOBILITY_MG + n, True, False, sign * SCALE)
            _term(trace, HORSE_MOBILITY_EG + n, False, True, sign * SCALE)
        census += 1 << (CENSUS_BITS * (p - 1))
        if colour == invader:
            attack += CROSSED_ATTACK[kind]
            if kind == PAWN:
                pawns += 1
                pawn_mg += PAWN_ATT_MG[colour, sq]
                pawn_eg += PAWN_ATT_EG[colour, sq]
                if trace is not None:           # weighted by the attack potential once it is known
                    trace[TRACE_PAWNS + colour * HALF_BOARD + HALF_SQUARE[colour, sq]] += 1
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
def _cannon_threat(board, colour, shape, enemy_attack, trace, sign):
    """(hollow mg, hollow eg, central, bottom) threats of the enemy cannons against ``colour``'s general, which
    stands at home with advisor shape ``shape`` (centre: both advisors on the back rank; side: one of them in the
    centre): cannons on its file behind 0 or CENTRAL_SCREENS pieces, and (side shape) on its back rank with
    nothing between.  Bottom threats come weighted by the enemy's attack potential (1/SCALE units)."""
    king = KING_HOME[colour]
    cannon = (colour ^ 1) * BLACK_BIT + CANNON
    hollow_mg = hollow_eg = central = bottom = 0
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
                    hollow_mg += W[HOLLOW_MG + rank]
                    hollow_eg += W[HOLLOW_EG_HALF + rank]
                    _term(trace, HOLLOW_MG + rank, True, False, -sign * SCALE)
                    _term(trace, HOLLOW_EG_HALF + rank, False, True, -sign * (SCALE // 2))
                elif screens == CENTRAL_SCREENS and board[PALACE_CENTRE[colour]] == colour * BLACK_BIT + HORSE:
                    central += W[CENTRAL_THREAT + rank]
                    _term(trace, CENTRAL_THREAT + rank, True, True, -sign * SCALE)
            elif screens == CENTRAL_SCREENS:
                central += W[CENTRAL_THREAT + rank] // CENTRAL_VS_SIDE
                _term(trace, CENTRAL_THREAT + rank, True, True, -sign * (SCALE // CENTRAL_VS_SIDE))
        screens += 1
    if shape == SHAPE_SIDE:
        for d in (EAST, WEST):
            for s in RAYS[king, d]:
                if s < 0:
                    break
                if board[s] != 0:                   # the first piece along the back rank
                    if board[s] == cannon:
                        file = min(s % FILES, FILES - 1 - s % FILES)
                        bottom += W[BOTTOM_THREAT + file] * enemy_attack
                        _term(trace, BOTTOM_THREAT + file, True, True, -sign * enemy_attack)
                    break
    return hollow_mg, hollow_eg, central, bottom


@njit(cache=True, inline="always")
def _side_terms(board, colour, king, own, enemy, own_attack, enemy_attack, trace):
    """``colour``'s terms besides material, tables and mobility, in 1/SCALE units from its own view -> (mg, eg):
    its crossed pawns' extras, its defenders and the safety of its general on ``king``."""
    sign = 1 if colour == RED else -1
    hollow_mg = hollow_eg = central = bottom = 0
    shape = _home_shape(board, colour)
    if shape != SHAPE_NONE:
        hollow_mg, hollow_eg, central, bottom = _cannon_threat(board, colour, shape, enemy_attack, trace, sign)
    defenders = own.advisors + own.elephants
    safety = (defenders * (W[DEF_BASE] * SCALE + W[DEF_THREAT] * enemy_attack)
              + W[DEF_ATTACKLESS] * (SCALE - enemy_attack))
    _term(trace, DEF_BASE, True, True, sign * defenders * SCALE)
    _term(trace, DEF_THREAT, True, True, sign * defenders * enemy_attack)
    _term(trace, DEF_ATTACKLESS, True, True, sign * (SCALE - enemy_attack))
    safety -= SCALE * ((PAIR - own.elephants) * enemy.cannons * W[ELEPHANT_VS_CANNON]
                       + (PAIR - own.advisors) * enemy.horses * W[ADVISOR_VS_HORSE])
    _term(trace, ELEPHANT_VS_CANNON, True, True, -sign * SCALE * (PAIR - own.elephants) * enemy.cannons)
    _term(trace, ADVISOR_VS_HORSE, True, True, -sign * SCALE * (PAIR - own.advisors) * enemy.horses)
    if own.advisors < PAIR and enemy.rooks == PAIR:
        safety -= W[ADVISOR_LEAK] * enemy_attack
        _term(trace, ADVISOR_LEAK, True, True, -sign * enemy_attack)
    if king == PALACE_CENTRE[colour] and own.advisors == PAIR:
        safety -= SCALE * W[KING_IN_CENTRE]
        _term(trace, KING_IN_CENTRE, True, True, -sign * SCALE)
    safety -= bottom + SCALE * central
    if trace is not None:               # the crossed pawns counted by _scan_camp, now that the attack is known
        for half in range(HALF_BOARD):
            n = trace[TRACE_PAWNS + colour * HALF_BOARD + half]
            if n:
                _term(trace, PAWN_ATTACK_MG + half, True, False, sign * n * own_attack)
                _term(trace, PAWN_ATTACK_EG + half, False, True, sign * n * own_attack)
    mg = own.pawn_mg * own_attack + safety - SCALE * hollow_mg
    eg = own.pawn_eg * own_attack + safety - (SCALE // 2) * hollow_eg     # the hollow cannon: halved in the ending
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


@njit(cache=True, inline="always")
def _evaluate(board, st, trace):
    """Static score of the position from the side to move's point of view (see the module docstring); with a
    ``trace`` array (TRACE_SIZE, zeroed), also the coefficient of every parameter (see TRACE_PHASE)."""
    red_camp = _scan_camp(board, BLACK, trace)
    black_camp = _scan_camp(board, RED, trace)
    census = red_camp.census + black_camp.census
    red = _side_of(census, black_camp, RED)
    black = _side_of(census, red_camp, BLACK)
    att_red = _attack(red, black)
    att_black = _attack(black, red)
    mg_red, eg_red = _side_terms(board, RED, st[ST_KING + RED], red, black, att_red, att_black, trace)
    mg_black, eg_black = _side_terms(board, BLACK, st[ST_KING + BLACK], black, red, att_black, att_red, trace)
    mg8 = SCALE * (red_camp.mg + black_camp.mg) + mg_red - mg_black
    eg8 = SCALE * (red_camp.eg + black_camp.eg) + eg_red - eg_black

    # Phase: TOTAL_PHASE (full middle game) down to 0, on the curve m * (2 - m / TOTAL_PHASE).
    m = min(PHASE_ROOK * (red.rooks + black.rooks)
            + PHASE_MINOR * (red.horses + black.horses + red.cannons + black.cannons), TOTAL_PHASE)
    ph = (2 * TOTAL_PHASE - m) * m // TOTAL_PHASE
    score = _tdiv(mg8 * ph + eg8 * (TOTAL_PHASE - ph), SCALE * TOTAL_PHASE)
    linear = score

    # Won endings: drive the lone general into a corner of its palace.
    score += _mop_up_bonus(board, RED, red, black, st[ST_KING + BLACK])
    score -= _mop_up_bonus(board, BLACK, black, red, st[ST_KING + RED])
    # A side without rooks, horses, cannons and pawns cannot win.
    if (score > 0 and _material(red) + red.pawns == 0) or (score < 0 and _material(black) + black.pawns == 0):
        score = _tdiv(score, NO_WIN_DIVISOR)

    to_move = 1 if st[ST_SIDE] == RED else -1
    if trace is not None:
        trace[TRACE_PHASE] = ph
        trace[TRACE_NONLINEAR] = 1 if score != linear else 0
        _term(trace, TEMPO_MG_AT, True, False, to_move * SCALE)      # Red's view: the tempo is the mover's
        _term(trace, TEMPO_EG_AT, False, True, to_move * SCALE)
    return to_move * score + (TEMPO_MG * ph + TEMPO_EG * (TOTAL_PHASE - ph)) // TOTAL_PHASE


@njit(cache=True)
def evaluate(board, st):
    """Static score of the position from the side to move's point of view (see the module docstring)."""
    return _evaluate(board, st, None)


@njit(cache=True)
def evaluate_trace(board, st, trace):
    """``evaluate``, also filling ``trace`` (int64[TRACE_SIZE]) with each parameter's coefficient: the tuner's
    view of the same code."""
    trace[:] = 0
    return _evaluate(board, st, trace)
