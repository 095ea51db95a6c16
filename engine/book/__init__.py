"""Opening books (issue 30): the moves to play in known positions, with weights, answered without a search.

Two formats, one interface (``Book.moves(pos)``: the legal moves the book gives for a position, with weights):

* the project's own (``engine.book.native``), keyed by the engine's Zobrist keys, for any game; xiangqi's
  default book (``default_book``) is one, built by ``shuai book build`` from the engine's own self-play;
* Polyglot ``.bin`` (``engine.book.polyglot``), chess only, read by python-chess.

``open_books(paths, game)`` opens a list of files (``;``-separated, as UCCI's ``bookfiles``; "" means the game's
default book, if it has one) under the project's file rule (``engine.files``: a regular file, opened without
blocking, its size capped before reading): a file that cannot be read, or whose header or records are wrong, is
one ``BookError`` line and is left out; the engine plays on without it.  Every move a book gives is checked
against the position's legal moves before it is played (``Book.moves``).

``choose(moves, rng, best)``: the move to play, drawn by weight (the default: games from the same position
differ), or the heaviest (``best``: the option ``Best Book Move``).
"""
from __future__ import annotations

import random
from pathlib import Path
from typing import Optional, Sequence

from .base import Book, BookError

__all__ = ["Book", "BookError", "book_moves", "choose", "default_book", "open_book", "open_books"]

BOOKS = Path(__file__).resolve().parent      # the default books lie beside this file
MAX_BOOK_BYTES = 64 << 20       # the largest book read (a Polyglot book of four million moves)
# Each game's default book: a file beside this module, named after the game (absent: the game has none).
DEFAULT_SUFFIX = ".book"


def choose(moves: Sequence[tuple[str, int]], rng: random.Random, best: bool = False) -> Optional[str]:
    """A move of ``moves`` ((name, weight), heaviest first): drawn with chances in proportion to the weights, or
    the heaviest with ``best``; None if there is none (or every weight is 0)."""
    moves = [(m, w) for m, w in moves if w > 0]
    if not moves:
        return None
    if best:
        return moves[0][0]
    from ..levels import draw
    return moves[draw([w for _, w in moves], rng)][0]


def default_book(game) -> Optional[Path]:
    """The game's default book (None if it has none)."""
    path = BOOKS / f"{game.name}{DEFAULT_SUFFIX}"
    return path if path.is_file() else None


def open_book(path, game) -> Book:
    """The book in ``path`` for ``game``: the project's format (told by its magic), else Polyglot for a game
    python-chess plays.  BookError (one line) if it cannot be used."""
    from ..files import UnreadableFile, read_bytes
    from . import native, polyglot
    try:
        data = read_bytes(path, MAX_BOOK_BYTES)
    except UnreadableFile as e:
        raise BookError(f"book {e}") from None
    if native.is_native(data) or not polyglot.supports(game):
        return native.NativeBook(path, data, game)
    return polyglot.PolyglotBook(path, data, game)


def split_book_paths(text: str) -> list[str]:
    """UCCI's ``bookfiles`` (and UCI's ``BookFile``): paths separated by ``;``."""
    return [p.strip() for p in (text or "").split(";") if p.strip()]


def open_books(paths: str, game) -> tuple[list[Book], list[str]]:
    """The books of ``paths`` (``split_book_paths``; "" the game's default book, if any) for ``game``, and an
    error line for each that cannot be used."""
    names = split_book_paths(paths)
    if not names:
        found = default_book(game)
        names = [str(found)] if found is not None else []
    books, errors = [], []
    for name in names:
        try:
            books.append(open_book(name, game))
        except BookError as e:
            errors.append(str(e))
    return books, errors


def book_moves(books: Sequence[Book], pos) -> list[tuple[str, int]]:
    """The moves of the first book that knows ``pos`` (the order given: a user's book before the default)."""
    for book in books:
        moves = book.moves(pos)
        if moves:
            return moves
    return []
