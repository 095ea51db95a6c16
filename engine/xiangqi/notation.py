"""Move notation: ICCS / UCI coordinates (``h2e2``: files a-i from Red's left, ranks 0-9 from Red's side).

UCCI, the Pikafish UCI dialect and XQWizard's PGN all use this form; ICCS proper writes it ``H2-E2``, which is
accepted on input too.
"""
from ..files import clip
from ..move import move_from, move_to, pack_move
from .constants import FILE_LETTERS, FILES, NSQ


class NotationError(ValueError):
    """A move string that is not a coordinate move at all."""


def square_name(sq: int) -> str:
    return FILE_LETTERS[sq % FILES] + str(sq // FILES)


def parse_square(text: str) -> int:
    if len(text) != 2 or text[0] not in FILE_LETTERS or not text[1].isdigit():
        raise NotationError(f"bad square {clip(text, 20)!r}")
    return int(text[1]) * FILES + FILE_LETTERS.index(text[0])


def move_name(move: int) -> str:
    if move == 0:
        return "0000"
    return square_name(move_from(move)) + square_name(move_to(move))


def parse_move(text: str) -> int:
    """``h2e2`` / ``H2-E2`` -> packed move (``engine.move``).  Says nothing about legality."""
    t = text.strip().lower().replace("-", "")
    if len(t) != 4:
        raise NotationError(f"bad move {clip(text, 20)!r}: expected a coordinate move like h2e2")
    frm, to = parse_square(t[:2]), parse_square(t[2:])
    if frm == to or not (0 <= frm < NSQ and 0 <= to < NSQ):
        raise NotationError(f"bad move {text!r}")
    return pack_move(frm, to)
