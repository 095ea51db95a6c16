"""The record of a terminal game of chess: the moves played with their names, the result.

python-chess keeps the game (``chess.Board``): it reads and writes SAN, judges the game's end
(engine.match.chess_rules: checkmate, stalemate, insufficient material, the 50-move rule, threefold repetition)
and saves and loads PGN (engine.match.chess_pgn).  The engine's own ``Position`` (engine.chess.position), which
its search needs, is built from the start FEN and the moves when asked for.  Resignation and agreed draws are
recorded with :meth:`Record.finish`.  The interface and the shared part are engine.play.record's ``Record``, so
that the session drives both games alike.
"""
from __future__ import annotations

import datetime
import re
from dataclasses import dataclass

import chess

from ..match import chess_pgn
from ..match.chess_rules import game_result, parse_coordinates, start_board
from .record import MAX_REPLAY_PLIES, Record

_CASTLING = re.compile(r"[oO0]-[oO0](-[oO0])?[+#]?")


class ChessMoveError(ValueError):
    """Input that is not a legal move here: garbage, illegal or ambiguous.  The message says which."""


class ChessFenError(ValueError):
    """A FEN that is not a legal chess position (the message says why)."""


@dataclass(eq=False)
class ChessMove:
    """A move with its names: ``san`` (Nf3, O-O, exd5, e8=Q+), ``uci`` (g1f3) and who played it."""
    move: chess.Move
    san: str
    uci: str
    side: int                       # 0 White, 1 Black


def check_fen(fen: str) -> str:
    """The FEN in normal form if both the engine and python-chess take it as a standard chess position;
    ChessFenError (the engine's reason, else python-chess's) otherwise."""
    from ..chess.position import Position
    try:
        Position(fen)
        return start_board(fen).fen()
    except ValueError as e:
        raise ChessFenError(str(e)) from None


class ChessRecord(Record):
    START_FEN = chess.STARTING_FEN
    REASON_TEXT = {
        "checkmate": "checkmate",
        "stalemate": "stalemate",
        "insufficient material": "insufficient material",
        "50-move": "the 50-move rule",
        "75-move": "the 75-move rule",
        "repetition": "threefold repetition",
        "fivefold repetition": "fivefold repetition",
        **Record.REASON_TEXT,
    }
    RESULT_TEXT = {"1-0": "White wins", "0-1": "Black wins", "1/2-1/2": "Draw"}

    def reset(self, fen: str = chess.STARTING_FEN) -> None:
        """A new game from ``fen``; ChessFenError (and nothing changed) if the FEN is bad."""
        normal = check_fen(fen)
        self.start_fen = normal
        self.board = chess.Board(normal)
        self.played: list[ChessMove] = []
        self.ended: tuple[str, str] | None = None       # (result, reason)
        self.recorded_result: str | None = None         # what a loaded PGN said (its Result, final comment)
        self.recorded_comment: str = ""
        self._pos = None

    # -- queries ----------------------------------------------------------------------------------------------
    @property
    def side(self) -> int:
        return 0 if self.board.turn == chess.WHITE else 1

    @property
    def pos(self):
        """The engine's Position (engine.chess.position) of the game so far, for its search."""
        if self._pos is None:
            from ..chess.position import Position
            pos = Position(self.start_fen)
            for p in self.played:
                pos.push(p.uci)
            self._pos = pos
        return self._pos

    def in_check(self) -> bool:
        return self.board.is_check()

    def king_in_check(self) -> int | None:
        """The square (python-chess numbering) of the side to move's king if it is in check."""
        return self.board.king(self.board.turn) if self.board.is_check() else None

    def fen(self) -> str:
        return self.board.fen()

    def has_legal_moves(self) -> bool:
        return any(True for _ in self.board.legal_moves)

    def legal_moves(self) -> list[ChessMove]:
        """The legal moves with their names, in SAN order."""
        return sorted((self.name(m) for m in self.board.legal_moves), key=lambda n: n.san)

    def name(self, move: chess.Move) -> ChessMove:
        return ChessMove(move, self.board.san(move), move.uci(), self.side)

    def parse(self, text: str) -> chess.Move:
        """SAN (Nf3, O-O, exd5, e8=Q; piece letters may be lower case where that is not a pawn move) or
        coordinates (g1f3, e2-e4, e7e8q) -> legal move (ChessMoveError otherwise)."""
        raw = text.strip()
        if not raw:
            raise ChessMoveError("empty move")
        board = self.board
        try:
            move = parse_coordinates(board, raw)
        except ValueError:
            raise ChessMoveError(f"{raw} is not a legal move here") from None
        if move is not None:
            return move
        tries = [raw]
        if _CASTLING.fullmatch(raw):
            tries = [raw.upper().replace("0", "O")]
        elif raw[0] in "nbrqk":
            tries.append(raw[0].upper() + raw[1:])          # nf3 -> Nf3 (bxc3 stays a pawn capture if legal)
        error = None
        for san in tries:
            try:
                move = board.parse_san(san)
            except chess.AmbiguousMoveError:
                raise ChessMoveError(f"{raw} is ambiguous: {self._candidates(san)}") from None
            except chess.IllegalMoveError:
                error = error or ChessMoveError(f"{raw} is not a legal move here")
                continue
            except ValueError:
                continue
            if move:                                        # "--" would be python-chess's null move
                return move
        if error is not None:
            raise error
        raise ChessMoveError(f"cannot read {raw!r} as a move: type SAN (Nf3, O-O, exd5, e8=Q) or "
                             f"coordinates (g1f3, e7e8q)")

    def _candidates(self, san: str) -> str:
        """The moves an ambiguous SAN may mean: 'Nbd2 or Nfd2'."""
        squares = re.findall(r"[a-h][1-8]", san)
        kind = chess.PIECE_SYMBOLS.index(san[0].lower()) if san[0] in "NBRQK" else chess.PAWN
        names = sorted(self.board.san(m) for m in self.board.legal_moves
                       if squares and chess.square_name(m.to_square) == squares[-1]
                       and self.board.piece_type_at(m.from_square) == kind)
        return " or ".join(names) if names else "say which piece moves (e.g. Nbd2)"

    def start_number(self) -> int:
        return chess.Board(self.start_fen).fullmove_number

    # -- playing ----------------------------------------------------------------------------------------------
    def _push(self, move: chess.Move, played: ChessMove) -> None:
        self.board.push(move)
        if self._pos is not None:
            self._pos.push(played.uci)

    def _pop(self) -> None:
        self.board.pop()
        self._pos = None

    def _judge(self):
        return game_result(self.board)

    def names_of_line(self, moves: list[str], unicode: bool = True) -> list[str]:
        """SAN of a line of UCI moves (a PV) played from the current position."""
        board = self.board.copy(stack=False)
        out = []
        for text in moves:
            try:
                move = board.parse_uci(text)
            except ValueError:
                break
            out.append(board.san(move))
            board.push(move)
        return out

    # -- files ------------------------------------------------------------------------------------------------
    def to_pgn(self, white: str, black: str, event: str = "Shuai terminal game") -> str:
        result, reason = self.ended or ("*", "")
        tags = {"Event": event, "Site": "?", "Date": datetime.date.today().strftime("%Y.%m.%d"), "Round": "-",
                "White": white, "Black": black}
        comment = self.describe(result, reason) if self.ended else ""
        return chess_pgn.format_record(tags, self.start_fen, [p.uci for p in self.played], comment, result)

    def load_pgn(self, text: str):
        """Replace this game by the first game of a PGN text; ValueError (nothing changed) if it cannot be read,
        is not standard chess, or a move is illegal."""
        record = chess_pgn.read_game(text, max_moves=MAX_REPLAY_PLIES + 1)     # one more: _replay refuses it
        if record is None:
            raise ValueError("no game in that file")
        return self._replay(record, lambda replay, uci: replay.board.parse_uci(uci))
