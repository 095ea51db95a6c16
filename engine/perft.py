"""Perft: count the leaves of the legal move tree (the standard check of a move generator), for any game.

Leaves are counted in bulk: at depth 1 the number of legal moves is the count, as Stockfish and
Fairy-Stockfish do, so our figures compare with theirs node for node.  The kernel is a template compiled per
game (``engine.template``); ``run_perft`` finds the game's through the position.
"""
import time

import numpy as np
from numba import typeof, types

from .borrow import borrowed
from .template import Template

TEMPLATE = Template(globals(), ("new_state", "GEN_ALL", "generate_moves", "in_check", "is_legal", "make_move", "unmake_move"))


def _signature(game):
    """Recursive kernels carry one explicit signature (see ``engine.template``)."""
    arrays = tuple(typeof(a) for a in game["new_state"]())
    return types.int64(*arrays, types.int64, typeof(perft_buffers(1, 1)), types.int64)


@TEMPLATE.kernel(signature=_signature)
def perft(board, st, hist, keys, depth, buffers, ply):
    moves = buffers[ply]
    n = generate_moves(board, st, moves, GEN_ALL)
    checked = in_check(board, st)
    total = np.int64(0)
    for i in range(n):
        m = moves[i]
        if not is_legal(board, st, m, checked):
            continue
        if depth <= 1:
            total += 1
        else:
            make_move(board, st, hist, keys, m)
            total += perft(board, st, hist, keys, depth - 1, buffers, ply + 1)
            unmake_move(board, st, hist)
    return total


@TEMPLATE.kernel(signature=_signature)
def count(board, st, hist, keys, depth, buffers, ply):
    """``perft`` with its arrays borrowed (``engine.borrow``): no reference counting at each node."""
    return perft(borrowed(board), borrowed(st), borrowed(hist), borrowed(keys), depth, borrowed(buffers), ply)


def perft_buffers(depth: int, max_moves: int) -> np.ndarray:
    return np.zeros((max(depth, 1) + 1, max_moves), np.int32)


def perft_count(pos, depth: int) -> int:
    """Leaves of the legal move tree of ``pos`` at ``depth`` (>= 1)."""
    kernels = pos.game.kernels()
    return int(kernels.perft.count(*pos.arrays, depth, perft_buffers(depth, kernels.MAX_MOVES), 0))


def run_perft(pos, depth: int, divide: bool = False, out=print) -> int:
    """Count leaves at ``depth`` from ``pos``; with ``divide`` print ``move: count`` per root move first.
    Always ends with the line ``nodes N time_ms T nps X``."""
    pos.game.kernels().perft.count          # loaded before the clock starts
    start = time.perf_counter()
    if depth <= 0:
        total = 1
    elif divide:
        total = 0
        for m in pos.legal_moves():
            if depth == 1:
                count = 1
            else:
                pos.push(m)
                count = perft_count(pos, depth - 1)
                pos.pop()
            out(f"{pos.game.move_name(m)}: {count}")
            total += count
    else:
        total = perft_count(pos, depth)
    ms = (time.perf_counter() - start) * 1000
    out(f"nodes {total} time_ms {ms:.0f} nps {int(total / max(ms, 1e-3) * 1000)}")
    return total
