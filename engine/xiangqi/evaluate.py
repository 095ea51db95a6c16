"""Static evaluation (numba): ``evaluate(board, st)`` -> centipawn-like score from the side to move's view.

Scale: a pawn before the river is worth about 100; |eval| stays far below 20000 (mate scores are ~30000).

The board is scanned once, as two camps (the halves either side of the river: a piece in the other side's camp
has crossed); per-side helpers then compute each side's terms from its own view, and the score is Red's minus
Black's.  Terms:

* material and piece-square tables, middle game (mg) and ending (eg), tapered linearly by the game phase: the
  rooks (2 each), horses and cannons (1 each) left on the board;
* rook mobility (empty squares along its rank and file) and horse mobility (a value by the number of its moves:
  leg free, onto an empty square or an enemy piece; trapped horses lose);
* defence against attack: each missing advisor and each missing elephant costs a value per enemy rook, horse,
  cannon and crossed pawn on the board;
* enemy cannons on the general's lines: with nothing between (the hollow cannon, 空头炮), a value by the
  distance, along the file and along the rank; with two pieces between, one value;
* pins on the general: a single piece between it and an enemy rook (or the enemy general, on the file), or on
  the leg of an enemy horse that would otherwise check: the general's own piece is pinned (a value by its kind),
  an enemy piece there is a discovered check in waiting (one value);
* attacks on the palace: each square of the enemy palace a rook, horse, cannon or pawn attacks (a value by the
  attacker's kind; a rook's or cannon's line up to and including the piece it would capture), and a value by
  the number of pieces that attack any of them, so that attackers can be worth more together than apart;
* threats: each enemy piece (not the general) that a rook, horse, cannon or pawn could capture, a value by the
  attacker's and the victim's kinds;
* hanging pieces: each piece (not the general) that an enemy rook, horse, cannon or pawn could capture and none
  of its own side defends (could recapture on its square), a value by its kind, once however many attack it;
* a small tempo for the side to move;
* outside the fitted terms, in won endings: when one side has no rook, horse or cannon left and the other has
  enough to mate, the strong side earns a mop-up bonus for every palace square of the lone general it controls
  and for bringing horses, pawns and cannons close; a side with no rook/horse/cannon/pawn cannot win, so its
  advantage is scaled down.

Every weight is an entry of one parameter vector ``W`` (named blocks, ``LAYOUT``), read from the generated
module ``eval_params.py``: the tuner (``engine/tune``, ``make tune-data`` then ``make tune``) fits them to the
project's own self-play games, starting from textbook material on every square and zero for every other term,
and writes the file with its provenance.  ``evaluate_trace`` is the same code reporting each parameter's
coefficient, which is what the tuner fits.  The few structural constants below (phase weights, mop-up) are this
project's own choices.  Every term is colour- and left-right-symmetric (tests/test_evaluate.py checks it).
"""
from collections import namedtuple

import numpy as np
from numba import njit

from .board import (FILES, RANKS, NSQ, KING, ADVISOR, ELEPHANT, HORSE, ROOK, CANNON, PAWN, RED, BLACK,
                    BLACK_BIT, ST_SIDE, ST_KING, ORTHO, RAYS, KING_TO, ADVISOR_TO, ELEPHANT_TO, ELEPHANT_EYE,
                    HORSE_TO, HORSE_LEG, HORSE_FROM, HORSE_FROM_LEG, PAWN_TO, LEGAL_SQUARES)
from .eval_params import PARAMS
from .movegen import king_attacked
from .squareset import EMPTY, ONE, add_square, lowest
from ..evaluation import flip_rows, kernels, load_vector, offsets, tdiv, term, trace_layout

# Nominal values by kind for the search (MVV/LVA, SEE, delta margins): round hand-set figures, not fitted.  The
# general is 0: it is never captured, and as an attacker its captures are always safe (they are legal only when
# unprotected).
PIECE_VALUE = np.array([0, 0, 150, 150, 450, 950, 450, 100], np.int32)


# --------------------------------------------------------------------------------------------------------------
# The parameters: one vector W, in named blocks (LAYOUT), with values from eval_params.py (written by the tuner,
# engine/tune).  Half-board blocks (HALF_BOARD values) are piece-square terms, left-right symmetric, indexed by
# HALF_SQUARE[colour, square] from the piece owner's side.  The file writes them as the left half of the board
# as Red sees it (rank 9 first, files a-e).
# --------------------------------------------------------------------------------------------------------------
HALF_FILES = (FILES + 1) // 2       # files a-e
HALF_BOARD = RANKS * HALF_FILES     # files a-e of every rank: left-right symmetric terms store only these
TABLE_SIZE, TABLE_ROW = HALF_BOARD, HALF_FILES      # a piece-square table, and the values of one row in the file
PARAMS_HEADER = (    # the parameter file's docstring says how to read it
    "Each block is a term of engine/xiangqi/evaluate.py (LAYOUT says which); blocks of 50 values are the",
    "left half of the board as Red sees it (rank 9 first, files a-e), from the owner's side.")


def table_values(block) -> list[int]:
    """A half-board block as written in the file (rank 9 first) -> values indexed rank * HALF_FILES + file (rank 0
    first), and back."""
    return flip_rows(block, HALF_FILES)


KINDS = ("", "king", "advisor", "elephant", "horse", "rook", "cannon", "pawn")     # by kind code
ATTACKERS = ("rook", "horse", "cannon", "crossed_pawn")     # what a missing defender is charged against
HORSE_MOVES = 8 + 1                 # a horse has 0..8 moves
THREATENERS = ("rook", "horse", "cannon", "pawn")           # pieces whose attacks on enemy pieces count ...
BY_ROOK, BY_HORSE, BY_CANNON, BY_PAWN = range(len(THREATENERS))
VICTIMS = KINDS[ADVISOR:]                                   # ... by the kind attacked (the general: no)
MAX_PALACE_ATTACKERS = 5            # pieces bearing on the enemy palace: the last entry counts this many or more
# (name, size): a name ending in _mg is a middle-game term, _eg an ending term, any other name both; each kind's
# two piece-square tables come first, in kind order (PST, PST_STRIDE).
LAYOUT = tuple([(f"{KINDS[k]}_{ph}", HALF_BOARD) for k in range(KING, PAWN + 1) for ph in ("mg", "eg")]
               + [("rook_mobility_mg", 1), ("rook_mobility_eg", 1),
                  ("horse_mobility_mg", HORSE_MOVES), ("horse_mobility_eg", HORSE_MOVES),
                  ("advisor_missing_vs", len(ATTACKERS)), ("elephant_missing_vs", len(ATTACKERS)),
                  ("hollow_cannon_file_mg", RANKS), ("hollow_cannon_file_eg", RANKS),
                  ("hollow_cannon_rank_mg", FILES), ("hollow_cannon_rank_eg", FILES),
                  ("cannon_two_screens_mg", 1), ("cannon_two_screens_eg", 1),
                  *[(f"threat_by_{kind}_{ph}", len(VICTIMS)) for kind in THREATENERS for ph in ("mg", "eg")],
                  ("tempo_mg", 1), ("tempo_eg", 1),
                  ("palace_attack_mg", len(THREATENERS)), ("palace_attack_eg", len(THREATENERS)),
                  ("palace_attackers_mg", MAX_PALACE_ATTACKERS + 1), ("palace_attackers_eg", MAX_PALACE_ATTACKERS + 1),
                  ("pinned_mg", len(VICTIMS)), ("pinned_eg", len(VICTIMS)),
                  ("discovered_mg", 1), ("discovered_eg", 1),
                  ("hanging_mg", len(VICTIMS)), ("hanging_eg", len(VICTIMS))])
OFFSET, N_PARAMS = offsets(LAYOUT)
W = load_vector(PARAMS, LAYOUT, TABLE_SIZE, table_values)
PST = OFFSET["king_mg"]                 # kind k's mg table at PST + (k - 1) * PST_STRIDE, its eg table HALF_BOARD on
PST_STRIDE = 2 * HALF_BOARD
ROOK_MOBILITY_MG, ROOK_MOBILITY_EG = OFFSET["rook_mobility_mg"], OFFSET["rook_mobility_eg"]
THREAT_BY_ROOK, THREAT_BY_HORSE = OFFSET["threat_by_rook_mg"], OFFSET["threat_by_horse_mg"]    # eg: + len(VICTIMS)
THREAT_BY_CANNON, THREAT_BY_PAWN = OFFSET["threat_by_cannon_mg"], OFFSET["threat_by_pawn_mg"]
N_VICTIMS = len(VICTIMS)
HORSE_MOBILITY_MG, HORSE_MOBILITY_EG = OFFSET["horse_mobility_mg"], OFFSET["horse_mobility_eg"]
ADVISOR_MISSING, ELEPHANT_MISSING = OFFSET["advisor_missing_vs"], OFFSET["elephant_missing_vs"]
HOLLOW_FILE_MG, HOLLOW_FILE_EG = OFFSET["hollow_cannon_file_mg"], OFFSET["hollow_cannon_file_eg"]
HOLLOW_RANK_MG, HOLLOW_RANK_EG = OFFSET["hollow_cannon_rank_mg"], OFFSET["hollow_cannon_rank_eg"]
TWO_SCREENS_MG, TWO_SCREENS_EG = OFFSET["cannon_two_screens_mg"], OFFSET["cannon_two_screens_eg"]
TEMPO_MG_AT, TEMPO_EG_AT = OFFSET["tempo_mg"], OFFSET["tempo_eg"]
TEMPO_MG, TEMPO_EG = int(W[TEMPO_MG_AT]), int(W[TEMPO_EG_AT])
PALACE_ATTACK_MG, PALACE_ATTACK_EG = OFFSET["palace_attack_mg"], OFFSET["palace_attack_eg"]    # by THREATENERS
PALACE_ATTACKERS_MG, PALACE_ATTACKERS_EG = OFFSET["palace_attackers_mg"], OFFSET["palace_attackers_eg"]
PINNED_MG, PINNED_EG = OFFSET["pinned_mg"], OFFSET["pinned_eg"]
DISCOVERED_MG, DISCOVERED_EG = OFFSET["discovered_mg"], OFFSET["discovered_eg"]
HANGING = OFFSET["hanging_mg"]          # by the kind attacked; the eg values N_VICTIMS on, as the threats'


def _half_square(colour, sq):
    """The half-board index of ``sq`` for a piece of ``colour``: its rank from its own side, its file folded."""
    rank, file = sq // FILES, sq % FILES
    return (rank if colour == RED else RANKS - 1 - rank) * HALF_FILES + min(file, FILES - 1 - file)


HALF_SQUARE = np.array([[_half_square(c, sq) for sq in range(NSQ)] for c in (RED, BLACK)], np.int64)


def _board_tables():
    """W's piece-square terms spread over the board, by piece code (Black's negative) and square, as the
    evaluation reads them (one lookup; measured 5% faster than indexing W): the tables' mg and eg values and
    the index of the mg parameter (the eg one is HALF_BOARD further)."""
    index = np.zeros((2 * BLACK_BIT, NSQ), np.int64)
    for colour in (RED, BLACK):
        for kind in range(KING, PAWN + 1):
            index[colour * BLACK_BIT + kind] = PST + (kind - 1) * PST_STRIDE + HALF_SQUARE[colour]
    sign = np.array([1 if code < BLACK_BIT else -1 for code in range(2 * BLACK_BIT)], np.int32)[:, None]
    return index, sign * W[index], sign * W[index + HALF_BOARD]


PST_INDEX, PST_MG, PST_EG = _board_tables()

# The trace (``evaluate_trace``, engine.evaluation): each parameter's coefficient, Red's view (Black's pieces
# count negative), the phase (0..TOTAL_PHASE) and a flag for the terms that are not linear in the parameters
# (mop-up, a side that cannot win).
TRACE_PHASE, TRACE_NONLINEAR, TRACE_SIZE = trace_layout(N_PARAMS)

# --------------------------------------------------------------------------------------------------------------
# Named squares and directions, tables indexed by colour (RED, BLACK).
# --------------------------------------------------------------------------------------------------------------
PALACE = np.array([np.flatnonzero(LEGAL_SQUARES[c, KING]) for c in (RED, BLACK)], np.int8)    # 9 squares each
ENEMY_PALACE = np.array([LEGAL_SQUARES[c ^ 1, KING] for c in (RED, BLACK)], np.bool_)      # by the attacker's colour
ALONG_FILE = np.array([file_step == 0 for file_step, _ in ORTHO], np.bool_)    # by RAYS direction
# The board's two halves ("camps") either side of the river: Red's is ranks 0-4, Black's ranks 5-9.  A piece in
# the other side's camp has crossed the river.
CAMP_SIZE = NSQ // 2
CAMP_START = np.array([0, CAMP_SIZE], np.int64)
TWO_SCREENS = 2                     # a cannon this many pieces away from the general along a line

# Game phase: the rooks, horses and cannons left, a rook counting as two (its textbook value is about twice
# theirs); TOTAL_PHASE with all of them on the board, 0 with none.  The taper is linear.
PAIR = 2                            # a full set of advisors or elephants; each side's rooks, horses, cannons
PHASE_WEIGHT = np.array([0, 0, 0, 0, 1, 2, 1, 0], np.int64)        # by kind: horse 1, rook 2, cannon 1
TOTAL_PHASE = 2 * PAIR * (PHASE_WEIGHT[ROOK] + PHASE_WEIGHT[HORSE] + PHASE_WEIGHT[CANNON])     # both sides: 16

# Mop-up: per palace square of the lone general that the strong side attacks, and per step of closeness.
MOP_CONFINE = 40
MOP_NEAR = 6
MOP_RANGE = 10                      # attackers this many steps (file + rank distance) away or more earn nothing
ROOK_MATERIAL = 2                   # for "enough to mate": a rook counts as two horses or cannons
MATING_POWER = 2                    # material plus crossed pawns that mates any lone general
NO_WIN_DIVISOR = 8                  # a side that cannot win keeps this fraction of its advantage

# The census: how many pieces of each code (colour * 8 + kind) are on the board, CENSUS_BITS bits per code.
CENSUS_BITS = 4                     # 15 at most per code (a side has at most 5 of a kind); 15 codes fit in 60 bits
CENSUS_MASK = (1 << CENSUS_BITS) - 1

# One camp as scanned by _scan_camp: mg/eg: material, tables, mobility, threats and palace attacks of all its
# pieces in Red's view (Black's negative); census: its pieces; pawns: the invader's (crossed) pawns in it;
# red_attackers, black_attackers: its pieces of each colour that attack a square of the enemy palace;
# red_lo/hi, black_lo/hi: the set of occupied squares its rooks, horses, cannons and pawns of each colour reach
# (see squareset), their own pieces' included.
Camp = namedtuple("Camp", "mg eg census pawns red_attackers black_attackers red_lo red_hi black_lo black_hi")
# One side's pieces, as _side_of counts them from the census and the scan of the camp it attacks.
Side = namedtuple("Side", "rooks horses cannons advisors elephants pawns crossed_pawns")


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
def _threat(board, target, colour, block, sign, trace):
    """A piece of ``colour`` attacks ``target`` -> (mg, eg), Red's view: ``block``'s value for the kind attacked
    when an enemy piece other than the general stands there, else nothing."""
    q = board[target]
    if q == 0 or (q >> 3) == colour or (q & 7) == KING:
        return 0, 0
    at = block + (q & 7) - ADVISOR
    term(trace, at, True, False, sign)
    term(trace, at + N_VICTIMS, False, True, sign)
    return sign * W[at], sign * W[at + N_VICTIMS]


@njit(cache=True, inline="always")
def _line_scan(board, sq, colour, screens, block, sign, trace):
    """A rook (``screens`` 0) or cannon (``screens`` 1) of ``colour`` on ``sq`` -> (mobility, palace, mg, eg,
    lo, hi): the empty squares along its rank and file up to the first piece (its quiet moves), the squares of
    the enemy palace it attacks, its threats on the pieces it could capture (the first piece for a rook, the one
    beyond the screen for a cannon), and the set of the occupied squares it reaches, its own pieces' included.
    A cannon's mobility is not a term: fitted, it came out at 1 cp a square in the middle game and 0 in the
    ending."""
    mob = palace = mg = eg = 0
    lo = hi = EMPTY
    for d in range(RAYS.shape[1]):
        seen = 0
        for i in range(RAYS.shape[2]):
            s = RAYS[sq, d, i]
            if s < 0:
                break
            if seen == screens and ENEMY_PALACE[colour, s]:
                palace += 1
            if board[s] == 0:
                if seen == 0:
                    mob += 1
                continue
            if seen == screens:
                t_mg, t_eg = _threat(board, s, colour, block, sign, trace)
                mg += t_mg
                eg += t_eg
                lo, hi = add_square(lo, hi, s)
                break
            seen += 1
    return mob, palace, mg, eg, lo, hi


@njit(cache=True, inline="always")
def _horse_scan(board, sq, colour, sign, trace):
    """A horse of ``colour`` on ``sq`` -> (moves, palace, mg, eg, lo, hi): its moves (leg free, onto an empty
    square or an enemy piece), the squares of the enemy palace it attacks, its threats on the enemy pieces it
    could capture, and the set of the occupied squares it reaches."""
    moves = palace = mg = eg = 0
    lo = hi = EMPTY
    for i in range(HORSE_TO.shape[1]):
        t = HORSE_TO[sq, i]
        if t < 0:
            break
        if board[HORSE_LEG[sq, i]] != 0:
            continue
        if ENEMY_PALACE[colour, t]:
            palace += 1
        q = board[t]
        if q != 0:
            lo, hi = add_square(lo, hi, t)
        if q == 0 or (q >> 3) != colour:
            moves += 1
            t_mg, t_eg = _threat(board, t, colour, THREAT_BY_HORSE, sign, trace)
            mg += t_mg
            eg += t_eg
    return moves, palace, mg, eg, lo, hi


@njit(cache=True, inline="always")
def _pawn_threats(board, sq, colour, sign, trace):
    """A pawn of ``colour`` on ``sq`` -> (palace, mg, eg, lo, hi): the squares of the enemy palace it attacks,
    its threats on the enemy pieces it could capture, and the set of the occupied squares it reaches."""
    palace = mg = eg = 0
    lo = hi = EMPTY
    for i in range(PAWN_TO.shape[2]):
        t = PAWN_TO[colour, sq, i]
        if t < 0:
            break
        if ENEMY_PALACE[colour, t]:
            palace += 1
        if board[t] != 0:
            lo, hi = add_square(lo, hi, t)
        t_mg, t_eg = _threat(board, t, colour, THREAT_BY_PAWN, sign, trace)
        mg += t_mg
        eg += t_eg
    return palace, mg, eg, lo, hi


@njit(cache=True, inline="always")
def _one_step_away(board, steps, sq, piece):
    """Does ``piece`` stand on one of the squares ``steps[sq]`` lists (a -1 ends the list)?"""
    for i in range(steps.shape[1]):
        s = steps[sq, i]
        if s < 0:
            return False
        if board[s] == piece:
            return True
    return False


@njit(cache=True, inline="always")
def _guarded(board, sq, colour):
    """Does a general, advisor or elephant of ``colour`` defend ``sq``?  (Their steps are their own inverses: a
    piece on ``sq`` would reach the defender's square; an elephant's eye must be empty.)"""
    own = colour * BLACK_BIT
    if _one_step_away(board, KING_TO, sq, own + KING) or _one_step_away(board, ADVISOR_TO, sq, own + ADVISOR):
        return True
    for i in range(ELEPHANT_TO.shape[1]):
        s = ELEPHANT_TO[sq, i]
        if s < 0:
            break
        if board[s] == own + ELEPHANT and board[ELEPHANT_EYE[sq, i]] == 0:
            return True
    return False


@njit(cache=True, inline="always")
def _hanging(board, lo, hi, colour, trace):
    """``colour``'s pieces on the occupied squares of the set (``lo``, ``hi``), those the enemy's rooks, horses,
    cannons and pawns reach and ``colour``'s do not -> (mg, eg), Red's view: the hanging value of each one that
    no general, advisor or elephant of ``colour`` defends either, by its kind, the enemy's gain."""
    sign = -1 if colour == RED else 1
    mg = eg = 0
    for word, base in ((lo, 0), (hi, 64)):
        while word:
            sq = base + lowest(word)
            word &= word - ONE
            q = board[sq]
            if (q >> 3) == colour and (q & 7) != KING and not _guarded(board, sq, colour):
                at = HANGING + (q & 7) - ADVISOR
                term(trace, at, True, False, sign)
                term(trace, at + N_VICTIMS, False, True, sign)
                mg += sign * W[at]
                eg += sign * W[at + N_VICTIMS]
    return mg, eg


@njit(cache=True, inline="always")
def _palace_attack(at, n, sign, trace):
    """A piece (THREATENERS[``at``]) attacking ``n`` squares of the enemy palace -> (mg, eg), Red's view."""
    term(trace, PALACE_ATTACK_MG + at, True, False, sign * n)
    term(trace, PALACE_ATTACK_EG + at, False, True, sign * n)
    return sign * n * W[PALACE_ATTACK_MG + at], sign * n * W[PALACE_ATTACK_EG + at]


@njit(cache=True)       # called, not inlined: two inlined copies doubled the evaluation's compile time
def _scan_camp(board, invader, trace):
    """The pieces in the camp that ``invader`` attacks (its opponent's half) -> Camp.  The two calls, one per
    invader, cover the board once."""
    mg = eg = census = pawns = red_attackers = black_attackers = 0
    red_lo = red_hi = black_lo = black_hi = EMPTY
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
        term(trace, PST_INDEX[p, sq], True, False, sign)
        term(trace, PST_INDEX[p, sq] + HALF_BOARD, False, True, sign)
        palace = 0
        if kind == ROOK:
            n, palace, t_mg, t_eg, lo, hi = _line_scan(board, sq, colour, 0, THREAT_BY_ROOK, sign, trace)
            mg += sign * n * W[ROOK_MOBILITY_MG] + t_mg
            eg += sign * n * W[ROOK_MOBILITY_EG] + t_eg
            term(trace, ROOK_MOBILITY_MG, True, False, sign * n)
            term(trace, ROOK_MOBILITY_EG, False, True, sign * n)
            p_mg, p_eg = _palace_attack(BY_ROOK, palace, sign, trace)
            mg += p_mg
            eg += p_eg
        elif kind == CANNON:
            _, palace, t_mg, t_eg, lo, hi = _line_scan(board, sq, colour, 1, THREAT_BY_CANNON, sign, trace)
            p_mg, p_eg = _palace_attack(BY_CANNON, palace, sign, trace)
            mg += t_mg + p_mg
            eg += t_eg + p_eg
        elif kind == HORSE:
            n, palace, t_mg, t_eg, lo, hi = _horse_scan(board, sq, colour, sign, trace)
            mg += sign * W[HORSE_MOBILITY_MG + n] + t_mg
            eg += sign * W[HORSE_MOBILITY_EG + n] + t_eg
            term(trace, HORSE_MOBILITY_MG + n, True, False, sign)
            term(trace, HORSE_MOBILITY_EG + n, False, True, sign)
            p_mg, p_eg = _palace_attack(BY_HORSE, palace, sign, trace)
            mg += p_mg
            eg += p_eg
        elif kind == PAWN:
            palace, t_mg, t_eg, lo, hi = _pawn_threats(board, sq, colour, sign, trace)
            p_mg, p_eg = _palace_attack(BY_PAWN, palace, sign, trace)
            mg += t_mg + p_mg
            eg += t_eg + p_eg
            if colour == invader:
                pawns += 1
        else:
            lo, hi = EMPTY, EMPTY       # a general's, advisor's or elephant's defence: see _guarded
        if colour == RED:
            red_attackers += palace > 0
            red_lo |= lo
            red_hi |= hi
        else:
            black_attackers += palace > 0
            black_lo |= lo
            black_hi |= hi
        census += 1 << (CENSUS_BITS * (p - 1))
    return Camp(mg, eg, census, pawns, red_attackers, black_attackers, red_lo, red_hi, black_lo, black_hi)


@njit(cache=True)
def _count(census, colour, kind):
    """How many pieces of ``colour`` and ``kind`` the census counted."""
    return (census >> (CENSUS_BITS * (colour * BLACK_BIT + kind - 1))) & CENSUS_MASK


@njit(cache=True)
def _side_of(census, attacked_camp, colour):
    """``colour``'s Side from the board's census and the scan of the camp it attacks."""
    return Side(_count(census, colour, ROOK), _count(census, colour, HORSE), _count(census, colour, CANNON),
                _count(census, colour, ADVISOR), _count(census, colour, ELEPHANT), _count(census, colour, PAWN),
                attacked_camp.pawns)


@njit(cache=True)
def _material(side):
    """Rooks, horses and cannons, a rook counting ROOK_MATERIAL."""
    return ROOK_MATERIAL * side.rooks + side.horses + side.cannons


@njit(cache=True, inline="always")
def _pin(board, sq, colour, sign, trace):
    """The piece on ``sq`` alone shields ``colour``'s general from an enemy rook, the facing general or a horse
    (on its leg) -> (mg, eg), ``colour``'s own view: pinned if it is ``colour``'s (it may not leave the line), a
    discovered check in waiting if it is the enemy's."""
    q = board[sq]
    if (q >> 3) == colour:
        at, at_eg = PINNED_MG + (q & 7) - ADVISOR, PINNED_EG + (q & 7) - ADVISOR
    else:
        at, at_eg = DISCOVERED_MG, DISCOVERED_EG
    term(trace, at, True, False, -sign)
    term(trace, at_eg, False, True, -sign)
    return -W[at], -W[at_eg]


@njit(cache=True)
def _general_lines(board, colour, king, trace):
    """Enemy pieces lined up on ``colour``'s general on ``king``, from its own view -> (mg, eg): cannons with
    nothing between them (the hollow cannon, by distance, along the file or the rank) or with two pieces; a single
    piece between it and an enemy rook, or the enemy general on its file, or on the leg of an enemy horse that
    would otherwise check (``_pin``)."""
    sign = 1 if colour == RED else -1
    enemy = (colour ^ 1) * BLACK_BIT
    cannon, rook, general, horse = enemy + CANNON, enemy + ROOK, enemy + KING, enemy + HORSE
    mg = eg = 0
    for d in range(RAYS.shape[1]):
        screens = 0
        shield = -1
        for i in range(RAYS.shape[2]):
            s = RAYS[king, d, i]
            if s < 0 or screens > TWO_SCREENS:
                break
            q = board[s]
            if q == 0:
                continue
            if q == cannon and screens == 0:
                at = (HOLLOW_FILE_MG if ALONG_FILE[d] else HOLLOW_RANK_MG) + i + 1
                at_eg = (HOLLOW_FILE_EG if ALONG_FILE[d] else HOLLOW_RANK_EG) + i + 1
                mg -= W[at]
                eg -= W[at_eg]
                term(trace, at, True, False, -sign)
                term(trace, at_eg, False, True, -sign)
            elif q == cannon and screens == TWO_SCREENS:
                mg -= W[TWO_SCREENS_MG]
                eg -= W[TWO_SCREENS_EG]
                term(trace, TWO_SCREENS_MG, True, False, -sign)
                term(trace, TWO_SCREENS_EG, False, True, -sign)
            elif screens == 1 and (q == rook or (q == general and (board[shield] >> 3) == colour)):
                # Between the generals only the general's own piece is pinned; an enemy one there is the
                # enemy general's pinned piece, counted from its side.
                p_mg, p_eg = _pin(board, shield, colour, sign, trace)
                mg += p_mg
                eg += p_eg
            if screens == 0:
                shield = s
            screens += 1
    for i in range(HORSE_FROM.shape[1]):
        s = HORSE_FROM[king, i]
        if s < 0:
            break
        leg = HORSE_FROM_LEG[king, i]
        if board[s] == horse and board[leg] != 0:
            p_mg, p_eg = _pin(board, leg, colour, sign, trace)
            mg += p_mg
            eg += p_eg
    return mg, eg


@njit(cache=True, inline="always")
def _side_terms(board, colour, king, own, enemy, trace):
    """``colour``'s terms besides material, tables and mobility, from its own view -> (mg, eg): each missing
    advisor and elephant against each enemy attacker on the board, and enemy pieces lined up on its general."""
    sign = 1 if colour == RED else -1
    attackers = (enemy.rooks, enemy.horses, enemy.cannons, enemy.crossed_pawns)       # as ATTACKERS
    missing_advisors = PAIR - own.advisors
    missing_elephants = PAIR - own.elephants
    cost = 0
    for i in range(len(attackers)):
        n = attackers[i]
        cost += n * (missing_advisors * W[ADVISOR_MISSING + i] + missing_elephants * W[ELEPHANT_MISSING + i])
        term(trace, ADVISOR_MISSING + i, True, True, -sign * n * missing_advisors)
        term(trace, ELEPHANT_MISSING + i, True, True, -sign * n * missing_elephants)
    mg, eg = _general_lines(board, colour, king, trace)
    return mg - cost, eg - cost


@njit(cache=True)
def _mop_up_applies(own, weak):
    """Does the mop-up bonus go to ``own``: the other side has no rook, horse or cannon left, and ``own`` has
    enough to mate anything, or a horse or crossed pawn against a general without defenders?"""
    return _material(weak) == 0 and (_material(own) + own.crossed_pawns >= MATING_POWER
                                     or (own.horses + own.crossed_pawns >= 1 and weak.advisors + weak.elephants == 0))


@njit(cache=True)
def _cannot_win(side):
    """A side without rooks, horses, cannons and pawns cannot win."""
    return _material(side) + side.pawns == 0


@njit(cache=True, inline="always")
def _evaluate(board, st, trace):
    """Static score of the position from the side to move's point of view (see the module docstring); with a
    ``trace`` array (TRACE_SIZE, zeroed), also the coefficient of every parameter (see TRACE_PHASE)."""
    red_camp = _scan_camp(board, BLACK, trace)
    black_camp = _scan_camp(board, RED, trace)
    census = red_camp.census + black_camp.census
    red = _side_of(census, black_camp, RED)
    black = _side_of(census, red_camp, BLACK)
    mg_red, eg_red = _side_terms(board, RED, st[ST_KING + RED], red, black, trace)
    mg_black, eg_black = _side_terms(board, BLACK, st[ST_KING + BLACK], black, red, trace)
    mg = red_camp.mg + black_camp.mg + mg_red - mg_black
    eg = red_camp.eg + black_camp.eg + eg_red - eg_black
    # King safety beyond the lines: how many pieces bear on the enemy palace, a value by their number.
    attackers_red = min(red_camp.red_attackers + black_camp.red_attackers, MAX_PALACE_ATTACKERS)
    attackers_black = min(red_camp.black_attackers + black_camp.black_attackers, MAX_PALACE_ATTACKERS)
    mg += W[PALACE_ATTACKERS_MG + attackers_red] - W[PALACE_ATTACKERS_MG + attackers_black]
    eg += W[PALACE_ATTACKERS_EG + attackers_red] - W[PALACE_ATTACKERS_EG + attackers_black]
    term(trace, PALACE_ATTACKERS_MG + attackers_red, True, False, 1)
    term(trace, PALACE_ATTACKERS_EG + attackers_red, False, True, 1)
    term(trace, PALACE_ATTACKERS_MG + attackers_black, True, False, -1)
    term(trace, PALACE_ATTACKERS_EG + attackers_black, False, True, -1)
    # Hanging pieces: reached by the enemy, by none of their own side.
    red_lo, red_hi = red_camp.red_lo | black_camp.red_lo, red_camp.red_hi | black_camp.red_hi
    black_lo, black_hi = red_camp.black_lo | black_camp.black_lo, red_camp.black_hi | black_camp.black_hi
    h_mg, h_eg = _hanging(board, red_lo & ~black_lo, red_hi & ~black_hi, BLACK, trace)
    mg += h_mg
    eg += h_eg
    h_mg, h_eg = _hanging(board, black_lo & ~red_lo, black_hi & ~red_hi, RED, trace)
    mg += h_mg
    eg += h_eg

    ph = min(PHASE_WEIGHT[ROOK] * (red.rooks + black.rooks) + PHASE_WEIGHT[HORSE] * (red.horses + black.horses)
             + PHASE_WEIGHT[CANNON] * (red.cannons + black.cannons), TOTAL_PHASE)
    score = tdiv(mg * ph + eg * (TOTAL_PHASE - ph), TOTAL_PHASE)

    # Won endings: drive the lone general into a corner of its palace.
    mop_red, mop_black = _mop_up_applies(red, black), _mop_up_applies(black, red)
    if mop_red:
        score += mop_up(board, st[ST_KING + BLACK], RED)
    if mop_black:
        score -= mop_up(board, st[ST_KING + RED], BLACK)
    no_win_red, no_win_black = _cannot_win(red), _cannot_win(black)
    if (score > 0 and no_win_red) or (score < 0 and no_win_black):
        score = tdiv(score, NO_WIN_DIVISOR)

    to_move = 1 if st[ST_SIDE] == RED else -1
    if trace is not None:
        trace[TRACE_PHASE] = ph
        # Flagged by the material alone, not by the score, so that which positions the tuner fits does not
        # depend on the parameters in use.
        trace[TRACE_NONLINEAR] = 1 if mop_red or mop_black or no_win_red or no_win_black else 0
        term(trace, TEMPO_MG_AT, True, False, to_move)      # Red's view: the tempo is the mover's
        term(trace, TEMPO_EG_AT, False, True, to_move)
    return to_move * score + (TEMPO_MG * ph + TEMPO_EG * (TOTAL_PHASE - ph)) // TOTAL_PHASE


evaluate, evaluate_trace = kernels(globals(), "xiangqi")
