"""Adjudication by the engines' own scores, as cutechess-cli's ``-draw`` and ``-resign`` do it: a game both
engines have called level for long enough is a draw; one an engine has called lost for long enough is its loss.
What it saves is the endings whose result is no longer in doubt -- at 2 s + 0.02 s a xiangqi game drawn by the
60-move rule runs some 300 plies at the increment's pace.

The score of a move is the mover's last exact score of its search (UCI ``score cp``/``score mate``, UCCI's bare
``score``, xboard's thinking output: ``score_of_info``, ``score_of_thinking``), in centipawns from its own side; a
mate counts as ``MATE_CP`` less its distance. A move without one (an engine that prints none, a bound only)
breaks every run of scores, so nothing is adjudicated on scores not seen.
"""
from __future__ import annotations

from dataclasses import dataclass

MATE_CP = 100_000               # a mate in n, in centipawns: MATE_CP - n (its sign the winner's)


def _rule_words(text: str, names: tuple[str, ...], what: str) -> dict[str, str]:
    """``name=value`` words (spaces or commas between) of a rule, each of ``names`` at most once."""
    got: dict[str, str] = {}
    for word in text.replace(",", " ").split():
        key, eq, value = word.partition("=")
        if not eq or key not in names or key in got:
            raise ValueError(f"bad {what} rule word {word[:40]!r}: expected {', '.join(n + '=' for n in names)}")
        got[key] = value
    return got


def _count(value: str | None, key: str, what: str, least: int) -> int:
    if value is None or not value.lstrip("-").isdigit() or int(value) < least:
        raise ValueError(f"{what} rule needs {key}= a whole number of at least {least}")
    return int(value)


@dataclass(frozen=True)
class DrawRule:
    """A draw once ``movenumber`` full moves are played and both engines' scores have stayed within
    ``score`` centipawns of zero for ``movecount`` consecutive moves each."""
    movenumber: int
    movecount: int
    score: int

    @classmethod
    def parse(cls, text: str) -> "DrawRule":
        """``movenumber=40 movecount=8 score=10`` (cutechess-cli's words)."""
        w = _rule_words(text, ("movenumber", "movecount", "score"), "draw")
        return cls(_count(w.get("movenumber"), "movenumber", "draw", 0),
                   _count(w.get("movecount"), "movecount", "draw", 1), _count(w.get("score"), "score", "draw", 0))

    def __str__(self) -> str:
        return f"movenumber={self.movenumber} movecount={self.movecount} score={self.score}"


@dataclass(frozen=True)
class ResignRule:
    """A loss for the engine whose score has been at least ``score`` centipawns below zero for ``movecount``
    consecutive moves of its own; ``twosided``: only while its opponent's has been as far above zero."""
    movecount: int
    score: int
    twosided: bool = False

    @classmethod
    def parse(cls, text: str) -> "ResignRule":
        """``movecount=3 score=700 [twosided=true]`` (cutechess-cli's words)."""
        w = _rule_words(text, ("movecount", "score", "twosided"), "resign")
        two = w.get("twosided", "false").lower()
        if two not in ("true", "false"):
            raise ValueError("resign rule's twosided= is true or false")
        return cls(_count(w.get("movecount"), "movecount", "resign", 1), _count(w.get("score"), "score", "resign", 1),
                   two == "true")

    def __str__(self) -> str:
        return f"movecount={self.movecount} score={self.score}" + (" twosided=true" if self.twosided else "")


class Adjudicator:
    """One game's runs of scores: ``add`` each move's score as it is played; it answers a verdict when a rule
    is met."""

    def __init__(self, draw: DrawRule | None, resign: ResignRule | None):
        self.draw, self.resign = draw, resign
        self.level = 0                  # consecutive moves (both sides') scored within the draw rule's band
        self.low = [0, 0]               # per side: its consecutive moves scored at or below -resign.score
        self.high = [0, 0]              # ... at or above +resign.score

    def add(self, side: int, score: int | None, plies: int) -> tuple[str, int | None, str] | None:
        """The move of ``side`` (0: the side that moves first) scored ``score`` (None: no score), the game now
        ``plies`` plies long: None, or ("draw", None, detail) or ("loss", the losing side, detail)."""
        if self.draw is not None:
            self.level = self.level + 1 if score is not None and abs(score) <= self.draw.score else 0
            if self.level >= 2 * self.draw.movecount and plies // 2 >= self.draw.movenumber:
                return "draw", None, f"both scores within {self.draw.score} cp for {self.draw.movecount} moves"
        if self.resign is not None:
            cut = self.resign.score
            self.low[side] = self.low[side] + 1 if score is not None and score <= -cut else 0
            self.high[side] = self.high[side] + 1 if score is not None and score >= cut else 0
            for loser in (side, 1 - side):
                if self.low[loser] >= self.resign.movecount and (
                        not self.resign.twosided or self.high[1 - loser] >= self.resign.movecount):
                    both = f", its opponent {cut} cp or more" if self.resign.twosided else ""
                    return "loss", loser, f"scored -{cut} cp or less for {self.resign.movecount} moves{both}"
        return None


def score_of_info(words: list[str]) -> int | None:
    """The exact score of a UCI or UCCI ``info`` line's words (``score cp N``, ``score mate N``, UCCI's
    ``score N``), or None: none there, or only a bound."""
    try:
        at = words.index("score")
        kind = words[at + 1]
        if kind in ("cp", "mate"):
            value, rest = int(words[at + 2]), words[at + 3:at + 4]
            if kind == "mate":
                value = MATE_CP - abs(value) if value > 0 else -(MATE_CP - abs(value))
        else:
            value, rest = int(kind), words[at + 2:at + 3]
    except (ValueError, IndexError):
        return None
    return None if rest and rest[0] in ("lowerbound", "upperbound") else value


def score_of_thinking(words: list[str]) -> int | None:
    """The score of an xboard thinking line (``depth score time nodes pv...``), or None where the words are not
    one.  Mates, which xboard engines write as large numbers of their own choosing, come out as such."""
    if len(words) < 4 or not words[0].rstrip(".&").isdigit():
        return None
    try:
        int(words[2]), int(words[3])
        return int(words[1])
    except ValueError:
        return None
