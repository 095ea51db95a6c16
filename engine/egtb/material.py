"""Material signatures, written once for every game: a table is named by its material, stronger side first
(``KRvKA``, ``KBNvK``), and indexed by one term per piece group after the pair of king squares.

:class:`Material` holds the piece counts of both sides and everything that follows from them -- the name, the
canonical orientation (the stronger side first; a position whose colours are the other way round is looked up
with the board turned round), the material key the probe finds the table by, the smaller tables one move leads
into, and the index layout (``groups``, ``npos``, ``spec``).  A game's subclass (``engine.<game>.tables.index``)
supplies only what differs: its piece letters and kinds, how many pieces of a kind a table may hold, on how
many squares a kind may stand, its king pairs, how strong a side is, and the moves that leave a table.

**Spec.**  The numba kernels take a table's spec, an ``int64[SPEC_LEN]`` row: ``[ngroups, npos, stride, nslots,
king table, 0, 0, 0]`` then ``(colour, kind, count, size)`` per group from ``SPEC_HEAD`` on.  The king table
picks one of the game's king-pair numberings (chess: without and with pawns; xiangqi has one).  Slots: the
first side's king, the second's, then each group's pieces in group order.

No numba here: the command line parses material names without loading any kernel.
"""
from __future__ import annotations

import re
from functools import lru_cache
from math import comb

import numpy as np

MAX_GROUPS = 8
SPEC_HEAD = 8
SPEC_LEN = SPEC_HEAD + 4 * MAX_GROUPS
FILL = 16                                            # encode_board's group counters live at psq[FILL + g]
MAX_SLOTS = FILL + MAX_GROUPS                        # size of a slot work array


class MaterialError(ValueError):
    """A material string that does not name a table (unknown letters, too many pieces, ...)."""


def binomials(n: int, k: int = 8) -> np.ndarray:
    """``C(i, j)`` for i <= n, j < k: the combinatorial numbers of identical pieces on ``n`` squares."""
    return np.array([[comb(i, j) for j in range(k)] for i in range(n + 1)], np.int64)


def key_weights(group_kinds, black_bit: int) -> np.ndarray:
    """Piece code -> its weight in the material key (kings 0): the key's base-8 digits are the first side's
    counts in ``group_kinds`` order, then the second side's (see ``Material.key``)."""
    n = len(group_kinds)
    w = np.zeros(2 * black_bit, np.int64)
    for colour in (0, 1):
        for i, kind in enumerate(group_kinds):
            w[colour * black_bit + kind] = 8 ** ((2 * n - 1 - i) if colour == 0 else (n - 1 - i))
    return w


class Material:
    """Piece counts of both sides; ``counts[colour][kind]`` (the king is implied).  Subclasses set the class
    attributes below and the methods marked "per game"."""

    __slots__ = ("counts",)
    LETTERS = ""                 # piece letters after the K, in name order
    KIND_OF_LETTER: dict = {}    # letter -> kind (more letters than LETTERS may be read)
    GROUP_KINDS: tuple = ()      # kinds in index order
    KINDS = 8                    # length of a side's counts
    KING = 0
    BLACK_BIT = 8
    EXAMPLES = ""                # "KRvK or KCPvKAA": what the error message shows
    MAX_PIECES = None            # the most pieces (kings included) a table may hold, None: no limit

    def __init__(self, counts):
        self.counts = tuple(tuple(int(c) for c in side) for side in counts)

    # -- per game ----------------------------------------------------------------------------------------------
    def limit(self, kind: int) -> int:
        """The most pieces of ``kind`` one side may have in a table."""
        raise NotImplementedError

    def strength(self, colour: int) -> tuple:
        """What makes one side the stronger (compared as tuples: the larger is the first side of a table)."""
        raise NotImplementedError

    def transitions(self) -> list:
        """The ways one move changes the material (captures; chess's promotions too): tuples whose last item
        is the material after it (not yet canonical)."""
        raise NotImplementedError

    def rule_goals(self, chase: bool = True) -> list:
        """The rounds of the game's rule pass, if it has one (``engine.egtb.build.rule``): (side, goal, name)."""
        return []

    def has_table(self) -> bool:
        """Does this material need a table (chess: not when no side can ever mate)?"""
        return True

    def squares(self, colour: int, kind: int) -> int:
        """On how many squares a piece of ``kind`` and ``colour`` may ever stand."""
        raise NotImplementedError

    def king_table(self) -> int:
        """Which of the game's king-pair numberings the index uses (``spec[4]``)."""
        return 0

    def king_pairs(self) -> int:
        """The number of king pairs of that numbering."""
        raise NotImplementedError

    # -- parsing and naming ------------------------------------------------------------------------------------
    @classmethod
    def parse(cls, text: str):
        m = re.fullmatch(r"\s*K([A-Za-z]*)[vV]K([A-Za-z]*)\s*", text)
        if not m:
            raise MaterialError(f"material must look like {cls.EXAMPLES}, not {text!r}")
        counts = [[0] * cls.KINDS, [0] * cls.KINDS]
        for colour, part in enumerate(m.groups()):
            for ch in part.upper():
                if ch not in cls.KIND_OF_LETTER:
                    raise MaterialError(f"unknown piece letter {ch!r} in {text!r} (use {' '.join(cls.LETTERS)})")
                counts[colour][cls.KIND_OF_LETTER[ch]] += 1
        mat = cls(counts)
        for colour in (0, 1):
            for kind in cls.GROUP_KINDS:
                if counts[colour][kind] > mat.limit(kind):
                    raise MaterialError(f"too many {mat.letter(kind)} in {text!r} (at most {mat.limit(kind)})")
        if cls.MAX_PIECES is not None and mat.pieces > cls.MAX_PIECES:
            raise MaterialError(f"{text!r}: at most {cls.MAX_PIECES} pieces")
        return mat

    @classmethod
    def from_board(cls, board):
        """The material of a board array (the game's piece codes)."""
        counts = [[0] * cls.KINDS, [0] * cls.KINDS]
        for p in np.asarray(board):
            p = int(p)
            if p and p & 7 != cls.KING:
                counts[p >> 3][p & 7] += 1
        return cls(counts)

    @classmethod
    @lru_cache(maxsize=None)
    def named(cls, text: str):
        """``parse``, remembered (a material is parsed again and again while tables are built)."""
        return cls.parse(text)

    def letter(self, kind: int) -> str:
        return self.LETTERS[self.GROUP_KINDS.index(kind)]

    def side_name(self, colour: int) -> str:
        return "K" + "".join(self.letter(k) * self.counts[colour][k] for k in self.GROUP_KINDS)

    @property
    def name(self) -> str:
        return f"{self.side_name(0)}v{self.side_name(1)}"

    def __str__(self):
        return self.name

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r})"

    def __eq__(self, other):
        return type(other) is type(self) and self.counts == other.counts

    def __hash__(self):
        return hash((type(self).__name__, self.counts))

    @property
    def pieces(self) -> int:
        return 2 + sum(self.counts[0][k] + self.counts[1][k] for k in self.GROUP_KINDS)

    # -- orientation ---------------------------------------------------------------------------------------
    def flipped(self):
        return type(self)((self.counts[1], self.counts[0]))

    def canonical(self) -> tuple:
        """The table that holds this material and whether colours must be swapped to look positions up."""
        if self.strength(1) > self.strength(0):
            return self.flipped(), True
        return self, False

    def is_canonical(self) -> bool:
        return not self.canonical()[1]

    def key(self, flip: bool = False) -> int:
        """Base-8 digits: the first side's counts in group order, then the second side's (``flip``: the
        colours swapped)."""
        key = 0
        for counts in ((self.counts[1], self.counts[0]) if flip else self.counts):
            for kind in self.GROUP_KINDS:
                key = key * 8 + int(counts[kind])
        return key

    def subtables(self) -> list:
        """Canonical materials (with a table) reachable by one move, in a fixed order."""
        seen = []
        for *_, m in self.transitions():
            c = m.canonical()[0]
            if c.has_table() and c not in seen:
                seen.append(c)
        return seen

    # -- index layout ---------------------------------------------------------------------------------------
    def groups(self):
        """(colour, kind, count, size) of each piece group in index order."""
        out = []
        for colour in (0, 1):
            for kind in self.GROUP_KINDS:
                c = self.counts[colour][kind]
                if c:
                    out.append((colour, kind, c, comb(self.squares(colour, kind), c)))
        return out

    @property
    def npos(self) -> int:
        """Entries per side to move."""
        n = self.king_pairs()
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
        spec[4] = self.king_table()
        for i, g in enumerate(groups):
            spec[SPEC_HEAD + 4 * i: SPEC_HEAD + 4 * i + 4] = g
        return spec

    def slot_pieces(self) -> np.ndarray:
        """Piece code of each slot."""
        out = [self.KING, self.BLACK_BIT + self.KING]
        for colour, kind, count, _ in self.groups():
            out += [colour * self.BLACK_BIT + kind] * count
        return np.array(out, np.int64)
