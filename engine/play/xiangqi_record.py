"""The record of a terminal game of xiangqi (``XiangqiRecord``): the position, the moves with their names
(coordinates, Chinese, WXF: engine.xiangqi.wxf), the result.

Game ends are judged by engine.xiangqi.rules only (checkmate, stalemate, 60-move rule, material, repetition);
games are saved and loaded as xiangqi PGN through engine.match.xiangqi_pgn (the format XQWizard reads), or set
up from a FEN.  What every game's record does alike is engine.play.record's ``Record``.
"""
from __future__ import annotations

import datetime

from ..match.xiangqi_pgn import PgnGame, format_game, parse_pgn
from ..xiangqi.position import Position, START_FEN
from ..xiangqi.rules import game_result
from ..xiangqi.wxf import MoveName, MoveNames
from .record import Record


class XiangqiRecord(Record):
    START_FEN = START_FEN
    REASON_TEXT = {
        "checkmate": "checkmate",
        "stalemate": "no legal move (stalemate loses in xiangqi)",
        "60-move": "60 moves without a capture",
        "material": "neither side has a piece that can mate",
        "repetition": "repetition",
        **Record.REASON_TEXT,
    }
    RESULT_TEXT = {"1-0": "Red wins", "0-1": "Black wins", "1/2-1/2": "Draw"}

    def reset(self, fen: str = START_FEN) -> None:
        """A new game from ``fen``; FenError (and nothing changed) if the FEN is bad."""
        pos = Position(fen)
        self.start_fen = pos.fen()
        self.pos = pos
        self.played: list[MoveName] = []                # the moves played, with their names and who played them
        self.ended: tuple[str, str] | None = None       # (result, reason)
        self._names: MoveNames | None = None
        self.recorded_result: str | None = None         # what a loaded PGN said (its Result, final comment)
        self.recorded_comment: str = ""

    # -- queries ----------------------------------------------------------------------------------------------
    @property
    def side(self) -> int:
        return self.pos.side

    @property
    def names(self) -> MoveNames:
        """Names of the legal moves in the current position (cached until the position changes)."""
        if self._names is None:
            self._names = MoveNames.of(self.pos)
        return self._names

    def king_in_check(self) -> int | None:
        """The square of the side to move's general if it is in check."""
        if not self.pos.in_check():
            return None
        king = self.side * 8 + 1
        for sq in range(90):
            if int(self.pos.board[sq]) == king:
                return sq
        return None

    def in_check(self) -> bool:
        return self.pos.in_check()

    def fen(self) -> str:
        return self.pos.fen()

    def has_legal_moves(self) -> bool:
        return len(self.names.names) > 0

    def legal_moves(self) -> list[MoveName]:
        """The legal moves with their names, in ICCS order."""
        return sorted(self.names.names, key=lambda n: n.iccs)

    def name(self, move: int) -> MoveName:
        """The names of a legal move (Chinese, WXF, ICCS)."""
        return self.names.name(move)

    def parse(self, text: str) -> int:
        """Any notation -> legal move (engine.xiangqi.wxf.MoveParseError otherwise)."""
        return self.names.parse(text)

    def start_number(self) -> int:
        fields = self.start_fen.split()
        return int(fields[5]) if len(fields) > 5 and fields[5].isdigit() and int(fields[5]) > 0 else 1

    # -- playing ----------------------------------------------------------------------------------------------
    def _push(self, move: int, played: MoveName) -> None:
        self.pos.push(move)
        self._names = None

    def _pop(self) -> None:
        self.pos.pop()
        self._names = None

    def _judge(self):
        return game_result(self.pos)

    def names_of_line(self, moves: list[str], chinese: bool = True) -> list[str]:
        """Names of a line of coordinate moves (a PV) played from the current position."""
        pos = self.pos.copy()
        out = []
        for text in moves:
            names = MoveNames.of(pos)
            try:
                move = names.parse(text)
            except ValueError:
                break
            n = names.name(move)
            out.append(n.chinese if chinese else n.wxf)
            pos.push(move)
        return out

    # -- files ------------------------------------------------------------------------------------------------
    def to_pgn(self, red: str, black: str, event: str = "Shuai terminal game") -> str:
        result, reason = self.ended or ("*", "")
        tags = {"Event": event, "Date": datetime.date.today().strftime("%Y.%m.%d"), "Red": red,
                "Black": black}
        if self.start_fen != Position().fen():
            tags["FEN"] = self.start_fen
        comment = ""
        if self.ended:
            comment = self.describe(result, reason)
        return format_game(PgnGame(tags, [p.iccs for p in self.played], comment, result))

    def load_pgn(self, text: str) -> PgnGame:
        """Replace this game by the first game of a PGN text; ValueError (nothing changed) if it cannot be read
        or a move is illegal."""
        games = parse_pgn(text)
        if not games:
            raise ValueError("no game in that file")
        return self._replay(games[0], lambda replay, iccs: replay.parse(iccs))
