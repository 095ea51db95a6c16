"""The chess board as lines of text.

Each square takes three columns, the piece in the middle: Unicode pieces (♔♕♖♗♘♙ White, ♚♛♜♝♞♟ Black) or, in
ASCII, FEN letters (upper case White).  Without colours an empty square is a dot; with colours the squares are
painted light and dark and every piece is drawn in black ink, so that the outlined White and the solid Black
pieces look as they do in print.  Ranks 1-8 are written on both edges, files a-h above and below.

The last move's two squares are highlighted (a background colour; brackets ``[ ]`` without colours), and so is
a king in check (colours only).  ``flipped`` shows the board from Black's side (rank 1 at the top, file h on
the left).
"""
from __future__ import annotations

from .terminal import Style

UNICODE_PIECES = {"K": "♔", "Q": "♕", "R": "♖", "B": "♗", "N": "♘", "P": "♙",
                  "k": "♚", "q": "♛", "r": "♜", "b": "♝", "n": "♞", "p": "♟"}

C_LABEL = "38;5;244"
C_PIECE = "38;5;16"             # black ink for both sides' pieces
BG_LIGHT = "48;5;223"
BG_DARK = "48;5;180"
BG_LAST = "48;5;186"            # last move, both squares
BG_CHECK = "48;5;210"           # a king in check


def render_board(board, style: Style, flipped: bool = False, last_move=None, check_square: int | None = None
                 ) -> list[str]:
    """``board``: a python-chess Board (only its pieces are read); ``last_move``: a python-chess Move or None;
    ``check_square``: a python-chess square (0 = a1) or None.  Returns painted lines, all of :func:`board_width`
    visible columns."""
    files = range(7, -1, -1) if flipped else range(8)
    ranks = range(8) if flipped else range(7, -1, -1)
    marked = {last_move.from_square, last_move.to_square} if last_move else set()
    letters = "  " + "".join(f" {'abcdefgh'[f]} " for f in files) + "  "
    lines = [style.paint(letters, C_LABEL)]
    for rank in ranks:
        parts = [style.paint(f"{rank + 1} ", C_LABEL)]
        for f in files:
            sq = rank * 8 + f
            piece = board.piece_at(sq)
            symbol = piece.symbol() if piece else ""
            if style.unicode:
                glyph = UNICODE_PIECES.get(symbol, "·" if not style.color else " ")
            else:
                glyph = symbol or ("." if not style.color else " ")
            if style.color:
                bg = (BG_CHECK if sq == check_square else BG_LAST if sq in marked
                      else BG_LIGHT if (rank + f) % 2 else BG_DARK)
                parts.append(style.paint(f" {glyph} ", f"1;{C_PIECE};{bg}" if piece else bg))
            elif sq in marked:
                parts.append(f"[{glyph}]")
            else:
                parts.append(f" {glyph} ")
        parts.append(style.paint(f" {rank + 1}", C_LABEL))
        lines.append("".join(parts))
    lines.append(style.paint(letters, C_LABEL))
    return lines


def board_width() -> int:
    return 2 + 3 * 8 + 2
