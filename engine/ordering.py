"""Move ordering: the order in which a node tries its moves, as scores written beside the move list.

Hash move -> winning and equal captures by MVV/LVA -> two killers and the countermove -> quiets by butterfly and
continuation history (``engine.history``) -> captures that lose material by exchange.  Once searched, a move is
marked (``ORDER_SEARCHED_*``), so that a cut-off can punish the quiets tried before it.

Part of the search template: ``engine.alphabeta`` registers these functions (``KERNELS``) as its kernels, compiled
per game; the names they use that are not defined here come from the game's interface (``is_capture``,
``capture_order``, ``see_ge``, ``history_index``) and from the history kernels.
"""
ORDER_HASH = 1 << 30
ORDER_CAPTURE = 1 << 29
CAPTURE_BAND = 1 << 20          # a capture's score (MVV/LVA, either sign) is within +-this
ORDER_KILLER = 1 << 28          # killers and the countermove just below the captures, quiets below them
ORDER_LOSING_CAPTURE = -(1 << 27)   # captures that lose material (SEE < 0) come after the quiets
ORDER_SEARCHED_QUIET = -(1 << 29)   # marks, once searched, the quiets a cut-off move punishes
ORDER_SEARCHED_CAPTURE = ORDER_SEARCHED_QUIET - 1   # ... and the captures, which it does not


def score_moves(board, st, moves, order, n, hash_move, killer1, killer2, counter, prev1, prev2,
                history):
    """Ordering scores: the table's move, captures by MVV/LVA (those that lose material by exchange after the
    quiets), killers and the countermove, then quiets by their butterfly and continuation histories."""
    for i in range(n):
        m = moves[i]
        if m == hash_move:
            order[i] = ORDER_HASH
        elif is_capture(board, m):
            score = capture_order(board, m)
            if see_ge(board, st, m, 0):
                order[i] = ORDER_CAPTURE + CAPTURE_BAND + score
            else:
                order[i] = ORDER_LOSING_CAPTURE + score
        elif m == killer1:
            order[i] = ORDER_KILLER + 2
        elif m == killer2:
            order[i] = ORDER_KILLER + 1
        elif m == counter:
            order[i] = ORDER_KILLER
        else:
            order[i] = quiet_history(history, history_index(board, m), prev1, prev2)


def pick_next(moves, order, i, n):
    """Selection sort step: bring the best remaining move to index i."""
    best = i
    for j in range(i + 1, n):
        if order[j] > order[best]:
            best = j
    if best != i:
        m = moves[i]
        moves[i] = moves[best]
        moves[best] = m
        o = order[i]
        order[i] = order[best]
        order[best] = o
    return moves[i]


# The template kernels of this file, with their numba options (``engine.alphabeta`` registers them).
KERNELS = ((score_moves, {}), (pick_next, {"inline": "always"}))
