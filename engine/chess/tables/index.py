"""Chess's material signatures and index function (the game's part of :mod:`engine.egtb.material` and
:mod:`engine.egtb.index`).

**Material.**  A table is named by its material, stronger side first: ``KQvK``, ``KBNvK``, ``KRvKP``.  Piece
letters after the ``K`` come in the order Q R B N P.  The *canonical* orientation puts the stronger side (more
material: Q 9, R 5, B 3, N 3, P 1, then the piece counts in that order) as White; a position whose colours are the
other way round is looked up after flipping the board (rank r -> 7 - r, colours swapped, side to move swapped).
Materials where neither side can ever mate (K v K, K + one knight or bishop v K) have no table: they are draws
by insufficient material (:meth:`Material.trivial`).

**Index.**  ``index = side_to_move * npos + pos`` with

    pos = ((kp * size_0 + comb_0) * size_1 + comb_1) * ...

* ``kp``: the pair of king squares, reduced by the board's symmetries.  Without pawns all eight symmetries of the
  square apply: the white king is brought into the triangle a1-d1-d4, and when it stands on the diagonal a1-d4
  the black king onto or below the diagonal a1-h8 -- 462 pairs of legal king squares (kings neither on one
  square nor adjacent).  When both kings stand on the diagonal the pair is its own mirror image and the pieces
  keep their squares or are reflected in that diagonal, whichever gives the smaller index (the other image's
  index is never used: don't care).  With pawns only the left-right mirror
  applies: the white king on files a-d, 1806 pairs.
* one term per piece group (colour, kind) in the order White Q R B N P, then Black Q R B N P: ``count``
  identical pieces on the ``n`` squares that kind may use (pawns 48: ranks 2 to 7; others 64), numbered by the
  combinatorial number system (two knights: C(64, 2) = 2016 values).

Indices whose pieces overlap, or whose side not to move is in check, are illegal: the generator marks them
``ILLEGAL`` (don't care).

Spec (``engine.egtb.material``): its king table (``spec[4]``) is 1 with pawns, 0 without.  Slots: White king,
Black king, then each group's pieces in group order.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ...egtb.index import INDEX
from ...egtb.material import SPEC_HEAD, Material as BaseMaterial, MaterialError, binomials, key_weights  # noqa: F401
from ...template import instantiate
from ..constants import NAME, NSQ, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, WHITE, BLACK, BLACK_BIT, SIDE_NAMES

GROUP_KINDS = (QUEEN, ROOK, BISHOP, KNIGHT, PAWN)
VALUE = {QUEEN: 9, ROOK: 5, BISHOP: 3, KNIGHT: 3, PAWN: 1}
PROMOTIONS = (QUEEN, ROOK, BISHOP, KNIGHT)
MAX_COUNT = 2                                        # identical pieces of one kind (the index handles two)
PAWN_SQUARES = 48

# ----------------------------------------------------------------------------------------------------------------
# Symmetries and king pairs
# ----------------------------------------------------------------------------------------------------------------


def _transforms():
    """TRANSFORM[t, sq]: t bit 2 transposes (file <-> rank), then bit 0 mirrors the file, bit 1 the rank."""
    out = np.zeros((8, NSQ), np.int64)
    for t in range(8):
        for sq in range(NSQ):
            f, r = sq % 8, sq // 8
            if t & 4:
                f, r = r, f
            if t & 1:
                f = 7 - f
            if t & 2:
                r = 7 - r
            out[t, sq] = r * 8 + f
    return out


TRANSFORM = _transforms()
FLIP = np.array([sq ^ 56 for sq in range(NSQ)], np.int64)     # rank r -> 7 - r


def _adjacent(a, b):
    return max(abs(a % 8 - b % 8), abs(a // 8 - b // 8)) <= 1


def _king_pairs(pawns: bool):
    """(code[wk * 64 + bk] = pair * 8 + transform or -1, squares[pair] = (wk, bk)) of the legal king pairs."""
    ts = (0, 1) if pawns else tuple(range(8))

    def canonical(wk, bk):
        f, r = wk % 8, wk // 8
        if pawns:
            return f <= 3
        if not (f <= 3 and r <= f):
            return False
        if r == f:                                   # on the diagonal a1-d4: the black king on or below a1-h8
            return bk % 8 >= bk // 8
        return True

    pairs = sorted((wk, bk) for wk in range(NSQ) for bk in range(NSQ)
                   if wk != bk and not _adjacent(wk, bk) and canonical(wk, bk))
    number = {p: i for i, p in enumerate(pairs)}
    code = np.full(NSQ * NSQ, -1, np.int64)
    for wk in range(NSQ):
        for bk in range(NSQ):
            if wk == bk or _adjacent(wk, bk):
                continue
            for t in ts:
                p = (int(TRANSFORM[t, wk]), int(TRANSFORM[t, bk]))
                if p in number:
                    code[wk * NSQ + bk] = number[p] * 8 + t
                    break
    assert (code >= 0).sum() == NSQ * NSQ - 64 - sum(
        1 for a in range(NSQ) for b in range(NSQ) if a != b and _adjacent(a, b))
    # A pair left unchanged by a symmetry other than the identity (both kings on the diagonal a1-h8, without
    # pawns): the second transform that brings the pair to its canonical squares, else -1.
    alt = np.full(NSQ * NSQ, -1, np.int64)
    for i in range(NSQ * NSQ):
        if code[i] < 0:
            continue
        t = code[i] & 7
        pair = (int(TRANSFORM[t, i // NSQ]), int(TRANSFORM[t, i % NSQ]))
        for t2 in ts:
            if t2 != t and (int(TRANSFORM[t2, i // NSQ]), int(TRANSFORM[t2, i % NSQ])) == pair:
                alt[i] = t2
    return code, np.array(pairs, np.int64), alt


KP_CODE_PAWNLESS, KP_SQUARES_PAWNLESS, KP_ALT_PAWNLESS = _king_pairs(False)
KP_CODE_PAWNS, KP_SQUARES_PAWNS, KP_ALT_PAWNS = _king_pairs(True)
assert (KP_ALT_PAWNS < 0).all()
KP_ALT = np.stack([KP_ALT_PAWNLESS, KP_ALT_PAWNS])
NKP_PAWNLESS = len(KP_SQUARES_PAWNLESS)
NKP_PAWNS = len(KP_SQUARES_PAWNS)
assert NKP_PAWNLESS == 462 and NKP_PAWNS == 1806
KP_CODE = np.stack([KP_CODE_PAWNLESS, KP_CODE_PAWNS])                 # [pawns, wk * 64 + bk]
KP_SQUARES = np.zeros((2, NKP_PAWNS, 2), np.int64)
KP_SQUARES[0, :NKP_PAWNLESS] = KP_SQUARES_PAWNLESS
KP_SQUARES[1] = KP_SQUARES_PAWNS
BINOM = binomials(NSQ)


def _square_tables():
    """RANK_SQ[colour, kind, r]: the r-th square a piece may use (pawns: ranks 2-7); NSQ_OF: how many."""
    rank_sq = np.full((2, 8, NSQ), -1, np.int64)
    nsq = np.zeros((2, 8), np.int64)
    for colour in (WHITE, BLACK):
        for kind in range(1, 8):
            squares = range(8, 56) if kind == PAWN else range(NSQ)
            rank_sq[colour, kind, :len(squares)] = squares
            nsq[colour, kind] = len(squares)
    return rank_sq, nsq


RANK_SQ, NSQ_OF = _square_tables()
KEY_W = key_weights(GROUP_KINDS, BLACK_BIT)          # piece code -> weight in the material key (kings 0)


# ----------------------------------------------------------------------------------------------------------------
# Material signatures
# ----------------------------------------------------------------------------------------------------------------

class Material(BaseMaterial):
    """Chess piece counts; ``counts[colour][kind]`` (chess kinds 1..5, the king is implied)."""

    __slots__ = ()
    LETTERS = "QRBNP"
    KIND_OF_LETTER = {"Q": QUEEN, "R": ROOK, "B": BISHOP, "N": KNIGHT, "P": PAWN}
    GROUP_KINDS = GROUP_KINDS
    KINDS = 7
    KING = KING
    BLACK_BIT = BLACK_BIT
    EXAMPLES = "KQvK or KRvKP"
    MAX_PIECES = 5
    SIDE_NAMES = SIDE_NAMES

    def limit(self, kind: int) -> int:
        return MAX_COUNT

    def strength(self, colour):
        c = self.counts[colour]
        return (sum(VALUE[k] * c[k] for k in GROUP_KINDS), tuple(c[k] for k in GROUP_KINDS))

    def squares(self, colour: int, kind: int) -> int:
        return PAWN_SQUARES if kind == PAWN else NSQ

    def king_table(self) -> int:
        return 1 if self.has_pawns else 0

    def king_pairs(self) -> int:
        return NKP_PAWNS if self.has_pawns else NKP_PAWNLESS

    @property
    def has_pawns(self) -> bool:
        return bool(self.counts[0][PAWN] or self.counts[1][PAWN])

    def trivial(self) -> bool:
        """Neither side can ever mate: bare kings, or a single knight or bishop on the board."""
        heavy = sum(self.counts[c][k] for c in (0, 1) for k in (QUEEN, ROOK, PAWN))
        minors = sum(self.counts[c][k] for c in (0, 1) for k in (BISHOP, KNIGHT))
        return heavy == 0 and minors <= 1

    def has_table(self) -> bool:
        return not self.trivial()

    # -- moves that leave the table ------------------------------------------------------------------------
    def transitions(self):
        """(captured piece code or 0, piece code a pawn promotes to or 0, material after) for every way a move
        changes the material: captures, promotions, promotions with capture."""
        out = []
        for mover in (WHITE, BLACK):
            victims = [0] + [k for k in GROUP_KINDS if self.counts[mover ^ 1][k]]
            promos = [0] + (list(PROMOTIONS) if self.counts[mover][PAWN] else [])
            for v in victims:
                for p in promos:
                    if (v == 0 and p == 0) or (v == PAWN and p):
                        continue                     # (a pawn never stands where a promotion lands)
                    counts = [list(self.counts[0]), list(self.counts[1])]
                    if v:
                        counts[mover ^ 1][v] -= 1
                    if p:
                        counts[mover][PAWN] -= 1
                        counts[mover][p] += 1
                    out.append(((mover ^ 1) * BLACK_BIT + v if v else 0, mover * BLACK_BIT + p if p else 0,
                                Material(counts)))
        return out



parse_material = Material.named


# ----------------------------------------------------------------------------------------------------------------
# numba kernels: encode (decode and encode_board are engine.egtb.index's, compiled for chess below)
# ----------------------------------------------------------------------------------------------------------------

@njit(cache=True, inline="always")
def _square_rank(kind, sq):
    """Rank of a square among those ``kind`` may use (pawns: ranks 2-7), -1 if it may not."""
    if kind == PAWN:
        if sq < 8 or sq >= 56:
            return -1
        return sq - 8
    return sq


@njit(cache=True)
def encode_slots(psq, spec, side):
    """Index of the position given by slot squares ``psq`` (canonical colours) with ``side`` to move; -1 when
    the kings are adjacent (or on one square) or a pawn stands on the first or last rank.  The symmetry the
    king pair asks for is applied to every piece; when two symmetries bring the kings to their canonical squares
    (both on the diagonal a1-h8), the image with the smaller index is the position's, so that every board has
    exactly one index (the other image's index is never used: the generator marks it don't-care)."""
    pawns = spec[4]
    k = psq[0] * NSQ + psq[1]
    code = KP_CODE[pawns, k]
    if code < 0:
        return -1
    pos = _encode_pieces(psq, spec, code & 7, code >> 3)
    alt = KP_ALT[pawns, k]
    if alt >= 0 and pos >= 0:
        other = _encode_pieces(psq, spec, alt, code >> 3)
        if other < pos:
            pos = other
    if pos < 0:
        return -1
    return side * spec[1] + pos


@njit(cache=True, inline="always")
def _encode_pieces(psq, spec, t, kp):
    """The position's number within its side-to-move half, the pieces moved by transform ``t``; -1 if a pawn
    stands on the first or last rank."""
    idx = kp
    ng = spec[0]
    s = 2
    for g in range(ng):
        kind = spec[SPEC_HEAD + 1 + 4 * g]
        cnt = spec[SPEC_HEAD + 2 + 4 * g]
        size = spec[SPEC_HEAD + 3 + 4 * g]
        if cnt == 1:
            c = _square_rank(kind, TRANSFORM[t, psq[s]])
            if c < 0:
                return -1
        else:
            a = _square_rank(kind, TRANSFORM[t, psq[s]])
            b = _square_rank(kind, TRANSFORM[t, psq[s + 1]])
            if a < 0 or b < 0:
                return -1
            if a > b:
                a, b = b, a
            c = a + BINOM[b, 2]
        idx = idx * size + c
        s += cnt
    return idx


_index = instantiate(INDEX, globals(), f"{NAME}_tables")
decode = _index.decode
encode_board = _index.encode_board
