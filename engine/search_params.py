"""The search's tunable parameters: one home for their values, ranges and tuning steps.

The kernels read them at run time from each thread's ``ctrl`` array (from ``alphabeta.C_PARAMS`` on, in the order
below), not as compiled constants, so that a tuner can play engines with other values without recompiling
(``engine.tune.spsa``), and a user or a match can set them (the ``SearchParams`` option: ``NAME=VALUE`` pairs
separated by commas).  The defaults are the values the search was proved with; each parameter's ``step`` is the
SPSA perturbation at the end of a tuning run (fishtest's ``c_end``), its ``lo``/``hi`` the range a tuner or a user
may set.

The time manager's parameters (``TIME_PARAMS``, read by ``engine.timeman`` in Python, not by the kernels) live
here too, so that the same option sets them and the same tuner tunes them; what keeps the clock safe (the reserve,
the hard limit's share of the clock) is not among them and stays in ``engine.timeman``.

Where a default came from: every number is ours, set by hand and kept by SPRT (the ideas are the literature's:
history gravity, a quadratic cut-off bonus, log-log reductions, move-count pruning).  The history bounds, the
bonus, the reduction divisor, the history's share in reductions and the move-count base are round numbers chosen
for this search's history tables (a butterfly bound of 2^13, the continuation bound three times it, a bonus that
reaches about 80% of the butterfly bound at the depth it stops growing); they replaced the Stockfish 10/11 numbers
the search began with, which a project under MIT may not carry (their non-regression SPRTs in both games found no
difference: docs/results/sprt.tsv, 2026-12-06).  ``make spsa`` tunes them.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Param:
    name: str
    default: int
    lo: int
    hi: int
    step: int
    doc: str
    tuned: bool = True      # False: a structural choice (the depth a feature starts from), not perturbed by SPSA


PARAMS = (
    # History tables (gravity: entry += bonus - entry * |bonus| / LIMIT) and the bonus of a cut-off at depth d.
    Param("HISTORY_LIMIT", 8192, 2000, 40000, 1000, "butterfly history bound"),
    Param("CONT_HISTORY_LIMIT", 24576, 5000, 80000, 3000, "continuation history bound"),
    Param("BONUS_MAX_DEPTH", 16, 6, 30, 2, "deeper cut-offs earn no more"),
    Param("BONUS_QUADRATIC", 16, 0, 60, 4, "bonus = Q d^2 + L d + C"),
    Param("BONUS_LINEAR", 160, 0, 500, 20, "bonus = Q d^2 + L d + C"),
    Param("BONUS_CONSTANT", -128, -500, 300, 30, "bonus = Q d^2 + L d + C"),
    # Late-move reductions: log d * log i / (LMR_DIVISOR / 100), adjusted by the quiet's history.
    Param("LMR_DIVISOR", 200, 100, 400, 15, "reduction table divisor, in hundredths"),
    Param("LMR_MIN_DEPTH", 3, 2, 6, 1, "no reductions below this depth"),
    Param("STAT_OFFSET", 4096, -4000, 16000, 500, "history above this reduces less"),
    Param("STAT_DIVISOR", 12288, 4000, 50000, 1500, "history per ply of reduction"),
    # Pruning.
    Param("FUTILITY_DEPTH", 7, 2, 12, 1, "reverse futility below this depth"),
    Param("FUTILITY_MARGIN", 140, 40, 400, 15, "reverse futility margin per ply"),
    Param("RAZOR_MARGIN", 350, 100, 900, 40, "razoring margin at depth 1"),
    Param("NULL_MIN_DEPTH", 3, 2, 6, 1, "null move from this depth"),
    Param("NULL_BASE_REDUCTION", 3, 1, 6, 1, "null move reduction"),
    Param("NULL_DEPTH_DIVISOR", 4, 2, 10, 1, "one more ply of null reduction per this depth"),
    Param("NULL_EVAL_DIVISOR", 150, 40, 500, 20, "one more ply per this much static score above beta"),
    Param("NULL_EVAL_MAX", 3, 0, 6, 1, "at most this many such plies"),
    Param("IIR_DEPTH", 6, 3, 12, 1, "internal iterative reduction from this depth"),
    Param("LMP_DEPTH", 8, 3, 14, 1, "late-move pruning below this depth"),
    Param("LMP_BASE", 4, 0, 14, 1, "late-move pruning after (B + d^2) / (2 - improving) quiets"),
    Param("PARENT_FUTILITY_DEPTH", 6, 2, 12, 1, "futility pruning of quiets below this reduced depth"),
    Param("PARENT_FUTILITY_BASE", 160, 30, 500, 20, "its margin: base ..."),
    Param("PARENT_FUTILITY_PER_PLY", 110, 30, 400, 15, "... plus this per ply"),
    Param("QS_DELTA_MARGIN", 200, 40, 600, 25, "quiescence delta pruning margin"),


    # Pruning by exchange at shallow depth: a late move that loses material by exchange (SEE) beyond a margin
    # that grows with the depth is not searched; never a check (8: kept by an SPRT in each game, chess's +25 +- 16
    # and xiangqi's +19 +- 14).
    Param("SEE_PRUNE_DEPTH", 8, 0, 14, 1, "prune losing exchanges below this depth (0: off)", tuned=False),
    Param("SEE_QUIET_MARGIN", 60, 0, 300, 10, "a quiet may lose this much per ply of its reduced depth ..."),
    Param("SEE_CAPTURE_MARGIN", 150, 0, 600, 20, "... a capture this much per ply of depth"),
    # Singular extension: the table's move is searched a ply deeper when the other moves, searched to half the
    # depth, all fail below its stored score less a margin; a check so extended is not extended again (8: kept by
    # an SPRT in each game, xiangqi's with SINGULAR_LINE_EXTENSION 1; Stockfish 11's form, every check extended as
    # well, lost in xiangqi).
    Param("SINGULAR_DEPTH", 8, 0, 14, 1, "singular extension from this depth (0: off)", tuned=False),
    Param("SINGULAR_MARGIN", 2, 0, 40, 2, "the other moves must fail this much per ply below the table's score"),
    # ... and only on a line not already extended more than this many plies beyond the root's depth (ply + depth
    # - root depth: its checks' extensions less its reductions).  Without the bound, xiangqi's lines of checks,
    # each extended, stack singular extensions on top and the tree of a mating attack grows with every
    # iteration (a mate in 3 of tests/test_search.py: 339,000 nodes instead of 15,600; at 1 the same 15,800).
    Param("SINGULAR_LINE_EXTENSION", 99, 0, 99, 1, "singular extension only where the line so far is extended at "
          "most this many plies beyond the root's depth (99: no bound; xiangqi 1)", tuned=False),
    # The move limit (60 moves in xiangqi, 50 in chess).
    Param("MOVE_LIMIT_HORIZON", 4, 0, 16, 1, "plies of extensions beyond the depth that may reach the limit"),
)

# The time manager's (engine.timeman): how the soft limit of a clock search is planned and then scaled after each
# iteration.  Percentages are of the soft limit unless said otherwise.
TIME_PARAMS = (
    Param("TIME_MOVES_TO_GO", 16, 8, 60, 2, "sudden death: plan as if this many moves remained"),
    Param("TIME_INCREMENT_SHARE", 75, 30, 100, 5, "percent of the increment added to the soft limit"),
    Param("TIME_HARD_PER_SOFT", 400, 150, 800, 40, "the hard limit, in percent of the soft one (at most 40% of the "
          "clock)"),
    Param("TIME_STABLE_AFTER", 3, 1, 8, 1, "the same best move this many iterations in a row starts to save time"),
    Param("TIME_STABLE_STEP", 10, 0, 30, 2, "percent less for that iteration and each further one ..."),
    Param("TIME_STABLE_MIN", 55, 20, 100, 5, "... down to this percent"),
    Param("TIME_CHANGE_EXTRA", 50, 0, 150, 10, "percent more after a best move that changed at the last iteration"),
    Param("TIME_CHANGE_DECAY", 50, 0, 90, 5, "an earlier change counts this percent as much per iteration since"),
    Param("TIME_TREND_ITERATIONS", 3, 1, 8, 1, "the score is compared with the mean of this many iterations before"),
    Param("TIME_FALL_CP", 30, 5, 200, 5, "a score that fell by this many centipawns below that mean ..."),
    Param("TIME_FALL_EXTRA", 50, 0, 150, 10, "... takes this percent more (linearly below)"),
    Param("TIME_RISE_SAVING", 20, 0, 60, 5, "one that rose as much, this percent less"),
    Param("TIME_NEXT_ITERATION", 60, 20, 100, 5, "a new iteration starts only before this percent of the soft limit"),
)

BY_NAME = {p.name: p for p in PARAMS + TIME_PARAMS}
INDEX = {p.name: i for i, p in enumerate(PARAMS)}   # where the kernels find each of PARAMS (after alphabeta.C_PARAMS)
TUNED = tuple(p.name for p in PARAMS + TIME_PARAMS if p.tuned)     # what ``make spsa`` tunes unless told which
DEFAULTS = tuple(p.default for p in PARAMS)
assert all(p.lo <= p.default <= p.hi and p.step > 0 for p in BY_NAME.values())


def parse(text: str) -> dict[str, int]:
    """``NAME=VALUE,NAME=VALUE`` (the option's form; spaces allowed) -> {name: value}, every name known and
    every value an integer in its range; anything else is a ValueError naming it."""
    values = {}
    for item in filter(None, (part.strip() for part in text.replace(";", ",").split(","))):
        name, eq, value = item.partition("=")
        name = name.strip().upper()
        if not eq or name not in BY_NAME:
            raise ValueError(f"unknown search parameter {name[:40]!r}" if eq else f"expected NAME=VALUE, got "
                             f"{item[:40]!r}")
        try:
            number = int(value.strip())
        except ValueError:
            raise ValueError(f"{name}: not an integer: {value.strip()[:20]!r}") from None
        p = BY_NAME[name]
        if not p.lo <= number <= p.hi:
            raise ValueError(f"{name}: {number} is outside {p.lo}..{p.hi}")
        values[name] = number
    return values


def array(values: dict[str, int] | None = None):
    """The search's parameters as the kernels read them (int64 numpy array): the defaults with ``values`` (the
    kernels' among them; the time manager's are ``time_values``') in their places.  (numpy is imported here, not
    with the module: the protocol's options name this module, and the engine's first answer comes before numpy
    and numba are loaded.)"""
    import numpy as np
    out = np.array(DEFAULTS, np.int64)
    for name, value in (values or {}).items():
        if name in INDEX:
            out[INDEX[name]] = value
    return out


def time_values(values: dict[str, int] | None = None) -> dict[str, int]:
    """The time manager's parameters, {name: value}: the defaults with those of ``values`` in their places."""
    return {p.name: (values or {}).get(p.name, p.default) for p in TIME_PARAMS}


def format_values(values: dict[str, int]) -> str:
    """The option's form of ``values`` (what ``parse`` reads)."""
    return ",".join(f"{name}={value}" for name, value in values.items())
