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
  opponent then does not attack, the facing general included (``_general_attacked``: movegen's ``king_attacked``
  on the exchange's board): so its capture always ends the exchange, and nothing ever captures a general.

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
numba (scripts/bench_see.py): ``see`` about 35 ns a capture in thinned-out positions, 70 ns with most pieces on
the board, 60 ns a quiet move; ``see_ge(..., 0)`` about 20 ns a capture, 55 ns a quiet move.
"""
import numpy as np
from numba import njit

from ..kernel import move_from, move_to
from .board import (KING, ADVISOR, ELEPHANT, HORSE, ROOK, CANNON, PAWN, BLACK_BIT, RAYS, KING_TO, ADVISOR_TO,
                    ELEPHANT_TO, ELEPHANT_EYE, HORSE_FROM, HORSE_FROM_LEG, PAWN_FROM)
from .evaluate import PIECE_VALUE

# The board during an exchange: a piece that has captured leaves its square holding minus its code (read as empty
# by every test here), and the square's bit in a 90-bit set (two uint64) says where to put it back.  No array is
# allocated (numba's heap allocation would cost a third of a short exchange).  Bits are found again with a de
# Bruijn multiplication.
_DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)


def _debruijn_table():
    table = np.zeros(64, np.int64)
    for i in range(64):
        table[((1 << i) * int(_DEBRUIJN) % (1 << 64)) >> 58] = i
    return table


_DEBRUIJN_INDEX = _debruijn_table()
_ONE = np.uint64(1)
_SHIFT = np.uint64(58)


@njit(cache=True, inline="always")
def _least_attacker(board, to, side):
    """Square of ``side``'s least valuable piece other than its general that can capture on ``to`` now, or -1.
    The tables are indexed in place: slicing them costs numba its constants."""
    base = side * BLACK_BIT
    pawn = base + PAWN
    for i in range(3):
        s = PAWN_FROM[side, to, i]
        if s < 0:
            break
        if board[s] == pawn:
            return s
    advisor = base + ADVISOR
    for i in range(4):
        s = ADVISOR_TO[to, i]
        if s < 0:
            break
        if board[s] == advisor:
            return s
    elephant = base + ELEPHANT
    for i in range(4):
        s = ELEPHANT_TO[to, i]
        if s < 0:
            break
        if board[s] == elephant and board[ELEPHANT_EYE[to, i]] <= 0:
            return s
    horse = base + HORSE
    for i in range(8):
        s = HORSE_FROM[to, i]
        if s < 0:
            break
        if board[s] == horse and board[HORSE_FROM_LEG[to, i]] <= 0:
            return s
    rook = base + ROOK
    cannon = base + CANNON
    rook_sq = -1
    for d in range(4):
        screened = False
        for i in range(10):
            s = RAYS[to, d, i]
            if s < 0:
                break
            p = board[s]
            if p <= 0:
                continue
            if not screened:
                if p == rook and rook_sq < 0:
                    rook_sq = s
                screened = True
            else:
                if p == cannon:
                    return s
                break
    return rook_sq


@njit(cache=True, inline="always")
def _general_attacked(board, sq, by):
    """Could ``by`` take a general standing on ``sq``: a rook, cannon, horse or soldier, or its own general facing
    it along an open file?  (``movegen.king_attacked``, reading vacated squares as empty; advisors, elephants and
    the general's step never reach the other palace.)"""
    base = by * BLACK_BIT
    rook, cannon, king, horse, pawn = base + ROOK, base + CANNON, base + KING, base + HORSE, base + PAWN
    for d in range(4):
        screened = False
        for i in range(10):
            s = RAYS[sq, d, i]
            if s < 0:
                break
            p = board[s]
            if p <= 0:
                continue
            if not screened:
                if p == rook or p == king:
                    return True
                screened = True
            else:
                if p == cannon:
                    return True
                break
    for i in range(8):
        h = HORSE_FROM[sq, i]
        if h < 0:
            break
        if board[h] == horse and board[HORSE_FROM_LEG[sq, i]] <= 0:
            return True
    for i in range(3):
        s = PAWN_FROM[by, sq, i]
        if s < 0:
            break
        if board[s] == pawn:
            return True
    return False


@njit(cache=True, inline="always")
def _next_capturer(board, to, side):
    """Square of the piece ``side`` captures with next on ``to``, or -1: its general if it can take safely (the
    square then unattacked, facing general included), else its least valuable attacker."""
    king = side * BLACK_BIT + KING
    for i in range(4):
        s = KING_TO[to, i]
        if s < 0:
            break
        if board[s] == king:
            on = board[to]
            board[s] = 0
            board[to] = king
            unsafe = _general_attacked(board, to, side ^ 1)
            board[s] = king
            board[to] = on
            if not unsafe:
                return s
            break
    return _least_attacker(board, to, side)


@njit(cache=True, inline="always")
def _restore(board, frm, piece, to, target, lo, hi):
    """Put the board back: the mover, the captured piece, and every piece that captured (its bit set)."""
    board[frm] = piece
    board[to] = target
    while lo:
        s = _DEBRUIJN_INDEX[((lo & (~lo + _ONE)) * _DEBRUIJN) >> _SHIFT]
        board[s] = -board[s]
        lo &= lo - _ONE
    while hi:
        s = 64 + _DEBRUIJN_INDEX[((hi & (~hi + _ONE)) * _DEBRUIJN) >> _SHIFT]
        board[s] = -board[s]
        hi &= hi - _ONE


@njit(cache=True)
def see(board, move):
    """Material balance of the exchange ``move`` starts on its destination square, from the mover's view."""
    frm = move_from(move)
    to = move_to(move)
    piece = board[frm]
    target = board[to]
    us = piece >> 3
    lo = np.uint64(0)
    hi = np.uint64(0)
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
        if s < 64:
            lo |= _ONE << np.uint64(s)
        else:
            hi |= _ONE << np.uint64(s - 64)
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
    lo = np.uint64(0)
    hi = np.uint64(0)
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
        if s < 64:
            lo |= _ONE << np.uint64(s)
        else:
            hi |= _ONE << np.uint64(s - 64)
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
