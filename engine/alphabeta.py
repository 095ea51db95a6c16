"""The search kernels, written once for every game (a template, see ``engine.template``): principal-variation
alpha-beta with quiescence.

Ingredients, after Stockfish's ``search()`` (the numbered steps of ``pvs``): transposition table (``tt``, also in
quiescence; it keeps each position's static evaluation, computed once), mate-distance pruning, tablebase probes,
static evaluation and "improving", check extension, razoring, reverse futility, null move reduced by depth and by
the margin over beta (guarded for endings without pieces), internal iterative reduction, singular
extension (each game's default: ``SINGULAR_DEPTH``; xiangqi's only on lines not already extended,
``SINGULAR_LINE_EXTENSION``), late-move and futility pruning of quiet moves, late-move
reductions adjusted by history; quiescence with delta pruning and no losing captures (SEE).  Its parts, compiled
with it: move ordering (``engine.ordering``) and the history tables (``engine.history``).  Repetitions are found
through a small hash of the keys on the path and judged by the game's rules (xiangqi: the Asian rules). A score that depends on the path (a repetition, the move limit) is never stored in the
table, nor the result of a node whose deciding move led to one; near the move limit the table settles nothing.

The root is a node of ``pvs`` (ply 0), as in Stockfish: its moves are the driver's list in ``moves[0]``, in the
order of the previous iteration; the best one found is moved to the front.

Endgame tables: a node entered by a capture asks the game's ``probe_tables``; with at least
``ctrl[C_TB_DEPTH]`` plies of search left, where nodes are few, a table chunk not yet in memory may be read from
disk; deeper, where nodes are many, only chunks already cached are used (Stockfish's SyzygyProbeDepth).

All state lives in arrays made once by the Python driver (``engine.searcher``):

* ``ctrl`` and ``ss``: the counters, flags and parameters, and the search stack (``engine.search_state``)
* ``pv``   int32[MAX_PLY + 2, MAX_PLY + 2]: triangular PV table
* ``moves``/``order`` int32[MAX_PLY + 2, game's MAX_MOVES]: move lists and their ordering scores, one row per ply
* ``history`` int32[history_size(game's HISTORY_SIZE)]: quiet-move histories and countermoves (``engine.history``)
* ``reps`` uint8[REP_SIZE]: how many positions on the path (game + search) fall into each key bucket
"""
import math

import numpy as np
from numba import njit, typeof, types

from .template import Template
from .scores import DRAW_SCORE, INFINITE, MATE_BOUND, MATE_SCORE, NO_SCORE
from .tt import BOUND_EXACT, BOUND_LOWER, BOUND_NONE, BOUND_UPPER, NO_EVAL, new_table, score_from_tt, tt_probe, tt_store
from .search_state import (CTRL_LEN, C_AGE, C_BEST_MOVE, C_BEST_SCORE, C_NODES, C_NODE_LIMIT, C_PARAMS, C_ROOT_DEPTH,
                           C_ROOT_DONE, C_ROOT_FIRST, C_ROOT_MOVES, C_SELDEPTH, C_STOP, C_TB_DEPTH, C_TB_HITS,
                           MAX_PLY, P_BONUS_CONSTANT, P_BONUS_LINEAR, P_BONUS_MAX_DEPTH, P_BONUS_QUADRATIC,
                           P_CONT_HISTORY_LIMIT, P_FUTILITY_DEPTH, P_FUTILITY_MARGIN, P_HISTORY_LIMIT, P_IIR_DEPTH,
                           P_LMP_BASE, P_LMP_DEPTH, P_LMR_DIVISOR, P_LMR_MIN_DEPTH, P_MOVE_LIMIT_HORIZON,
                           P_NULL_BASE_REDUCTION, P_NULL_DEPTH_DIVISOR, P_NULL_EVAL_DIVISOR, P_NULL_EVAL_MAX,
                           P_NULL_MIN_DEPTH, P_PARENT_FUTILITY_BASE, P_PARENT_FUTILITY_DEPTH,
                           P_PARENT_FUTILITY_PER_PLY, P_QS_DELTA_MARGIN, P_RAZOR_MARGIN, P_SEE_CAPTURE_MARGIN,
                           P_SEE_PRUNE_DEPTH, P_SEE_QUIET_MARGIN, P_SINGULAR_DEPTH, P_SINGULAR_LINE_EXTENSION,
                           P_SINGULAR_MARGIN, P_STAT_DIVISOR, P_STAT_OFFSET, REP_MASK, SS_EVAL, SS_EXCLUDED, SS_HIST,
                           SS_KILLER1, SS_KILLER2, SS_LEN, SS_MOVE, SS_NO_EXTENSION, SS_PATH_DEP, SS_PV_LEN, _param,
                           reset_ctrl)  # noqa: F401 (names of the kernels and of callers)
from .ordering import (CAPTURE_BAND, ORDER_CAPTURE, ORDER_HASH, ORDER_KILLER, ORDER_LOSING_CAPTURE,  # noqa: F401
                       ORDER_SEARCHED_CAPTURE, ORDER_SEARCHED_QUIET)
from . import history as history_part, ordering as ordering_part
from .history import history_size
from .nnue.kernels import net_type
from .borrow import borrowed

# What a game's kernels module supplies (see ``xiangqi/kernels.py`` for the meaning of each).
GAME_INTERFACE = (
    "new_state", "ST_SIDE", "ST_PLY", "H_MOVE", "H_CLOCK", "H_CHECK", "NULL_MOVE", "GEN_ALL", "GEN_CAPTURES",
    "generate_moves", "is_legal", "in_check", "gives_check", "make_move", "unmake_move", "make_null_move",
    "unmake_null_move", "evaluate", "is_capture", "capture_order", "captured_value",
    "history_index", "HISTORY_SIZE", "see_ge", "null_move_allowed", "no_move_score", "repetition_score",
    "MOVE_LIMIT_PLIES", "probe_tables", "tables_type", "net_evaluate",
)
TEMPLATE = Template(globals(), GAME_INTERFACE)
kernel = TEMPLATE.kernel
for _function, _options in history_part.KERNELS + ordering_part.KERNELS:    # the search's parts, its kernels
    kernel(**_options)(_function)


NODE_CHECK_MASK = 1023          # the node limit is compared every 1024 nodes

LMR_SIZE = 64, 256              # the reduction table covers depths and move numbers up to these


def _log_table(n):
    return np.array([0.0] + [math.log(i) for i in range(1, n)])


# Late-move reductions, log d * log i / (LMR_DIVISOR / 100) rounded: the logarithms of depths and move numbers.
LOG_DEPTH, LOG_MOVE = _log_table(LMR_SIZE[0]), _log_table(LMR_SIZE[1])


@njit(cache=True, inline="always")
def lmr_depth_factor(depth, divisor):
    """A node's part of its moves' reductions, once per node: log ``depth`` / (``divisor`` / 100)."""
    return LOG_DEPTH[min(depth, LMR_SIZE[0] - 1)] * (100.0 / divisor)


@njit(cache=True, inline="always")
def lmr_reduction(depth_factor, legal):
    """The base reduction of the ``legal``-th move at a node with this ``lmr_depth_factor``, rounded (the
    same numbers as log d * log i / 1.95 at the default divisor, 195, checked by the tests)."""
    return int(0.5 + depth_factor * LOG_MOVE[min(legal, LMR_SIZE[1] - 1)])


def _padded_ctrl():
    """A ``ctrl`` array alone on its cache lines: each thread of a search writes its own at every node, and two
    sharing a line would slow each other down (false sharing)."""
    return np.zeros(CTRL_LEN + 16, np.int64)[8:8 + CTRL_LEN]


def new_work_arrays(max_moves: int, history_entries: int):
    """The per-search arrays (see the module docstring): ctrl, ss, pv, moves, order, history, reps."""
    return (_padded_ctrl(), np.zeros((MAX_PLY + 2, SS_LEN), np.int32),
            np.zeros((MAX_PLY + 2, MAX_PLY + 2), np.int32), np.zeros((MAX_PLY + 2, max_moves), np.int32),
            np.zeros((MAX_PLY + 2, max_moves), np.int32), np.zeros(history_size(history_entries), np.int32),
            np.zeros(REP_MASK + 1, np.uint8))


def _signature(game, with_tables, *scalars):
    """The one explicit signature of a recursive kernel: the position arrays, the table, the tablebase
    arrays (``with_tables``: every argument costs time in the recursion), the work arrays, the network (its
    weights and this thread's accumulators, ``engine.nnue.kernels``), then ``scalars``."""
    arrays = tuple(typeof(a) for a in game["new_state"]()) + (typeof(new_table(1)),) + \
        ((game["tables_type"](),) if with_tables else ()) + tuple(typeof(a) for a in new_work_arrays(1, 1))
    return types.int64(*arrays, net_type(), *scalars)


# ------------------------------------------------------------------------------------------------------------
# Small helpers
# ------------------------------------------------------------------------------------------------------------

@kernel(inline="always")
def _do_move(board, st, hist, keys, reps, move):
    reps[keys[st[ST_PLY], 0] & REP_MASK] += 1
    make_move(board, st, hist, keys, move)


@kernel(inline="always")
def _undo_move(board, st, hist, keys, reps):
    unmake_move(board, st, hist)
    reps[keys[st[ST_PLY], 0] & REP_MASK] -= 1


@kernel(inline="always")
def _enter_node(board, st, hist, keys, ctrl, ss, reps, ply):
    """What every node but the root does first: count itself (and stop at the node limit), reset its PV and
    path flag, record whether the side to move is in check (the repetition rules read it), and judge a
    repetition if the small hash says one is possible.  Returns (in check, repetition score or NO_SCORE)."""
    ctrl[C_NODES] += 1
    if (ctrl[C_NODES] & NODE_CHECK_MASK) == 0 and ctrl[C_NODES] >= ctrl[C_NODE_LIMIT]:
        ctrl[C_STOP] = 1
    ss[ply, SS_PV_LEN] = ply
    ss[ply, SS_PATH_DEP] = 0
    if ply > ctrl[C_SELDEPTH]:
        ctrl[C_SELDEPTH] = ply
    checked = in_check(board, st)
    n_ply = st[ST_PLY]
    hist[n_ply, H_CHECK] = 1 if checked else 0
    rep = NO_SCORE
    if reps[keys[n_ply, 0] & REP_MASK] != 0:
        rep = repetition_score(board, st, hist, keys)
        if rep != NO_SCORE:
            ss[ply, SS_PATH_DEP] = 1
    return checked, rep


@njit(cache=True, inline="always")
def sees_move_limit(clock, depth, limit, horizon):
    """May a search of ``depth`` plies (and ``horizon`` of extensions) from a node whose move clock is at
    ``clock`` reach the move limit's draw?  Then a table entry does not settle the node: the key does not hold
    the clock, and the entry may come from the same position far from the limit."""
    return clock + depth + horizon >= limit


@kernel(inline="always")
def _static(board, st, hist, keys, net):
    """The game's static evaluation: its network's when one is loaded (``net``, see ``engine.nnue.kernels``),
    else its hand-written one's."""
    if net[1].shape[0] != 0:
        return net_evaluate(board, st, hist, keys, net)
    return evaluate(board, st)




@njit(cache=True, inline="always")
def is_improving(ss, ply, static):
    """Is the static evaluation at ``ply`` better than at our last turn, two plies up?  True when there is
    nothing to compare with (no such ply, or a turn in check there)."""
    before = ss[ply - 2, SS_EVAL] if ply >= 2 else -INFINITE
    return before == -INFINITE or static > before




@kernel(inline="always")
def _raw_evaluation(board, st, hist, keys, tt_static, net):
    """The game's static evaluation of the node: the table's copy where it has one (``tt_static``,
    else ``NO_EVAL``), computed otherwise."""
    return np.int64(tt_static) if tt_static != NO_EVAL else _static(board, st, hist, keys, net)


@kernel(inline="always")
def move_limit_reached(st, hist):
    return hist[st[ST_PLY], H_CLOCK] >= MOVE_LIMIT_PLIES


@kernel(inline="always")
def _has_legal_move(board, st, moves, checked):
    """Has the side to move a legal move?  (``moves``: a free row of the move stack.)"""
    n = generate_moves(board, st, moves, GEN_ALL)
    for i in range(n):
        if is_legal(board, st, moves[i], checked):
            return True
    return False


@kernel(inline="always")
def _update_pv(pv, ss, ply, move):
    pv[ply, ply] = move
    end = ss[ply + 1, SS_PV_LEN]
    for j in range(ply + 1, end):
        pv[ply, j] = pv[ply + 1, j]
    ss[ply, SS_PV_LEN] = max(end, ply + 1)


@kernel(inline="always")
def _root_improved(ctrl, root_moves, i, move, score):
    """A root move raised alpha: record it, and move it to the front of the moves searched (the next
    iteration tries it first; with MultiPV, the earlier lines' moves stay before it)."""
    ctrl[C_BEST_MOVE] = move
    ctrl[C_BEST_SCORE] = score
    first = ctrl[C_ROOT_FIRST]
    for j in range(i, first, -1):
        root_moves[j] = root_moves[j - 1]
    root_moves[first] = move


@kernel(inline="always")
def _probe_tt(tt, keys, st, depth, ply, alpha, beta, pv_node):
    """(hash move, score, static evaluation, stored score, bound, stored depth): the stored move (0 if none);
    where the stored bound settles this node, its score (NO_SCORE otherwise; PV nodes never take a cut from the
    table); the stored static evaluation (NO_EVAL if none); the stored score, its bound and its depth,
    whatever that depth (NO_SCORE, BOUND_NONE and -1 if none)."""
    n_ply = st[ST_PLY]
    found, move, stored, stored_depth, f, static = tt_probe(tt, keys[n_ply, 0], keys[n_ply, 1])
    if not found:
        return 0, NO_SCORE, NO_EVAL, NO_SCORE, BOUND_NONE, -1
    hash_move = np.int64(move)
    s = score_from_tt(stored, ply)
    if not pv_node and stored_depth >= depth:
        if f == BOUND_EXACT or (f == BOUND_LOWER and s >= beta) or (f == BOUND_UPPER and s <= alpha):
            return hash_move, s, np.int64(static), s, np.int64(f), np.int64(stored_depth)
    return hash_move, NO_SCORE, np.int64(static), s, np.int64(f), np.int64(stored_depth)


@kernel(inline="always")
def _store_tt(tt, keys, st, ctrl, move, best, raw_static, alpha0, beta, depth, ply):
    n_ply = st[ST_PLY]
    flag = BOUND_LOWER if best >= beta else (BOUND_EXACT if best > alpha0 else BOUND_UPPER)
    tt_store(tt, keys[n_ply, 0], keys[n_ply, 1], move if best > alpha0 else 0, best, raw_static, depth, flag, ply,
             ctrl[C_AGE])


# ------------------------------------------------------------------------------------------------------------
# Quiescence
# ------------------------------------------------------------------------------------------------------------

@kernel(signature=lambda game: _signature(game, False, *[types.int64] * 3), nogil=True)
def qsearch(board, st, hist, keys, tt, ctrl, ss, pv, moves, order, history, reps, net, ply, alpha, beta):
    checked, rep = _enter_node(board, st, hist, keys, ctrl, ss, reps, ply)
    if ctrl[C_STOP] != 0:
        return 0
    if rep != NO_SCORE:
        return rep
    if ply >= MAX_PLY:
        return _static(board, st, hist, keys, net)
    pv_node = beta - alpha > 1
    hash_move, tt_score, raw_static, _, _, _ = _probe_tt(tt, keys, st, 0, ply, alpha, beta, pv_node)
    if tt_score != NO_SCORE and not sees_move_limit(hist[st[ST_PLY], H_CLOCK], 0, MOVE_LIMIT_PLIES,
                                                    ctrl[P_MOVE_LIMIT_HORIZON]):
        return tt_score                             # (near the move limit the table settles nothing)
    alpha0 = alpha
    best = -INFINITE
    stand = -INFINITE
    if not checked:
        raw_static = _raw_evaluation(board, st, hist, keys, raw_static, net)
        stand = raw_static
        if stand >= beta:
            return stand
        if stand > alpha:
            alpha = stand
        best = stand
        n = generate_moves(board, st, moves[ply], GEN_CAPTURES)
    else:
        n = generate_moves(board, st, moves[ply], GEN_ALL)     # evasions: every move
    score_moves(board, st, moves[ply], order[ply], n, hash_move, ss[ply, SS_KILLER1], ss[ply, SS_KILLER2], 0, -1, -1,
                 history)
    legal = 0
    best_move = 0
    path_dep = 0
    for i in range(n):
        m = pick_next(moves[ply], order[ply], i, n)
        if not is_legal(board, st, m, checked):
            continue
        legal += 1
        # Delta pruning: even winning the victim for nothing would leave us well below alpha; and a capture
        # that loses material (SEE) is no way to improve on standing pat.
        if not checked and (stand + captured_value(board, m) + ctrl[P_QS_DELTA_MARGIN] <= alpha
                            or order[ply, i] < ORDER_CAPTURE):
            continue
        _do_move(board, st, hist, keys, reps, m)
        score = -qsearch(board, st, hist, keys, tt, ctrl, ss, pv, moves, order, history, reps, net, ply + 1,
                         -beta, -alpha)
        _undo_move(board, st, hist, keys, reps)
        if ctrl[C_STOP] != 0:
            return 0
        if score > best:
            best = score
            path_dep = ss[ply + 1, SS_PATH_DEP]
            if score > alpha:
                best_move = m
                alpha = score
                _update_pv(pv, ss, ply, m)
                if score >= beta:
                    break
    ss[ply, SS_PATH_DEP] = path_dep
    if checked and legal == 0:
        return no_move_score(True, ply)
    if path_dep == 0:
        _store_tt(tt, keys, st, ctrl, best_move, best, raw_static, alpha0, beta, 0, ply)
    return best


# ------------------------------------------------------------------------------------------------------------
# Main search
# ------------------------------------------------------------------------------------------------------------

@kernel(signature=lambda game: _signature(game, True, *[types.int64] * 4), nogil=True)
def pvs(board, st, hist, keys, tt, tb, ctrl, ss, pv, moves, order, history, reps, net, depth, ply, alpha, beta):
    """Principal-variation search of the position to ``depth`` plies within (alpha, beta); ply 0 is the root.
    The root's best move and score are left in ``ctrl`` and at the front of ``moves[0]``."""
    if depth <= 0:
        return qsearch(board, st, hist, keys, tt, ctrl, ss, pv, moves, order, history, reps, net, ply, alpha, beta)
    root = ply == 0
    pv_node = beta - alpha > 1
    n_ply = st[ST_PLY]
    hash_move = 0
    raw_static = NO_EVAL
    bound_score, bound, tt_depth = NO_SCORE, BOUND_NONE, -1
    excluded = ss[ply, SS_EXCLUDED]                 # a singular-extension search of this node leaves it out

    # Step 1. Enter the node.  The root is not counted, and the game is not over there (the driver knows).
    if root:
        checked = in_check(board, st)
        hist[n_ply, H_CHECK] = 1 if checked else 0
        ss[0, SS_PV_LEN] = 0
        ctrl[C_ROOT_DONE] = 0
        ctrl[C_ROOT_DEPTH] = depth
    else:
        checked, rep = _enter_node(board, st, hist, keys, ctrl, ss, reps, ply)
        if ctrl[C_STOP] != 0:
            return 0

        # Step 2. Positions decided by the rules: a repetition (judged by the game), the move limit (unless
        # the move that reached it left no legal reply: the referee judges that first).
        if rep != NO_SCORE:
            return rep
        if move_limit_reached(st, hist):
            ss[ply, SS_PATH_DEP] = 1
            if not _has_legal_move(board, st, moves[ply], checked):    # the last move mated: mate comes first
                return no_move_score(checked, ply)
            return DRAW_SCORE
        if ply >= MAX_PLY:
            return _static(board, st, hist, keys, net)

        # Step 3. Mate-distance pruning: no score here can beat a mate found nearer the root.
        alpha = max(alpha, -MATE_SCORE + ply)
        beta = min(beta, MATE_SCORE - ply - 1)
        if alpha >= beta:
            return alpha

        # Step 4. Endgame tables (not for a search that leaves a move out: they know the position's value).
        if excluded == 0:
            table_score = probe_tables(tb, board, st, hist, depth >= ctrl[C_TB_DEPTH], ply)
            if table_score != NO_SCORE:
                ctrl[C_TB_HITS] += 1
                return table_score

        # Step 5. Transposition table: the move to try first, and perhaps a cut (not with a move left out).
        hash_move, tt_score, raw_static, bound_score, bound, tt_depth = _probe_tt(tt, keys, st, depth, ply, alpha,
                                                                                  beta, pv_node)
        if sees_move_limit(hist[n_ply, H_CLOCK], depth, MOVE_LIMIT_PLIES, ctrl[P_MOVE_LIMIT_HORIZON]):
            bound = BOUND_NONE                      # near the move limit the table settles nothing
        elif tt_score != NO_SCORE and excluded == 0:
            return tt_score

    # Step 6. Static evaluation, and whether it improved on our previous turn (then prune less).
    ss[ply + 2, SS_KILLER1] = 0                    # the grandchildren's killers start afresh below each node
    ss[ply + 2, SS_KILLER2] = 0
    if checked:
        static = -INFINITE
        raw_static = NO_EVAL
        ss[ply, SS_EVAL] = -INFINITE
        improving = False
        if ply == 0 or ss[ply - 1, SS_NO_EXTENSION] == 0:
            depth += 1                              # check extension (not of a check a singular move gave)
    else:
        raw_static = _raw_evaluation(board, st, hist, keys, raw_static, net)
        static = raw_static
        ss[ply, SS_EVAL] = static
        improving = is_improving(ss, ply, static)
    prunable = not root and not pv_node and not checked and abs(beta) < MATE_BOUND

    # Step 7. Razoring: one ply left and far below alpha: only a capture can help.
    if prunable and depth == 1 and static + ctrl[P_RAZOR_MARGIN] <= alpha:
        return qsearch(board, st, hist, keys, tt, ctrl, ss, pv, moves, order, history, reps, net, ply, alpha, beta)

    # Step 8. Reverse futility: far above beta at shallow depth, a quiet move will not bring it back.
    if prunable and depth < ctrl[P_FUTILITY_DEPTH] and static - ctrl[P_FUTILITY_MARGIN] * (depth - improving) >= beta:
        return static

    # Step 9. Null move: give the opponent a free move; if we still beat beta, this node is not worth a search.
    if (prunable and excluded == 0 and depth >= ctrl[P_NULL_MIN_DEPTH] and hist[n_ply - 1, H_MOVE] != NULL_MOVE
            and static >= beta and null_move_allowed(board, st)):
        r = (ctrl[P_NULL_BASE_REDUCTION] + depth // ctrl[P_NULL_DEPTH_DIVISOR]
             + min((static - beta) // ctrl[P_NULL_EVAL_DIVISOR], ctrl[P_NULL_EVAL_MAX]))
        key = keys[n_ply, 0]
        reps[key & REP_MASK] += 1
        ss[ply, SS_HIST] = -1
        make_null_move(st, hist, keys)
        score = -pvs(board, st, hist, keys, tt, tb, ctrl, ss, pv, moves, order, history, reps, net, depth - 1 - r,
                     ply + 1, -beta, -beta + 1)
        unmake_null_move(st, hist)
        reps[key & REP_MASK] -= 1
        if ctrl[C_STOP] != 0:
            return 0
        if score >= beta and ss[ply + 1, SS_PATH_DEP] == 0:
            return beta

    # Step 10. Internal iterative reduction: no move from the table at a deep node, so search it shallower.
    if not root and hash_move == 0 and depth >= ctrl[P_IIR_DEPTH]:
        depth -= 1

    # Step 11. Singular extension (SINGULAR_DEPTH): the table's move, a lower bound stored deep enough, is
    # searched a ply deeper if every other move, searched to half the depth, fails below its score less a margin
    # (a search of this same node, ply and position, that leaves the move out); if instead that search beats beta
    # as well, more than one move does, and the node is cut (multi-cut).  Not on a line already extended beyond
    # the root's depth by more than SINGULAR_LINE_EXTENSION plies (its checks).  It runs before this node's own
    # moves are generated: it uses this ply's rows of the move stack.
    singular = False
    if (not root and excluded == 0 and ctrl[P_SINGULAR_DEPTH] > 0 and depth >= ctrl[P_SINGULAR_DEPTH]
            and ply + depth - ctrl[C_ROOT_DEPTH] <= ctrl[P_SINGULAR_LINE_EXTENSION]
            and hash_move != 0 and (bound == BOUND_LOWER or bound == BOUND_EXACT) and tt_depth >= depth - 3
            and abs(bound_score) < MATE_BOUND):
        singular_beta = bound_score - ctrl[P_SINGULAR_MARGIN] * depth
        ss[ply, SS_EXCLUDED] = hash_move
        score = pvs(board, st, hist, keys, tt, tb, ctrl, ss, pv, moves, order, history, reps, net, depth // 2, ply,
                    singular_beta - 1, singular_beta)
        ss[ply, SS_EXCLUDED] = 0
        ss[ply, SS_PV_LEN] = ply                    # (that search's PV is not this node's)
        if ctrl[C_STOP] != 0:
            return 0
        if score < singular_beta:
            singular = True
        elif singular_beta >= beta and ss[ply, SS_PATH_DEP] == 0:
            return singular_beta
        ss[ply, SS_PATH_DEP] = 0

    # Step 12. The moves: the root's list as the driver ordered it, elsewhere generated and ordered here.
    my_moves = moves[ply]
    my_order = order[ply]
    prev1 = previous_index(ss, ply, 1)
    prev2 = previous_index(ss, ply, 2)
    first = 0
    if root:
        n = ctrl[C_ROOT_MOVES]
        first = ctrl[C_ROOT_FIRST]
    else:
        n = generate_moves(board, st, my_moves, GEN_ALL)
        counter = history[HISTORY_SIZE + prev1] if prev1 >= 0 else 0
        score_moves(board, st, my_moves, my_order, n, hash_move, ss[ply, SS_KILLER1], ss[ply, SS_KILLER2], counter,
                     prev1, prev2, history)
    best = -INFINITE
    best_move = 0
    alpha0 = alpha
    legal = 0
    path_dep = 0
    lmp_count = (ctrl[P_LMP_BASE] + depth * depth) // (2 - improving)
    lmr_factor = lmr_depth_factor(depth, ctrl[P_LMR_DIVISOR])
    for i in range(first, n):
        if root:
            m = my_moves[i]
        else:
            m = pick_next(my_moves, my_order, i, n)
            if m == excluded or not is_legal(board, st, m, checked):
                continue
        legal += 1
        capture = is_capture(board, m)
        quiet_order = 0 if root else my_order[i]
        h = history_index(board, m)
        lmr = lmr_reduction(lmr_factor, legal)

        # Step 13. Shallow-depth pruning of late quiet moves (never of checks, never before a move has scored):
        # late-move pruning and futility pruning by the reduced depth.
        if (not root and not checked and not capture and best > -MATE_BOUND and depth < ctrl[P_LMP_DEPTH]
                and quiet_order < ORDER_KILLER):
            lmr_depth = max(depth - 1 - lmr, 0)
            if ((legal > lmp_count or (lmr_depth < ctrl[P_PARENT_FUTILITY_DEPTH] and static
                                       + ctrl[P_PARENT_FUTILITY_BASE]
                                       + ctrl[P_PARENT_FUTILITY_PER_PLY] * lmr_depth <= alpha))
                    and not gives_check(board, st, m)):
                continue

        # Step 13b. Pruning by exchange (SEE_PRUNE_DEPTH): a late move that loses more material by exchange than
        # the depth left could win back, quiets by their reduced depth, captures by the whole.
        if not root and not checked and best > -MATE_BOUND and depth < ctrl[P_SEE_PRUNE_DEPTH]:
            if capture:
                margin = ctrl[P_SEE_CAPTURE_MARGIN] * depth
            else:
                margin = ctrl[P_SEE_QUIET_MARGIN] * max(depth - 1 - lmr, 0)
            if not see_ge(board, st, m, -margin) and not gives_check(board, st, m):
                continue

        extension = 1 if singular and m == hash_move else 0
        new_depth = depth - 1 + extension
        ss[ply, SS_MOVE] = m
        ss[ply, SS_HIST] = h
        ss[ply, SS_NO_EXTENSION] = 1 if extension != 0 else 0
        _do_move(board, st, hist, keys, reps, m)

        # Step 14. Search the move: the first with the full window, the others with a null window (late quiet
        # ones reduced first), re-searched when they surprise.
        if legal == 1:
            score = -pvs(board, st, hist, keys, tt, tb, ctrl, ss, pv, moves, order, history, reps, net, new_depth,
                         ply + 1, -beta, -alpha)
        else:
            r = 0
            if (not root and depth >= ctrl[P_LMR_MIN_DEPTH] and not capture and quiet_order < ORDER_KILLER
                    and not in_check(board, st)):
                r = lmr
                if not pv_node:
                    r += 1
                if not improving:
                    r += 1
                stat = quiet_history(history, h, prev1, prev2) - ctrl[P_STAT_OFFSET]
                divisor = ctrl[P_STAT_DIVISOR]
                r -= stat // divisor if stat >= 0 else -((-stat) // divisor)
                r = max(0, min(r, depth - 2))
            score = -pvs(board, st, hist, keys, tt, tb, ctrl, ss, pv, moves, order, history, reps, net, new_depth - r,
                         ply + 1, -alpha - 1, -alpha)
            if score > alpha and r > 0:
                score = -pvs(board, st, hist, keys, tt, tb, ctrl, ss, pv, moves, order, history, reps, net, new_depth,
                             ply + 1, -alpha - 1, -alpha)
            if score > alpha and score < beta and ctrl[C_STOP] == 0:
                score = -pvs(board, st, hist, keys, tt, tb, ctrl, ss, pv, moves, order, history, reps, net, new_depth,
                             ply + 1, -beta, -alpha)
        _undo_move(board, st, hist, keys, reps)
        if ctrl[C_STOP] != 0:
            return 0
        if not root:
            my_order[i] = ORDER_SEARCHED_CAPTURE if capture else ORDER_SEARCHED_QUIET

        # Step 15. Keep the best; a cut-off ends the node.  The node's result depends on the path only if the
        # move that decided it does.
        if root:
            ctrl[C_ROOT_DONE] = i + 1 - first
        if score > best:
            best = score
            best_move = m
            path_dep = ss[ply + 1, SS_PATH_DEP]
            if score > alpha:
                alpha = score
                _update_pv(pv, ss, ply, m)
                if root:
                    _root_improved(ctrl, my_moves, i, m, score)
                if score >= beta:
                    if not root and not capture:
                        update_quiet_stats(board, ss, ctrl, history, ply, m, depth, my_moves, my_order, i)
                    break

    # Step 16. No legal move (the game says what that means); store what was learnt unless it depends on the path.
    if legal == 0:
        return alpha if excluded != 0 else no_move_score(checked, ply)    # (the move left out was the only one)
    ss[ply, SS_PATH_DEP] = path_dep
    if path_dep == 0 and not root and excluded == 0:
        _store_tt(tt, keys, st, ctrl, best_move, best, raw_static, alpha0, beta, depth, ply)
    return best


@kernel(signature=lambda game: _signature(game, True, *[types.int64] * 4), nogil=True)
def search(board, st, hist, keys, tt, tb, ctrl, ss, pv, moves, order, history, reps, net, depth, ply, alpha, beta):
    """``pvs`` as the driver calls it: with every array borrowed (``engine.borrow``), so that no node of the
    recursion pays numba's atomic reference counting for its arguments."""
    return pvs(borrowed(board), borrowed(st), borrowed(hist), borrowed(keys), borrowed(tt), borrowed(tb),
               borrowed(ctrl), borrowed(ss), borrowed(pv), borrowed(moves), borrowed(order), borrowed(history),
               borrowed(reps), borrowed(net), depth, ply, alpha, beta)


@kernel()
def seed_repetitions(st, hist, keys, reps):
    """Enter the game's positions since the last irreversible move (before the root) into the small hash."""
    reps[:] = 0
    n = st[ST_PLY]
    first = max(0, n - hist[n, H_CLOCK])
    for i in range(first, n):
        reps[keys[i, 0] & REP_MASK] += 1
