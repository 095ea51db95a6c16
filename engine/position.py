"""What every game's ``Position`` shares (the Python edge: protocol, command line, tests): the four position
arrays, the game history since the FEN, moves by name, legal move lists, push and pop.

A game's subclass supplies ``game``, ``ops`` (its kernels and array layout, below) and the FEN in and out
(``set_fen``, ``fen``, ``__str__``).  The numba kernels work on the arrays directly.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from .files import clip
from .layout import H_CHECK, H_CLOCK, H_MOVE, ST_PLY, ST_SIDE


class IllegalMoveError(ValueError):
    """A move that is malformed or not legal in the position."""


@dataclass(frozen=True)
class BoardShape:
    """What reading and writing a FEN's board field needs to know of a game."""
    files: int
    ranks: int
    first_rank: int                 # the name of rank 0 in messages (0 in xiangqi, 1 in chess)
    piece_chars: str                # FEN letter by kind (upper case: the first side)
    kind_of_char: dict              # upper-case letter -> kind (synonyms included)
    black_bit: int                  # piece code = colour * black_bit + kind


def piece_char(p: int, shape: BoardShape) -> str:
    c = shape.piece_chars[p & 7]
    return c.lower() if p >= shape.black_bit else c


def parse_board_field(text: str, shape: BoardShape, error: type) -> np.ndarray:
    """A FEN's first field (last rank first) -> int8 board, square = rank * files + file; ``error`` (the
    game's FenError) says what is wrong."""
    rows = text.split("/")
    if len(rows) != shape.ranks:
        raise error(f"expected {shape.ranks} ranks separated by '/', found {len(rows)}")
    board = np.zeros(shape.files * shape.ranks, np.int8)
    for i, row in enumerate(rows):
        rank = shape.ranks - 1 - i
        name = rank + shape.first_rank
        f = 0
        for c in row:
            if c.isdigit():
                f += int(c)
            elif c.upper() in shape.kind_of_char:
                if f >= shape.files:
                    raise error(f"rank {name} ({clip(row, 30)!r}) has more than {shape.files} files")
                board[rank * shape.files + f] = shape.kind_of_char[c.upper()] + (shape.black_bit if c.islower() else 0)
                f += 1
            else:
                raise error(f"unknown piece {c!r} in rank {name}")
        if f != shape.files:
            raise error(f"rank {name} ({clip(row, 30)!r}) has {f} files, expected {shape.files}")
    return board


def board_field(board, shape: BoardShape) -> str:
    """The FEN board field of an int8 board."""
    rows = []
    for rank in range(shape.ranks - 1, -1, -1):
        row, empty = "", 0
        for p in board[rank * shape.files: (rank + 1) * shape.files]:
            if p == 0:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += piece_char(int(p), shape)
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows)


MAX_MOVE_COUNTER = 1_000_000     # far beyond any game; the position's counters are int32


def parse_move_counters(fields: list, error: type) -> tuple[int, int]:
    """The halfmove clock and fullmove number of a FEN's fields (5th and 6th; 0 and 1 when absent)."""
    halfmove, fullmove = 0, 1
    try:
        if len(fields) > 4:
            halfmove = int(fields[4])
        if len(fields) > 5:
            fullmove = int(fields[5])
    except ValueError:
        raise error("halfmove clock and move number must be integers") from None
    if halfmove < 0 or fullmove < 0:
        raise error("halfmove clock and move number must not be negative")
    if max(halfmove, fullmove) > MAX_MOVE_COUNTER:
        raise error(f"halfmove clock and move number must be at most {MAX_MOVE_COUNTER:,}")
    return halfmove, fullmove


def board_lines(board, shape: BoardShape, file_letters: str) -> str:
    """A plain text diagram: one line a rank (last rank first, its name in front), files lettered below."""
    lines = []
    for rank in range(shape.ranks - 1, -1, -1):
        cells = [piece_char(int(p), shape) if p else "." for p in board[rank * shape.files: (rank + 1) * shape.files]]
        lines.append(f"{rank + shape.first_rank} " + " ".join(cells))
    lines.append("  " + " ".join(file_letters))
    return "\n".join(lines)


@dataclass(frozen=True)
class PositionOps:
    """A game's kernels as its Position uses them."""
    new_state: Callable
    make_move: Callable
    unmake_move: Callable
    generate_legal: Callable        # (board, st, moves, mode) -> count
    in_check: Callable              # (board, st) -> bool
    gen_all: int
    max_moves: int
    max_hist: int
    move_name: Callable             # packed move -> its protocol name
    parse_move: Callable            # name -> packed move (NotationError for a malformed one)
    notation_error: type

    @classmethod
    def of(cls, board, movegen, notation, constants) -> "PositionOps":
        """A game's kernels, found by their names in its modules."""
        return cls(board.new_state, board.make_move, board.unmake_move, movegen.generate_legal, movegen.in_check,
                   movegen.GEN_ALL, constants.MAX_MOVES, constants.MAX_HIST, notation.move_name,
                   notation.parse_move, notation.NotationError)


class BasePosition:
    """A position of its game with the game's history since the FEN it was set up from; a game's subclass
    supplies ``game``, ``ops`` and the FEN in and out.

    >>> from engine.game import XIANGQI, CHESS
    >>> pos = XIANGQI.position()
    >>> pos.push("h2e2")
    >>> pos.fen()
    'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1'
    >>> pos = CHESS.position()
    >>> pos.push("e2e4")
    >>> pos.fen()
    'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'
    """
    game = None
    ops: PositionOps = None

    def __init__(self, fen: str | None = None):
        self.board, self.st, self.hist, self.keys = self.ops.new_state()
        self._moves = np.zeros(self.ops.max_moves, np.int32)
        self.ply_base = 0
        self.set_fen(self.game.start_fen if fen is None else fen)

    def set_fen(self, fen: str) -> None:
        raise NotImplementedError

    def fen(self) -> str:
        raise NotImplementedError

    def copy(self):
        other = self.__class__.__new__(self.__class__)
        other.board, other.st, other.hist, other.keys = (a.copy() for a in self.arrays)
        other._moves = np.zeros(self.ops.max_moves, np.int32)
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
        return bool(self.ops.in_check(self.board, self.st))

    def legal_moves(self) -> list[int]:
        n = self.ops.generate_legal(self.board, self.st, self._moves, self.ops.gen_all)
        return [int(m) for m in self._moves[:n]]

    def legal_move_names(self) -> list[str]:
        return [self.ops.move_name(m) for m in self.legal_moves()]

    def is_legal(self, move: int) -> bool:
        return move in self.legal_moves()

    def move_name(self, move: int) -> str:
        return self.ops.move_name(move)

    def parse_move(self, text: str) -> int:
        """A move string -> packed move, if it is legal here; IllegalMoveError (with a reason) otherwise."""
        try:
            move = self.ops.parse_move(text)
        except self.ops.notation_error as e:
            raise IllegalMoveError(str(e)) from None
        if not self.is_legal(move):
            raise IllegalMoveError(f"illegal move {clip(text.strip(), 20)!r} in {self.fen()}")
        return move

    # -- playing --------------------------------------------------------------------------------------------
    def push(self, move) -> None:
        """Play a legal move, given packed or as a string."""
        if isinstance(move, str):
            move = self.parse_move(move)
        if self.ply >= self.ops.max_hist - 256:
            self._rebase()
        self.ops.make_move(self.board, self.st, self.hist, self.keys, np.int32(move))
        # Whether this move gave check: the repetition rules (perpetual check) read it from the history.
        self.hist[self.ply, H_CHECK] = self.ops.in_check(self.board, self.st)

    def pop(self) -> int:
        if self.ply == 0:
            raise IndexError("no move to take back")
        self.ops.unmake_move(self.board, self.st, self.hist)
        return int(self.hist[self.ply, H_MOVE])

    def _rebase(self) -> None:
        """Very long games: keep the last 256 plies of history (more than any repetition window needs)."""
        keep = 256
        ply = self.ply
        self.hist[: keep + 1] = self.hist[ply - keep: ply + 1].copy()
        self.keys[: keep + 1] = self.keys[ply - keep: ply + 1].copy()
        self.st[ST_PLY] = keep
        self.ply_base += ply - keep

    @property
    def game_ply(self) -> int:
        """Plies played since the game's start (counted from the FEN's move number and side to move)."""
        return self.ply_base + self.ply

    def fullmove_number(self) -> int:
        return self.game_ply // 2 + 1

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}({self.fen()!r})"
