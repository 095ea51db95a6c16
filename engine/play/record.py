"""The record of a terminal game: the position, the moves played with their names, the result.

:class:`Record` is what every game's record does alike (taking back, the end of the game, replaying a loaded
game, the words for a result); :class:`XiangqiRecord` keeps a xiangqi game, engine.play.chess_record's
``ChessRecord`` a chess game, with one interface, so that the session (engine.play.session) drives both alike.

Xiangqi game ends are judged by engine.xiangqi.rules only (checkmate, stalemate, 60-move rule, material,
repetition); resignation and agreed draws are recorded with :meth:`Record.finish`.  Xiangqi games are saved and
loaded as xiangqi PGN through engine.match.pgn (the format XQWizard reads), or set up from a FEN.
"""
from __future__ import annotations

import datetime

from ..files import clip
from ..match.pgn import PgnGame, format_game, parse_pgn
from ..xiangqi.position import Position, START_FEN
from ..xiangqi.rules import game_result
from ..xiangqi.wxf import MoveName, MoveNames

RESULT_CHINESE = {"1-0": "红胜", "0-1": "黑胜", "1/2-1/2": "和棋"}
MAX_REPLAY_PLIES = 2000     # a loaded game longer than this is refused: the longest real games have about 600
                            # plies, and each move replayed costs about 0.4 ms (all the legal moves are named)


class Record:
    """A game record's shared part.  A game's record sets ``START_FEN``, ``REASON_TEXT`` and ``RESULT_TEXT``
    and defines ``reset``, ``name`` (a legal move with its names), ``_push`` and ``_pop`` (a move on and off
    its boards), ``_judge`` (the rules: (result, reason) or None) and the queries of its game."""
    START_FEN = ""
    REASON_TEXT = {"resignation": "resignation", "agreement": "agreed by both players"}
    RESULT_TEXT: dict = {}

    def __init__(self, fen: str | None = None):
        self.reset(fen or self.START_FEN)

    @property
    def last_move(self):
        return self.played[-1].move if self.played else None

    def play(self, move):
        """Play a legal move; returns it with its names."""
        played = self.name(move)
        self._push(move, played)
        self.played.append(played)
        return played

    def take_back(self):
        played = self.played.pop()
        self._pop()
        self.ended = None
        return played

    def check_end(self) -> tuple[str, str] | None:
        """Ask the rules whether the game is over now; remember and return (result, reason)."""
        if self.ended is None:
            self.ended = self._judge()
        return self.ended

    def finish(self, result: str, reason: str) -> None:
        """End the game by resignation or agreement."""
        self.ended = (result, reason)

    @classmethod
    def describe(cls, result: str, reason: str) -> str:
        """'Black wins by checkmate', 'Draw (stalemate)' … for the announcement and the PGN comment."""
        why = cls.REASON_TEXT.get(reason, reason)
        if result == "1/2-1/2":
            return f"Draw ({why})"
        return f"{cls.RESULT_TEXT.get(result, result)} by {why}"

    def _replay(self, record, parse):
        """Replace this game by a loaded one: ``record``'s start FEN, moves, result and comment, each move read
        by ``parse(replay, text)``; ValueError (nothing changed) if a move cannot be played."""
        if len(record.moves) > MAX_REPLAY_PLIES:
            raise ValueError(f"more moves than any real game (load replays at most {MAX_REPLAY_PLIES:,} plies)")
        replay = type(self)(record.fen)
        for i, text in enumerate(record.moves):
            try:
                replay.play(parse(replay, text))
            except ValueError as e:
                raise ValueError(f"move {i + 1} ({clip(text, 20)}) cannot be played: {e}") from None
        replay.recorded_result, replay.recorded_comment = record.result, record.comment
        self.__dict__.update(replay.__dict__)
        self.check_end()
        return record


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
