"""How a move is packed into an integer, for every game: ``promotion << 14 | from << 7 | to``.

Seven bits a square hold xiangqi's 90 squares and chess's 64; the two bits above them name a chess promotion
piece (game-defined; 0 for every other move).  16 bits in all, so a move fits the transposition table's uint16
field.  The move 0 (square 0 to square 0) never happens in a game: it stands for "no move" and the null move.

Plain Python, no numba: the kernels use the compiled versions of these same functions (``engine.moving``).
"""

SQUARE_BITS = 7
SQUARE_MASK = (1 << SQUARE_BITS) - 1
PROMOTION_SHIFT = 2 * SQUARE_BITS
NO_MOVE = 0


def pack_move(frm, to, promotion=0):
    return (promotion << PROMOTION_SHIFT) | (frm << SQUARE_BITS) | to


def move_from(move):
    return (move >> SQUARE_BITS) & SQUARE_MASK


def move_to(move):
    return move & SQUARE_MASK


def move_promotion(move):
    return move >> PROMOTION_SHIFT
