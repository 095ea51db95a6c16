"""The board as lines of text.

Pieces stand on the intersections.  Each file takes four columns: a left connector, the point (a Chinese
character is two columns wide; in ASCII a letter and a line), a right connector.  Between two ranks a row of
vertical lines carries the palace diagonals; between ranks 5 and 4 the river (楚河 漢界) interrupts them.
Ranks 0-9 are written on both edges, files a-i under the board and, above and below it, the file numbers each
player counts from his own right (Black 1-9 on Black's side; Red 一-九, or 1-9 in ASCII, on Red's).

The last move's two points are highlighted (a background colour; brackets ``[ ]`` without colours), and so is
a general in check.  ``flipped`` shows the board from Black's side (rank 0 at the top, file i on the left).
"""
from __future__ import annotations

from ..move import move_from, move_to
from ..xiangqi.constants import BLACK, FILES, RANKS, RED
from ..xiangqi.wxf import CHINESE_NUMERALS, WXF_LETTERS, side_file
from .terminal import Style, text_width

UNICODE_PIECES = (" 帥仕相傌俥炮兵", " 將士象馬車砲卒")      # board glyphs (traditional), by colour and kind
ASCII_PIECES = (WXF_LETTERS, WXF_LETTERS.lower())   # plain terminals: the WXF letters (H horse, E elephant)

# SGR colour codes (256-colour palette)
C_LINE = "38;5;136"
C_LABEL = "38;5;244"
C_RIVER = "38;5;136"
C_RED = "1;38;5;160"
C_BLACK = "1;38;5;16"
BG_PIECE = "48;5;230"           # cream discs
BG_LAST = "48;5;222"            # last move, both points
BG_CHECK = "48;5;210"           # a general in check

# box-drawing point glyphs by which lines leave the point: (up, down, left, right)
_BOX = {(True, True, True, True): "┼", (False, True, True, True): "┬", (True, False, True, True): "┴",
        (True, True, False, True): "├", (True, True, True, False): "┤", (False, True, False, True): "┌",
        (False, True, True, False): "┐", (True, False, False, True): "└", (True, False, True, False): "┘"}


class _Line:
    """A line being built from (text, colour) segments."""

    def __init__(self):
        self.segments: list[tuple[str, str]] = []

    def add(self, text: str, code: str = "") -> "_Line":
        self.segments.append((text, code))
        return self

    def width(self) -> int:
        return sum(text_width(t) for t, _ in self.segments)

    def paint(self, style: Style) -> str:
        return "".join(style.paint(t, c) for t, c in self.segments)


def _is_palace_diagonal(f1: int, r1: int, f2: int, r2: int) -> bool:
    """Is the segment between two diagonally adjacent points part of a palace's cross (one end its centre)?"""
    for centre_rank in (1, 8):
        ends = {(f1, r1), (f2, r2)}
        if (4, centre_rank) in ends:
            (of, orank), = ends - {(4, centre_rank)}
            return of in (3, 5) and orank in (centre_rank - 1, centre_rank + 1)
    return False


def render_board(board, style: Style, flipped: bool = False, last_move: int | None = None,
                 check_square: int | None = None) -> list[str]:
    """The board as painted lines (all of one visible width, :func:`board_width`)."""
    u = style.unicode
    files = list(range(FILES - 1, -1, -1)) if flipped else list(range(FILES))
    ranks = list(range(RANKS)) if flipped else list(range(RANKS - 1, -1, -1))
    marked = set()
    if last_move:
        marked = {move_from(last_move), move_to(last_move)}
    h, v = ("─", "│") if u else ("-", "|")
    lines: list[_Line] = []

    def numbers_row(side: int) -> _Line:
        line = _Line().add("  ")
        for f in files:
            n = side_file(side, f)
            label = CHINESE_NUMERALS[n] if (u and side == RED) else str(n)
            line.add(" " + label + " " * (3 - text_width(label)), C_LABEL)
        return line.add("  ")

    def letters_row() -> _Line:
        line = _Line().add("  ")
        for f in files:
            line.add(" " + "abcdefghi"[f] + "  ", C_LABEL)
        return line.add("  ")

    top_side = RED if flipped else BLACK
    lines.append(numbers_row(top_side))
    for row, rank in enumerate(ranks):
        line = _Line().add(f"{rank} ", C_LABEL)
        for col, f in enumerate(files):
            sq = rank * FILES + f
            p = int(board[sq])
            edge = col in (0, FILES - 1)
            up = row > 0 and (row != 5 or edge)
            down = row < RANKS - 1 and (row != 4 or edge)
            left, right = col > 0, col < FILES - 1
            lconn, rconn = (h if left else " "), (h if right else " ")
            bg = BG_CHECK if sq == check_square else BG_LAST if sq in marked else ""
            bracket = sq in marked and not style.color
            if bracket:
                lconn, rconn = "[", "]"
            if p:
                colour = p >> 3
                glyph = (UNICODE_PIECES if u else ASCII_PIECES)[colour][p & 7]
                code = ";".join(x for x in ((C_RED if colour == RED else C_BLACK), bg or BG_PIECE) if x)
                line.add(lconn, C_LINE).add(glyph, code)
                if not u:
                    line.add(rconn, C_LINE).add(h if right else " ", C_LINE)
                else:
                    line.add(rconn, C_LINE)
            else:
                point = _BOX[(up, down, left, right)] if u else "+"
                code = ";".join(x for x in (C_LINE, bg) if x)
                line.add(lconn, C_LINE).add(point, code)
                if u and bracket:                    # "[┼]─": the bracket closes right after the point
                    line.add("]" + (h if right else " "), C_LINE)
                elif u:
                    line.add((h if right else " ") + rconn, C_LINE)
                else:
                    line.add(rconn + (h if right else " "), C_LINE)
        line.add(f" {rank}", C_LABEL)
        lines.append(line)
        if row == RANKS - 1:
            break
        below = ranks[row + 1]
        if row == 4:                                          # the river
            lines.append(_river_line(u))
            continue
        conn = _Line().add("  ")
        for col, f in enumerate(files):
            diag = " "
            if col < FILES - 1:
                f2 = files[col + 1]
                if _is_palace_diagonal(f, rank, f2, below):
                    diag = "╲" if u else "\\"
                elif _is_palace_diagonal(f2, rank, f, below):
                    diag = "╱" if u else "/"
            conn.add(" " + v + " " + diag, C_LINE)
        lines.append(conn.add("  "))
    lines.append(letters_row())
    lines.append(numbers_row(top_side ^ 1))
    return [line.paint(style) for line in lines]


def _river_line(u: bool) -> _Line:
    inner = 4 * (FILES - 1) - 1                              # columns between the two edge lines
    left, right = ("楚  河", "漢  界") if u else ("CHU  HE", "HAN  JIE")
    middle = inner - 2 * 3 - text_width(left) - text_width(right)
    text = " " * 3 + left + " " * middle + right + " " * 3
    v = "│" if u else "|"
    return (_Line().add("  ").add(" " + v, C_LINE).add(text, C_RIVER).add(v + "  ", C_LINE).add("  "))


def board_width() -> int:
    return 2 + 4 * FILES + 2


def side_by_side(left: list[str], left_width: int, right: list[str], gap: int = 3) -> list[str]:
    """Put ``right`` (plain or painted lines) beside ``left`` (lines of visible width ``left_width``)."""
    out = []
    for i in range(max(len(left), len(right))):
        a = left[i] if i < len(left) else " " * left_width
        b = right[i] if i < len(right) else ""
        out.append((a + " " * gap + b).rstrip() if b else a.rstrip())
    return out
