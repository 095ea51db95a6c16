"""Static evaluation for chess (numba): ``evaluate(board, st)`` -> centipawns from the side to move's view.

Scale: a pawn is about 100 in the middle game (``engine.scores``: |eval| stays far below 20000).

Terms, each side from its own view, White's minus Black's, tapered linearly between middle game (mg) and ending
(eg) by the game phase (knights and bishops 1, rooks 2, queens 4; 24 at the start):

* material and piece-square tables per kind, mg and eg: whole 64-square boards from the owner's side (a Black
  piece's square mirrored by rank), not folded left-right: castling makes the wings differ;
* mobility: a value for each number of squares a knight, bishop, rook or queen attacks that hold no own piece
  and no enemy pawn attacks (0..8, 13, 14, 27);
* pawns: passed pawns by rank, and by the distance (0..7, king steps) of the own and of the enemy king to the
  square in front of them, and by rank again when that square is occupied (blocked), when every square ahead
  is empty and unattacked by the enemy (free), or else when the next one is (a safe push); connected pawns
  (defended by a pawn, or with one beside them) by rank; doubled and isolated pawns; backward pawns (no own pawn
  beside or behind on the adjacent files, and an enemy pawn attacking the square in front); isolated or backward
  pawns with no enemy pawn ahead on their file (unopposed); pawns blocked by an enemy pawn, by rank;
* the bishop pair, rooks on open and half-open files and on the seventh rank; knights and bishops on an outpost
  (on the fourth to sixth rank from their side, defended by a pawn, and on a square no enemy pawn can ever
  attack); a knight or bishop behind a pawn (either side's, on the square in front), and by its distance to
  the own king (0..7); a queen in the enemy's half where no enemy pawn can ever attack it; for each bishop, the
  own pawns on squares of its colour; space: a value by the number (0..16) of centre squares (files c-f, second
  to fourth rank from its side) that hold no own pawn and no enemy pawn attacks, those behind an own pawn
  counted twice;
* king safety: the own pawns in its shield (file and the adjacent ones, one or two ranks ahead; 0..3), the
  files around it without own pawns (0..3), on each file around it the nearest enemy pawn ahead of it by its
  distance (ranks 1..7; 0: none), the squares next to the enemy king each knight, bishop, rook and queen
  attacks, a value by the number of pieces attacking them (0..7), and one by the number of them (0..8) that own
  pieces attack and no enemy pawn, knight, bishop or rook defends (weak); the own pieces pinned to the king by
  an enemy bishop, rook or queen (by the pinned piece's kind); for each kind of knight, bishop, rook and queen,
  whether one can give a safe check (move to an empty or enemy-held square no enemy piece attacks, from which
  it checks the enemy king); and, for a side with a queen, king danger: a value by the sum (0..23) of its
  attacks on the squares next to the enemy king (counted per piece), the weak ones among them, and twice its
  kinds of safe check;
* threats: the enemy pawns, knights, bishops, rooks and queens attacked by own pawns, knights, bishops, rooks
  and queens (a value per attacker and victim kind, defended or not), enemy pieces attacked and not defended
  (hanging, by kind), the undefended enemy pieces the king attacks, enemy pieces (not pawns) that a safe pawn push
  would attack, and the squares both sides attack where no enemy pawn does (restricted);
* a tempo for the side to move;
* outside the fitted terms: a side with no pawns and at most a minor piece's advantage (``PIECE_VALUE``, non-pawn
  material) rarely wins, so its advantage is divided by ``NO_PAWN_DIVISOR``.

Every weight is an entry of one parameter vector ``W`` (named blocks, ``LAYOUT``), read from the generated
module ``eval_params.py``: the tuner (``engine/tune``, ``make tune-data GAME=chess`` then ``make tune
GAME=chess``) fits them to the project's own self-play games, starting from textbook material on every square
and zero for every other term, and writes the file with its provenance.  ``evaluate_trace`` is the same code
reporting each parameter's coefficient, which is what the tuner fits.  The structural constants below (phase
weights, the king zone, the no-pawn divisor) are this project's own choices.  Every term is colour-symmetric
(tests/test_chess_eval.py checks it on mirrored positions).
"""
import numpy as np
from numba import njit

from .bitboard import BETWEEN, FILE_BB, KING_ATTACKS, KNIGHT_ATTACKS, SQUARE_BB, ZERO, bb, bishop_attacks, lsb, \
    popcount, rook_attacks
from .constants import BISHOP, BLACK, BLACK_BIT, FILES, KING, KNIGHT, NSQ, PAWN, QUEEN, ROOK, ST_BB, ST_KING, \
    ST_OCC, ST_SIDE, WHITE
from .eval_params import PARAMS
from ..evaluation import flip_rows, kernels, load_vector, offsets, tdiv, term, trace_layout

# Nominal values by kind for the search (MVV/LVA, SEE, delta pruning), hand-set, not fitted.  The king is 0:
# never captured.
PIECE_VALUE = np.array([0, 100, 320, 330, 500, 950, 0, 0], np.int32)

# --------------------------------------------------------------------------------------------------------------
# The parameters: one vector W, in named blocks (LAYOUT), with values from eval_params.py (written by the tuner,
# engine/tune).  Board blocks (TABLE_SIZE values) are piece-square tables indexed by the square from the
# owner's side (OWN_SQUARE).  The file writes them as the whole board as White sees it (rank 8 first, files a-h).
# --------------------------------------------------------------------------------------------------------------
TABLE_ROW = FILES                   # the values of one row in the file: a rank
TABLE_SIZE = NSQ                    # a piece-square table: every square, from the owner's side
PARAMS_HEADER = (    # the parameter file's docstring says how to read it
    "Each block is a term of engine/chess/evaluate.py (LAYOUT says which); blocks of 64 values are the",
    "board as White sees it (rank 8 first, files a-h), from the owner's side (a Black piece's square is",
    "mirrored by rank).")


def table_values(block) -> list[int]:
    """A board block as written in the file (rank 8 first) -> values indexed by square (a1 = 0, rank 1 first),
    and back."""
    return flip_rows(block, TABLE_ROW)


KINDS = ("", "pawn", "knight", "bishop", "rook", "queen", "king")      # by kind code
MOBILE = (KNIGHT, BISHOP, ROOK, QUEEN)                                  # the kinds with mobility tables ...
MOBILITY_COUNTS = {KNIGHT: 9, BISHOP: 14, ROOK: 15, QUEEN: 28}         # ... of this many values (0..max)
RANK_VALUES = 8                     # a value per rank from the owner's side (pawns use 1..6)
DISTANCES = 8                       # king steps 0..7
SHIELD_COUNTS = 4                   # 0..3 own pawns in the king's shield
OPEN_FILE_COUNTS = 4                # 0..3 files at the king without own pawns
MAX_ATTACKERS = 7                   # pieces attacking the enemy king's zone: 0..7 (more count as 7)
THREATENERS = KINDS[PAWN:KING]      # threats by pawns .. queens ...
VICTIMS = KINDS[PAWN:KING]          # ... on enemy pawns .. queens (the king: no)
OUTPOSTERS = (KNIGHT, BISHOP)       # the kinds valued on an outpost
WEAK_COUNTS = 9                     # 0..8 weak squares next to the enemy king
SPACE_COUNTS = 17                   # 0..16 space squares (more count as 16)
DANGER_SIZE = 24                    # king danger, with a queen: 0..23 units (more count as 23)
PROTECTORS = (KNIGHT, BISHOP)       # the kinds valued by their distance to the own king
PHASES = ("mg", "eg")
# (name, size): a name ending in _mg is a middle-game term, _eg an ending term; each kind's two piece-square
# tables come first, in kind order (PST, PST_STRIDE).
LAYOUT = tuple([(f"{KINDS[k]}_{ph}", TABLE_SIZE) for k in range(PAWN, KING + 1) for ph in PHASES]
               + [(f"{KINDS[k]}_mobility_{ph}", MOBILITY_COUNTS[k]) for k in MOBILE for ph in PHASES]
               + [(f"{name}_{ph}", size) for name, size in (
                   ("passed", RANK_VALUES), ("passed_own_king", DISTANCES), ("passed_enemy_king", DISTANCES),
                   ("passed_blocked", RANK_VALUES), ("passed_free", RANK_VALUES), ("passed_push", RANK_VALUES),
                   ("outpost", len(OUTPOSTERS)),
                   ("connected", RANK_VALUES), ("doubled", 1), ("isolated", 1), ("backward", 1),
                   ("weak_unopposed", 1), ("blocked_pawn", RANK_VALUES),
                   ("bishop_pair", 1), ("rook_open", 1), ("rook_half_open", 1), ("rook_seventh", 1),
                   ("bishop_pawns", 1), ("space", SPACE_COUNTS),
                   ("king_shield", SHIELD_COUNTS), ("king_open_files", OPEN_FILE_COUNTS), ("king_storm", DISTANCES),
                   ("king_zone_attacks", len(MOBILE)), ("king_attackers", MAX_ATTACKERS + 1),
                   ("king_weak", WEAK_COUNTS), ("pinned", len(VICTIMS)), ("safe_check", len(MOBILE)),
                   ("push_threat", 1), ("king_danger", DANGER_SIZE), ("restricted", 1),
                   ("queen_infiltration", 1), ("minor_behind_pawn", 1), ("king_protector", len(PROTECTORS) * DISTANCES),
                   ("threat_by_king", 1))
                  for ph in PHASES]
               + [(f"threat_by_{kind}_{ph}", len(VICTIMS)) for kind in THREATENERS for ph in PHASES]
               + [(f"hanging_{ph}", len(VICTIMS)) for ph in PHASES]
               + [("tempo_mg", 1), ("tempo_eg", 1)])
OFFSET, N_PARAMS = offsets(LAYOUT)
W = load_vector(PARAMS, LAYOUT, TABLE_SIZE, table_values)


def _pair_offsets(name):
    """The offsets of block ``name``'s mg and eg halves."""
    return OFFSET[f"{name}_mg"], OFFSET[f"{name}_eg"]


PST = OFFSET["pawn_mg"]             # kind k's mg table at PST + (k - 1) * PST_STRIDE, its eg table TABLE_SIZE on
PST_STRIDE = 2 * TABLE_SIZE
MOBILITY_MG = np.zeros(KING + 1, np.int64)          # by kind
MOBILITY_EG = np.zeros(KING + 1, np.int64)
for _k in MOBILE:
    MOBILITY_MG[_k], MOBILITY_EG[_k] = _pair_offsets(f"{KINDS[_k]}_mobility")
del _k
PASSED_MG, PASSED_EG = _pair_offsets("passed")
PASSED_OWN_KING_MG, PASSED_OWN_KING_EG = _pair_offsets("passed_own_king")
PASSED_ENEMY_KING_MG, PASSED_ENEMY_KING_EG = _pair_offsets("passed_enemy_king")
CONNECTED_MG, CONNECTED_EG = _pair_offsets("connected")
DOUBLED_MG, DOUBLED_EG = _pair_offsets("doubled")
ISOLATED_MG, ISOLATED_EG = _pair_offsets("isolated")
BACKWARD_MG, BACKWARD_EG = _pair_offsets("backward")
STORM_MG, STORM_EG = _pair_offsets("king_storm")                            # + distance in ranks
BISHOP_PAIR_MG, BISHOP_PAIR_EG = _pair_offsets("bishop_pair")
ROOK_OPEN_MG, ROOK_OPEN_EG = _pair_offsets("rook_open")
ROOK_HALF_OPEN_MG, ROOK_HALF_OPEN_EG = _pair_offsets("rook_half_open")
ROOK_SEVENTH_MG, ROOK_SEVENTH_EG = _pair_offsets("rook_seventh")
BISHOP_PAWNS_MG, BISHOP_PAWNS_EG = _pair_offsets("bishop_pawns")       # a value per own pawn on its colour
SHIELD_MG, SHIELD_EG = _pair_offsets("king_shield")
OPEN_FILES_MG, OPEN_FILES_EG = _pair_offsets("king_open_files")
ZONE_MG, ZONE_EG = _pair_offsets("king_zone_attacks")           # + MOBILE index (kind - KNIGHT)
ATTACKERS_MG, ATTACKERS_EG = _pair_offsets("king_attackers")
PASSED_BLOCKED_MG, PASSED_BLOCKED_EG = _pair_offsets("passed_blocked")     # + rank
PASSED_FREE_MG, PASSED_FREE_EG = _pair_offsets("passed_free")             # + rank
PASSED_PUSH_MG, PASSED_PUSH_EG = _pair_offsets("passed_push")             # + rank
OUTPOST_MG, OUTPOST_EG = _pair_offsets("outpost")                           # + kind - KNIGHT
SPACE_MG, SPACE_EG = _pair_offsets("space")                                 # + count
KING_WEAK_MG, KING_WEAK_EG = _pair_offsets("king_weak")                     # + count
PUSH_THREAT_MG, PUSH_THREAT_EG = _pair_offsets("push_threat")
WEAK_UNOPPOSED_MG, WEAK_UNOPPOSED_EG = _pair_offsets("weak_unopposed")
BLOCKED_PAWN_MG, BLOCKED_PAWN_EG = _pair_offsets("blocked_pawn")           # + rank
KING_DANGER_MG, KING_DANGER_EG = _pair_offsets("king_danger")             # + units
RESTRICTED_MG, RESTRICTED_EG = _pair_offsets("restricted")
QUEEN_INFILTRATION_MG, QUEEN_INFILTRATION_EG = _pair_offsets("queen_infiltration")
MINOR_BEHIND_PAWN_MG, MINOR_BEHIND_PAWN_EG = _pair_offsets("minor_behind_pawn")
KING_PROTECTOR_MG, KING_PROTECTOR_EG = _pair_offsets("king_protector")     # + (kind - KNIGHT) * DISTANCES + distance
THREAT_BY_KING_MG, THREAT_BY_KING_EG = _pair_offsets("threat_by_king")
PINNED_MG, PINNED_EG = _pair_offsets("pinned")                              # + kind - PAWN
SAFE_CHECK_MG, SAFE_CHECK_EG = _pair_offsets("safe_check")                  # + kind - KNIGHT
THREAT_MG = np.array([0] + [OFFSET[f"threat_by_{k}_mg"] for k in THREATENERS], np.int64)    # by attacker kind
THREAT_EG = np.array([0] + [OFFSET[f"threat_by_{k}_eg"] for k in THREATENERS], np.int64)
HANGING_MG, HANGING_EG = _pair_offsets("hanging")
TEMPO_MG_AT, TEMPO_EG_AT = _pair_offsets("tempo")
TEMPO_MG, TEMPO_EG = int(W[TEMPO_MG_AT]), int(W[TEMPO_EG_AT])


def own_square(colour, sq):
    """The square as seen from ``colour``'s side (Black's board mirrored by rank)."""
    return sq if colour == WHITE else sq ^ 56


def _board_tables():
    """W's piece-square terms spread over the board, by piece code (Black's negative) and square, as the
    evaluation reads them (one lookup): the tables' mg and eg values and the index of the mg parameter (the eg
    one is TABLE_SIZE further)."""
    index = np.zeros((2 * BLACK_BIT, NSQ), np.int64)
    for colour in (WHITE, BLACK):
        for kind in range(PAWN, KING + 1):
            index[colour * BLACK_BIT + kind] = [PST + (kind - 1) * PST_STRIDE + own_square(colour, sq)
                                                for sq in range(NSQ)]
    sign = np.array([1 if code < BLACK_BIT else -1 for code in range(2 * BLACK_BIT)], np.int32)[:, None]
    return index, sign * W[index], sign * W[index + TABLE_SIZE]


PST_INDEX, PST_MG, PST_EG = _board_tables()

# The trace (``evaluate_trace``, engine.evaluation): each parameter's coefficient, White's view (Black's terms
# count negative), the phase (0..TOTAL_PHASE) and a flag for the positions where the score is not linear in the
# parameters (a side without pawns that the no-pawn rule may scale down).
TRACE_PHASE, TRACE_NONLINEAR, TRACE_SIZE = trace_layout(N_PARAMS)

# Game phase: knights and bishops 1, rooks 2, queens 4; TOTAL_PHASE with all of them on the board (more, after
# promotions, counts as TOTAL_PHASE), 0 with none.
PHASE_WEIGHT = np.array([0, 0, 1, 1, 2, 4, 0], np.int64)
TOTAL_PHASE = 24
NO_PAWN_DIVISOR = 8                 # no pawns and at most a minor ahead: the advantage is divided by this
NO_PAWN_MARGIN = int(PIECE_VALUE[BISHOP])       # "at most a minor ahead", in nominal piece values


def _masks():
    """[colour, square]: the squares ahead on its file (doubled pawns), ahead on its own and the adjacent files
    (passed pawns), the king's shield (one and two ranks ahead, own and adjacent files); [square]: the squares
    beside it on its rank (a phalanx), the adjacent files (isolated pawns), the files around a king; and the king
    distance (king steps) between two squares."""
    file_ahead = np.zeros((2, NSQ), np.uint64)
    passed = np.zeros((2, NSQ), np.uint64)
    shield = np.zeros((2, NSQ), np.uint64)
    beside = np.zeros(NSQ, np.uint64)
    adjacent = np.zeros(8, np.uint64)
    distance = np.zeros((NSQ, NSQ), np.int64)
    for f in range(8):
        for ff in (f - 1, f + 1):
            if 0 <= ff < 8:
                adjacent[f] |= FILE_BB[ff]
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
    for sq in range(NSQ):
        f, r = sq % 8, sq // 8
        for ff in (f - 1, f + 1):
            if 0 <= ff < 8:
                beside[sq] |= np.uint64(1 << (r * 8 + ff))
        for t in range(NSQ):
            distance[sq, t] = max(abs(f - t % 8), abs(r - t // 8))
    return file_ahead, passed, shield, beside, adjacent, distance


FILE_AHEAD, PASSED_MASK, SHIELD_MASK, BESIDE, ADJACENT_FILES, DISTANCE = _masks()
SEVENTH_RANK = np.array([0xFF << 48, 0xFF << 8], np.uint64)        # [colour]: the seventh rank from its side
# [square]: the squares of its colour.
SAME_COLOUR = np.array([sum(1 << t for t in range(64) if (t % 8 + t // 8) % 2 == (sq % 8 + sq // 8) % 2)
                        for sq in range(64)], np.uint64)
# [colour]: the fourth to sixth ranks from its side, where an outpost can be.
OUTPOST_RANKS = np.array([sum(1 << sq for sq in range(24, 48)), sum(1 << sq for sq in range(16, 40))], np.uint64)
# [colour]: the enemy's half of the board, where a queen may infiltrate.
ENEMY_HALF = np.array([sum(1 << sq for sq in range(32, 64)), sum(1 << sq for sq in range(32))], np.uint64)
# [colour]: the centre files (c-f) on the second to fourth rank from its side, where space counts.
SPACE_AREA = np.array([sum(1 << (r * 8 + f) for r in ranks for f in range(2, 6)) for ranks in ((1, 2, 3), (6, 5, 4))],
                      np.uint64)
# [colour]: the third rank from its side, from which a pawn pushed once can go on two.
THIRD_RANK = np.array([0xFF << 16, 0xFF << 40], np.uint64)
NOT_FILE_A, NOT_FILE_H = ~FILE_BB[0], ~FILE_BB[7]
SHIFT_8, SHIFT_16 = np.uint64(8), np.uint64(16)
SHIFT_7, SHIFT_9 = np.uint64(7), np.uint64(9)


@njit(cache=True, inline="always")
def _on_square(trace, code, sq, sign, mg, eg):
    """``mg``, ``eg`` plus the piece-square values of piece ``code`` on ``sq``, traced (``sign``: its side's)."""
    term(trace, PST_INDEX[code, sq], True, False, sign)
    term(trace, PST_INDEX[code, sq] + TABLE_SIZE, False, True, sign)
    return mg + PST_MG[code, sq], eg + PST_EG[code, sq]


@njit(cache=True, inline="always")
def _pair(trace, at_mg, at_eg, count):
    """``count`` times the mg parameter ``at_mg`` and the eg parameter ``at_eg`` -> (mg, eg), traced."""
    term(trace, at_mg, True, False, count)
    term(trace, at_eg, False, True, count)
    return count * W[at_mg], count * W[at_eg]


@njit(cache=True, inline="always")
def _add(trace, at_mg, at_eg, count, mg, eg):
    """``mg``, ``eg`` plus ``count`` times the parameters at ``at_mg`` and ``at_eg`` (``_pair``), traced."""
    a, b = _pair(trace, at_mg, at_eg, count)
    return mg + a, eg + b


@njit(cache=True, inline="always")
def _pawn_attacks(pawns, colour):
    """The squares the pawns of ``colour`` attack."""
    if colour == WHITE:
        return ((pawns & NOT_FILE_A) << SHIFT_7) | ((pawns & NOT_FILE_H) << SHIFT_9)
    return ((pawns & NOT_FILE_A) >> SHIFT_9) | ((pawns & NOT_FILE_H) >> SHIFT_7)


@njit(cache=True, inline="always")
def _pawn_rank_and_front(colour, sq):
    """A pawn of ``colour`` on ``sq``: its rank from its own side (0..7) and the square in front of it."""
    if colour == WHITE:
        return sq >> 3, sq + 8
    return 7 - (sq >> 3), sq - 8


@njit(cache=True)
def _pawn_terms(colour, occ, own_pawns, enemy_pawns, pawn_att, enemy_pawn_att, king, enemy_king, trace):
    """``colour``'s pawns, White's view -> (mg, eg, its passed pawns)."""
    sign = 1 if colour == WHITE else -1
    enemy = colour ^ 1
    mg = eg = 0
    code = colour * BLACK_BIT + PAWN
    passed = ZERO
    group = own_pawns
    while group:
        sq = lsb(group)
        group &= group - np.uint64(1)
        mg, eg = _on_square(trace, code, sq, sign, mg, eg)
        rank, front = _pawn_rank_and_front(colour, sq)
        isolated = (own_pawns & ADJACENT_FILES[sq & 7]) == ZERO
        if isolated:
            mg, eg = _add(trace, ISOLATED_MG, ISOLATED_EG, sign, mg, eg)
        if (own_pawns & FILE_AHEAD[colour, sq]) != ZERO:
            mg, eg = _add(trace, DOUBLED_MG, DOUBLED_EG, sign, mg, eg)
        backward = (enemy_pawn_att & SQUARE_BB[front]) != ZERO \
            and (own_pawns & ADJACENT_FILES[sq & 7] & PASSED_MASK[enemy, front]) == ZERO
        if backward:
            mg, eg = _add(trace, BACKWARD_MG, BACKWARD_EG, sign, mg, eg)
        # Isolated or backward with no enemy pawn ahead on its file: open to the enemy's rooks and queens.
        if (isolated or backward) and (enemy_pawns & FILE_AHEAD[colour, sq]) == ZERO:
            mg, eg = _add(trace, WEAK_UNOPPOSED_MG, WEAK_UNOPPOSED_EG, sign, mg, eg)
        if (enemy_pawns & SQUARE_BB[front]) != ZERO:
            mg, eg = _add(trace, BLOCKED_PAWN_MG + rank, BLOCKED_PAWN_EG + rank, sign, mg, eg)
        if (pawn_att & SQUARE_BB[sq]) != ZERO or (own_pawns & BESIDE[sq]) != ZERO:
            mg, eg = _add(trace, CONNECTED_MG + rank, CONNECTED_EG + rank, sign, mg, eg)
        if (enemy_pawns & PASSED_MASK[colour, sq]) == ZERO:
            passed |= SQUARE_BB[sq]
            mg, eg = _add(trace, PASSED_MG + rank, PASSED_EG + rank, sign, mg, eg)
            d = DISTANCE[king, front]
            mg, eg = _add(trace, PASSED_OWN_KING_MG + d, PASSED_OWN_KING_EG + d, sign, mg, eg)
            d = DISTANCE[enemy_king, front]
            mg, eg = _add(trace, PASSED_ENEMY_KING_MG + d, PASSED_ENEMY_KING_EG + d, sign, mg, eg)
            if (occ & SQUARE_BB[front]) != ZERO:
                mg, eg = _add(trace, PASSED_BLOCKED_MG + rank, PASSED_BLOCKED_EG + rank, sign, mg, eg)

    return mg, eg, passed


@njit(cache=True)
def _piece_terms(st, colour, occ, own, own_pawns, enemy_pawns, pawn_att, enemy_pawn_att, king, enemy_king, trace):
    """``colour``'s knights, bishops, rooks and queens, White's view -> (mg, eg, phase, their nominal material, how
    many attack the enemy king's zone, their attacks on it (squares, counted per piece), and the squares its
    knights, bishops, rooks and queens attack)."""
    sign = 1 if colour == WHITE else -1
    mobility_area = ~own & ~enemy_pawn_att
    zone = KING_ATTACKS[enemy_king]
    mg = eg = phase = non_pawn = 0
    all_pawns = own_pawns | enemy_pawns
    pawn_behind = (all_pawns >> SHIFT_8) if colour == WHITE else (all_pawns << SHIFT_8)     # a pawn in front
    knight_att = bishop_att = rook_att = queen_att = ZERO
    attackers = zone_hits = 0
    for kind in range(KNIGHT, KING):
        code = colour * BLACK_BIT + kind
        group = bb(st, ST_BB + code)
        while group:
            sq = lsb(group)
            group &= group - np.uint64(1)
            mg, eg = _on_square(trace, code, sq, sign, mg, eg)
            phase += PHASE_WEIGHT[kind]
            non_pawn += PIECE_VALUE[kind]
            if kind <= BISHOP and (OUTPOST_RANKS[colour] & pawn_att & SQUARE_BB[sq]) != ZERO \
                    and (enemy_pawns & PASSED_MASK[colour, sq] & ADJACENT_FILES[sq & 7]) == ZERO:
                mg, eg = _add(trace, OUTPOST_MG + kind - KNIGHT, OUTPOST_EG + kind - KNIGHT, sign, mg, eg)
            if kind <= BISHOP:
                i = (kind - KNIGHT) * DISTANCES + DISTANCE[sq, king]
                mg, eg = _add(trace, KING_PROTECTOR_MG + i, KING_PROTECTOR_EG + i, sign, mg, eg)
                if (pawn_behind & SQUARE_BB[sq]) != ZERO:
                    mg, eg = _add(trace, MINOR_BEHIND_PAWN_MG, MINOR_BEHIND_PAWN_EG, sign, mg, eg)
            if kind == KNIGHT:
                att = KNIGHT_ATTACKS[sq]
                knight_att |= att
            elif kind == BISHOP:
                att = bishop_attacks(sq, occ)
                bishop_att |= att
                n = popcount(own_pawns & SAME_COLOUR[sq])
                mg, eg = _add(trace, BISHOP_PAWNS_MG, BISHOP_PAWNS_EG, sign * n, mg, eg)
            elif kind == ROOK:
                att = rook_attacks(sq, occ)
                rook_att |= att
                if (SEVENTH_RANK[colour] & SQUARE_BB[sq]) != ZERO:
                    mg, eg = _add(trace, ROOK_SEVENTH_MG, ROOK_SEVENTH_EG, sign, mg, eg)
                file_bb = FILE_BB[sq & 7]
                if (own_pawns & file_bb) == ZERO:
                    if (enemy_pawns & file_bb) == ZERO:
                        a, b = _pair(trace, ROOK_OPEN_MG, ROOK_OPEN_EG, sign)
                    else:
                        a, b = _pair(trace, ROOK_HALF_OPEN_MG, ROOK_HALF_OPEN_EG, sign)
                    mg += a
                    eg += b
            else:
                att = bishop_attacks(sq, occ) | rook_attacks(sq, occ)
                queen_att |= att
                # In the enemy half, where no enemy pawn can ever attack it.
                if (ENEMY_HALF[colour] & SQUARE_BB[sq]) != ZERO \
                        and (enemy_pawns & PASSED_MASK[colour, sq] & ADJACENT_FILES[sq & 7]) == ZERO:
                    mg, eg = _add(trace, QUEEN_INFILTRATION_MG, QUEEN_INFILTRATION_EG, sign, mg, eg)
            n = popcount(att & mobility_area)
            mg, eg = _add(trace, MOBILITY_MG[kind] + n, MOBILITY_EG[kind] + n, sign, mg, eg)
            n = popcount(att & zone)
            attackers += n > 0
            zone_hits += n
            mg, eg = _add(trace, ZONE_MG + kind - KNIGHT, ZONE_EG + kind - KNIGHT, sign * n, mg, eg)
    return mg, eg, phase, non_pawn, attackers, zone_hits, knight_att, bishop_att, rook_att, queen_att


@njit(cache=True)
def _king_terms(st, colour, occ, own, own_pawns, enemy_pawns, king, trace):
    """``colour``'s king, White's view -> (mg, eg)."""
    sign = 1 if colour == WHITE else -1
    enemy = colour ^ 1
    base = ST_BB + colour * BLACK_BIT
    # The king: its square, its shelter (own pawns one or two ranks ahead on its own and the adjacent files) and
    # the files around it without own pawns.
    mg, eg = _on_square(trace, colour * BLACK_BIT + KING, king, sign, 0, 0)
    n = min(popcount(SHIELD_MASK[colour, king] & own_pawns), SHIELD_COUNTS - 1)
    mg, eg = _add(trace, SHIELD_MG + n, SHIELD_EG + n, sign, mg, eg)
    king_file = king & 7
    n = 1 if (own_pawns & FILE_BB[king_file]) == ZERO else 0
    if king_file > 0 and (own_pawns & FILE_BB[king_file - 1]) == ZERO:
        n += 1
    if king_file < 7 and (own_pawns & FILE_BB[king_file + 1]) == ZERO:
        n += 1
    mg, eg = _add(trace, OPEN_FILES_MG + n, OPEN_FILES_EG + n, sign, mg, eg)
    # The pawn storm: on each file at the king, the nearest enemy pawn ahead of it (its distance in ranks).
    storm_zone = PASSED_MASK[colour, king] & enemy_pawns
    for f in range(max(king_file - 1, 0), min(king_file + 1, 7) + 1):
        group = storm_zone & FILE_BB[f]
        d = 0
        while group:
            sq = lsb(group)
            group &= group - np.uint64(1)
            steps = abs((sq >> 3) - (king >> 3))
            if d == 0 or steps < d:
                d = steps
        mg, eg = _add(trace, STORM_MG + d, STORM_EG + d, sign, mg, eg)
    # Own pieces pinned to the king: the only piece between it and an enemy slider that would attack it.
    enemy_base = ST_BB + enemy * BLACK_BIT
    enemy_queens = bb(st, enemy_base + QUEEN)
    snipers = (rook_attacks(king, ZERO) & (bb(st, enemy_base + ROOK) | enemy_queens)) \
        | (bishop_attacks(king, ZERO) & (bb(st, enemy_base + BISHOP) | enemy_queens))
    while snipers:
        sq = lsb(snipers)
        snipers &= snipers - np.uint64(1)
        blockers = BETWEEN[king, sq] & occ
        if blockers != ZERO and (blockers & (blockers - np.uint64(1))) == ZERO and (blockers & own) != ZERO:
            for kind in range(PAWN, KING):
                if (bb(st, base + kind) & blockers) != ZERO:
                    mg, eg = _add(trace, PINNED_MG + kind - PAWN, PINNED_EG + kind - PAWN, sign, mg, eg)
    return mg, eg


# _side and _threats are plain calls, not numba's IR inlining (inline="always"): inlined, their two calls each made
# one function so large that compiling the evaluation took 122 s of make setup's 200 (13 s so), at the same speed
# (LLVM still inlines them where it pays; bench times alike).  _side's parts are plain calls for the same reason.
@njit(cache=True)
def _side(st, colour, occ, trace):
    """``colour``'s terms but the threats, White's view -> (mg, eg, phase, pawns, nominal non-pawn material, its
    passed pawns, its attacks on the enemy king's zone (squares, counted per piece), and the squares its pawns,
    knights, bishops, rooks, queens and all its pieces attack)."""
    sign = 1 if colour == WHITE else -1
    enemy = colour ^ 1
    own = bb(st, ST_OCC + colour)
    base = ST_BB + colour * BLACK_BIT
    own_pawns = bb(st, base + PAWN)
    enemy_pawns = bb(st, ST_BB + enemy * BLACK_BIT + PAWN)
    pawn_att = _pawn_attacks(own_pawns, colour)
    enemy_pawn_att = _pawn_attacks(enemy_pawns, enemy)
    king = st[ST_KING + colour]
    enemy_king = st[ST_KING + enemy]
    mg, eg, passed = _pawn_terms(colour, occ, own_pawns, enemy_pawns, pawn_att, enemy_pawn_att, king, enemy_king,
                                 trace)
    (piece_mg, piece_eg, phase, non_pawn, attackers, zone_hits,
     knight_att, bishop_att, rook_att, queen_att) = _piece_terms(st, colour, occ, own, own_pawns, enemy_pawns,
                                                                 pawn_att, enemy_pawn_att, king, enemy_king, trace)
    king_mg, king_eg = _king_terms(st, colour, occ, own, own_pawns, enemy_pawns, king, trace)
    mg += piece_mg + king_mg
    eg += piece_eg + king_eg
    # Space: the safe centre squares on the own side (SPACE_AREA: no own pawn, no enemy pawn attacks them),
    # those behind an own pawn counted twice.
    area = SPACE_AREA[colour] & ~own_pawns & ~enemy_pawn_att
    if colour == WHITE:
        behind = (own_pawns >> SHIFT_8) | (own_pawns >> SHIFT_16)
    else:
        behind = (own_pawns << SHIFT_8) | (own_pawns << SHIFT_16)
    n = min(popcount(area) + popcount(area & behind), SPACE_COUNTS - 1)
    mg, eg = _add(trace, SPACE_MG + n, SPACE_EG + n, sign, mg, eg)
    if popcount(bb(st, base + BISHOP)) >= 2:
        mg, eg = _add(trace, BISHOP_PAIR_MG, BISHOP_PAIR_EG, sign, mg, eg)
    n = min(attackers, MAX_ATTACKERS)
    mg, eg = _add(trace, ATTACKERS_MG + n, ATTACKERS_EG + n, sign, mg, eg)

    all_att = pawn_att | knight_att | bishop_att | rook_att | queen_att | KING_ATTACKS[king]
    return (mg, eg, phase, popcount(own_pawns), non_pawn, passed, zone_hits,
            pawn_att, knight_att, bishop_att, rook_att, queen_att, all_att)


@njit(cache=True)
def _threats(st, colour, occ, passed, zone_hits, by_pawn, by_knight, by_bishop, by_rook, by_queen, own_att,
             enemy_pawn_att, enemy_guard, enemy_att, trace):
    """``colour``'s threats, White's view -> (mg, eg): the enemy pieces of each kind its pawns, knights, bishops,
    rooks and queens attack, those it attacks that nothing defends, its kinds of safe checks, the squares next to
    the enemy king it attacks that no enemy pawn, knight, bishop or rook defends (``enemy_guard``: weak), its king
    danger if it has a queen (its ``zone_hits``, the weak squares and its safe checks together), the enemy pieces a
    safe pawn push would attack, its passed pawns with a free path, the squares both sides attack but
    no enemy pawn (restricted) and the undefended enemy pieces its king attacks.  (These need both sides'
    attacks, so they are here and not in ``_side``.)"""
    sign = 1 if colour == WHITE else -1
    enemy = colour ^ 1
    enemy_base = ST_BB + enemy * BLACK_BIT
    mg = eg = 0
    enemy_king = st[ST_KING + enemy]
    n = popcount(KING_ATTACKS[enemy_king] & own_att & ~enemy_guard)
    mg, eg = _add(trace, KING_WEAK_MG + n, KING_WEAK_EG + n, sign, mg, eg)
    danger = zone_hits + n
    n = popcount(own_att & enemy_att & ~enemy_pawn_att)
    mg, eg = _add(trace, RESTRICTED_MG, RESTRICTED_EG, sign * n, mg, eg)
    n = popcount(KING_ATTACKS[st[ST_KING + colour]] & bb(st, ST_OCC + enemy) & ~SQUARE_BB[enemy_king] & ~enemy_att)
    mg, eg = _add(trace, THREAT_BY_KING_MG, THREAT_BY_KING_EG, sign * n, mg, eg)
    # Pawn pushes (one step, or two from the start) to squares no enemy pawn attacks and the enemy does not
    # attack unless the own side defends them, and the enemy pieces but pawns and the king they would attack.
    own_pawns = bb(st, ST_BB + colour * BLACK_BIT + PAWN)
    enemy_pawns = bb(st, enemy_base + PAWN)
    if colour == WHITE:
        push = (own_pawns << SHIFT_8) & ~occ
        push |= ((push & THIRD_RANK[colour]) << SHIFT_8) & ~occ
    else:
        push = (own_pawns >> SHIFT_8) & ~occ
        push |= ((push & THIRD_RANK[colour]) >> SHIFT_8) & ~occ
    push &= ~enemy_pawn_att & (own_att | ~enemy_att)
    pieces = bb(st, ST_OCC + enemy) & ~enemy_pawns & ~SQUARE_BB[enemy_king]
    n = popcount(_pawn_attacks(push, colour) & pieces)
    mg, eg = _add(trace, PUSH_THREAT_MG, PUSH_THREAT_EG, sign * n, mg, eg)
    # Passed pawns whose squares ahead are all empty and unattacked by the enemy (by rank), or else whose next
    # square is.
    blocked = occ | enemy_att
    while passed:
        sq = lsb(passed)
        passed &= passed - np.uint64(1)
        rank, front = _pawn_rank_and_front(colour, sq)
        if (FILE_AHEAD[colour, sq] & blocked) == ZERO:
            a, b = _pair(trace, PASSED_FREE_MG + rank, PASSED_FREE_EG + rank, sign)
        elif (SQUARE_BB[front] & blocked) == ZERO:
            a, b = _pair(trace, PASSED_PUSH_MG + rank, PASSED_PUSH_EG + rank, sign)
        else:
            continue
        mg += a
        eg += b
    safe = ~bb(st, ST_OCC + colour) & ~enemy_att
    diagonal = bishop_attacks(enemy_king, occ)
    straight = rook_attacks(enemy_king, occ)
    for kind in range(KNIGHT, KING):
        if kind == KNIGHT:
            checks = KNIGHT_ATTACKS[enemy_king] & by_knight
        elif kind == BISHOP:
            checks = diagonal & by_bishop
        elif kind == ROOK:
            checks = straight & by_rook
        else:
            checks = (diagonal | straight) & by_queen
        if (checks & safe) != ZERO:
            mg, eg = _add(trace, SAFE_CHECK_MG + kind - KNIGHT, SAFE_CHECK_EG + kind - KNIGHT, sign, mg, eg)
            danger += 2
    # King danger, with a queen to lead the attack: the attacks on the enemy king's zone, its weak squares and
    # twice the kinds of safe check together, as one index (a table, so the fit finds the curve).
    if bb(st, ST_BB + colour * BLACK_BIT + QUEEN) != ZERO:
        i = min(danger, DANGER_SIZE - 1)
        mg, eg = _add(trace, KING_DANGER_MG + i, KING_DANGER_EG + i, sign, mg, eg)
    for victim in range(PAWN, KING):
        targets = bb(st, enemy_base + victim)
        if targets == ZERO:
            continue
        i = victim - PAWN
        for attacker in range(PAWN, KING):
            if attacker == PAWN:
                att = by_pawn
            elif attacker == KNIGHT:
                att = by_knight
            elif attacker == BISHOP:
                att = by_bishop
            elif attacker == ROOK:
                att = by_rook
            else:
                att = by_queen
            n = popcount(att & targets)
            mg, eg = _add(trace, THREAT_MG[attacker] + i, THREAT_EG[attacker] + i, sign * n, mg, eg)
        n = popcount(targets & own_att & ~enemy_att)
        mg, eg = _add(trace, HANGING_MG + i, HANGING_EG + i, sign * n, mg, eg)
    return mg, eg


@njit(cache=True, inline="always")
def _evaluate(board, st, trace):
    """Static score of the position from the side to move's point of view (see the module docstring); with a
    ``trace`` array (TRACE_SIZE, zeroed), also the coefficient of every parameter (see TRACE_PHASE)."""
    occ = bb(st, ST_OCC) | bb(st, ST_OCC + 1)
    (wmg, weg, wphase, wpawns, wmat, w_passed, w_zone_hits,
     w_p, w_n, w_b, w_r, w_q, w_all) = _side(st, WHITE, occ, trace)
    (bmg, beg, bphase, bpawns, bmat, b_passed, b_zone_hits,
     b_p, b_n, b_b, b_r, b_q, b_all) = _side(st, BLACK, occ, trace)
    tw_mg, tw_eg = _threats(st, WHITE, occ, w_passed, w_zone_hits, w_p, w_n, w_b, w_r, w_q, w_all,
                            b_p, b_p | b_n | b_b | b_r, b_all, trace)
    tb_mg, tb_eg = _threats(st, BLACK, occ, b_passed, b_zone_hits, b_p, b_n, b_b, b_r, b_q, b_all,
                            w_p, w_p | w_n | w_b | w_r, w_all, trace)
    mg = wmg + bmg + tw_mg + tb_mg          # Black's terms are negative already
    eg = weg + beg + tw_eg + tb_eg
    ph = min(wphase + bphase, TOTAL_PHASE)
    score = tdiv(mg * ph + eg * (TOTAL_PHASE - ph), TOTAL_PHASE)
    # Without pawns, an advantage of at most a minor piece rarely wins.  (A side without pawns and further behind
    # is not scaled either: its score is not positive but for freak positions, and so the flag below is the
    # rule's condition itself.)
    no_win_white = wpawns == 0 and abs(wmat - bmat) <= NO_PAWN_MARGIN
    no_win_black = bpawns == 0 and abs(bmat - wmat) <= NO_PAWN_MARGIN
    if (score > 0 and no_win_white) or (score < 0 and no_win_black):
        score = tdiv(score, NO_PAWN_DIVISOR)
    to_move = 1 if st[ST_SIDE] == WHITE else -1
    if trace is not None:
        trace[TRACE_PHASE] = ph
        # Flagged by the material alone, not by the score, so that which positions the tuner fits does not
        # depend on the parameters in use.
        trace[TRACE_NONLINEAR] = 1 if no_win_white or no_win_black else 0
        term(trace, TEMPO_MG_AT, True, False, to_move)      # White's view: the tempo is the mover's
        term(trace, TEMPO_EG_AT, False, True, to_move)
    return to_move * score + (TEMPO_MG * ph + TEMPO_EG * (TOTAL_PHASE - ph)) // TOTAL_PHASE


evaluate, evaluate_trace = kernels(globals(), "chess")
