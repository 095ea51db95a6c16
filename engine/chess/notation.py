"""Move notation: UCI long algebraic (``e2e4``, ``e7e8q``; castling as the king's two-square step, ``e1g1``).
SAN is python-chess's business (the terminal game and PGN use it), not this module's.
"""
from ..files import clip
from ..move import move_from, move_promotion, move_to, pack_move
from .constants import FILE_LETTERS, FILES, PROMOTION_FLAG, PROMOTION_LETTERS, SQUARE_MASK


class NotationError(ValueError):
    """A move string that is not a coordinate move at all."""


def square_name(sq: int) -> str:
    return FILE_LETTERS[sq % FILES] + str(sq // FILES + 1)


def parse_square(text: str) -> int:
    if len(text) != 2 or text[0] not in FILE_LETTERS or text[1] not in "12345678":
        raise NotationError(f"bad square {clip(text, 20)!r}")
    return (int(text[1]) - 1) * FILES + FILE_LETTERS.index(text[0])


def move_name(move: int) -> str:
    """The UCI name of a packed move (a promotion carries its flag and piece: ``constants.PROMOTION_FLAG``)."""
    if move == 0:
        return "0000"
    name = square_name(move_from(move)) + square_name(move_to(move) & SQUARE_MASK)
    if move_to(move) & PROMOTION_FLAG:
        name += PROMOTION_LETTERS[move_promotion(move)]
    return name


def parse_move(text: str) -> int:
    """``e2e4`` / ``e7e8q`` -> packed move (``engine.move``).  Says nothing about legality: a promotion letter
    on a move that is no promotion is caught by the position."""
    t = text.strip().lower()
    if len(t) not in (4, 5):
        raise NotationError(f"bad move {clip(text, 20)!r}: expected a UCI move like e2e4 or e7e8q")
    frm, to = parse_square(t[:2]), parse_square(t[2:4])
    if frm == to:
        raise NotationError(f"bad move {text!r}")
    if len(t) == 5:
        if t[4] not in PROMOTION_LETTERS:
            raise NotationError(f"bad promotion piece {t[4]!r} in {text!r} (one of q, r, b, n)")
        return pack_move(frm, to | PROMOTION_FLAG, PROMOTION_LETTERS.index(t[4]))
    return pack_move(frm, to)
