"""Polyglot opening books (``.bin``), for standard chess: read by python-chess, written here.

The format (documented with Polyglot, and read by ``chess.polyglot``): 16-byte big-endian records sorted by key --
``key`` (uint64, ``chess.polyglot.zobrist_hash`` of the position), ``move`` (uint16: to file, to rank, from file,
from rank in 3 bits each from the lowest, then the promotion piece, 1 knight to 4 queen; castling written as the
king taking its own rook), ``weight`` (uint16) and ``learn`` (uint32).  python-chess has no writer: ``write_book``
is one, small.  Before a book is handed to python-chess the whole file is checked (a regular file of whole
records, keys never decreasing), since a reader's binary search silently misses in a file out of order.
"""
from __future__ import annotations

import chess
import chess.polyglot
import numpy as np

from ..files import clip
from .base import Book, BookError, records, write_file

RECORD = np.dtype([("key", ">u8"), ("move", ">u2"), ("weight", ">u2"), ("learn", ">u4")])
PROMOTION_CODE = {chess.KNIGHT: 1, chess.BISHOP: 2, chess.ROOK: 3, chess.QUEEN: 4}


def supports(game) -> bool:
    """Does ``game`` read Polyglot books?  Those of python-chess's standard board."""
    return game.uci_variant == chess.Board.uci_variant


class PolyglotBook(Book):
    def __init__(self, path, data: bytes, game):
        super().__init__(path, game)
        name = clip(path, 200)
        if len(data) % RECORD.itemsize:
            raise BookError(f"book {name}: {len(data):,} bytes is not a whole number of Polyglot records")
        keys = np.frombuffer(data, RECORD)["key"]
        out_of_order = np.flatnonzero(keys[1:] < keys[:-1])
        if len(out_of_order):
            raise BookError(f"book {name}: not a Polyglot book (records out of order at record "
                            f"{int(out_of_order[0]) + 2:,})")
        self.count = len(keys)
        try:
            self.reader = chess.polyglot.open_reader(self.path) if self.count else None
        except (OSError, ValueError) as e:
            raise BookError(f"book {name}: cannot open ({e})") from None

    def entries(self, pos):
        if self.reader is None:
            return []
        board = chess.Board(pos.fen())
        return [(entry.move.uci(), entry.weight) for entry in self.reader.find_all(board, minimum_weight=0)]

    def __len__(self) -> int:
        return self.count


def encode_move(board: chess.Board, move: chess.Move) -> int:
    """``move`` in ``board`` as a Polyglot book writes it (castling as the king taking its rook)."""
    to = move.to_square
    if board.is_castling(move):
        to = chess.square(7 if board.is_kingside_castling(move) else 0, chess.square_rank(move.from_square))
    code = (chess.square_file(to) | chess.square_rank(to) << 3 | chess.square_file(move.from_square) << 6
            | chess.square_rank(move.from_square) << 9)
    return code | PROMOTION_CODE.get(move.promotion, 0) << 12


def write_book(path, weights: dict) -> int:
    """Write ``weights`` ({(zobrist key, encoded move): weight}) as a Polyglot book; returns the number of
    records."""
    rows = records(weights, RECORD)
    write_file(path, rows.tobytes())
    return len(rows)
