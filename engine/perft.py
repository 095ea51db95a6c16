"""Perft: count the leaves of the legal move tree (the standard check of a move generator).

Leaves are counted in bulk: at depth 1 the number of legal moves is the count, as Stockfish and
Fairy-Stockfish do, so our figures compare with theirs node for node.
"""
import time

import numpy as np
from numba import njit

from .xiangqi.board import MAX_MOVES, ST_SIDE, make_move, unmake_move
from .xiangqi.movegen import GEN_ALL, generate, in_check, is_legal
from .xiangqi.notation import move_name


@njit(cache=True)
def perft(board, st, hist, keys, depth, buffers, ply):
    moves = buffers[ply]
    n = generate(board, st[ST_SIDE], moves, GEN_ALL)
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


def perft_buffers(depth: int) -> np.ndarray:
    return np.zeros((max(depth, 1) + 1, MAX_MOVES), np.int32)


def run_perft(pos, depth: int, divide: bool = False, out=print) -> int:
    """Count leaves at ``depth`` from ``pos``; with ``divide`` print ``move: count`` per root move first.
    Always ends with the line ``nodes N time_ms T nps X``."""
    buffers = perft_buffers(depth)
    start = time.perf_counter()
    if depth <= 0:
        total = 1
    elif divide:
        total = 0
        for m in pos.legal_moves():
            if depth == 1:
                count = 1
            else:
                make_move(*pos.arrays, np.int32(m))
                count = int(perft(*pos.arrays, depth - 1, buffers, 0))
                unmake_move(pos.board, pos.st, pos.hist)
            out(f"{move_name(m)}: {count}")
            total += count
    else:
        total = int(perft(*pos.arrays, depth, buffers, 0))
    ms = (time.perf_counter() - start) * 1000
    out(f"nodes {total} time_ms {ms:.0f} nps {int(total / max(ms, 1e-3) * 1000)}")
    return total
