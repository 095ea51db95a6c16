"""Game-ending rules for a referee (the match runner, the terminal game): is the game over in this position,
and how did it end?

    >>> from engine.xiangqi.position import Position
    >>> game_result(Position())            # the start position: the game goes on
    >>> game_result(Position("R3k4/1R7/9/9/9/9/9/9/9/3K5 b - - 0 1"))
    ('1-0', 'checkmate')

Results are written red first: "1-0" red won, "0-1" black won, "1/2-1/2" draw.  Reasons are single words:
``checkmate``, ``stalemate`` (in xiangqi the side with no legal move *loses*), ``60-move`` (120 plies without a
capture), ``material`` (neither side has a piece that can cross the river and give mate) and the three
repetition reasons.

Repetitions are judged by the Asian rules at the third occurrence of a position (:func:`repetition_result`):
reasons ``perpetual-check``, ``perpetual-chase`` (the offender loses) or ``repetition`` (a draw).
"""
from __future__ import annotations

from .constants import HORSE, MOVE_LIMIT_PLIES, ROOK, CANNON, PAWN

RED_WINS, BLACK_WINS, DRAW = "1-0", "0-1", "1/2-1/2"

REPETITIONS = 3                 # the referee judges a repetition at its third occurrence

# Pieces that can give mate.  Generals, advisors and elephants never cross the river, so with none of these on
# the board neither side can ever attack the other general (the flying-general rule needs a piece to move onto
# the file, which only an attacker could exploit).
_ATTACKERS = (HORSE, ROOK, CANNON, PAWN)


def loss_for(side: int) -> str:
    """The result string for a loss of ``side`` (0 red, 1 black)."""
    return BLACK_WINS if side == 0 else RED_WINS


def game_result(pos) -> tuple[str, str] | None:
    """(result, reason) if the game is over in ``pos``, else None.

    Checked in this order: no legal move (checkmate or stalemate, both a loss for the side to move), the 60-move
    rule, insufficient material, repetition.
    """
    if not pos.legal_moves():
        return loss_for(pos.side), ("checkmate" if pos.in_check() else "stalemate")
    if pos.halfmove_clock >= MOVE_LIMIT_PLIES:
        return DRAW, "60-move"
    if insufficient_material(pos):
        return DRAW, "material"
    return repetition_result(pos)


def insufficient_material(pos) -> bool:
    """Neither side has a rook (chariot), horse, cannon or pawn (soldier)."""
    for p in pos.board:
        if p and (int(p) & 7) in _ATTACKERS:
            return False
    return True


_REASONS = {0: "repetition", 1: "perpetual-check", 2: "perpetual-chase"}


def repetition_result(pos) -> tuple[str, str] | None:
    """The current position has occurred three times since the last capture: judged by the Asian rules
    (:mod:`engine.xiangqi.repetition`): perpetual check or perpetual chase loses, anything else is a draw."""
    from .repetition import find_repetition, judge_cycle
    start = find_repetition(pos.st, pos.hist, pos.keys, REPETITIONS)
    if start < 0:
        return None
    verdict, reason = judge_cycle(pos.board, pos.st, pos.hist, pos.keys, start)
    if verdict == 0:
        return DRAW, _REASONS[int(reason)]
    winner = pos.side if verdict > 0 else pos.side ^ 1
    return loss_for(winner ^ 1), _REASONS[int(reason)]
