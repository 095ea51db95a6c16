"""The record of a terminal game: the position, the moves played with their names, the result.

:class:`Record` is what every game's record does alike (taking back, the end of the game, replaying a loaded
game, the words for a result); engine.play.xiangqi_record's ``XiangqiRecord`` keeps a xiangqi game,
engine.play.chess_record's ``ChessRecord`` a chess game, with one interface, so that the session
(engine.play.session) drives both alike.  Resignation and agreed draws are recorded with :meth:`Record.finish`.
"""
from __future__ import annotations

from ..files import clip

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
