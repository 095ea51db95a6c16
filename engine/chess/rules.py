"""Game-ending rules for chess (the tuner's self-play; any referee with a ``Position``): is the game over in this
position, and how did it end?

    >>> from engine.chess.position import Position
    >>> game_result(Position())            # the start position: the game goes on
    >>> game_result(Position("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"))
    ('1-0', 'checkmate')

Results are written white first ("1-0", "0-1", "1/2-1/2"); reasons are the words python-chess's terminations
get in game records (as ``engine.match.chess_rules``): ``checkmate``, ``stalemate``, ``insufficient material``
(python-chess's ``is_insufficient_material``), ``50-move`` (100 plies without a capture or pawn move, unless the
last of them mated) and ``repetition`` (the third occurrence of a position -- same pieces, side to move,
castling rights and usable en-passant square -- since the last capture or pawn move, in the game the
``Position`` has played since its FEN).  A referee's view: draws a player could claim end the game as soon as
they have happened on the board.
"""
from __future__ import annotations

import chess

from .constants import MOVE_LIMIT_PLIES

WHITE_WINS, BLACK_WINS, DRAW = "1-0", "0-1", "1/2-1/2"
REPETITIONS = 3


def repetitions(pos) -> int:
    """How many times the current position has occurred in the game so far (1: this is the first time)."""
    ply = pos.ply
    first = max(0, ply - pos.halfmove_clock)
    key = pos.keys[ply]
    return sum(1 for i in range(ply, first - 1, -2) if pos.keys[i, 0] == key[0] and pos.keys[i, 1] == key[1])


def game_result(pos) -> tuple[str, str] | None:
    """(result, reason) if the game is over in ``pos`` (an ``engine.chess.position.Position``), else None."""
    if not pos.legal_moves():
        if pos.in_check():
            return (BLACK_WINS if pos.side == 0 else WHITE_WINS), "checkmate"
        return DRAW, "stalemate"
    if chess.Board(pos.fen()).is_insufficient_material():
        return DRAW, "insufficient material"
    if pos.halfmove_clock >= MOVE_LIMIT_PLIES:
        return DRAW, "50-move"
    if repetitions(pos) >= REPETITIONS:
        return DRAW, "repetition"
    return None
