"""One refereed game between two started engines (:func:`play_game`), and each game's referee.

A game's referee (``Game.Referee``: :class:`XiangqiReferee` with engine.xiangqi.position and
engine.xiangqi.rules, :class:`ChessReferee` with a python-chess board and engine.match.chess_rules) keeps the
position and the rules; it also checks the openings (``opening``) and finds the moves that lead to one
(``path_from_start``).  :func:`play_game` keeps the clocks and ends the game with a loss for an engine that
plays an illegal move, resigns, oversteps its time, crashes or hangs, and, where the options ask for it, by the
engines' scores (engine.match.adjudication: a draw both call level, a loss one calls lost).  Timing: a move may
take the time available (the fixed time per move, or what is left on the clock) plus a grace of ``margin`` +
10 % of the nominal time per move (the fixed time, or the increment); later is a time forfeit.  When that
deadline passes the engine is told to stop (``stop`` / ``?``); if it still says nothing within ``hang_timeout``
seconds it is "engine hung" and is killed (the runner restarts it).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..files import clip
from ..game import DEFAULT, game_named
from .adjudication import Adjudicator, DrawRule, ResignRule
from .engines import RESIGN, Clocks, Engine, EngineError, EngineHung, GameSetup, TimeControl
from .openings import Opening, find_path


@dataclass
class GameOptions:
    tc: TimeControl
    margin: float = 0.05              # seconds of grace on top of the available time …
    margin_fraction: float = 0.10     # … plus this fraction of the nominal time per move
    hang_timeout: float = 2.0         # after the deadline and a stop request, wait this long for any move
    max_plies: int = 0                # 0 = no limit; else a draw ("max plies") after this many plies
    draw: DrawRule | None = None      # adjudication by the engines' scores (None: none)
    resign: ResignRule | None = None
    game: str = DEFAULT.name          # a Game name


@dataclass
class GameRecord:
    red: str                                            # the side that moves first (White in chess)
    black: str
    opening: Opening
    moves: list[str] = field(default_factory=list)      # ICCS (chess: UCI), book moves of the opening included
    result: str = "*"                                   # red (white) first
    reason: str = ""
    detail: str = ""                                    # a sentence for the PGN comment
    times: list[float] = field(default_factory=list)    # seconds per engine move
    loser_side: int | None = None                       # 0 red / 1 black, when an engine failed

    @property
    def plies(self) -> int:
        return len(self.moves)


def _loss_result(side: int) -> str:
    return "0-1" if side == 0 else "1-0"


class IllegalReply(ValueError):
    """An engine's reply that is not a legal move."""


class XiangqiReferee:
    """The position and the rules of a xiangqi game: engine.xiangqi.position and engine.xiangqi.rules."""

    def __init__(self, fen: str, moves=()):
        from ..xiangqi.position import Position
        from ..xiangqi.rules import game_result
        self._game_result = game_result
        self.pos = Position(fen)
        for m in moves:
            self.pos.push(m)

    @staticmethod
    def opening(fen: str, moves: tuple) -> tuple[str, tuple]:
        """An opening's (FEN, ICCS moves) in normal form; ValueError (IllegalMoveError naming the bad move,
        FenError) if it is not a legal xiangqi position and line."""
        from ..xiangqi.position import START_FEN, Position
        if fen != START_FEN:
            fen = Position(fen).fen()                          # validates; normal form
        if moves:
            XiangqiReferee(fen, moves)
        return fen, moves

    @staticmethod
    def path_from_start(fen: str, max_plies: int = 8) -> list[str] | None:
        """ICCS moves from the initial position to ``fen`` (same pieces on the same squares, same side to move),
        or None (:func:`engine.match.openings.find_path`)."""
        import numpy as np
        from ..xiangqi.position import Position
        target = Position(fen)
        goal = target.board.copy()
        pos = Position()
        return find_path(pos, pos.legal_move_names, lambda: int(np.count_nonzero(pos.board != goal)),
                         lambda: pos.side == target.side, target.ply_base, target.side, max_plies)

    @property
    def side(self) -> int:
        return self.pos.side

    def play(self, reply: str) -> str:
        """Play an engine's reply; returns the move as the record writes it (IllegalReply if it is none)."""
        from ..xiangqi.position import IllegalMoveError
        try:
            self.pos.push(reply)
        except IllegalMoveError as e:
            raise IllegalReply(str(e)) from None
        return reply

    def result(self):
        return self._game_result(self.pos)


class ChessReferee:
    """The position and the rules of a chess game: a python-chess board and engine.match.chess_rules."""

    def __init__(self, fen: str, moves=()):
        from .chess_rules import start_board
        self.board = start_board(fen)
        for m in moves:
            self.board.push_uci(m)

    @staticmethod
    def opening(fen: str, moves: tuple) -> tuple[str, tuple]:
        """An opening's (FEN, UCI moves) in python-chess's normal form; ValueError if it is not a legal chess
        position and line."""
        from .chess_rules import start_board
        board = start_board(fen)                               # validates (ValueError)
        fen = board.fen()                                      # normal form
        played = []
        for m in moves:
            try:
                move = board.parse_uci(m)
            except ValueError:
                raise ValueError(f"illegal move {clip(m, 20)!r} in {board.fen()}") from None
            board.push(move)
            played.append(move.uci())
        return fen, tuple(played)

    @staticmethod
    def path_from_start(fen: str, max_plies: int = 8) -> list[str] | None:
        from .chess_rules import path_from_start
        return path_from_start(fen, max_plies)

    @property
    def side(self) -> int:
        return 0 if self.board.turn else 1

    def play(self, reply: str) -> str:
        from .chess_rules import parse_engine_move
        try:
            move = parse_engine_move(self.board, reply)
        except ValueError as e:
            raise IllegalReply(str(e)) from None
        self.board.push(move)
        return move.uci()

    def result(self):
        from .chess_rules import game_result
        return game_result(self.board)


def side_tc(engine, default: TimeControl) -> TimeControl:
    """The time control an engine plays under: its spec's own (``tc=``, time odds), else the match's."""
    spec = getattr(engine, "spec", None)
    return getattr(spec, "tc", None) or default


def play_game(red: Engine, black: Engine, opening: Opening, opts: GameOptions, path=None,
              red_name: str | None = None, black_name: str | None = None) -> GameRecord:
    """Play one game; engines must be started.  ``path`` (a callable) gives the moves from the initial position
    to the opening's FEN for engines that cannot set up a position."""
    engines = (red, black)
    names = (red_name or red.name, black_name or black.name)
    rec = GameRecord(names[0], names[1], opening, list(opening.moves))

    def lose(side: int, reason: str, detail: str = "") -> GameRecord:
        rec.result, rec.reason, rec.loser_side = _loss_result(side), reason, side
        rec.detail = detail or f"{names[side]}: {reason}"
        return rec

    setup = GameSetup(opening.fen, path)
    tcs = [side_tc(eng, opts.tc) for eng in engines]         # time odds: an engine's own tc= in its spec
    for side, eng in enumerate(engines):
        try:
            eng.new_game(setup, tcs[side])
        except EngineError as e:
            return lose(side, e.reason, f"{names[side]}: {e}")

    referee = game_named(opts.game).referee(opening.fen, opening.moves)
    over = referee.result()
    if over:
        rec.result, rec.reason = over
        return rec

    judge = Adjudicator(opts.draw, opts.resign) if opts.draw or opts.resign else None
    grace = [opts.margin + opts.margin_fraction * tc.nominal for tc in tcs]
    clock = [tc.base for tc in tcs]
    book = len(opening.moves)
    while True:
        if opts.max_plies and len(rec.moves) - book >= opts.max_plies:
            rec.result, rec.reason = "1/2-1/2", "max plies"
            rec.detail = f"adjudicated a draw after {opts.max_plies} plies"
            return rec
        side = referee.side
        eng, tc = engines[side], tcs[side]
        available = tc.movetime if tc.fixed else clock[side]
        late = False
        try:
            t0 = eng.go(opening.fen, rec.moves, Clocks(tc, clock[side], clock[1 - side], side == 0, tcs[1 - side]))
            got = eng.read_move(t0 + available + grace[side])
            if got is None:
                late = True
                eng.stop()
                got = eng.read_move(time.monotonic() + opts.hang_timeout)
                if got is None:
                    eng.kill()
                    raise EngineHung(f"no move {available + grace[side] + opts.hang_timeout:.2f} s after 'go'")
        except EngineError as e:
            return lose(side, e.reason, f"{names[side]}: {e.reason} ({e})")
        t_reply, reply = got
        elapsed = t_reply - t0
        if late or elapsed > available + grace[side]:
            return lose(side, "time forfeit",
                        f"{names[side]} lost on time ({elapsed:.3f} s used, {available:.3f} s available)")
        if reply == RESIGN:
            return lose(side, "resignation", f"{names[side]} resigns")
        try:
            move = referee.play(reply)
        except IllegalReply:
            return lose(side, "illegal move", f"{names[side]} played an illegal move: {reply}")
        eng.move_played()
        rec.moves.append(move)
        rec.times.append(elapsed)
        if not tc.fixed:
            clock[side] = max(0.0, clock[side] - elapsed) + tc.inc
        over = referee.result()
        if over:
            rec.result, rec.reason = over
            return rec
        verdict = judge.add(side, eng.last_score, len(rec.moves)) if judge else None
        if verdict:
            kind, loser, why = verdict
            if kind == "loss":
                return lose(loser, "adjudication", f"{names[loser]} {why}: adjudicated a loss")
            rec.result, rec.reason, rec.detail = "1/2-1/2", "adjudication", f"adjudicated a draw: {why}"
            return rec
