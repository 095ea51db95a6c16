"""The search's history tables: what cut-offs taught about quiet moves, kept across a search's nodes.

The history array holds three tables, indexed by the game's history index F (piece and destination):
  [0, F)             butterfly history of quiet moves
  [F, 2F)            the countermove to the previous move (a move, not a score)
  [2F, 2F + F * F)   continuation history: a quiet move's success after the move one or two plies before it
Scores move by "gravity": entry += bonus - entry * |bonus| / LIMIT keeps them within +-LIMIT.  The limits, the
bonus, and the search's margins, depths and reductions are the tunable parameters (engine.search_params),
read from ctrl[P_...] at run time.

Part of the search template: ``engine.alphabeta`` registers these functions (``KERNELS``) as its kernels, compiled
per game; ``HISTORY_SIZE`` and ``history_index`` come from the game's interface.
"""
from .ordering import ORDER_SEARCHED_QUIET  # noqa: F401 (a name the kernels use)
from .search_state import (P_BONUS_CONSTANT, P_BONUS_LINEAR, P_BONUS_MAX_DEPTH, P_BONUS_QUADRATIC,  # noqa: F401
                           P_CONT_HISTORY_LIMIT, P_HISTORY_LIMIT, SS_HIST, SS_KILLER1, SS_KILLER2)


def history_size(history_entries: int) -> int:
    """Length of the history array for a game with ``history_entries`` history indices."""
    return 2 * history_entries + history_entries * history_entries


def previous_index(ss, ply, back):
    """History index of the move played ``back`` plies before this node (-1: none, a null move, or before the
    root)."""
    return ss[ply - back, SS_HIST] if ply >= back else -1


def continuation_index(prev, h):
    """Where the continuation history of a quiet move (history index ``h``) after the move ``prev`` lies."""
    return 2 * HISTORY_SIZE + prev * HISTORY_SIZE + h


def quiet_history(history, h, prev1, prev2):
    """A quiet move's combined history: butterfly (twice) plus continuation after the last two moves.  It
    orders the quiets, and LMR adjusts their reductions by it."""
    score = 2 * history[h]
    if prev1 >= 0:
        score += history[continuation_index(prev1, h)]
    if prev2 >= 0:
        score += history[continuation_index(prev2, h)]
    return score


def gravity(history, i, bonus, limit):
    history[i] += bonus - history[i] * abs(bonus) // limit


def stat_bonus(ctrl, depth):
    """What a cut-off at ``depth`` adds to its move's histories (and takes from the moves searched before it)."""
    d = min(depth, ctrl[P_BONUS_MAX_DEPTH])
    return ctrl[P_BONUS_QUADRATIC] * d * d + ctrl[P_BONUS_LINEAR] * d + ctrl[P_BONUS_CONSTANT]


def update_quiet_stats(board, ss, ctrl, history, ply, move, depth, moves, order, n_tried):
    """A quiet move refuted the opponent: it becomes the first killer and the countermove to the previous
    move, and its histories grow; the quiets searched before it (marked in ``order``) shrink."""
    if ss[ply, SS_KILLER1] != move:
        ss[ply, SS_KILLER2] = ss[ply, SS_KILLER1]
        ss[ply, SS_KILLER1] = move
    size = HISTORY_SIZE
    prev1 = previous_index(ss, ply, 1)
    prev2 = previous_index(ss, ply, 2)
    if prev1 >= 0:
        history[size + prev1] = move
    bonus = stat_bonus(ctrl, depth)
    for j in range(n_tried + 1):
        m = moves[j]
        if j < n_tried:
            if order[j] != ORDER_SEARCHED_QUIET:
                continue
            b = -bonus
        elif m == move:
            b = bonus
        else:
            continue
        h = history_index(board, m)
        gravity(history, h, b, ctrl[P_HISTORY_LIMIT])
        if prev1 >= 0:
            gravity(history, continuation_index(prev1, h), b, ctrl[P_CONT_HISTORY_LIMIT])
        if prev2 >= 0:
            gravity(history, continuation_index(prev2, h), b, ctrl[P_CONT_HISTORY_LIMIT])


# The template kernels of this file, with their numba options (``engine.alphabeta`` registers them).
INLINE = {"inline": "always"}
KERNELS = ((previous_index, INLINE), (continuation_index, INLINE), (quiet_history, INLINE), (gravity, INLINE),
           (stat_bonus, INLINE), (update_quiet_stats, {}))
