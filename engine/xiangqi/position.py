"""A xiangqi position for the edges of the program (protocol, command line, tests): FEN in and out with
validation, moves by name, legal move lists.  The numba kernels work on its four arrays directly.
"""
from __future__ import annotations

import numpy as np

from ..game import XIANGQI
from ..position import BasePosition, IllegalMoveError, PositionOps  # noqa: F401  (IllegalMoveError: re-export)
from . import board as B
from .board import make_move, unmake_move
from .constants import (NSQ, FILES, RANKS, KING, ADVISOR, RED, BLACK, BLACK_BIT, ST_SIDE, ST_PLY,  # noqa: F401
                        ST_KING, H_MOVE, H_CLOCK, H_CHECK, MAX_HIST, MAX_MOVES, FILE_LETTERS, START_FEN, PIECE_CHARS,
                        CHAR_SYNONYMS, KIND_NAMES, SIDE_NAMES)
from .movegen import GEN_ALL, generate_legal, in_check, king_attacked
from .notation import move_name, parse_move, NotationError

KIND_OF_CHAR = {c: k for k, c in enumerate(PIECE_CHARS) if k}
KIND_OF_CHAR.update(CHAR_SYNONYMS)


class FenError(ValueError):
    """A FEN that does not describe a legal xiangqi position; the message says what is wrong."""


def piece_char(p: int) -> str:
    c = PIECE_CHARS[p & 7]
    return c.lower() if p >> 3 else c


def parse_fen(fen: str):
    """Parse and validate a FEN.  Returns (board int8[90], side, halfmove clock, fullmove number)."""
    fields = fen.split()
    if not fields:
        raise FenError("empty FEN")
    rows = fields[0].split("/")
    if len(rows) != RANKS:
        raise FenError(f"expected 10 ranks separated by '/', found {len(rows)}")
    board = np.zeros(NSQ, np.int8)
    for i, row in enumerate(rows):
        rank = RANKS - 1 - i
        f = 0
        for c in row:
            if c.isdigit():
                f += int(c)
            elif c.upper() in KIND_OF_CHAR:
                if f >= FILES:
                    raise FenError(f"rank {rank} ({row!r}) has more than 9 files")
                kind = KIND_OF_CHAR[c.upper()]
                board[rank * FILES + f] = kind + (BLACK_BIT if c.islower() else 0)
                f += 1
            else:
                raise FenError(f"unknown piece {c!r} in rank {rank}")
        if f != FILES:
            raise FenError(f"rank {rank} ({row!r}) has {f} files, expected 9")
    side_field = fields[1].lower() if len(fields) > 1 else "w"
    if side_field in ("w", "r"):
        side = RED
    elif side_field == "b":
        side = BLACK
    else:
        raise FenError(f"side to move must be 'w' (or 'r') or 'b', not {fields[1]!r}")
    halfmove, fullmove = 0, 1
    try:
        if len(fields) > 4:
            halfmove = int(fields[4])
        if len(fields) > 5:
            fullmove = int(fields[5])
    except ValueError:
        raise FenError("halfmove clock and move number must be integers") from None
    if halfmove < 0 or fullmove < 0:
        raise FenError("halfmove clock and move number must not be negative")
    validate_board(board, side)
    return board, side, halfmove, fullmove


def validate_board(board, side):
    counts = np.zeros((2, 8), np.int64)
    for sq in range(NSQ):
        p = int(board[sq])
        if not p:
            continue
        colour, kind = p >> 3, p & 7
        counts[colour, kind] += 1
        if not B.LEGAL_SQUARES[colour, kind, sq]:
            where = "outside the palace" if kind in (KING, ADVISOR) else "on an impossible square"
            raise FenError(f"{SIDE_NAMES[colour]} {KIND_NAMES[kind]} {where} "
                           f"({FILE_LETTERS[sq % FILES]}{sq // FILES})")
    for colour in (RED, BLACK):
        if counts[colour, KING] == 0:
            raise FenError(f"no {SIDE_NAMES[colour]} general")
        for kind in range(1, 8):
            if counts[colour, kind] > B.MAX_COUNT[kind]:
                raise FenError(f"too many {SIDE_NAMES[colour]} {KIND_NAMES[kind]}s "
                               f"({counts[colour, kind]}, at most {B.MAX_COUNT[kind]})")
    kings = [int(np.flatnonzero(board == colour * BLACK_BIT + KING)[0]) for colour in (RED, BLACK)]
    if king_attacked(board, kings[side ^ 1], side):
        raise FenError(f"the side not to move ({SIDE_NAMES[side ^ 1]}) is in check")


def board_fen(board, side: int, halfmove: int = 0, fullmove: int = 1) -> str:
    """The FEN of a bare board (int8[90]) with ``side`` to move."""
    rows = []
    for rank in range(RANKS - 1, -1, -1):
        row, empty = "", 0
        for f in range(FILES):
            p = int(board[rank * FILES + f])
            if p == 0:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += piece_char(p)
        rows.append(row + (str(empty) if empty else ""))
    return f"{'/'.join(rows)} {'w' if side == RED else 'b'} - - {halfmove} {fullmove}"


class Position(BasePosition):
    """A xiangqi position with its game history since the FEN it was set up from.

    >>> pos = Position()
    >>> pos.push("h2e2")
    >>> pos.fen()
    'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1'
    """

    game = XIANGQI
    ops = PositionOps(B.new_state, make_move, unmake_move, generate_legal, in_check, GEN_ALL, MAX_MOVES, MAX_HIST,
                      move_name, parse_move, NotationError)

    def set_fen(self, fen: str) -> None:
        board, side, halfmove, fullmove = parse_fen(fen)      # raises before anything changes
        self.board[:] = board
        self.st[:] = 0
        self.st[ST_SIDE] = side
        for colour in (RED, BLACK):
            self.st[ST_KING + colour] = int(np.flatnonzero(board == colour * BLACK_BIT + KING)[0])
        self.hist[0, :] = 0
        self.hist[0, H_CLOCK] = halfmove
        self.hist[0, H_CHECK] = in_check(self.board, self.st)
        self.keys[0] = B.compute_key(self.board, side)
        # Plies played in the game before ply index 0: gives the move number after any number of pushes.
        self.ply_base = max(fullmove - 1, 0) * 2 + side

    def fen(self) -> str:
        return board_fen(self.board, self.side, self.halfmove_clock, self.fullmove_number())

    def __str__(self) -> str:
        lines = []
        for rank in range(RANKS - 1, -1, -1):
            cells = [piece_char(int(self.board[rank * FILES + f])) if self.board[rank * FILES + f] else "."
                     for f in range(FILES)]
            lines.append(f"{rank} " + " ".join(cells))
        lines.append("  a b c d e f g h i")
        return "\n".join(lines)
