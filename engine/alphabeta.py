"""The search kernels (numba): principal-variation alpha-beta with quiescence.

Ingredients: transposition table (``tt``), check extension, null-move pruning guarded for endings without
pieces, reverse futility at shallow depth, late-move reductions, mate-distance pruning; move ordering hash move
-> captures by MVV/LVA -> two killers per ply -> history; repetition detection through a small hash of the keys
on the path (seed 001) and the Asian-rule judgement in ``xiangqi.repetition``.  Scores that depend on the path
(repetitions) are never stored in the table.

Endgame tables (``egtb.probe``): ``pvs`` probes a node entered by a capture (the only way into a smaller
material; quiet moves inside a table are never reached, since the node that entered it returned at once) and
returns the table's exact score.  Seed 000's rule "read the disk only beyond ply x": with at least
``ctrl[C_TB_DEPTH]`` plies of search left, where nodes are few, a chunk not yet in memory is read; deeper, where
nodes are many, only chunks already cached are used (Stockfish's SyzygyProbeDepth, counted the same way).

All state lives in arrays made once by the Python driver (``engine.search``):

* ``ctrl`` int64[CTRL_LEN]: stop flag, node counter and limit, selective depth, table age, root results,
  the tablebase disk depth and hit counter
* ``ss``   int32[MAX_PLY + 2, SS_LEN]: per ply the two killers, the PV length, the "path-dependent" flag
* ``pv``   int32[MAX_PLY + 2, MAX_PLY + 2]: triangular PV table
* ``moves``/``order`` int32[MAX_PLY + 2, MAX_MOVES]: move lists and their ordering scores, one row per ply
* ``history`` int32[16, 90]: quiet-move history by (piece, destination)
* ``reps`` uint8[REP_SIZE]: how many positions on the path (game + search) fall into each key bucket
"""
import math

import numpy as np
from numba import njit, types

from .egtb.probe import ILLEGAL as TB_ILLEGAL, tb_probe, tb_score
from .tt import (BOUND_EXACT, BOUND_LOWER, BOUND_UPPER, MATE_BOUND, MATE_SCORE, score_from_tt, tt_probe,
                 tt_store)
from .xiangqi.repetition import BAN_SCORE, NO_REPETITION, REP_MASK, repetition_score
from .xiangqi.board import (H_CAPTURED, H_CHECK, H_CLOCK, H_MOVE, NULL_MOVE, MAX_MOVES, ST_PLY, ST_SIDE, BLACK_BIT, HORSE, ROOK, CANNON,
                            make_move, unmake_move, make_null_move, unmake_null_move)
from .xiangqi.evaluate import PIECE_VALUE, evaluate
from .xiangqi.movegen import GEN_ALL, GEN_CAPTURES, generate, in_check, is_legal

INFINITE = 32000
assert BAN_SCORE < MATE_BOUND       # rule wins rank below every mate
MAX_PLY = 96
DRAW_SCORE = 0

C_STOP, C_NODES, C_NODE_LIMIT, C_SELDEPTH, C_AGE, C_BEST_MOVE, C_BEST_SCORE, C_ROOT_DONE, C_TB_DEPTH, C_TB_HITS = \
    range(10)
CTRL_LEN = 10
SS_KILLER1, SS_KILLER2, SS_PV_LEN, SS_PATH_DEP, SS_EVAL = range(5)
SS_LEN = 5

ORDER_HASH = 1 << 30
ORDER_CAPTURE = 1 << 29
ORDER_KILLER = 1 << 28
HISTORY_MAX = 1 << 20


def _lmr_table():
    t = np.zeros((64, MAX_MOVES), np.int32)
    for d in range(1, 64):
        for i in range(1, MAX_MOVES):
            t[d, i] = int(0.5 + math.log(d) * math.log(i) / 2.0)
    return t


LMR = _lmr_table()


def _kernel_signature(with_tables, *scalars):
    """One explicit signature for a recursive kernel.  numba's cache mis-links a recursive function that is
    reached with argument types other than those of its own recursive calls (numba issues #6061, #6713: a
    call through a null pointer); with a single declared signature every call is cast to the same one.
    ``with_tables``: the tablebase arrays (``egtb.probe.arrays_type``) follow the transposition table."""
    from numba import typeof, types
    from .egtb.probe import arrays_type
    from .tt import new_table
    from .xiangqi.board import new_state
    arrays = tuple(typeof(a) for a in new_state()) + (typeof(new_table(1)),) + (
        (arrays_type(),) if with_tables else ()) + tuple(typeof(a) for a in new_work_arrays())
    return types.int64(*arrays, *scalars)


def new_work_arrays():
    """The per-search arrays (see the module docstring): ctrl, ss, pv, moves, order, history, reps."""
    return (np.zeros(CTRL_LEN, np.int64), np.zeros((MAX_PLY + 2, SS_LEN), np.int32),
            np.zeros((MAX_PLY + 2, MAX_PLY + 2), np.int32), np.zeros((MAX_PLY + 2, MAX_MOVES), np.int32),
            np.zeros((MAX_PLY + 2, MAX_MOVES), np.int32), np.zeros((16, 90), np.int32),
            np.zeros(REP_MASK + 1, np.uint8))


# ------------------------------------------------------------------------------------------------------------
# Small helpers
# ------------------------------------------------------------------------------------------------------------

@njit(cache=True, inline="always")
def _do_move(board, st, hist, keys, reps, move):
    reps[keys[st[ST_PLY], 0] & REP_MASK] += 1
    make_move(board, st, hist, keys, move)


@njit(cache=True, inline="always")
def _undo_move(board, st, hist, keys, reps):
    unmake_move(board, st, hist)
    reps[keys[st[ST_PLY], 0] & REP_MASK] -= 1


@njit(cache=True, inline="always")
def _count_node(ctrl):
    ctrl[C_NODES] += 1
    if (ctrl[C_NODES] & 1023) == 0 and ctrl[C_NODES] >= ctrl[C_NODE_LIMIT]:
        ctrl[C_STOP] = 1


@njit(cache=True, inline="always")
def _enter_node(board, st, hist, keys, ctrl, ss, reps, ply):
    """What every node does first: count itself, reset its PV and path flag, record in the history whether the
    side to move is in check (the repetition rules read it), and judge a repetition if the small hash says one
    is possible.  Returns (in check, repetition score or NO_REPETITION)."""
    _count_node(ctrl)
    ss[ply, SS_PV_LEN] = ply
    ss[ply, SS_PATH_DEP] = 0
    if ply > ctrl[C_SELDEPTH]:
        ctrl[C_SELDEPTH] = ply
    checked = in_check(board, st)
    n_ply = st[ST_PLY]
    hist[n_ply, H_CHECK] = 1 if checked else 0
    rep = NO_REPETITION
    if reps[keys[n_ply, 0] & REP_MASK] != 0:
        rep = repetition_score(board, st, hist, keys)
        if rep != NO_REPETITION:
            ss[ply, SS_PATH_DEP] = 1
    return checked, rep


@njit(cache=True)
def _has_pieces(board, side):
    """Enough pieces for null-move pruning to be safe: a rook, or two horses/cannons (zugzwang is real in
    xiangqi endings with only pawns, advisors and elephants)."""
    count = 0
    base = side * BLACK_BIT
    for sq in range(90):
        p = board[sq] - base
        if p == ROOK:
            return True
        if p == HORSE or p == CANNON:
            count += 1
    return count >= 2


@njit(cache=True)
def _score_moves(board, moves, order, n, hash_move, killer1, killer2, history):
    for i in range(n):
        m = moves[i]
        to = m & 127
        frm = m >> 7
        if m == hash_move:
            order[i] = ORDER_HASH
        elif board[to] != 0:
            order[i] = ORDER_CAPTURE + PIECE_VALUE[board[to] & 7] * 16 - PIECE_VALUE[board[frm] & 7] // 16
        elif m == killer1:
            order[i] = ORDER_KILLER + 1
        elif m == killer2:
            order[i] = ORDER_KILLER
        else:
            order[i] = history[board[frm], to]


@njit(cache=True, inline="always")
def _pick(moves, order, i, n):
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


@njit(cache=True, inline="always")
def _update_pv(pv, ss, ply, move):
    pv[ply, ply] = move
    end = ss[ply + 1, SS_PV_LEN]
    for j in range(ply + 1, end):
        pv[ply, j] = pv[ply + 1, j]
    ss[ply, SS_PV_LEN] = max(end, ply + 1)


@njit(cache=True)
def _reward_quiet(board, ss, history, ply, move, depth):
    if ss[ply, SS_KILLER1] != move:
        ss[ply, SS_KILLER2] = ss[ply, SS_KILLER1]
        ss[ply, SS_KILLER1] = move
    p = board[move >> 7]
    history[p, move & 127] += depth * depth
    if history[p, move & 127] > HISTORY_MAX:
        for a in range(16):
            for b in range(90):
                history[a, b] //= 2


# ------------------------------------------------------------------------------------------------------------
# Quiescence
# ------------------------------------------------------------------------------------------------------------

@njit(_kernel_signature(False, *[types.int64] * 3), cache=True, nogil=True)
def qsearch(board, st, hist, keys, tt, ctrl, ss, pv, moves, order, history, reps, ply, alpha, beta):
    checked, rep = _enter_node(board, st, hist, keys, ctrl, ss, reps, ply)
    if ctrl[C_STOP] != 0:
        return 0
    if rep != NO_REPETITION:
        return rep
    if ply >= MAX_PLY:
        return evaluate(board, st)
    best = -INFINITE
    if not checked:
        stand = evaluate(board, st)
        if stand >= beta:
            return stand
        if stand > alpha:
            alpha = stand
        best = stand
        n = generate(board, st[ST_SIDE], moves[ply], GEN_CAPTURES)
    else:
        n = generate(board, st[ST_SIDE], moves[ply], GEN_ALL)     # evasions: every move
    _score_moves(board, moves[ply], order[ply], n, 0, ss[ply, SS_KILLER1], ss[ply, SS_KILLER2], history)
    legal = 0
    path_dep = 0
    for i in range(n):
        m = _pick(moves[ply], order[ply], i, n)
        if not is_legal(board, st, m, checked):
            continue
        legal += 1
        _do_move(board, st, hist, keys, reps, m)
        score = -qsearch(board, st, hist, keys, tt, ctrl, ss, pv, moves, order, history, reps, ply + 1,
                         -beta, -alpha)
        _undo_move(board, st, hist, keys, reps)
        if ctrl[C_STOP] != 0:
            return 0
        path_dep |= ss[ply + 1, SS_PATH_DEP]
        if score > best:
            best = score
            if score > alpha:
                alpha = score
                _update_pv(pv, ss, ply, m)
                if score >= beta:
                    break
    ss[ply, SS_PATH_DEP] = path_dep
    if checked and legal == 0:
        return -MATE_SCORE + ply          # no legal move loses (mate or, in xiangqi, "stalemate" alike)
    return best


# ------------------------------------------------------------------------------------------------------------
# Main search
# ------------------------------------------------------------------------------------------------------------

@njit(_kernel_signature(True, *[types.int64] * 4), cache=True, nogil=True)
def pvs(board, st, hist, keys, tt, tb, ctrl, ss, pv, moves, order, history, reps, depth, ply, alpha, beta):
    if depth <= 0:
        return qsearch(board, st, hist, keys, tt, ctrl, ss, pv, moves, order, history, reps, ply, alpha, beta)
    checked, rep = _enter_node(board, st, hist, keys, ctrl, ss, reps, ply)
    if ctrl[C_STOP] != 0:
        return 0
    pv_node = beta - alpha > 1
    n_ply = st[ST_PLY]
    # Rule-decided positions: repetition (judged by the Asian rules), 60 moves without capture.
    if rep != NO_REPETITION:
        return rep
    if hist[n_ply, H_CLOCK] >= 120:
        ss[ply, SS_PATH_DEP] = 1
        return DRAW_SCORE
    if ply >= MAX_PLY:
        return evaluate(board, st)

    # Mate-distance pruning.
    alpha = max(alpha, -MATE_SCORE + ply)
    beta = min(beta, MATE_SCORE - ply - 1)
    if alpha >= beta:
        return alpha

    # Endgame tables: a capture may have entered one (see the module docstring for the disk rule).
    if hist[n_ply - 1, H_CAPTURED] != 0:
        code = tb_probe(tb, board, st[ST_SIDE], depth >= ctrl[C_TB_DEPTH])
        if code >= 0 and code != TB_ILLEGAL:
            ctrl[C_TB_HITS] += 1
            return tb_score(code, ply)

    key = keys[n_ply, 0]
    lock = keys[n_ply, 1]
    hash_move = 0
    e = tt_probe(tt, key, lock)
    if e >= 0:
        hash_move = tt[e].move
        if not pv_node and tt[e].depth >= depth:
            s = score_from_tt(tt[e].score, ply)
            f = tt[e].flag
            if f == BOUND_EXACT or (f == BOUND_LOWER and s >= beta) or (f == BOUND_UPPER and s <= alpha):
                return s

    if checked:
        depth += 1                                  # check extension
        static = -INFINITE
    else:
        static = evaluate(board, st)
        # Reverse futility: far above beta at shallow depth, a quiet move will not bring it back.
        if not pv_node and depth <= 3 and static - 120 * depth >= beta and abs(beta) < MATE_BOUND:
            return static
        # Null move: give the opponent a free move; if we still beat beta, this node is not worth a search.
        if (not pv_node and depth >= 3 and hist[n_ply - 1, H_MOVE] != NULL_MOVE and static >= beta and abs(beta) < MATE_BOUND
                and _has_pieces(board, st[ST_SIDE])):
            r = 3 + depth // 6
            reps[key & REP_MASK] += 1
            make_null_move(st, hist, keys)
            score = -pvs(board, st, hist, keys, tt, tb, ctrl, ss, pv, moves, order, history, reps, depth - 1 - r,
                         ply + 1, -beta, -beta + 1)
            unmake_null_move(st)
            reps[key & REP_MASK] -= 1
            if ctrl[C_STOP] != 0:
                return 0
            if score >= beta and ss[ply + 1, SS_PATH_DEP] == 0:
                return beta

    my_moves = moves[ply]
    my_order = order[ply]
    n = generate(board, st[ST_SIDE], my_moves, GEN_ALL)
    _score_moves(board, my_moves, my_order, n, hash_move, ss[ply, SS_KILLER1], ss[ply, SS_KILLER2], history)
    best = -INFINITE
    best_move = 0
    alpha0 = alpha
    legal = 0
    path_dep = 0
    for i in range(n):
        m = _pick(my_moves, my_order, i, n)
        if not is_legal(board, st, m, checked):
            continue
        legal += 1
        capture = board[m & 127] != 0
        _do_move(board, st, hist, keys, reps, m)
        if legal == 1:
            score = -pvs(board, st, hist, keys, tt, tb, ctrl, ss, pv, moves, order, history, reps, depth - 1,
                         ply + 1, -beta, -alpha)
        else:
            # Late quiet moves are searched shallower first; a surprise is re-searched at full depth.
            r = 0
            if depth >= 3 and not capture and not checked and legal > 3 and my_order[i] < ORDER_KILLER:
                if not in_check(board, st):
                    r = LMR[min(depth, 63), min(legal, MAX_MOVES - 1)]
                    if pv_node and r > 0:
                        r -= 1
                    r = min(r, depth - 2)
            score = -pvs(board, st, hist, keys, tt, tb, ctrl, ss, pv, moves, order, history, reps, depth - 1 - r,
                         ply + 1, -alpha - 1, -alpha)
            if score > alpha and r > 0:
                score = -pvs(board, st, hist, keys, tt, tb, ctrl, ss, pv, moves, order, history, reps, depth - 1,
                             ply + 1, -alpha - 1, -alpha)
            if score > alpha and score < beta:
                score = -pvs(board, st, hist, keys, tt, tb, ctrl, ss, pv, moves, order, history, reps, depth - 1,
                             ply + 1, -beta, -alpha)
        _undo_move(board, st, hist, keys, reps)
        if ctrl[C_STOP] != 0:
            return 0
        path_dep |= ss[ply + 1, SS_PATH_DEP]
        if score > best:
            best = score
            best_move = m
            if score > alpha:
                alpha = score
                _update_pv(pv, ss, ply, m)
                if score >= beta:
                    if not capture:
                        _reward_quiet(board, ss, history, ply, m, depth)
                    break
    if legal == 0:
        return -MATE_SCORE + ply                   # no legal move loses, in check or not
    ss[ply, SS_PATH_DEP] = path_dep
    if path_dep == 0:
        flag = BOUND_LOWER if best >= beta else (BOUND_EXACT if best > alpha0 else BOUND_UPPER)
        tt_store(tt, key, lock, best_move if best > alpha0 else 0, best, depth, flag, ply, ctrl[C_AGE])
    return best


@njit(cache=True, nogil=True)
def search_root(board, st, hist, keys, tt, tb, ctrl, ss, pv, moves, order, history, reps, root_moves, n_root,
                depth, alpha, beta):
    """Search the root moves (already ordered, best first) to ``depth`` within (alpha, beta).

    The best move found moves to the front of ``root_moves``; ``ctrl[C_BEST_MOVE]``/``ctrl[C_BEST_SCORE]``
    hold it and ``ctrl[C_ROOT_DONE]`` how many root moves were fully searched before any stop."""
    ctrl[C_ROOT_DONE] = 0
    ss[0, SS_PV_LEN] = 0
    checked = in_check(board, st)
    hist[st[ST_PLY], H_CHECK] = 1 if checked else 0
    if checked:
        depth += 1
    best = -INFINITE
    child_ply = np.int64(1)                        # a variable, not a literal: see _kernel_signature
    for i in range(n_root):
        m = root_moves[i]
        _do_move(board, st, hist, keys, reps, m)
        if i == 0:
            score = -pvs(board, st, hist, keys, tt, tb, ctrl, ss, pv, moves, order, history, reps, depth - 1,
                         child_ply, -beta, -alpha)
        else:
            score = -pvs(board, st, hist, keys, tt, tb, ctrl, ss, pv, moves, order, history, reps, depth - 1,
                         child_ply, -alpha - 1, -alpha)
            if score > alpha and score < beta and ctrl[C_STOP] == 0:
                score = -pvs(board, st, hist, keys, tt, tb, ctrl, ss, pv, moves, order, history, reps, depth - 1,
                             child_ply, -beta, -alpha)
        _undo_move(board, st, hist, keys, reps)
        if ctrl[C_STOP] != 0:
            break
        ctrl[C_ROOT_DONE] = i + 1
        if score > best:
            best = score
            if score > alpha:
                _update_pv(pv, ss, 0, m)
                ctrl[C_BEST_MOVE] = m
                ctrl[C_BEST_SCORE] = score
                for j in range(i, 0, -1):             # keep the best move first for the next iteration
                    root_moves[j] = root_moves[j - 1]
                root_moves[0] = m
                alpha = score
                if score >= beta:
                    break
    return best


@njit(cache=True)
def seed_repetitions(st, hist, keys, reps):
    """Enter the game's positions since the last capture (before the root) into the small hash."""
    reps[:] = 0
    n = st[ST_PLY]
    first = max(0, n - hist[n, H_CLOCK])
    for i in range(first, n):
        reps[keys[i, 0] & REP_MASK] += 1
