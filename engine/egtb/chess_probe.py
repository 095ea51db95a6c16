"""Probing chess tables: ``ChessTablebases`` (files ``<MATERIAL>.ctb``, the same format, cache and error handling
as xiangqi's, see :mod:`.probe`) and the ``@njit`` ``chess_tb_probe`` the chess search calls.

``chess_tb_probe(tb, board, side, allow_disk) -> code`` is ``tb_probe``'s counterpart: the material key of the
chess board picks the table (materials where no side can mate -- K v K, K + N v K, K + B v K -- are a draw without
one), ``encode_board`` the entry, and the chunk is read as ``tb_read`` reads xiangqi's (pool, objmode load near
the root).  It knows nothing of castling rights or en-passant squares: the caller (``chess.kernels.probe_tables``)
asks only about positions with neither.  The Python side (``probe``, ``rank_moves``) answers a position with a
usable en-passant square from the table and the en-passant captures, and one with castling rights ``unknown``.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit

from ..chess.constants import NSQ, PAWN, KNIGHT, BISHOP, KING, ST_EP
from ..move import move_from, move_to
from .cache import CTR_MAXPIECES, SEC_FLIP, SEC_KEYS, SEC_SPECS, SEC_TNUM
from .chess_index import KEY_W, MAX_SLOTS, SPEC_LEN, ChessMaterial, ChessMaterialError, encode_board
from .codes import DIST0, DRAW, ILLEGAL, UNKNOWN
from .probe import TB_META, ProbeResult, Tablebases, _move_score, split_paths, tb_read

SUFFIX = ".ctb"
MAGIC = b"SHUAICTB"
TRIVIAL = -2                # chess_tb_locate: a material no side can mate with (a draw, no table needed)


@njit(cache=True, nogil=True, inline="always")
def chess_tb_locate(tb, board, side):
    """(table number, index) of a chess position; (TRIVIAL, 0) for insufficient material; (-1, 0) when no table
    holds it."""
    meta = tb[TB_META]
    most = meta[CTR_MAXPIECES]
    if most == 0:                                    # no tables at all
        return -1, 0
    key = 0
    n = 0
    minors = 0
    heavy = 0
    for sq in range(NSQ):
        p = board[sq]
        if p != 0:
            key += KEY_W[p]
            n += 1
            kind = p & 7
            if kind == KNIGHT or kind == BISHOP:
                minors += 1
            elif kind != KING:
                heavy += 1
            if n > most and n > 3:
                return -1, 0
    if heavy == 0 and minors <= 1:
        return TRIVIAL, 0
    keys = meta[SEC_KEYS]
    nkeys = meta[SEC_TNUM] - keys
    lo = 0
    hi = nkeys
    while lo < hi:
        mid = (lo + hi) >> 1
        if meta[keys + mid] < key:
            lo = mid + 1
        else:
            hi = mid
    j = lo
    if j >= nkeys or meta[keys + j] != key:
        return -1, 0
    t = meta[meta[SEC_TNUM] + j]
    spec = meta[SEC_SPECS] + t * SPEC_LEN
    psq = np.empty(MAX_SLOTS, np.int64)
    idx = encode_board(board, side, meta[spec:spec + SPEC_LEN], meta[meta[SEC_FLIP] + j] != 0, psq)
    if idx < 0:
        return -1, 0
    return t, idx


@njit(cache=True, nogil=True)
def chess_tb_probe(tb, board, side, allow_disk):
    """Value code of a chess position (no castling rights, no en-passant square) for the side to move, or
    UNKNOWN; ``allow_disk`` as for ``tb_probe``."""
    t, idx = chess_tb_locate(tb, board, side)
    if t == TRIVIAL:
        return np.int64(DRAW)
    if t < 0:
        return UNKNOWN
    return tb_read(tb, t, idx, allow_disk)


def _better(a: int, b: int) -> bool:
    """Is code ``a`` better than ``b`` for the side to move?"""
    def goodness(c):
        if c >= DIST0:
            d = c - DIST0
            return 1_000_000 - d if d % 2 else -1_000_000 + d
        return 0
    return goodness(a) > goodness(b)


class ChessTablebases(Tablebases):
    """The chess tables of a directory (or several): ``*.ctb`` files.  The engine opens them through
    ``Tablebases.for_game("chess")``; they can be opened directly too."""

    games = ("chess",)
    suffix = SUFFIX
    magic = MAGIC
    material_error = ChessMaterialError

    @staticmethod
    def parse_material(name: str):
        return ChessMaterial.parse(name)

    def __init__(self, directory="tablebases", memory_mb: float = 64, errors=None):
        # Without a single file the cache would be a pool of one-entry chunks as large as the limit: no memory.
        if not any(Path(d).is_dir() and any(Path(d).glob(f"*{SUFFIX}")) for d in split_paths(directory)):
            memory_mb = 0
        super().__init__(directory, memory_mb=memory_mb, errors=errors)

    def for_game(self, name: str):
        return self if name in self.games else None

    # -- probing from Python ------------------------------------------------------------------------------------
    def probe_code(self, board, side, disk: bool = True) -> int:
        """Value code of a position without castling rights or en-passant square, or UNKNOWN."""
        t, idx = chess_tb_locate(self.arrays, board, side)
        if t == TRIVIAL:
            return DRAW
        return self._read(int(t), int(idx), disk)

    def position_code(self, pos, disk: bool = True) -> int:
        """Value code of a chess Position: castling rights make it unknown; a usable en-passant square is
        answered from the table (the position without it) and the en-passant captures."""
        if pos.castling:
            return UNKNOWN
        code = self.probe_code(pos.board, pos.side, disk)
        ep = int(pos.st[ST_EP])
        if ep == 0 or code < 0 or code == ILLEGAL:
            return code
        best = code
        for m in pos.legal_moves():
            frm, to = move_from(int(m)), move_to(int(m)) & 63
            if pos.board[frm] & 7 != PAWN or to != ep:
                continue
            pos.push(m)
            child = self.probe_code(pos.board, pos.side, disk)
            pos.pop()
            if child < 0 or child == ILLEGAL:
                return UNKNOWN
            mine = child + 1 if child >= DIST0 else DRAW
            if _better(mine, best):
                best = mine
        return best

    def probe(self, pos) -> ProbeResult:
        """Result for the side to move of a chess Position (or FEN)."""
        if isinstance(pos, str):
            from ..chess.position import Position
            pos = Position(pos)
        return ProbeResult.from_code(self.position_code(pos))

    def best_move(self, pos):
        from ..chess.notation import move_name
        ranked = self.rank_moves(pos)
        return move_name(ranked[0][1]) if ranked else None

    def rank_moves(self, pos, disk: bool = True):
        """[(score, move, ProbeResult of the position after it)], best first; [] if the position is unknown."""
        here = self.position_code(pos, disk)
        if here < 0:
            return []
        out = []
        for m in pos.legal_moves():
            pos.push(m)
            code = self.position_code(pos, disk)
            pos.pop()
            out.append((_move_score(code, False), m, ProbeResult.from_code(code)))
        out.sort(key=lambda x: -x[0])
        return out

