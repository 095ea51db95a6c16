"""Game-ending rules for a referee (the match runner, the terminal game): is the game over in this position,
and how did it end?

    >>> from engine.xiangqi.position import Position
    >>> game_result(Position())            # the start position: the game goes on
    >>> game_result(Position("R3k4/1R7/9/9/9/9/9/9/9/3K5 b - - 0 1"))
    ('1-0', 'checkmate')

Results are written red first: "1-0" red won, "0-1" black won, "1/2-1/2" draw.  Reasons are single words:
``checkmate``, ``stalemate`` (in xiangqi the side with no legal move *loses*), ``60-move`` (120 plies without a
capture), ``material`` (neither side has a piece that can cross the river and give mate) and ``repetition``.

The repetition judgement is a placeholder (three-fold = draw) kept in one function, :func:`repetition_result`,
to be replaced by the Asian rules (perpetual check / perpetual chase lose).
"""
from __future__ import annotations

from .board import HORSE, ROOK, CANNON, PAWN

RED_WINS, BLACK_WINS, DRAW = "1-0", "0-1", "1/2-1/2"

SIXTY_MOVE_PLIES = 120          # 60 moves by each side without a capture
REPETITIONS_FOR_DRAW = 3

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
    if pos.halfmove_clock >= SIXTY_MOVE_PLIES:
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


# ------------------------------------------------------------------------------------------------------------
# REPETITION -- PLACEHOLDER.  Replace this one function with the Asian-rules judgement (perpetual check loses,
# perpetual chase loses, otherwise a draw).  It must return None or (result, "repetition"-like reason).
# ------------------------------------------------------------------------------------------------------------
def repetition_result(pos) -> tuple[str, str] | None:
    """Placeholder: the current position (same pieces, same side to move) has occurred three times → draw.

    Only positions since the last capture can repeat, so only that window of the key history is scanned (the
    history kept by Position starts at the FEN it was set up from).
    """
    ply = pos.ply
    key = pos.key
    window = min(pos.halfmove_clock, ply)
    keys = pos.keys[ply - window: ply + 1, 0]
    if int((keys == key).sum()) >= REPETITIONS_FOR_DRAW:
        return DRAW, "repetition"
    return None
