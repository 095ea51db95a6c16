"""Xiangqi's material signatures and index function (the game's part of :mod:`engine.egtb.material` and
:mod:`engine.egtb.index`).

**Material.**  A table is named by its material, attacking side first: ``KRvK``, ``KCPvKAA``, ``KNvKAB``.  Piece
letters after the ``K`` come in the order R N C P A B (``H``/``E`` are read as N/B).  The *canonical*
orientation puts the stronger side (more attacking material) as Red; a position whose colours are the other way
round is looked up after flipping the board (rank r -> 9 - r, colours swapped, side to move swapped), which is a
symmetry of the rules.

**Index.**  ``index = side_to_move * npos + pos`` with

    pos = ((kp * size_0 + comb_0) * size_1 + comb_1) * ...

* ``kp`` (0..44): the pair of general squares.  Xiangqi is symmetric left-right (file f -> 8 - f), so of each
  pair and its mirror image only one is kept; when both generals stand on the central file the pair is its own
  mirror and the pieces keep their files (both images are stored; they get equal values).
* one term per piece group (colour, kind), in the order Red R N C P A B then Black R N C P A B: ``count``
  identical pieces on the ``n`` squares that kind may ever use (advisors 5, elephants 7, pawns 55, others 90)
  are numbered by the combinatorial number system, ``comb = sum_i C(r_i, i + 1)`` for ranks r_0 < r_1 < ...,
  so two rooks take C(90, 2) = 4005 values instead of 8100.

Indices whose squares overlap, whose generals face each other, or whose side not to move is in check are
illegal: the generator marks them ``ILLEGAL`` ("don't care"), and the file writer gives them whatever value
makes the runs longest.

The numba helpers take a table's *spec* (``engine.egtb.material``) and a list of piece squares ("slots": Red
general, Black general, then each group's pieces in group order).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ...egtb.index import INDEX
from ...egtb.material import SPEC_HEAD, Material as BaseMaterial, MaterialError, binomials, key_weights  # noqa: F401
from ...template import instantiate
from ..board import (NSQ, FILES, KING, ADVISOR, ELEPHANT, HORSE, ROOK, CANNON, PAWN, RED, BLACK, BLACK_BIT,
                     LEGAL_SQUARES)
from ..constants import NAME, SIDE_NAMES

# ----------------------------------------------------------------------------------------------------------------
# Constant tables (baked into the kernels)
# ----------------------------------------------------------------------------------------------------------------

GROUP_KINDS = (ROOK, HORSE, CANNON, PAWN, ADVISOR, ELEPHANT)
ATTACK_VALUE = {ROOK: 90, HORSE: 40, CANNON: 45, PAWN: 10, ADVISOR: 0, ELEPHANT: 0}
DEFENCE_VALUE = {ADVISOR: 2, ELEPHANT: 2}
CHASERS = (ROOK, HORSE, CANNON, ADVISOR, ELEPHANT)   # the pieces that may chase (generals and soldiers may not)
HOME_KINDS = (ADVISOR, ELEPHANT)                     # never cross the river


def _rank_tables():
    sq_rank = np.full((2, 8, NSQ), -1, np.int16)
    rank_sq = np.full((2, 8, NSQ), -1, np.int16)
    nsq = np.zeros((2, 8), np.int64)
    for colour in (RED, BLACK):
        for kind in range(1, 8):
            r = 0
            for sq in range(NSQ):
                if LEGAL_SQUARES[colour, kind, sq]:
                    sq_rank[colour, kind, sq] = r
                    rank_sq[colour, kind, r] = sq
                    r += 1
            nsq[colour, kind] = r
    return sq_rank, rank_sq, nsq


SQ_RANK, RANK_SQ, NSQ_OF = _rank_tables()
BINOM = binomials(NSQ)
MIRROR = np.array([(sq // FILES) * FILES + (FILES - 1 - sq % FILES) for sq in range(NSQ)], np.int64)
FLIP = np.array([(9 - sq // FILES) * FILES + sq % FILES for sq in range(NSQ)], np.int64)
KEY_W = key_weights(GROUP_KINDS, BLACK_BIT)          # piece code -> weight in the material key


def _king_pairs():
    reds = [sq for sq in range(NSQ) if LEGAL_SQUARES[RED, KING, sq]]
    blacks = [sq for sq in range(NSQ) if LEGAL_SQUARES[BLACK, KING, sq]]
    canon = sorted({min((r, b), (int(MIRROR[r]), int(MIRROR[b]))) for r in reds for b in blacks})
    number = {pair: i for i, pair in enumerate(canon)}
    code = np.full(NSQ * NSQ, -1, np.int64)            # red_sq * 90 + black_sq -> kp * 2 + mirror flag
    for r in reds:
        for b in blacks:
            m = (int(MIRROR[r]), int(MIRROR[b]))
            if (r, b) in number:
                code[r * NSQ + b] = number[(r, b)] * 2
            else:
                code[r * NSQ + b] = number[m] * 2 + 1
    squares = np.array(canon, np.int64)
    return code, squares


KP_CODE, _KP_SQUARES = _king_pairs()
NKP = len(_KP_SQUARES)                               # 45
assert NKP == 45
KP_SQUARES = _KP_SQUARES[None]                       # [king table, kp]: xiangqi has one numbering


# ----------------------------------------------------------------------------------------------------------------
# Material signatures
# ----------------------------------------------------------------------------------------------------------------

class Material(BaseMaterial):
    """Xiangqi piece counts; ``counts[colour][kind]`` (kinds 2..7, the general is implied)."""

    __slots__ = ()
    LETTERS = "RNCPAB"
    KIND_OF_LETTER = {"R": ROOK, "N": HORSE, "C": CANNON, "P": PAWN, "A": ADVISOR, "B": ELEPHANT,
                      "H": HORSE, "E": ELEPHANT}
    GROUP_KINDS = GROUP_KINDS
    KINDS = 8
    KING = KING
    BLACK_BIT = BLACK_BIT
    EXAMPLES = "KRvK or KCPvKAA"
    SIDE_NAMES = SIDE_NAMES

    def limit(self, kind: int) -> int:
        return 5 if kind == PAWN else 2

    def strength(self, colour):
        c = self.counts[colour]
        attack = sum(ATTACK_VALUE[k] * c[k] for k in GROUP_KINDS)
        defence = sum(DEFENCE_VALUE.get(k, 0) * c[k] for k in GROUP_KINDS)
        return (attack, defence, tuple(c[k] for k in GROUP_KINDS))

    def squares(self, colour: int, kind: int) -> int:
        return int(NSQ_OF[colour, kind])

    def king_pairs(self) -> int:
        return NKP

    def can_check(self, colour: int) -> bool:
        """Only rooks, horses, cannons and pawns ever give check (a general or a piece leaving the line between
        the generals would expose its own general as well)."""
        c = self.counts[colour]
        return any(c[k] for k in (ROOK, HORSE, CANNON, PAWN))

    def rule_goals(self, chase: bool = True) -> list:
        """The rounds of the rule pass (``engine.egtb.build.rule``): (side C, goal, name) -- C checking for ever
        (goal 0), and with ``chase`` C chasing one group of enemy pieces for ever (goal: the mask of the group's
        slots).  Only what can happen: a side with a rook, horse or cannon can chase any enemy piece; one
        with only advisors and elephants never leaves its own half, where the enemy's advisors and elephants
        never come."""
        goals = [(c, 0, "check") for c in (RED, BLACK) if self.can_check(c)]
        if not chase:
            return goals
        slot, masks = 2, []
        for colour, kind, count, _ in self.groups():
            masks.append((colour, kind, sum(1 << s for s in range(slot, slot + count))))
            slot += count
        for c in (RED, BLACK):
            chasers = [k for k in CHASERS if self.counts[c][k]]
            for colour, kind, mask in masks:
                if colour == c or not chasers:
                    continue
                if kind in HOME_KINDS and all(k in HOME_KINDS for k in chasers):
                    continue
                goals.append((c, mask, f"chase of {self.letter(kind)}"))
        return goals

    def transitions(self):
        """(colour, kind, material after that piece is captured) for each kind of piece on the board."""
        out = []
        for colour in (RED, BLACK):
            for kind in GROUP_KINDS:
                if self.counts[colour][kind]:
                    counts = [list(self.counts[0]), list(self.counts[1])]
                    counts[colour][kind] -= 1
                    out.append((colour, kind, Material(counts)))
        return out



parse_material = Material.named


# ----------------------------------------------------------------------------------------------------------------
# numba kernels: encode (decode and encode_board are engine.egtb.index's, compiled for xiangqi below)
# ----------------------------------------------------------------------------------------------------------------

@njit(cache=True, inline="always")
def _comb_rank(colour, kind, sq, mir):
    if mir:
        sq = MIRROR[sq]
    return SQ_RANK[colour, kind, sq]


@njit(cache=True)
def encode_slots(psq, spec, side):
    """Index of the position given by slot squares ``psq`` (canonical colours) with ``side`` to move.  Returns
    -1 if a piece stands on a square its kind may not use.  The left-right mirror is applied when the general
    pair asks for it."""
    code = KP_CODE[psq[0] * NSQ + psq[1]]
    if code < 0:
        return -1
    mir = code & 1
    idx = code >> 1
    ng = spec[0]
    s = 2
    for g in range(ng):
        colour = spec[SPEC_HEAD + 4 * g]
        kind = spec[SPEC_HEAD + 1 + 4 * g]
        cnt = spec[SPEC_HEAD + 2 + 4 * g]
        size = spec[SPEC_HEAD + 3 + 4 * g]
        if cnt == 1:
            c = _comb_rank(colour, kind, psq[s], mir)
            if c < 0:
                return -1
        elif cnt == 2:
            a = _comb_rank(colour, kind, psq[s], mir)
            b = _comb_rank(colour, kind, psq[s + 1], mir)
            if a < 0 or b < 0:
                return -1
            if a > b:
                a, b = b, a
            c = a + BINOM[b, 2]
        else:
            r = np.empty(cnt, np.int64)
            for i in range(cnt):
                r[i] = _comb_rank(colour, kind, psq[s + i], mir)
                if r[i] < 0:
                    return -1
            r.sort()
            c = 0
            for i in range(cnt):
                c += BINOM[r[i], i + 1]
        idx = idx * size + c
        s += cnt
    return side * spec[1] + idx


_index = instantiate(INDEX, globals(), f"{NAME}_tables")
decode = _index.decode
encode_board = _index.encode_board
