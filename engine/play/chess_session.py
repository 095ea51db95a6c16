"""The terminal game of chess: the xiangqi session's loop and commands (engine.play.session) with the chess
record (engine.play.chess_game), board (engine.play.chess_view) and texts.

Moves are typed in SAN (``Nf3``, ``O-O``, ``exd5``, ``e8=Q``) or coordinates (``g1f3``, ``e7e8q``) and shown in
SAN with the coordinates beside them; games are saved and loaded as standard PGN.
"""
from __future__ import annotations

import shutil

from . import chess_view
from .chess_game import SIDE_NAMES, START_FEN, ChessFenError, ChessGame, ChessMoveError, describe_result
from .session import Session
from .terminal import pad, text_width

HELP = """\
Moves, in either notation:
  SAN           e4  Nf3  exd5  Nbd2  O-O  O-O-O  e8=Q   (standard algebraic notation)
  coordinates   e2e4  g1f3  e1g1  e7e8q                 (from-square, to-square, promotion piece)
Commands:
  undo          take back your last move and the engine's reply
  hint          the engine suggests a move
  moves         list your legal moves
  draw          offer a draw (the engine accepts if it does not think it is better)
  resign        give up this game
  new           start a new game (same sides, same start position)
  save FILE     save the game as PGN
  load FILE     load a PGN game, or: load FEN  to set up a position
  fen           print the position as FEN
  flip          turn the board round
  board         show the board again
  help          this text
  quit          leave"""


class ChessSession(Session):
    game_name = "chess"
    side_names = SIDE_NAMES
    move_error = ChessMoveError
    fen_error = ChessFenError

    def initial_fen(self) -> str:
        return START_FEN

    def make_game(self, fen: str | None = None):
        return ChessGame(fen) if fen else ChessGame()

    def board_lines(self) -> list[str]:
        g = self.game
        return chess_view.render_board(g.board, self.style, self.flipped, g.last_move, g.king_in_check())

    def board_columns(self) -> int:
        return chess_view.board_width()

    def describe(self, result: str, reason: str) -> str:
        return describe_result(result, reason)

    def intro(self) -> list[str]:
        dash = "—" if self.style.unicode else "-"
        return [f"Shuai {dash} chess. You play {self.side_names[self.user]}; Shuai thinks {self.strength()}.",
                "Type a move (Nf3, O-O, exd5, e8=Q, or coordinates: g1f3) or a command; help lists them."]

    def title(self) -> str:
        return "Shuai ♚" if self.style.unicode else "Shuai"

    def ascii_key(self) -> list[str]:
        return ["", "K king  Q queen  R rook", "B bishop  N knight  P pawn", "(White upper case)"]

    def result_note(self, result: str) -> str:
        return ""

    def farewell(self) -> str:
        return "Bye."

    def help_text(self) -> str:
        return HELP

    def looks_like_fen(self, text: str) -> bool:
        first = text.strip().split("\n")[0].split(" ")[0]
        return first.count("/") == 7

    def panel(self, height: int) -> list[str]:
        """The xiangqi panel; the chess board is short, so the move list may run on below it."""
        return super().panel(max(height, 22))

    # -- move names: SAN, with the coordinates beside it ------------------------------------------------------
    def full_name(self, n) -> str:
        return f"{n.san} ({n.uci})"

    def move_text(self, played) -> str:
        return self.full_name(played)             # SAN says check (+) and mate (#) itself

    def name_of(self, n) -> str:
        return n.san

    def cmd_moves(self, arg):
        if self.game_over():
            return
        cells = [f"{n.san} {n.uci}" for n in self.game.legal_moves()]
        width = max(text_width(c) for c in cells) + 2
        per_line = max(1, (shutil.get_terminal_size((80, 24)).columns - 2) // width)
        self.say(f"{len(cells)} legal moves:")
        for i in range(0, len(cells), per_line):
            self.say("  " + "".join(pad(c, width) for c in cells[i:i + per_line]).rstrip())
