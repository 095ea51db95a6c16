"""Xiangqi PGN as XQWizard, ElephantEye and the xqbase.com convention write it.

    [Game "Chinese Chess"]           first tag, always
    [Event "…"] [Site "…"] [Date "yyyy.mm.dd"] [Round "…"] [Red "…"] [Black "…"] [Result "1-0"]
    [FEN "…"]                        only when the game does not start from the initial position
    [Format "ICCS"]                  moves are ICCS coordinates, written H2-E2
    1. H2-E2 H9-G7 2. …  {comment} 1-0

Results are red first ("1-0" = red won).  A game that starts with black to move begins with ``N. ...``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..files import clip
from ..xiangqi.constants import START_FEN

TAG_ORDER = ("Game", "Event", "Site", "Date", "Round", "Red", "Black", "Result", "FEN", "Format")


@dataclass
class PgnGame:
    tags: dict[str, str] = field(default_factory=dict)
    moves: list[str] = field(default_factory=list)        # ICCS, lower case: h2e2
    comment: str = ""                                     # the final comment (how the game ended)
    result: str = "*"

    @property
    def fen(self) -> str:
        return self.tags.get("FEN", START_FEN)


def iccs_upper(move: str) -> str:
    """h2e2 -> H2-E2"""
    return f"{move[:2].upper()}-{move[2:].upper()}"


def _escape(v: str) -> str:
    return str(v).replace("\\", "\\\\").replace('"', '\\"')


def format_record(tags: dict, fen: str, moves: list[str], comment: str = "", result: str = "*") -> str:
    """One game as PGN text from its ``tags``, start ``fen``, ICCS ``moves``, final ``comment`` and ``result``:
    the interface of every game's PGN module (``Game.pgn()``, engine.match.chess_pgn for chess)."""
    return format_game(PgnGame({**tags, "FEN": fen}, list(moves), comment, result))


def format_game(game: PgnGame, width: int = 80) -> str:
    tags = dict(game.tags)
    tags["Game"] = "Chinese Chess"
    tags["Result"] = game.result
    tags["Format"] = "ICCS"
    fen = tags.get("FEN")
    if fen is None or fen == START_FEN:
        tags.pop("FEN", None)
    lines = [f'[{k} "{_escape(tags[k])}"]' for k in TAG_ORDER if k in tags]
    lines += [f'[{k} "{_escape(v)}"]' for k, v in tags.items() if k not in TAG_ORDER]
    lines.append("")

    fields = (fen or START_FEN).split()
    black_first = len(fields) > 1 and fields[1] == "b"
    number = int(fields[5]) if len(fields) > 5 and fields[5].isdigit() and int(fields[5]) > 0 else 1
    tokens = []
    red_turn = not black_first
    for i, m in enumerate(game.moves):
        if red_turn:
            tokens.append(f"{number}.")
        elif i == 0:
            tokens.append(f"{number}. ...")
        tokens.append(iccs_upper(m))
        if not red_turn:
            number += 1
        red_turn = not red_turn
    if game.comment:
        tokens.append("{" + game.comment.replace("}", ")") + "}")
    tokens.append(game.result)

    out, line = [], ""
    for tok in tokens:
        if line and len(line) + 1 + len(tok) > width:
            out.append(line)
            line = tok
        else:
            line = f"{line} {tok}" if line else tok
    if line:
        out.append(line)
    return "\n".join(lines + out) + "\n\n"


_TAG_RE = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
# One pass over the text: a comment never closed runs to the end (as python-chess reads it) rather than being
# looked for again from every later '{' -- which made 160 KB of '{ ' take 13 s.
_TOKEN_RE = re.compile(r'\{[^}]*\}?|;[^\n]*|\S+')
_RESULTS = ("1-0", "0-1", "1/2-1/2", "*")


def parse_pgn(text: str) -> list[PgnGame]:
    """Read the games of a PGN text written by this module (or any ICCS-format xiangqi PGN)."""
    games: list[PgnGame] = []
    game: PgnGame | None = None
    body: list[str] = []

    def finish():
        nonlocal game, body
        if game is None:
            return
        for tok in _TOKEN_RE.findall("\n".join(body)):
            if tok.startswith("{"):
                game.comment = tok[1:].removesuffix("}").strip()
            elif tok.startswith(";") or tok.endswith(".") or tok == "...":
                continue
            elif tok in _RESULTS:
                game.result = tok
            elif re.fullmatch(r"\d+\.(\.\.)?", tok):
                continue
            else:
                m = re.fullmatch(r"(?:\d+\.+)?([A-Ia-i]\d)-?([A-Ia-i]\d)", tok)
                if not m:
                    raise ValueError(f"PGN: cannot read move {clip(tok, 30)!r}")
                game.moves.append((m.group(1) + m.group(2)).lower())
        games.append(game)
        game, body = None, []

    for line in text.splitlines():
        m = _TAG_RE.match(line.strip())
        if m:
            if game is not None and body:
                finish()
            if game is None:
                game = PgnGame()
            game.tags[m.group(1)] = re.sub(r"\\(.)", r"\1", m.group(2))
        elif line.strip():
            if game is None:
                game = PgnGame()
            body.append(line)
    finish()
    return games


def read_games(text: str) -> list[PgnGame]:
    """Every game of a PGN text, each with ``fen`` and ``moves`` (ICCS): the reader every game's PGN module
    has (``Game.pgn()``; engine.match.chess_pgn for chess), as ``shuai book build`` reads a collection."""
    return parse_pgn(text)
