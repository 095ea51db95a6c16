"""Time management: how long to think, from the clock values of ``go``.

Two numbers come out: a *soft* limit (do not start another iteration after it) and a *hard* limit (stop the
search, whatever it is doing).  A safety margin covers the time between our ``bestmove`` and the GUI's clock:
pipes, the GUI's own lag; it grows with the time left, so at 10 s + 0.1 s the engine never flags.

Under a clock (not ``movetime``) the searcher adapts the soft limit after every iteration, as Stockfish does:
``scale_soft`` shortens it while the best move stays the same and the score holds, lengthens it when the best
move has just changed or the score falls (never beyond the hard limit), and ``may_start_iteration`` refuses an
iteration that would probably not finish before it (each one takes about as long as all the previous together).
"""
from dataclasses import dataclass
from typing import Mapping, Sequence

from .search_params import time_values

MOVE_OVERHEAD = 0.05          # seconds reserved per move for I/O and the GUI (the Move Overhead option's default:
                              # more than Stockfish's 10 ms, for a Python engine's start of a search and its pipes)
# What keeps the clock safe, whatever the tunable parameters say: a reserve of the clock never planned for (the
# overhead and 2% of the clock, at most half of it), and a hard limit of at most 40% of the rest (90% of it on the
# last move before a time control).
RESERVE_SHARE = 0.02
HARD_SHARE = 0.4
LAST_MOVE_HARD_SHARE = 0.9

# The tunable parameters (engine.search_params.TIME_PARAMS, set by the SearchParams option): how the soft limit is
# planned (TIME_MOVES_TO_GO, TIME_INCREMENT_SHARE, TIME_HARD_PER_SOFT) and scaled after each iteration
# (scale_soft: TIME_STABLE_*, TIME_CHANGE_*, TIME_TREND_ITERATIONS, TIME_FALL_*, TIME_RISE_SAVING), and when a
# new iteration may start (TIME_NEXT_ITERATION: the iterations of this engine take 1.5-2x the time of all the
# previous together, so one started later would often end past the soft limit, and sometimes be cut by the hard
# one, its work mostly lost).  ``p`` below is {name: value}, ``search_params.time_values``; the defaults when
# not given.
DEFAULTS = time_values()


@dataclass
class Budget:
    soft: float | None          # None: no time limit (depth/nodes/infinite)
    hard: float | None
    clock: bool = False         # from the clock (time_left): the search scales ``soft`` (scale_soft)


def budget(limits, p: Mapping[str, int] = DEFAULTS) -> Budget:
    overhead = MOVE_OVERHEAD if limits.overhead is None else limits.overhead
    if limits.movetime is not None:
        t = max(0.01, limits.movetime - overhead)
        return Budget(t, t)
    if limits.time_left is None:
        return Budget(None, None)
    left = max(0.0, limits.time_left)
    inc = max(0.0, limits.increment)
    mtg = limits.movestogo if limits.movestogo and limits.movestogo > 0 else p["TIME_MOVES_TO_GO"]
    reserve = min(left * 0.5, overhead + RESERVE_SHARE * left)     # never spend this part of the clock
    usable = max(0.0, left - reserve)
    soft = usable / mtg + inc * p["TIME_INCREMENT_SHARE"] / 100
    hard = min(usable * (LAST_MOVE_HARD_SHARE if mtg == 1 else HARD_SHARE), soft * p["TIME_HARD_PER_SOFT"] / 100)
    soft = min(soft, hard)
    return Budget(max(0.005, soft), max(0.01, hard), clock=True)


def _stability(best_moves: Sequence, p: Mapping[str, int]) -> float:
    """< 1 when the last best move has been the best for TIME_STABLE_AFTER iterations or more."""
    run = 1
    while run < len(best_moves) and best_moves[-1 - run] == best_moves[-1]:
        run += 1
    if run < p["TIME_STABLE_AFTER"]:
        return 1.0
    return max(p["TIME_STABLE_MIN"], 100 - p["TIME_STABLE_STEP"] * (run - p["TIME_STABLE_AFTER"] + 1)) / 100


def _instability(best_moves: Sequence, p: Mapping[str, int]) -> float:
    """>= 1: 1 + TIME_CHANGE_EXTRA for a change at the last iteration, each earlier change decayed by
    TIME_CHANGE_DECAY per iteration since."""
    changes = 0.0
    decay = p["TIME_CHANGE_DECAY"] / 100
    for i in range(1, len(best_moves)):
        if best_moves[i] != best_moves[i - 1]:
            changes += decay ** (len(best_moves) - 1 - i)
    return 1.0 + p["TIME_CHANGE_EXTRA"] / 100 * changes


def _trend(scores: Sequence[int], p: Mapping[str, int]) -> float:
    """> 1 when the last score fell below the mean of the TIME_TREND_ITERATIONS before it, < 1 when it rose."""
    if len(scores) < 2:
        return 1.0
    before = scores[-1 - p["TIME_TREND_ITERATIONS"]:-1]
    fall = sum(before) / len(before) - scores[-1]
    if fall >= 0:
        return 1.0 + p["TIME_FALL_EXTRA"] / 100 * min(1.0, fall / p["TIME_FALL_CP"])
    return 1.0 - p["TIME_RISE_SAVING"] / 100 * min(1.0, -fall / p["TIME_FALL_CP"])


def scale_soft(soft: float, best_moves: Sequence, scores: Sequence[int], hard: float | None = None,
               p: Mapping[str, int] = DEFAULTS) -> float:
    """The soft limit to use after the iterations so far: ``best_moves[i]`` and ``scores[i]`` (centipawns, the
    side to move's view) are those of iteration i + 1, the last the iteration just completed; ``soft`` is the
    budget's.  At the defaults between 0.44x (a move stable for 7 iterations, the score up) and 3x (a move that
    has changed at each iteration, the score down), and never above ``hard``."""
    scaled = soft * _stability(best_moves, p) * _instability(best_moves, p) * _trend(scores, p)
    return scaled if hard is None else min(scaled, hard)


def may_start_iteration(elapsed: float, soft: float, p: Mapping[str, int] = DEFAULTS) -> bool:
    """May a new iteration start ``elapsed`` seconds into the move, with this (scaled) soft limit?"""
    return elapsed < p["TIME_NEXT_ITERATION"] / 100 * soft
