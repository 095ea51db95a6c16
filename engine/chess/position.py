"""A chess position for the edges of the program: FEN (and X-FEN castling letters) in and out with validation,
UCI moves by name, legal move lists.  The numba kernels work on its four arrays directly.
"""
from __future__ import annotations

import numpy as np

from ..files import clip
from ..game import CHESS
from ..position import (BasePosition, BoardShape, IllegalMoveError, PositionOps, board_field, board_lines,  # noqa: F401
                        parse_board_field, parse_move_counters)   # (IllegalMoveError: re-exported)
from . import board as B, constants, movegen, notation
from .constants import (BLACK, BLACK_BIT, CASTLING_LETTERS, FILE_LETTERS, FILES, H_CASTLING, H_CHECK, H_CLOCK,
                        H_EP, KING, NSQ, PAWN, PIECE_CHARS, RANKS, ROOK, SIDE_NAMES, ST_CASTLING,
                        ST_EP, ST_KING, ST_SIDE, WHITE, WHITE_OO, WHITE_OOO, BLACK_OO, BLACK_OOO)
from .movegen import in_check, is_attacked
from .notation import NotationError, parse_square, square_name

KIND_OF_CHAR = {c: k for k, c in enumerate(PIECE_CHARS) if k}
# Castling right -> (king square, rook square) it needs.
CASTLING_SQUARES = {WHITE_OO: (4, 7), WHITE_OOO: (4, 0), BLACK_OO: (60, 63), BLACK_OOO: (60, 56)}


class FenError(ValueError):
    """A FEN that does not describe a legal chess position; the message says what is wrong."""


SHAPE = BoardShape(FILES, RANKS, 1, PIECE_CHARS, KIND_OF_CHAR, BLACK_BIT)


def _castling_rights(field: str, board) -> int:
    """The rights a castling field grants, kept only where king and rook stand on their squares.  Letters: KQkq,
    or X-FEN/Shredder file letters (``HAha``: the rook's file; only the standard a/h rooks exist here)."""
    if field == "-":
        return 0
    rights = 0
    for c in field:
        colour = WHITE if c.isupper() else BLACK
        u = c.upper()
        if u in "KQ":
            right = (WHITE_OO if u == "K" else WHITE_OOO) << (2 * colour)
        elif u in "ABCDEFGH":
            if u not in "AH":
                raise FenError(f"castling with the rook on file {c!r}: only standard chess (rooks on a and h)")
            right = (WHITE_OO if u == "H" else WHITE_OOO) << (2 * colour)
        else:
            raise FenError(f"bad castling field {clip(field, 20)!r}")
        king_sq, rook_sq = CASTLING_SQUARES[right]
        if board[king_sq] == colour * BLACK_BIT + KING and board[rook_sq] == colour * BLACK_BIT + ROOK:
            rights |= right
    return rights


def parse_fen(fen: str):
    """Parse and validate a FEN.  Returns (board int8[64], side, castling rights, en-passant square or 0,
    halfmove clock, fullmove number)."""
    fields = fen.split()
    if not fields:
        raise FenError("empty FEN")
    board = parse_board_field(fields[0], SHAPE, FenError)
    side_field = fields[1].lower() if len(fields) > 1 else "w"
    if side_field not in ("w", "b"):
        raise FenError(f"side to move must be 'w' or 'b', not {clip(fields[1], 20)!r}")
    side = WHITE if side_field == "w" else BLACK
    castling = _castling_rights(fields[2], board) if len(fields) > 2 else 0
    ep = 0
    if len(fields) > 3 and fields[3] != "-":
        try:
            ep = parse_square(fields[3])
        except NotationError:
            raise FenError(f"bad en-passant square {clip(fields[3], 20)!r}") from None
        if ep // FILES != (5 if side == WHITE else 2):
            raise FenError(f"en-passant square {fields[3]} is not on the rank behind a pawn that just moved")
        pushed = ep - FILES if side == WHITE else ep + FILES
        if board[pushed] != (side ^ 1) * BLACK_BIT + PAWN or board[ep] != 0:
            raise FenError(f"en-passant square {fields[3]} without a pawn that just moved past it")
    halfmove, fullmove = parse_move_counters(fields, FenError)
    _validate(board)
    return board, side, castling, ep, halfmove, fullmove


def _validate(board) -> None:
    for colour in (WHITE, BLACK):
        kings = int(np.count_nonzero(board == colour * BLACK_BIT + KING))
        if kings != 1:
            raise FenError(f"{SIDE_NAMES[colour]} has {kings} kings, expected one")
        if int(np.count_nonzero(board == colour * BLACK_BIT + PAWN)) > 8:
            raise FenError(f"{SIDE_NAMES[colour]} has more than 8 pawns")
        if int(np.count_nonzero((board != 0) & ((board >> 3) == colour))) > 16:
            raise FenError(f"{SIDE_NAMES[colour]} has more than 16 pieces")
    for sq in list(range(FILES)) + list(range(NSQ - FILES, NSQ)):
        if board[sq] & 7 == PAWN:
            raise FenError(f"a pawn on the first or last rank ({square_name(sq)})")


def board_fen(board, side: int, castling: int, ep: int, halfmove: int = 0, fullmove: int = 1) -> str:
    rights = "".join(c for i, c in enumerate(CASTLING_LETTERS) if castling & (1 << i)) or "-"
    return (f"{board_field(board, SHAPE)} {'w' if side == WHITE else 'b'} {rights} {square_name(ep) if ep else '-'} "
            f"{halfmove} {fullmove}")


class Position(BasePosition):
    """A chess position (castling rights and the en-passant square in ``st``; see ``BasePosition``)."""

    game = CHESS
    ops = PositionOps.of(B, movegen, notation, constants)

    def set_fen(self, fen: str) -> None:
        board, side, castling, ep, halfmove, fullmove = parse_fen(fen)    # raises before anything changes
        st = np.zeros_like(self.st)
        st[ST_SIDE] = side
        B.set_bitboards(board, st)
        if is_attacked(st, int(st[ST_KING + (side ^ 1)]), side):
            raise FenError(f"the side not to move ({SIDE_NAMES[side ^ 1]}) is in check")
        if ep and not B.ep_capturable(st, ep, side):
            ep = 0                                  # no pawn can take: not part of the position
        self.board[:] = board
        self.st[:] = st
        self.st[ST_CASTLING] = castling
        self.st[ST_EP] = ep
        self.hist[0, :] = 0
        self.hist[0, H_CLOCK] = halfmove
        self.hist[0, H_CASTLING] = castling
        self.hist[0, H_EP] = ep
        self.hist[0, H_CHECK] = in_check(self.board, self.st)
        self.keys[0] = B.compute_key(self.board, side, castling, ep)
        self.ply_base = max(fullmove - 1, 0) * 2 + side

    @property
    def castling(self) -> int:
        return int(self.st[ST_CASTLING])

    def fen(self) -> str:
        return board_fen(self.board, self.side, self.castling, int(self.st[ST_EP]), self.halfmove_clock,
                         self.fullmove_number())

    def __str__(self) -> str:
        return board_lines(self.board, SHAPE, FILE_LETTERS)
