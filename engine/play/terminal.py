"""What the terminal can show, and the few ANSI helpers the board needs.

Chinese characters are used when the output encoding can encode them (``--ascii`` forces letters); colours when
the output is a terminal, ``NO_COLOR`` is unset and ``TERM`` is not ``dumb`` (``--color`` / ``--no-color``
override).  Widths follow Unicode's East Asian Width: a Chinese character takes two columns.
"""
from __future__ import annotations

import os
import unicodedata
from dataclasses import dataclass

# Every non-ASCII character the Unicode style prints (xiangqi; chess).
UNICODE_SAMPLE = "帥仕相傌俥炮兵將士象馬車砲卒楚河漢界一二三四五六七八九进退平前中后红黑胜负和┌┐└┘├┤┬┴┼─│╲╱⠋"
CHESS_SAMPLE = "♔♕♖♗♘♙♚♛♜♝♞♟·—…✗⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"

RESET = "\x1b[0m"
CLEAR_LINE = "\r\x1b[2K"


@dataclass(frozen=True)
class Style:
    unicode: bool           # Chinese pieces and box drawing, else letters and ASCII lines
    color: bool             # ANSI colours

    def paint(self, text: str, code: str) -> str:
        """``code``: the inside of an SGR sequence, e.g. ``"1;38;5;160"``."""
        if not self.color or not code:
            return text
        return f"\x1b[{code}m{text}{RESET}"


def can_encode(stream, sample: str = UNICODE_SAMPLE) -> bool:
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        sample.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def is_tty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def colours_wanted(stream, env=None) -> bool:
    env = os.environ if env is None else env
    if "NO_COLOR" in env:                      # https://no-color.org: present = no colours, whatever its value
        return False
    if env.get("TERM", "") == "dumb":
        return False
    return is_tty(stream)


def detect_style(stream, force_ascii: bool = False, color: bool | None = None, env=None,
                 sample: str = UNICODE_SAMPLE) -> Style:
    unicode = not force_ascii and can_encode(stream, sample)
    return Style(unicode=unicode, color=colours_wanted(stream, env) if color is None else color)


def char_width(c: str) -> int:
    if unicodedata.combining(c):
        return 0
    return 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1


def text_width(text: str) -> int:
    """Columns a string takes on screen (ANSI sequences not allowed here)."""
    return sum(char_width(c) for c in text)


def pad(text: str, width: int) -> str:
    """Left-justify to ``width`` columns, counting wide characters as two."""
    return text + " " * max(0, width - text_width(text))
