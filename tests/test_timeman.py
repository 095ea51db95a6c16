"""Time management (engine.timeman): soft and hard limits from the clock values of ``go`` (budget), the soft
limit scaled by the search's progress (scale_soft), and when a new iteration may start."""
import pytest

from engine.search_params import time_values
from engine.searcher import Limits
from engine.timeman import DEFAULTS, MOVE_OVERHEAD, budget, may_start_iteration, scale_soft

DEFAULT_MOVES_TO_GO = DEFAULTS["TIME_MOVES_TO_GO"]
STABLE_MIN = DEFAULTS["TIME_STABLE_MIN"] / 100
NEXT_ITERATION_FRACTION = DEFAULTS["TIME_NEXT_ITERATION"] / 100


def test_time_budgets():
    sudden_death = budget(Limits(time_left=10.0, increment=0.1))
    assert 0.2 < sudden_death.soft < sudden_death.hard < 0.4 * 10.0
    nearly_flagged = budget(Limits(time_left=0.1, increment=0.0))
    assert nearly_flagged.hard <= 0.06
    last_move_before_control = budget(Limits(time_left=5.0, movestogo=1))
    assert 3.0 < last_move_before_control.hard < 5.0
    assert budget(Limits(movetime=1.0)).hard == pytest.approx(0.95)
    assert budget(Limits(depth=5)).hard is None
    # Only a clock budget is scaled by the search: a fixed movetime is used whole.
    assert budget(Limits(time_left=10.0)).clock and not budget(Limits(movetime=1.0)).clock


def test_movetime_is_the_budget_less_the_overhead():
    b = budget(Limits(movetime=2.0))
    assert b.soft == b.hard == pytest.approx(2.0 - MOVE_OVERHEAD)
    assert budget(Limits(movetime=0.03)).hard == pytest.approx(0.01)          # never below 10 ms
    # A fixed time wins over the clock values sent beside it.
    assert budget(Limits(movetime=1.0, time_left=100.0, increment=5.0)).hard == pytest.approx(0.95)


def test_sudden_death_with_increment():
    # 10 s + 0.1 s: reserve 0.05 + 2% = 0.25 s; usable 9.75 s over DEFAULT_MOVES_TO_GO moves, plus 3/4 of
    # the increment.
    b = budget(Limits(time_left=10.0, increment=0.1))
    assert b.soft == pytest.approx(9.75 / DEFAULT_MOVES_TO_GO + 0.075)
    assert b.hard == pytest.approx(4 * b.soft)                                   # (< 40% of usable)
    # The increment adds to the soft limit; without it the budget is smaller.
    assert budget(Limits(time_left=10.0)).soft == pytest.approx(9.75 / DEFAULT_MOVES_TO_GO)
    # A long clock: the hard limit is 40% of the usable time when that is below four soft limits.
    big_inc = budget(Limits(time_left=2.0, increment=1.0))
    usable = 2.0 - (MOVE_OVERHEAD + 0.04)
    assert big_inc.hard == pytest.approx(0.4 * usable) and big_inc.soft == pytest.approx(big_inc.hard)


def test_movestogo():
    # 60 s for 10 moves: reserve 1.25 s, usable 58.75 s: soft 5.875 s, hard min(40%, 4 soft) = 23.5 s.
    b = budget(Limits(time_left=60.0, movestogo=10))
    assert b.soft == pytest.approx(5.875) and b.hard == pytest.approx(23.5)
    # The last move before the time control may use 90% of the usable time, and the soft limit follows it.
    last = budget(Limits(time_left=5.0, movestogo=1))
    assert last.hard == pytest.approx(0.9 * (5.0 - 0.15)) and last.soft == pytest.approx(last.hard)
    # movestogo 0 (or absent) is sudden death.
    assert budget(Limits(time_left=60.0, movestogo=0)) == budget(Limits(time_left=60.0))


def test_no_clock_no_budget():
    for limits in (Limits(), Limits(depth=5), Limits(nodes=10_000), Limits(mate=3), Limits(infinite=True)):
        b = budget(limits)
        assert b.soft is None and b.hard is None, limits


def test_floors_on_an_empty_clock():
    b = budget(Limits(time_left=0.0))
    assert b.soft == pytest.approx(0.005) and b.hard == pytest.approx(0.01)
    assert budget(Limits(time_left=-1.0, increment=-1.0)) == b                   # bad values are clamped


@pytest.mark.parametrize("left", [0.1, 0.3, 1.0, 5.0, 10.0, 60.0, 600.0, 3600.0])
@pytest.mark.parametrize("inc", [0.0, 0.1, 1.0, 10.0])
@pytest.mark.parametrize("mtg", [None, 1, 2, 10, 40])
def test_hard_limit_keeps_the_reserve(left, inc, mtg):
    """Whatever the clock, the search never plans to use the reserve: hard <= time left - (overhead + 2%),
    and soft <= hard."""
    b = budget(Limits(time_left=left, increment=inc, movestogo=mtg))
    reserve = min(left * 0.5, MOVE_OVERHEAD + 0.02 * left)
    assert 0 < b.soft <= b.hard <= left - reserve
    assert b.hard <= left - MOVE_OVERHEAD


# -- the soft limit scaled after each iteration ----------------------------------------------------------------
# 10 s + 0.1 s: soft 0.4 s, hard 1.6 s.
SOFT, HARD = 0.4, 1.6


def test_no_history_no_change():
    assert scale_soft(SOFT, ["h2e2"], [20], HARD) == pytest.approx(SOFT)
    assert scale_soft(SOFT, ["h2e2", "h2e2"], [20, 20], HARD) == pytest.approx(SOFT)


def test_a_stable_best_move_shortens_the_soft_limit():
    scores = [20] * 8
    by_run = [scale_soft(SOFT, ["b2e2"] * (8 - k) + ["h2e2"] * k, scores, HARD) for k in range(1, 9)]
    # Stable for 1-2 iterations: no saving (a change 2 iterations ago still adds a little); 3: 10% less ...
    assert by_run[1] >= SOFT and by_run[2] == pytest.approx(SOFT * 0.9 * (1 + 0.5 * 0.25))
    assert by_run[3] < by_run[2] and by_run[4] < by_run[3] and by_run[5] < by_run[4]
    # ... down to STABLE_MIN, reached after 7 iterations of the same move.
    assert by_run[7] == pytest.approx(SOFT * STABLE_MIN) and by_run[6] == pytest.approx(SOFT * STABLE_MIN, rel=0.01)
    assert 0.5 * SOFT <= min(by_run) < 0.6 * SOFT


def test_a_changed_best_move_lengthens_it():
    stable = ["h2e2"] * 9
    assert scale_soft(SOFT, stable + ["b2e2"], [20] * 10, HARD) == pytest.approx(1.5 * SOFT)
    # Two changes in a row: 1 + 0.5 * (1 + 0.5); a best move changing at every iteration tends to 2x.
    assert scale_soft(SOFT, stable + ["b2e2", "h0g2"], [20] * 11, HARD) == pytest.approx(1.75 * SOFT)
    flip = ["h2e2", "b2e2"] * 10
    assert 1.99 * SOFT < scale_soft(SOFT, flip, [20] * 20, HARD) < 2.0 * SOFT
    # A change long ago is forgotten: the move has been stable since.
    assert scale_soft(SOFT, ["b2e2"] + ["h2e2"] * 9, [20] * 10, HARD) == pytest.approx(STABLE_MIN * SOFT, rel=0.01)


def test_a_falling_score_lengthens_it_a_rising_one_shortens_it():
    moves = ["h2e2", "b2e2", "b2e2"]            # no stability saving yet; a change one iteration ago: +25%
    flat = scale_soft(SOFT, moves, [30, 30, 30])
    assert flat == pytest.approx(1.25 * SOFT)
    # The last score against the mean of the three before it (only two here): -15 cp -> +25%, -30 cp or more: +50%.
    assert scale_soft(SOFT, moves, [30, 30, 15]) == pytest.approx(1.25 * flat)
    assert scale_soft(SOFT, moves, [30, 30, 0]) == pytest.approx(1.5 * flat)
    assert scale_soft(SOFT, moves, [30, 30, -500]) == pytest.approx(1.5 * flat)
    assert scale_soft(SOFT, moves, [30, 30, 60]) == pytest.approx(0.8 * flat)
    assert scale_soft(SOFT, moves, [30, 30, 45]) == pytest.approx(0.9 * flat)
    # The mean smooths the odd/even swing of alpha-beta scores: 40, 10, 40 -> mean 30 before, last 20 (-10 cp:
    # +1/6); the move stable for 4 iterations: -20%.
    assert scale_soft(SOFT, ["h2e2"] * 4, [40, 10, 40, 20]) == pytest.approx(0.8 * (1 + 0.5 / 3) * SOFT)


@pytest.mark.parametrize("moves, scores", [
    (["h2e2", "b2e2"] * 8, [50, -50] * 8),                     # every change and every fall at once
    (["h2e2"] * 9 + ["b2e2"], [40] * 9 + [-200]),
    (["h2e2"] * 12, [0] * 12),
])
def test_never_beyond_the_hard_limit(moves, scores):
    for n in range(1, len(moves) + 1):
        scaled = scale_soft(SOFT, moves[:n], scores[:n], HARD)
        assert 0.4 * SOFT <= scaled <= HARD
        assert scale_soft(SOFT, moves[:n], scores[:n], hard=0.5) <= 0.5
    assert scale_soft(SOFT, moves, scores) <= 3.0 * SOFT


def test_a_new_iteration_starts_only_if_it_can_finish():
    assert may_start_iteration(0.0, SOFT) and may_start_iteration(0.5 * SOFT, SOFT)
    assert not may_start_iteration(NEXT_ITERATION_FRACTION * SOFT, SOFT) and not may_start_iteration(SOFT, SOFT)


def test_move_overhead_is_kept_from_every_budget():
    """The Move Overhead option (``Limits.overhead``) replaces the default reserve, for movetime and the clock."""
    assert budget(Limits(movetime=1.0, overhead=0.3)).hard == pytest.approx(0.7)
    assert budget(Limits(movetime=1.0)).hard == pytest.approx(1.0 - MOVE_OVERHEAD)
    assert budget(Limits(time_left=1.0, overhead=0.5)).hard < budget(Limits(time_left=1.0, overhead=0.0)).hard


def test_the_time_parameters_change_the_budget_and_its_scaling():
    """The time manager's tunable parameters (``search_params.TIME_PARAMS``, set by SearchParams): each named
    one moves the number it names, and no value in their ranges plans beyond the clock's reserve."""
    limits = Limits(time_left=10.0, increment=0.1)
    b = budget(limits, time_values({"TIME_MOVES_TO_GO": 8, "TIME_INCREMENT_SHARE": 100}))
    assert b.soft == pytest.approx(9.75 / 8 + 0.1) and b.hard == pytest.approx(0.4 * 9.75)   # 40%: below 4 soft
    assert budget(limits, time_values({"TIME_HARD_PER_SOFT": 200})).hard == pytest.approx(2 * budget(limits).soft)
    assert time_values() == DEFAULTS and budget(limits, DEFAULTS) == budget(limits)
    stable = ["h2e2"] * 8
    assert scale_soft(SOFT, stable, [20] * 8, HARD, time_values({"TIME_STABLE_MIN": 80})) == pytest.approx(0.8 * SOFT)
    changed = ["h2e2"] * 7 + ["b2e2"]
    assert scale_soft(SOFT, changed, [20] * 8, HARD, time_values({"TIME_CHANGE_EXTRA": 100})) == pytest.approx(2 * SOFT)
    assert scale_soft(SOFT, changed, [30, 30, 30, 30, 30, 30, 30, 20], HARD,
                      time_values({"TIME_FALL_CP": 10, "TIME_FALL_EXTRA": 100})) == pytest.approx(3 * SOFT)
    assert may_start_iteration(0.7 * SOFT, SOFT, time_values({"TIME_NEXT_ITERATION": 75}))
    assert not may_start_iteration(0.7 * SOFT, SOFT)
    from engine.search_params import TIME_PARAMS
    for p in TIME_PARAMS:
        for value in (p.lo, p.hi):
            for left, inc, mtg in ((0.3, 0.0, None), (10.0, 0.1, None), (60.0, 1.0, 1), (600.0, 10.0, 40)):
                b = budget(Limits(time_left=left, increment=inc, movestogo=mtg), time_values({p.name: value}))
                assert 0 < b.soft <= b.hard <= left - min(left * 0.5, MOVE_OVERHEAD + 0.02 * left), (p.name, value)
