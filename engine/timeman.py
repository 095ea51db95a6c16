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
from typing import Sequence

MOVE_OVERHEAD = 0.05          # seconds reserved per move for I/O and the GUI (the Move Overhead option's default:
                              # more than Stockfish's 10 ms, for a Python engine's start of a search and its pipes)
DEFAULT_MOVES_TO_GO = 16      # sudden death: plan as if this many moves remained (the search stops early, see scale_soft)


# The soft limit of a clock search, scaled after each iteration (scale_soft).
STABLE_AFTER = 3            # the same best move this many iterations in a row starts to save time:
STABLE_STEP = 0.1           #   10% less for that iteration and for each further one,
STABLE_MIN = 0.55           #   down to this factor (7 iterations or more of the same move)
CHANGE_EXTRA = 0.5          # a best move that changed at the last iteration: +50%; an earlier change counts
CHANGE_DECAY = 0.5          #   half as much for each iteration since (so at most 1 + 0.5 / (1 - 0.5) = 2x)
TREND_ITERATIONS = 3        # the score is compared with the mean of this many iterations before the last
FALL_CP = 30                # a score that fell by this many centipawns (or more) below that mean:
FALL_EXTRA = 0.5            #   +50% (linear below); one that rose as much:
RISE_SAVING = 0.2           #   -20%
# The next iteration is started only before this fraction of the (scaled) soft limit: the iterations of this
# engine take 1.5-2x the time of all the previous together, so one started later would often end past the
# soft limit, and sometimes be cut by the hard one (its work mostly lost).
NEXT_ITERATION_FRACTION = 0.6


@dataclass
class Budget:
    soft: float | None          # None: no time limit (depth/nodes/infinite)
    hard: float | None
    clock: bool = False         # from the clock (time_left): the search scales ``soft`` (scale_soft)


def budget(limits) -> Budget:
    overhead = MOVE_OVERHEAD if limits.overhead is None else limits.overhead
    if limits.movetime is not None:
        t = max(0.01, limits.movetime - overhead)
        return Budget(t, t)
    if limits.time_left is None:
        return Budget(None, None)
    left = max(0.0, limits.time_left)
    inc = max(0.0, limits.increment)
    mtg = limits.movestogo if limits.movestogo and limits.movestogo > 0 else DEFAULT_MOVES_TO_GO
    reserve = min(left * 0.5, overhead + 0.02 * left)           # never spend this part of the clock
    usable = max(0.0, left - reserve)
    soft = usable / mtg + inc * 0.75
    hard = min(usable * (0.9 if mtg == 1 else 0.4), soft * 4.0)
    soft = min(soft, hard)
    return Budget(max(0.005, soft), max(0.01, hard), clock=True)


def _stability(best_moves: Sequence) -> float:
    """< 1 when the last best move has been the best for STABLE_AFTER iterations or more."""
    run = 1
    while run < len(best_moves) and best_moves[-1 - run] == best_moves[-1]:
        run += 1
    if run < STABLE_AFTER:
        return 1.0
    return max(STABLE_MIN, 1.0 - STABLE_STEP * (run - STABLE_AFTER + 1))


def _instability(best_moves: Sequence) -> float:
    """>= 1: 1 + CHANGE_EXTRA for a change at the last iteration, each earlier change decayed by CHANGE_DECAY
    per iteration since."""
    changes = 0.0
    for i in range(1, len(best_moves)):
        if best_moves[i] != best_moves[i - 1]:
            changes += CHANGE_DECAY ** (len(best_moves) - 1 - i)
    return 1.0 + CHANGE_EXTRA * changes


def _trend(scores: Sequence[int]) -> float:
    """> 1 when the last score fell below the mean of the TREND_ITERATIONS before it, < 1 when it rose."""
    if len(scores) < 2:
        return 1.0
    before = scores[-1 - TREND_ITERATIONS:-1]
    fall = sum(before) / len(before) - scores[-1]
    if fall >= 0:
        return 1.0 + FALL_EXTRA * min(1.0, fall / FALL_CP)
    return 1.0 - RISE_SAVING * min(1.0, -fall / FALL_CP)


def scale_soft(soft: float, best_moves: Sequence, scores: Sequence[int], hard: float | None = None) -> float:
    """The soft limit to use after the iterations so far: ``best_moves[i]`` and ``scores[i]`` (centipawns, the
    side to move's view) are those of iteration i + 1, the last the iteration just completed; ``soft`` is the
    budget's.  Between 0.44x (a move stable for 7 iterations, the score up) and 3x (a move that has changed at
    each iteration, the score down), and never above ``hard``."""
    scaled = soft * _stability(best_moves) * _instability(best_moves) * _trend(scores)
    return scaled if hard is None else min(scaled, hard)


def may_start_iteration(elapsed: float, soft: float) -> bool:
    """May a new iteration start ``elapsed`` seconds into the move, with this (scaled) soft limit?"""
    return elapsed < NEXT_ITERATION_FRACTION * soft
