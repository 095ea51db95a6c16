"""Material signatures and the index function of the endgame tables.

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

The numba helpers take a table's *spec*, an ``int64[SPEC_LEN]`` row (see :func:`Material.spec`), and a list of
piece squares ("slots": Red general, Black general, then each group's pieces in group order).
"""
from __future__ import annotations

import re
from functools import lru_cache
from math import comb

import numpy as np
from numba import njit

from ..xiangqi.board import (NSQ, FILES, KING, ADVISOR, ELEPHANT, HORSE, ROOK, CANNON, PAWN, RED, BLACK,
                             BLACK_BIT, LEGAL_SQUARES)

# ----------------------------------------------------------------------------------------------------------------
# Constant tables (baked into the kernels)
# ----------------------------------------------------------------------------------------------------------------

LETTERS = "RNCPAB"                                   # order of piece letters after the K
KIND_OF_LETTER = {"R": ROOK, "N": HORSE, "C": CANNON, "P": PAWN, "A": ADVISOR, "B": ELEPHANT,
                  "H": HORSE, "E": ELEPHANT}
LETTER_OF_KIND = {ROOK: "R", HORSE: "N", CANNON: "C", PAWN: "P", ADVISOR: "A", ELEPHANT: "B"}
GROUP_KINDS = (ROOK, HORSE, CANNON, PAWN, ADVISOR, ELEPHANT)
ATTACK_VALUE = {ROOK: 90, HORSE: 40, CANNON: 45, PAWN: 10, ADVISOR: 0, ELEPHANT: 0}
DEFENCE_VALUE = {ADVISOR: 2, ELEPHANT: 2}
MAX_GROUPS = 8
FILL = 16                                            # encode_board's group counters live at psq[FILL + g]
MAX_SLOTS = FILL + MAX_GROUPS                        # size of a slot work array
SPEC_LEN = 4 + 4 * MAX_GROUPS                        # ngroups, npos, kp stride, nslots, then 4 per group


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
BINOM = np.array([[comb(n, k) for k in range(8)] for n in range(NSQ + 1)], np.int64)
MIRROR = np.array([(sq // FILES) * FILES + (FILES - 1 - sq % FILES) for sq in range(NSQ)], np.int64)
FLIP = np.array([(9 - sq // FILES) * FILES + sq % FILES for sq in range(NSQ)], np.int64)


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


KP_CODE, KP_SQUARES = _king_pairs()
NKP = len(KP_SQUARES)                                # 45
assert NKP == 45


# ----------------------------------------------------------------------------------------------------------------
# Material signatures
# ----------------------------------------------------------------------------------------------------------------

class MaterialError(ValueError):
    """A material string that does not name a table (unknown letters, too many pieces, ...)."""


class Material:
    """Piece counts of both sides; ``counts[colour][kind]`` (kinds 2..7, the general is implied)."""

    __slots__ = ("counts",)

    def __init__(self, counts):
        self.counts = tuple(tuple(int(c) for c in side) for side in counts)

    # -- parsing and naming ------------------------------------------------------------------------------------
    @classmethod
    def parse(cls, text: str) -> "Material":
        m = re.fullmatch(r"\s*K([A-Za-z]*)[vV]K([A-Za-z]*)\s*", text)
        if not m:
            raise MaterialError(f"material must look like KRvK or KCPvKAA, not {text!r}")
        counts = [[0] * 8, [0] * 8]
        for colour, part in enumerate(m.groups()):
            for ch in part.upper():
                if ch not in KIND_OF_LETTER:
                    raise MaterialError(f"unknown piece letter {ch!r} in {text!r} (use R N C P A B)")
                counts[colour][KIND_OF_LETTER[ch]] += 1
        for colour in (RED, BLACK):
            for kind in GROUP_KINDS:
                limit = 5 if kind == PAWN else 2
                if counts[colour][kind] > limit:
                    raise MaterialError(f"too many {LETTER_OF_KIND[kind]} in {text!r} (at most {limit})")
        return cls(counts)

    @classmethod
    def from_board(cls, board) -> "Material":
        counts = [[0] * 8, [0] * 8]
        for p in np.asarray(board):
            p = int(p)
            if p:
                counts[p >> 3][p & 7] += 1
        return cls(counts)

    def side_name(self, colour: int) -> str:
        return "K" + "".join(LETTER_OF_KIND[k] * self.counts[colour][k] for k in GROUP_KINDS)

    @property
    def name(self) -> str:
        return f"{self.side_name(RED)}v{self.side_name(BLACK)}"

    def __str__(self):
        return self.name

    def __repr__(self):
        return f"Material({self.name!r})"

    def __eq__(self, other):
        return isinstance(other, Material) and self.counts == other.counts

    def __hash__(self):
        return hash(self.counts)

    @property
    def pieces(self) -> int:
        return 2 + sum(sum(side[1:]) for side in self.counts) - self.counts[0][KING] - self.counts[1][KING]

    # -- orientation ---------------------------------------------------------------------------------------
    def _strength(self, colour):
        c = self.counts[colour]
        attack = sum(ATTACK_VALUE[k] * c[k] for k in GROUP_KINDS)
        defence = sum(DEFENCE_VALUE.get(k, 0) * c[k] for k in GROUP_KINDS)
        return (attack, defence, tuple(c[k] for k in GROUP_KINDS))

    def flipped(self) -> "Material":
        return Material((self.counts[1], self.counts[0]))

    def canonical(self) -> tuple["Material", bool]:
        """The table that holds this material and whether colours must be swapped to look positions up."""
        if self._strength(BLACK) > self._strength(RED):
            return self.flipped(), True
        return self, False

    def is_canonical(self) -> bool:
        return not self.canonical()[1]

    def can_check(self, colour: int) -> bool:
        """Only rooks, horses, cannons and pawns ever give check (a general or a piece leaving the line between
        the generals would expose its own general as well)."""
        c = self.counts[colour]
        return any(c[k] for k in (ROOK, HORSE, CANNON, PAWN))

    def key(self, flip: bool = False) -> int:
        return material_key_of_counts(self.counts[1] if flip else self.counts[0],
                                      self.counts[0] if flip else self.counts[1])

    # -- captures ----------------------------------------------------------------------------------------------
    def captures(self):
        """(colour, kind, material after that piece is captured) for each kind of piece on the board."""
        out = []
        for colour in (RED, BLACK):
            for kind in GROUP_KINDS:
                if self.counts[colour][kind]:
                    counts = [list(self.counts[0]), list(self.counts[1])]
                    counts[colour][kind] -= 1
                    out.append((colour, kind, Material(counts)))
        return out

    def subtables(self) -> list["Material"]:
        """Canonical materials reachable by one capture."""
        seen = []
        for _, _, m in self.captures():
            c = m.canonical()[0]
            if c not in seen:
                seen.append(c)
        return seen

    # -- index layout ---------------------------------------------------------------------------------------
    def groups(self):
        """(colour, kind, count, size) of each piece group in index order."""
        out = []
        for colour in (RED, BLACK):
            for kind in GROUP_KINDS:
                c = self.counts[colour][kind]
                if c:
                    out.append((colour, kind, c, comb(int(NSQ_OF[colour, kind]), c)))
        return out

    @property
    def npos(self) -> int:
        n = NKP
        for g in self.groups():
            n *= g[3]
        return n

    @property
    def size(self) -> int:
        """Entries in the table: both sides to move."""
        return 2 * self.npos

    def spec(self) -> np.ndarray:
        groups = self.groups()
        if len(groups) > MAX_GROUPS:
            raise MaterialError(f"{self.name}: too many piece groups")
        spec = np.zeros(SPEC_LEN, np.int64)
        spec[0] = len(groups)
        spec[1] = self.npos
        stride = 1
        for g in groups:
            stride *= g[3]
        spec[2] = stride
        spec[3] = 2 + sum(g[2] for g in groups)
        for i, (colour, kind, count, size) in enumerate(groups):
            spec[4 + 4 * i: 8 + 4 * i] = (colour, kind, count, size)
        return spec

    def slot_pieces(self) -> np.ndarray:
        """Piece code of each slot."""
        out = [KING, BLACK_BIT + KING]
        for colour, kind, count, _ in self.groups():
            out += [colour * BLACK_BIT + kind] * count
        return np.array(out, np.int8)


def material_key_of_counts(red, black) -> int:
    key = 0
    for counts in (red, black):
        for kind in GROUP_KINDS:
            key = key * 8 + int(counts[kind])
    return key


@lru_cache(maxsize=None)
def parse_material(text: str) -> Material:
    return Material.parse(text)


# ----------------------------------------------------------------------------------------------------------------
# numba kernels: encode / decode
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
        colour = spec[4 + 4 * g]
        kind = spec[5 + 4 * g]
        cnt = spec[6 + 4 * g]
        size = spec[7 + 4 * g]
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


@njit(cache=True)
def decode(idx, spec, psq, board):
    """Fill ``psq`` and ``board`` (cleared here) from an index; returns the side to move, or -1 when two pieces
    share a square (the board then holds an arbitrary subset)."""
    npos = spec[1]
    side = 0
    if idx >= npos:
        side = 1
        idx -= npos
    for sq in range(NSQ):
        board[sq] = 0
    ng = spec[0]
    # Peel the group terms off from the last group backwards.
    s_end = spec[3]
    overlap = False
    for gi in range(ng):
        g = ng - 1 - gi
        colour = spec[4 + 4 * g]
        kind = spec[5 + 4 * g]
        cnt = spec[6 + 4 * g]
        size = spec[7 + 4 * g]
        c = idx % size
        idx //= size
        s_end -= cnt
        # Unrank c into cnt ranks (largest first).
        if cnt == 1:
            psq[s_end] = RANK_SQ[colour, kind, c]
        elif cnt == 2:
            # c = a + b (b - 1) / 2 with a < b: b is the largest with C(b, 2) <= c.
            b = np.int64((1.0 + np.sqrt(1.0 + 8.0 * c)) * 0.5)
            while BINOM[b, 2] > c:
                b -= 1
            while BINOM[b + 1, 2] <= c:
                b += 1
            psq[s_end] = RANK_SQ[colour, kind, c - BINOM[b, 2]]
            psq[s_end + 1] = RANK_SQ[colour, kind, b]
        else:
            hi = NSQ_OF[colour, kind]
            for i in range(cnt):
                k = cnt - i
                r = hi - 1
                while BINOM[r, k] > c:
                    r -= 1
                c -= BINOM[r, k]
                hi = r
                psq[s_end + k - 1] = RANK_SQ[colour, kind, r]
    psq[0] = KP_SQUARES[idx, 0]
    psq[1] = KP_SQUARES[idx, 1]
    # Pieces onto the board.
    board[psq[0]] = KING
    board[psq[1]] = BLACK_BIT + KING
    s = 2
    for g in range(ng):
        p = spec[4 + 4 * g] * BLACK_BIT + spec[5 + 4 * g]
        for i in range(spec[6 + 4 * g]):
            sq = psq[s]
            if board[sq] != 0:
                overlap = True
            board[sq] = p
            s += 1
    if overlap or psq[0] == psq[1]:
        return -1
    return side


@njit(cache=True)
def encode_board(board, side, spec, flip, psq):
    """Index of a board position in the table ``spec``; ``flip`` swaps colours (board turned upside down).
    ``psq`` is a work array of MAX_SLOTS (no allocation here).  Returns -1 if the board's material does not
    match the spec."""
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
            tsq = FLIP[sq]
        if kind == KING:
            psq[colour] = tsq
            nk += 1
            continue
        s = 2
        found = False
        for g in range(ng):
            cnt = spec[6 + 4 * g]
            if spec[4 + 4 * g] == colour and spec[5 + 4 * g] == kind:
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
        if psq[FILL + g] != spec[6 + 4 * g]:
            return -1
    return encode_slots(psq, spec, side ^ 1 if flip else side)
