"""A xiangqi position for the edges of the program (protocol, command line, tests): FEN in and out with
validation, moves by name, legal move lists.  The numba kernels work on its four arrays directly.
"""
from __future__ import annotations

import numpy as np

from ..game import XIANGQI
from . import board as B
from .board import make_move, unmake_move
from .constants import (NSQ, FILES, RANKS, KING, ADVISOR, RED, BLACK, BLACK_BIT, ST_SIDE, ST_PLY,  # noqa: F401
                        ST_KING, H_MOVE, H_CLOCK, H_CHECK, MAX_HIST, MAX_MOVES, FILE_LETTERS, START_FEN, PIECE_CHARS,
                        CHAR_SYNONYMS, KIND_NAMES, SIDE_NAMES)
from .movegen import GEN_ALL, generate_legal, in_check, is_legal, generate, king_attacked
from .notation import move_name, parse_move, NotationError

KIND_OF_CHAR = {c: k for k, c in enumerate(PIECE_CHARS) if k}
KIND_OF_CHAR.update(CHAR_SYNONYMS)


class FenError(ValueError):
    """A FEN that does not describe a legal xiangqi position; the message says what is wrong."""


class IllegalMoveError(ValueError):
    """A move that is malformed or not legal in the position."""


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


class Position:
    """A xiangqi position with its game history since the FEN it was set up from.

    >>> pos = Position()
    >>> pos.push("h2e2")
    >>> pos.fen()
    'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1'
    """

    game = XIANGQI

    def __init__(self, fen: str = START_FEN):
        self.board, self.st, self.hist, self.keys = B.new_state()
        self._moves = np.zeros(MAX_MOVES, np.int32)
        self.set_fen(fen)

    # -- set-up ---------------------------------------------------------------------------------------------
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

    def copy(self) -> "Position":
        other = Position.__new__(Position)
        other.board, other.st, other.hist, other.keys = (a.copy() for a in (self.board, self.st, self.hist,
                                                                               self.keys))
        other._moves = np.zeros(MAX_MOVES, np.int32)
        other.ply_base = self.ply_base
        return other

    # -- queries --------------------------------------------------------------------------------------------
    @property
    def arrays(self):
        return self.board, self.st, self.hist, self.keys

    @property
    def side(self) -> int:
        return int(self.st[ST_SIDE])

    @property
    def ply(self) -> int:
        return int(self.st[ST_PLY])

    @property
    def key(self) -> int:
        return int(self.keys[self.ply, 0])

    @property
    def halfmove_clock(self) -> int:
        return int(self.hist[self.ply, H_CLOCK])

    def in_check(self) -> bool:
        return bool(in_check(self.board, self.st))

    def legal_moves(self) -> list[int]:
        n = generate_legal(self.board, self.st, self._moves, GEN_ALL)
        return [int(m) for m in self._moves[:n]]

    def legal_move_names(self) -> list[str]:
        return [move_name(m) for m in self.legal_moves()]

    def is_legal(self, move: int) -> bool:
        n = generate(self.board, self.st[ST_SIDE], self._moves, GEN_ALL)
        if move not in self._moves[:n]:
            return False
        return bool(is_legal(self.board, self.st, np.int32(move), in_check(self.board, self.st)))

    def parse_move(self, text: str) -> int:
        """A move string -> packed move, if it is legal here; IllegalMoveError (with a reason) otherwise."""
        try:
            move = parse_move(text)
        except NotationError as e:
            raise IllegalMoveError(str(e)) from None
        if not self.is_legal(move):
            raise IllegalMoveError(f"illegal move {text.strip()!r} in {self.fen()}")
        return move

    # -- playing --------------------------------------------------------------------------------------------
    def push(self, move) -> None:
        """Play a legal move, given packed or as a string."""
        if isinstance(move, str):
            move = self.parse_move(move)
        if self.ply >= MAX_HIST - 256:
            self._rebase()
        make_move(self.board, self.st, self.hist, self.keys, np.int32(move))
        # Whether this move gave check: the repetition rules (perpetual check) read it from the history.
        self.hist[self.ply, H_CHECK] = in_check(self.board, self.st)

    def pop(self) -> int:
        if self.ply == 0:
            raise IndexError("no move to take back")
        unmake_move(self.board, self.st, self.hist)
        return int(self.hist[self.ply, H_MOVE])

    def _rebase(self) -> None:
        """Very long games: keep the last 256 plies of history (more than any repetition window needs)."""
        keep = 256
        ply = self.ply
        self.hist[: keep + 1] = self.hist[ply - keep: ply + 1].copy()
        self.keys[: keep + 1] = self.keys[ply - keep: ply + 1].copy()
        self.st[ST_PLY] = keep
        self.ply_base += ply - keep

    def fullmove_number(self) -> int:
        return (self.ply_base + self.ply) // 2 + 1

    # -- output ---------------------------------------------------------------------------------------------
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

    def __repr__(self) -> str:
        return f"Position({self.fen()!r})"
