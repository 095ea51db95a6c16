"""The terminal game of chess: the xiangqi session's loop and commands (engine.play.session) with the chess
record (engine.play.chess_record), board (engine.play.chess_view) and texts.

Moves are typed in SAN (``Nf3``, ``O-O``, ``exd5``, ``e8=Q``) or coordinates (``g1f3``, ``e7e8q``) and shown in
SAN with the coordinates beside them; games are saved and loaded as standard PGN.
"""
from __future__ import annotations

from ..chess.constants import RANKS, SIDE_NAMES
from . import chess_view
from .chess_record import ChessFenError, ChessMoveError, ChessRecord
from .session import COMMANDS_HELP, Session
from .terminal import CHESS_SAMPLE

HELP = """\
Moves, in either notation:
  SAN           e4  Nf3  exd5  Nbd2  O-O  O-O-O  e8=Q   (standard algebraic notation)
  coordinates   e2e4  g1f3  e1g1  e7e8q                 (from-square, to-square, promotion piece)
""" + COMMANDS_HELP.format(pgn="PGN")


class ChessSession(Session):
    record = ChessRecord
    side_names = tuple(name.capitalize() for name in SIDE_NAMES)      # "White", "Black"
    move_error = ChessMoveError
    fen_error = ChessFenError
    sample = CHESS_SAMPLE
    tablebases = False                  # the project's tablebases/ are xiangqi's
    ranks = RANKS
    columns = chess_view.board_width()
    titles = ("Shuai ♚", "Shuai")
    farewells = ("Bye.", "Bye.")
    help_page = HELP
    ascii_key = ["", "K king  Q queen  R rook", "B bishop  N knight  P pawn", "(White upper case)"]
    result_notes = {}

    def board_lines(self) -> list[str]:
        g = self.game
        return chess_view.render_board(g.board, self.style, self.flipped, g.last_move, g.king_in_check())

    def intro(self) -> list[str]:
        dash = "—" if self.style.unicode else "-"
        return [f"Shuai {dash} chess. You play {self.side_names[self.user]}; Shuai thinks {self.strength()}.",
                "Type a move (Nf3, O-O, exd5, e8=Q, or coordinates: g1f3) or a command; help lists them."]

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

    def move_cell(self, n) -> str:
        return f"{n.san} {n.uci}"
