"""What every game's ``Position`` shares (the Python edge: protocol, command line, tests): the four position
arrays, the game history since the FEN, moves by name, legal move lists, push and pop.

A game's subclass supplies ``game``, ``ops`` (its kernels and array layout, below) and the FEN in and out
(``set_fen``, ``fen``, ``__str__``).  The numba kernels work on the arrays directly.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

ST_SIDE, ST_PLY = 0, 1                  # the first two entries of every game's st array
H_MOVE, H_CLOCK, H_CHECK = 0, 2, 3      # hist columns every game shares


class IllegalMoveError(ValueError):
    """A move that is malformed or not legal in the position."""


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


class BasePosition:
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
            raise IllegalMoveError(f"illegal move {text.strip()!r} in {self.fen()}")
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

    def fullmove_number(self) -> int:
        return (self.ply_base + self.ply) // 2 + 1

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}({self.fen()!r})"
