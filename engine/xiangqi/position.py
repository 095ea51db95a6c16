"""A xiangqi position for the edges of the program (protocol, command line, tests): FEN in and out with
validation, moves by name, legal move lists.  The numba kernels work on its four arrays directly.
"""
from __future__ import annotations

import re

import numpy as np

from ..files import clip
from ..game import XIANGQI
from ..position import (BasePosition, BoardShape, IllegalMoveError, PositionOps, board_field, board_lines,  # noqa: F401
                        parse_board_field, parse_move_counters)   # (IllegalMoveError: re-exported)
from . import board as B, constants, movegen, notation
from .constants import (NSQ, FILES, RANKS, KING, ADVISOR, RED, BLACK, BLACK_BIT, ST_SIDE, ST_KING,  # noqa: F401
                        H_CLOCK, H_CHECK, FILE_LETTERS, START_FEN, PIECE_CHARS, CHAR_SYNONYMS, KIND_NAMES,
                        SIDE_NAMES)   # (START_FEN: re-exported)
from .movegen import in_check, king_attacked

KIND_OF_CHAR = {c: k for k, c in enumerate(PIECE_CHARS) if k}
KIND_OF_CHAR.update(CHAR_SYNONYMS)


class FenError(ValueError):
    """A FEN that does not describe a legal xiangqi position; the message says what is wrong."""


SHAPE = BoardShape(FILES, RANKS, 0, PIECE_CHARS, KIND_OF_CHAR, BLACK_BIT)


def parse_fen(fen: str):
    """Parse and validate a FEN.  Returns (board int8[90], side, halfmove clock, fullmove number)."""
    fields = fen.split()
    if not fields:
        raise FenError("empty FEN")
    board = parse_board_field(fields[0], SHAPE, FenError)
    side_field = fields[1].lower() if len(fields) > 1 else "w"
    if side_field in ("w", "r"):
        side = RED
    elif side_field == "b":
        side = BLACK
    else:
        raise FenError(f"side to move must be 'w' (or 'r') or 'b', not {clip(fields[1], 20)!r}")
    halfmove, fullmove = parse_move_counters(fields[:2] + ["-", "-"] + move_counter_fields(fields[2:]), FenError)
    validate_board(board, side)
    return board, side, halfmove, fullmove


def move_counter_fields(fields: list) -> list:
    """The fields after the side to move, less the castling and en-passant fields xiangqi has no use for: a FEN
    may carry them as placeholders (``w - - 0 1``) or leave them out (``b 0 1``, as XBoard writes it), so up to
    two leading fields that are no number are skipped and the counters are what follows."""
    skipped = 0
    while skipped < min(2, len(fields)) and not re.fullmatch(r"[+-]?\d+", fields[skipped]):
        skipped += 1
    return fields[skipped:]


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
    return f"{board_field(board, SHAPE)} {'w' if side == RED else 'b'} - - {halfmove} {fullmove}"


class Position(BasePosition):
    """A xiangqi position (see ``BasePosition``)."""

    game = XIANGQI
    ops = PositionOps.of(B, movegen, notation, constants)

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
        return board_lines(self.board, SHAPE, FILE_LETTERS)
