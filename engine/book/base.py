"""What every book format shares: the ``Book`` interface, its error, and the writing of records."""
from __future__ import annotations

from ..files import write_atomically

MAX_WEIGHT = 0xFFFF             # a record's weight is 16 bits in both formats


class BookError(Exception):
    """A book that cannot be used; the message is one line that names the file and says why."""


class Book:
    """A book file: ``moves(pos)`` gives the legal moves it holds for ``pos`` with their weights."""

    def __init__(self, path: str, game):
        self.path = str(path)
        self.game = game

    def entries(self, pos) -> list[tuple[str, int]]:
        """(move name, weight) of every record for ``pos``, legal or not (the format's own)."""
        raise NotImplementedError

    def moves(self, pos) -> list[tuple[str, int]]:
        """The book's moves for ``pos`` that are legal there, heaviest first (a move listed twice: its weights
        added).  A record whose move is not legal (a hash collision, a hostile file) is left out; a position of
        another game has none."""
        if pos.game is not self.game:
            return []
        legal = set(pos.legal_move_names())
        merged: dict[str, int] = {}
        for name, weight in self.entries(pos):
            if name in legal:
                merged[name] = merged.get(name, 0) + int(weight)
        return sorted(merged.items(), key=lambda mw: -mw[1])


def records(weights: dict, dtype):
    """The records of a book file (a numpy array of ``dtype``: key, move, weight, learn) for ``weights``
    ({(key, move): weight}): sorted by key, each position's heaviest first; weights divided alike when the largest
    does not fit 16 bits (each kept at 1 or more, so that no move drops out)."""
    import numpy as np
    top = max(weights.values(), default=0)
    if top > MAX_WEIGHT:
        weights = {k: max(1, w * MAX_WEIGHT // top) for k, w in weights.items()}
    out = np.zeros(len(weights), dtype)
    for i, ((key, move), weight) in enumerate(sorted(weights.items(), key=lambda kv: (kv[0][0], -kv[1], kv[0][1]))):
        out[i] = (key, move, weight, 0)
    return out


def write_file(path, data: bytes) -> None:
    """Write a book atomically (``files.write_atomically``: no predictable temporary, nothing but a regular file
    replaced); UnwritableFile says why it could not be."""
    write_atomically(path, [data])
