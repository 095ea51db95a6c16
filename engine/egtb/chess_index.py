"""Chess endgame tables: material signatures and the index function (the chess counterpart of :mod:`.index`).

**Material.**  A table is named by its material, stronger side first: ``KQvK``, ``KBNvK``, ``KRvKP``.  Piece
letters after the ``K`` come in the order Q R B N P.  The *canonical* orientation puts the stronger side (more
material: Q 9, R 5, B 3, N 3, P 1, then the piece counts in that order) as White; a position whose colours are the
other way round is looked up after flipping the board (rank r -> 7 - r, colours swapped, side to move swapped).
Materials where neither side can ever mate (K v K, K + one knight or bishop v K) have no table: they are draws
by insufficient material (:meth:`ChessMaterial.trivial`).

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

Spec (``int64[SPEC_LEN]``): ``[ngroups, npos, stride, nslots, pawns, 0, 0, 0]`` then ``(colour, kind, count,
size)`` per group.  Slots: White king, Black king, then each group's pieces in group order.
"""
from __future__ import annotations

import re
from functools import lru_cache
from math import comb

import numpy as np
from numba import njit

from ..chess.constants import NSQ, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, WHITE, BLACK, BLACK_BIT

LETTERS = "QRBNP"                                    # order of piece letters after the K
KIND_OF_LETTER = {"Q": QUEEN, "R": ROOK, "B": BISHOP, "N": KNIGHT, "P": PAWN}
LETTER_OF_KIND = {v: k for k, v in KIND_OF_LETTER.items()}
GROUP_KINDS = (QUEEN, ROOK, BISHOP, KNIGHT, PAWN)
VALUE = {QUEEN: 9, ROOK: 5, BISHOP: 3, KNIGHT: 3, PAWN: 1}
PROMOTIONS = (QUEEN, ROOK, BISHOP, KNIGHT)
MAX_GROUPS = 8
SPEC_HEAD = 8
SPEC_LEN = SPEC_HEAD + 4 * MAX_GROUPS
FILL = 16                                            # encode_board's group counters live at psq[FILL + g]
MAX_SLOTS = FILL + MAX_GROUPS
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
BINOM = np.array([[comb(n, k) for k in range(4)] for n in range(NSQ + 1)], np.int64)


# ----------------------------------------------------------------------------------------------------------------
# Material signatures
# ----------------------------------------------------------------------------------------------------------------

class ChessMaterialError(ValueError):
    """A material string that does not name a chess table."""


class ChessMaterial:
    """Piece counts of both sides; ``counts[colour][kind]`` (chess kinds 1..5, the king is implied)."""

    __slots__ = ("counts",)
    game = "chess"

    def __init__(self, counts):
        self.counts = tuple(tuple(int(c) for c in side) for side in counts)

    @classmethod
    def parse(cls, text: str) -> "ChessMaterial":
        m = re.fullmatch(r"\s*K([A-Za-z]*)[vV]K([A-Za-z]*)\s*", text)
        if not m:
            raise ChessMaterialError(f"material must look like KQvK or KRvKP, not {text!r}")
        counts = [[0] * 7, [0] * 7]
        for colour, part in enumerate(m.groups()):
            for ch in part.upper():
                if ch not in KIND_OF_LETTER:
                    raise ChessMaterialError(f"unknown piece letter {ch!r} in {text!r} (use Q R B N P)")
                counts[colour][KIND_OF_LETTER[ch]] += 1
        mat = cls(counts)
        for colour in (WHITE, BLACK):
            for kind in GROUP_KINDS:
                if counts[colour][kind] > MAX_COUNT:
                    raise ChessMaterialError(f"too many {LETTER_OF_KIND[kind]} in {text!r} (at most {MAX_COUNT})")
        if mat.pieces > 5:
            raise ChessMaterialError(f"{text!r}: at most five pieces")
        return mat

    @classmethod
    def from_board(cls, board) -> "ChessMaterial":
        counts = [[0] * 7, [0] * 7]
        for p in np.asarray(board):
            p = int(p)
            if p and p & 7 != KING:
                counts[p >> 3][p & 7] += 1
        return cls(counts)

    def side_name(self, colour: int) -> str:
        return "K" + "".join(LETTER_OF_KIND[k] * self.counts[colour][k] for k in GROUP_KINDS)

    @property
    def name(self) -> str:
        return f"{self.side_name(WHITE)}v{self.side_name(BLACK)}"

    def __str__(self):
        return self.name

    def __repr__(self):
        return f"ChessMaterial({self.name!r})"

    def __eq__(self, other):
        return isinstance(other, ChessMaterial) and self.counts == other.counts

    def __hash__(self):
        return hash(("chess", self.counts))

    @property
    def pieces(self) -> int:
        return 2 + sum(self.counts[0][k] + self.counts[1][k] for k in GROUP_KINDS)

    @property
    def has_pawns(self) -> bool:
        return bool(self.counts[0][PAWN] or self.counts[1][PAWN])

    def trivial(self) -> bool:
        """Neither side can ever mate: bare kings, or a single knight or bishop on the board."""
        heavy = sum(self.counts[c][k] for c in (0, 1) for k in (QUEEN, ROOK, PAWN))
        minors = sum(self.counts[c][k] for c in (0, 1) for k in (BISHOP, KNIGHT))
        return heavy == 0 and minors <= 1

    # -- orientation ---------------------------------------------------------------------------------------
    def _strength(self, colour):
        c = self.counts[colour]
        return (sum(VALUE[k] * c[k] for k in GROUP_KINDS), tuple(c[k] for k in GROUP_KINDS))

    def flipped(self) -> "ChessMaterial":
        return ChessMaterial((self.counts[1], self.counts[0]))

    def canonical(self) -> tuple["ChessMaterial", bool]:
        """The table that holds this material and whether colours must be swapped to look positions up."""
        if self._strength(BLACK) > self._strength(WHITE):
            return self.flipped(), True
        return self, False

    def is_canonical(self) -> bool:
        return not self.canonical()[1]

    def key(self, flip: bool = False) -> int:
        return chess_material_key(self.counts[1] if flip else self.counts[0],
                                  self.counts[0] if flip else self.counts[1])

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
                                ChessMaterial(counts)))
        return out

    def subtables(self) -> list["ChessMaterial"]:
        """Canonical materials (with a table, i.e. not trivial) reachable by one move."""
        seen = []
        for _, _, m in self.transitions():
            c = m.canonical()[0]
            if not c.trivial() and c not in seen:
                seen.append(c)
        return seen

    # -- index layout ---------------------------------------------------------------------------------------
    def groups(self):
        """(colour, kind, count, size) of each piece group in index order."""
        out = []
        for colour in (WHITE, BLACK):
            for kind in GROUP_KINDS:
                c = self.counts[colour][kind]
                if c:
                    out.append((colour, kind, c, comb(PAWN_SQUARES if kind == PAWN else NSQ, c)))
        return out

    @property
    def npos(self) -> int:
        n = NKP_PAWNS if self.has_pawns else NKP_PAWNLESS
        for g in self.groups():
            n *= g[3]
        return n

    @property
    def size(self) -> int:
        return 2 * self.npos

    def spec(self) -> np.ndarray:
        groups = self.groups()
        if len(groups) > MAX_GROUPS:
            raise ChessMaterialError(f"{self.name}: too many piece groups")
        spec = np.zeros(SPEC_LEN, np.int64)
        spec[0] = len(groups)
        spec[1] = self.npos
        stride = 1
        for g in groups:
            stride *= g[3]
        spec[2] = stride
        spec[3] = 2 + sum(g[2] for g in groups)
        spec[4] = 1 if self.has_pawns else 0
        for i, g in enumerate(groups):
            spec[SPEC_HEAD + 4 * i: SPEC_HEAD + 4 * i + 4] = g
        return spec

    def slot_pieces(self) -> np.ndarray:
        out = [KING, BLACK_BIT + KING]
        for colour, kind, count, _ in self.groups():
            out += [colour * BLACK_BIT + kind] * count
        return np.array(out, np.int64)


def chess_material_key(white, black) -> int:
    """Base-8 digits: White's Q R B N P counts, then Black's."""
    key = 0
    for counts in (white, black):
        for kind in GROUP_KINDS:
            key = key * 8 + int(counts[kind])
    return key


def _key_weights():
    w = np.zeros(16, np.int64)
    for colour in (WHITE, BLACK):
        for i, kind in enumerate(GROUP_KINDS):
            w[colour * BLACK_BIT + kind] = 8 ** ((9 - i) if colour == WHITE else (4 - i))
    return w


KEY_W = _key_weights()           # piece code -> weight in the material key (kings 0)


@lru_cache(maxsize=None)
def parse_chess_material(text: str) -> ChessMaterial:
    return ChessMaterial.parse(text)


# ----------------------------------------------------------------------------------------------------------------
# numba kernels: encode / decode
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


@njit(cache=True)
def decode(idx, spec, psq, board):
    """Fill ``psq`` and ``board`` (int8[64], cleared here) from an index; returns the side to move, or -1 when
    two pieces share a square (or two identical pieces coincide)."""
    npos = spec[1]
    side = 0
    if idx >= npos:
        side = 1
        idx -= npos
    for sq in range(NSQ):
        board[sq] = 0
    ng = spec[0]
    s_end = spec[3]
    for gi in range(ng):
        g = ng - 1 - gi
        kind = spec[SPEC_HEAD + 1 + 4 * g]
        cnt = spec[SPEC_HEAD + 2 + 4 * g]
        size = spec[SPEC_HEAD + 3 + 4 * g]
        off = 8 if kind == PAWN else 0
        c = idx % size
        idx //= size
        s_end -= cnt
        if cnt == 1:
            psq[s_end] = c + off
        else:
            b = np.int64((1.0 + np.sqrt(1.0 + 8.0 * c)) * 0.5)
            while BINOM[b, 2] > c:
                b -= 1
            while BINOM[b + 1, 2] <= c:
                b += 1
            psq[s_end] = c - BINOM[b, 2] + off
            psq[s_end + 1] = b + off
    pawns = spec[4]
    psq[0] = KP_SQUARES[pawns, idx, 0]
    psq[1] = KP_SQUARES[pawns, idx, 1]
    board[psq[0]] = KING
    board[psq[1]] = BLACK_BIT + KING
    overlap = False
    s = 2
    for g in range(ng):
        p = spec[SPEC_HEAD + 4 * g] * BLACK_BIT + spec[SPEC_HEAD + 1 + 4 * g]
        for i in range(spec[SPEC_HEAD + 2 + 4 * g]):
            sq = psq[s]
            if board[sq] != 0:
                overlap = True
            board[sq] = p
            s += 1
    if overlap:
        return -1
    return side


@njit(cache=True)
def encode_board(board, side, spec, flip, psq):
    """Index of a board position (int8[64], chess piece codes) in the table ``spec``; ``flip`` swaps colours
    (the board turned upside down).  ``psq``: a work array of MAX_SLOTS.  -1 if the material does not match."""
    ng = spec[0]
    for g in range(ng):
        psq[FILL + g] = 0
    nk = 0
    for sq in range(NSQ):
        p = board[sq]
        if p == 0:
            continue
        colour = p >> 3
        kind = p & 7
        tsq = sq
        if flip:
            colour ^= 1
            tsq = sq ^ 56
        if kind == KING:
            psq[colour] = tsq
            nk += 1
            continue
        s = 2
        found = False
        for g in range(ng):
            cnt = spec[SPEC_HEAD + 2 + 4 * g]
            if spec[SPEC_HEAD + 4 * g] == colour and spec[SPEC_HEAD + 1 + 4 * g] == kind:
                k = psq[FILL + g]
                if k >= cnt:
                    return -1
                psq[s + k] = tsq
                psq[FILL + g] = k + 1
                found = True
                break
            s += cnt
        if not found:
            return -1
    if nk != 2:
        return -1
    for g in range(ng):
        if psq[FILL + g] != spec[SPEC_HEAD + 2 + 4 * g]:
            return -1
    return encode_slots(psq, spec, side ^ 1 if flip else side)
