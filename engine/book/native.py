"""The project's own book format: positions by the engine's Zobrist keys, for any game it plays.

Little-endian throughout; a 32-byte header, then 16-byte records sorted by key (Polyglot's record layout, in
the other byte order and with the engine's keys and moves)::

    header   magic     8 bytes   b"SHUAIBK1"
             game      8 bytes   the game's name, ASCII, NUL-padded ("xiangqi")
             start     8 bytes   uint64: the key of the game's start position -- a book made with other keys
                                 (another version of the Zobrist tables) is refused instead of misread
             count     4 bytes   uint32: the number of records
             reserved  4 bytes   0
    record   key       8 bytes   uint64: the position's key (``Position.key``; the side to move included)
             move      2 bytes   uint16: the move as the engine packs it (``engine.move``)
             weight    2 bytes   uint16: how often to play it, relative to the position's other moves
             learn     4 bytes   uint32: reserved for learning (0)

Records of one position are in the order of falling weight.  Reading checks the magic, the game, the start key,
that the file holds exactly ``count`` records and that their keys never decrease; a move is played only if it is
legal in the position (``Book.moves``).
"""
from __future__ import annotations

import struct

import numpy as np

from ..files import clip
from .base import Book, BookError, records, write_file

MAGIC = b"SHUAIBK1"
HEADER = struct.Struct("<8s8sQII")
RECORD = np.dtype([("key", "<u8"), ("move", "<u2"), ("weight", "<u2"), ("learn", "<u4")])

assert HEADER.size == 32 and RECORD.itemsize == 16


def is_native(data: bytes) -> bool:
    return data[:len(MAGIC)] == MAGIC


def start_key(game) -> int:
    return game.position().key


class NativeBook(Book):
    def __init__(self, path, data: bytes, game):
        super().__init__(path, game)
        name = clip(path, 200)
        if not is_native(data):
            raise BookError(f"book {name}: not a book of this engine (no {MAGIC.decode()} header)")
        if len(data) < HEADER.size:
            raise BookError(f"book {name}: truncated header ({len(data)} bytes)")
        _, game_name, start, count, _ = HEADER.unpack_from(data)
        said = game_name.rstrip(b"\0").decode("ascii", "replace")
        if said != game.name:
            raise BookError(f"book {name}: a book of {clip(said, 20)!r}, not of {game.name}")
        if start != start_key(game):
            raise BookError(f"book {name}: made with other position keys (another version of the engine)")
        if len(data) != HEADER.size + count * RECORD.itemsize:
            raise BookError(f"book {name}: {len(data):,} bytes for {count:,} records (truncated or padded)")
        self.records = np.frombuffer(data, RECORD, count, HEADER.size)
        keys = self.records["key"]
        out_of_order = np.flatnonzero(keys[1:] < keys[:-1])
        if len(out_of_order):
            raise BookError(f"book {name}: records out of order at record {int(out_of_order[0]) + 2:,}")
        self.keys = keys
        self.move_name = game.move_name

    def entries(self, pos):
        key = np.uint64(pos.key)
        lo = int(np.searchsorted(self.keys, key, "left"))
        hi = int(np.searchsorted(self.keys, key, "right"))
        out = []
        for record in self.records[lo:hi]:
            try:
                out.append((self.move_name(int(record["move"])), int(record["weight"])))
            except (IndexError, ValueError, KeyError):      # no move at all (a hostile file): left out
                continue
        return out

    def __len__(self) -> int:
        return len(self.records)


def write_book(path, game, weights: dict) -> int:
    """Write ``weights`` ({(key, packed move): weight}) as a book of ``game`` to ``path``; returns the number of
    records."""
    rows = records(weights, RECORD)
    write_file(path, HEADER.pack(MAGIC, game.name.encode("ascii"), start_key(game), len(rows), 0) + rows.tobytes())
    return len(rows)
