"""Static exchange evaluation speed: nanoseconds per ``see`` / ``see_ge`` call on every legal capture (and, apart,
every quiet move) of positions met along seeded random games, called from a numba loop.

    shuai bench see [--positions 3000] [--plies 100] [--capture-bias 0.3] [--seconds 1]
"""
import random
import time

import numpy as np
import click
from numba import njit

from ..xiangqi.position import Position
from ..xiangqi.see import see, see_ge


def sample(count, seed, plies=100, capture_bias=0.3):
    """Boards (int8[n, 90]) and, per move, its board's row and the move: (boards, rows, moves, is_capture)."""
    rng = random.Random(seed)
    boards, rows, moves, capture = [], [], [], []
    while len(boards) < count:
        pos = Position()
        for _ in range(plies):
            legal = pos.legal_moves()
            if not legal or len(boards) >= count:
                break
            for m in legal:
                rows.append(len(boards))
                moves.append(m)
                capture.append(pos.board[m & 127] != 0)
            boards.append(pos.board.copy())
            captures = [m for m in legal if pos.board[m & 127]]
            pos.push(rng.choice(captures) if captures and rng.random() < capture_bias else rng.choice(legal))
    return np.array(boards), np.array(rows, np.int64), np.array(moves, np.int32), np.array(capture)


LOOP_ONLY, SEE, SEE_GE = 0, 1, 2


@njit(cache=True)
def _run(boards, rows, moves, reps, what):
    """Call ``what`` (see, see_ge(0), or nothing but reading the target square, so the loop is not optimised
    away) on every move ``reps`` times; the same loop for all three, so the loop alone can be subtracted."""
    total = 0
    for _ in range(reps):
        for i in range(moves.size):
            if what == SEE:
                total += see(boards[rows[i]], moves[i])
            elif what == SEE_GE:
                total += see_ge(boards[rows[i]], moves[i], 0)
            else:
                total += boards[rows[i]][moves[i] & 127]
    return total


def per_call(what, boards, rows, moves, seconds):
    """Nanoseconds a call: the fastest of several timed runs (the machine is shared: the minimum is the
    measurement least disturbed by other processes)."""
    _run(boards, rows, moves, 1, what)                      # compile / load
    reps, elapsed = 1, 0.0
    while elapsed < 0.05:
        reps *= 2
        t = time.perf_counter()
        _run(boards, rows, moves, reps, what)
        elapsed = time.perf_counter() - t
    best, spent = elapsed, 0.0
    while spent < seconds:
        t = time.perf_counter()
        _run(boards, rows, moves, reps, what)
        elapsed = time.perf_counter() - t
        best, spent = min(best, elapsed), spent + elapsed
    return best / (reps * moves.size) * 1e9


@click.command()
@click.option("--positions", type=click.IntRange(1), default=3000, show_default=True)
@click.option("--seed", type=int, default=7, show_default=True)
@click.option("--plies", type=click.IntRange(1), default=100, show_default=True, help="Length of each random game.")
@click.option("--capture-bias", type=click.FloatRange(0, 1), default=0.3, show_default=True,
              help="How often a game prefers a capture.")
@click.option("--seconds", type=click.FloatRange(0.01), default=1.0, show_default=True)
def see_speed(positions, seed, plies, capture_bias, seconds):
    """Static exchange evaluation speed: ns per see / see_ge call on the captures (and, apart, the quiet moves)
    of positions met along seeded random games, called from a numba loop."""
    boards, rows, moves, capture = sample(positions, seed, plies, capture_bias)
    for label, mask in (("captures", capture), ("quiet moves", ~capture)):
        r, m = rows[mask], moves[mask]
        base = per_call(LOOP_ONLY, boards, r, m, seconds)
        a = per_call(SEE, boards, r, m, seconds)
        b = per_call(SEE_GE, boards, r, m, seconds)
        print(f"{label:12s} {m.size:7d} moves: see {a - base:6.1f} ns/call, see_ge(0) {b - base:6.1f} ns/call "
              f"(loop overhead {base:.1f} ns subtracted)")
