"""Static exchange evaluation (numba): what a move wins or loses on its destination square if both sides go on
capturing there.

``see(board, move)`` is the material balance, in ``PIECE_VALUE`` units and from the mover's view, of the
exchange that the move starts on its destination square: the move itself is played (it may be a quiet move:
then it captures nothing), after which the two sides alternately capture on that square with their least
valuable attacker, each free to stop whenever going on would lose.  ``see_ge(board, move, threshold)`` is
``see(board, move) >= threshold``, computed with early exits (what the search asks: "does this capture lose
material?", "is this quiet move safe?").

Xiangqi specifics, all from recomputing the attackers on the board as the exchange changes it (a capture moves
its piece onto the square and empties the square it came from), never from a list made in advance:

* cannons attack over exactly one screen, so a capture that empties a square on a cannon's line can give it a
  screen's worth of attack or take it away (a cannon whose only screen was the recapturing piece's square stops
  attacking; one behind two pieces starts);
* x-rays: a rook behind a rook (or behind any piece that captures) attacks once the piece in front has left;
* horses need their leg empty and elephants their eye (and cannot cross the river), advisors and generals keep
  to the palace, soldiers move forward and, once across the river, sideways (the geometry tables);
* the general captures by stepping only (the flying-general rule makes no captures), and only onto a square the
  opponent then does not attack, the facing general included (movegen's ``king_attacked`` test on the
  exchange's board): so its capture always ends the exchange, and nothing ever captures a general.

Order of capture: the general first whenever it can take safely (it wins the piece and ends the exchange: the
best any capture can do, since after any other the opponent could stop), otherwise the least valuable attacker:
soldier (100), advisor, elephant (150), horse, cannon (450; the horse first), rook (950).

Limitations (deliberate, as in every engine's SEE):

* pins are ignored: a piece whose capture would expose its own general (to a rook, cannon or horse, or to the
  facing general when it leaves the file between the two generals) still takes part;
* least-valuable-attacker order is a heuristic, not the full minimax over capture orders: capturing first with a
  more valuable piece can be better when it uncovers a second attacker behind it (or gives a cannon its screen,
  or takes the opponent's cannon's screen away), and between pieces of equal value (horse and cannon, two rooks)
  the order matters in the same way.  tests/test_see.py compares with exhaustive minimax: about 0.05% of
  captures and of quiet moves of random-game positions differ;
* checks, threats and everything off the destination square are outside its view.

The board is changed in place during the exchange and restored exactly before returning.  Speed, called from
numba (``shuai bench see``): ``see`` about 35 ns a capture in thinned-out positions, 70 ns with most pieces on
the board, 60 ns a quiet move; ``see_ge(..., 0)`` about 20 ns a capture, 55 ns a quiet move.
"""
import numpy as np
from numba import njit

from ..moving import move_from, move_to
from .board import KING, BLACK_BIT, KING_TO
from .evaluate import PIECE_VALUE
from .movegen import attacker
from .squareset import EMPTY, ONE, add_square, lowest

# The board during an exchange: a piece that has captured leaves its square holding minus its code (read as empty
# by every test here), and the square's bit in a set of squares (no array allocated) says where to put it back.


@njit(cache=True, inline="always")
def _next_capturer(board, to, side):
    """Square of the piece ``side`` captures with next on ``to``, or -1: its general if it can take safely (the
    square then unattacked, facing general included: ``king_attacked``'s test), else its least valuable attacker
    (movegen's ``attacker`` answers both)."""
    king = side * BLACK_BIT + KING
    for i in range(4):
        s = KING_TO[to, i]
        if s < 0:
            break
        if board[s] == king:
            on = board[to]
            board[s] = 0
            board[to] = king
            unsafe = attacker(board, to, side ^ 1, True, False) >= 0
            board[s] = king
            board[to] = on
            if not unsafe:
                return s
            break
    return attacker(board, to, side, False, True)


@njit(cache=True, inline="always")
def _restore(board, frm, piece, to, target, lo, hi):
    """Put the board back: the mover, the captured piece, and every piece that captured (its bit set)."""
    board[frm] = piece
    board[to] = target
    while lo:
        s = lowest(lo)
        board[s] = -board[s]
        lo &= lo - ONE
    while hi:
        s = 64 + lowest(hi)
        board[s] = -board[s]
        hi &= hi - ONE


@njit(cache=True)
def see(board, move):
    """Material balance of the exchange ``move`` starts on its destination square, from the mover's view."""
    frm = move_from(move)
    to = move_to(move)
    piece = board[frm]
    target = board[to]
    us = piece >> 3
    lo = EMPTY
    hi = EMPTY
    board[frm] = 0
    board[to] = piece
    # Forward minimax of the "stop or capture" chain: alpha = the best balance we can already secure by
    # stopping, beta = the best the opponent can hold us to by stopping.
    balance = np.int64(PIECE_VALUE[target & 7])
    alpha = np.int64(-(1 << 30))
    beta = np.int64(1 << 30)
    stm = us ^ 1
    while True:
        on_value = PIECE_VALUE[board[to] & 7]
        if stm != us:
            if balance <= alpha:
                result = alpha
                break
            if balance < beta:
                beta = balance
            if balance - on_value >= beta:     # even taking the piece does not help them
                result = beta
                break
        else:
            if balance >= beta:
                result = beta
                break
            if balance > alpha:
                alpha = balance
            if balance + on_value <= alpha:    # taking it does not help us
                result = alpha
                break
        s = _next_capturer(board, to, stm)
        if s < 0:                               # the balance stands, within the window
            result = beta if stm != us else alpha
            break
        p = board[s]
        board[s] = -p
        lo, hi = add_square(lo, hi, s)
        board[to] = p
        if stm == us:
            balance += on_value
        else:
            balance -= on_value
        stm ^= 1
    _restore(board, frm, piece, to, target, lo, hi)
    return result


@njit(cache=True)
def see_ge(board, move, threshold):
    """``see(board, move) >= threshold``, stopping as soon as the answer is known."""
    frm = move_from(move)
    to = move_to(move)
    piece = board[frm]
    target = board[to]
    balance = np.int64(PIECE_VALUE[target & 7])
    if balance < threshold:                             # they can stop at once
        return False
    if balance - PIECE_VALUE[piece & 7] >= threshold:   # even losing the mover is fine
        return True
    us = piece >> 3
    lo = EMPTY
    hi = EMPTY
    board[frm] = 0
    board[to] = piece
    stm = us ^ 1
    # Invariant at the top of the loop: every balance where the opponent could stop was >= threshold and every
    # one where we could was < threshold, so the answer is decided by the rest of the exchange alone.
    while True:
        s = _next_capturer(board, to, stm)
        if s < 0:
            result = stm != us      # the side to move cannot capture: the balance stands
            break
        p = board[s]
        on_value = PIECE_VALUE[board[to] & 7]
        board[s] = -p
        lo, hi = add_square(lo, hi, s)
        board[to] = p
        stm ^= 1
        if stm == us:
            balance -= on_value
            if balance >= threshold:
                result = True
                break
            if balance + PIECE_VALUE[p & 7] < threshold:
                result = False
                break
        else:
            balance += on_value
            if balance < threshold:
                result = False
                break
            if balance - PIECE_VALUE[p & 7] >= threshold:
                result = True
                break
    _restore(board, frm, piece, to, target, lo, hi)
    return result
