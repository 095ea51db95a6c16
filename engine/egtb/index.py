"""The index kernels written once for every game: ``decode`` (index -> board) and ``encode_board`` (board ->
index), compiled per game (``engine.template.instantiate``) with the game's board and numbering.

``index = side_to_move * npos + pos`` with ``pos = ((kp * size_0 + comb_0) * size_1 + comb_1) * ...``: ``kp``
numbers the pair of king squares (each game reduces it by its own symmetries), then one term per piece group
(colour, kind): ``count`` identical pieces on the ``n`` squares that kind may use, numbered by the
combinatorial number system, ``comb = sum_i C(r_i, i + 1)`` for ranks r_0 < r_1 < ... (two rooks on 90
squares take C(90, 2) = 4005 values instead of 8100).  The spec layout is :mod:`engine.egtb.material`'s.

A game's ``index`` module supplies, besides its ``encode_slots`` (slot squares -> index, where its
symmetries are applied):

* ``NSQ``; ``FLIP[sq]``: the square with the board turned round (colours swapped);
* ``RANK_SQ[colour, kind, r]``: the r-th square a piece may use, ``NSQ_OF[colour, kind]`` how many;
* ``KP_SQUARES[king table, kp]``: the two king squares of pair ``kp``; ``BINOM``: ``C(n, k)`` for its board;
* ``KING``, ``BLACK_BIT``: its piece codes.
"""
import numpy as np

from ..template import Template
from .material import FILL, SPEC_HEAD

INDEX = Template(globals(), ("NSQ", "FLIP", "RANK_SQ", "NSQ_OF", "KP_SQUARES", "BINOM", "KING", "BLACK_BIT",
                             "encode_slots"))


@INDEX.kernel()
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
        colour = spec[SPEC_HEAD + 4 * g]
        kind = spec[SPEC_HEAD + 1 + 4 * g]
        cnt = spec[SPEC_HEAD + 2 + 4 * g]
        size = spec[SPEC_HEAD + 3 + 4 * g]
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
    kt = spec[4]
    psq[0] = KP_SQUARES[kt, idx, 0]
    psq[1] = KP_SQUARES[kt, idx, 1]
    # Pieces onto the board.
    board[psq[0]] = KING
    board[psq[1]] = BLACK_BIT + KING
    s = 2
    for g in range(ng):
        p = spec[SPEC_HEAD + 4 * g] * BLACK_BIT + spec[SPEC_HEAD + 1 + 4 * g]
        for i in range(spec[SPEC_HEAD + 2 + 4 * g]):
            sq = psq[s]
            if board[sq] != 0:
                overlap = True
            board[sq] = p
            s += 1
    if overlap or psq[0] == psq[1]:
        return -1
    return side


@INDEX.kernel()
def encode_board(board, side, spec, flip, psq):
    """Index of a board position in the table ``spec``; ``flip`` swaps colours (board turned round).  ``psq``
    is a work array of MAX_SLOTS (no allocation here).  Returns -1 if the board's material does not match the
    spec."""
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
