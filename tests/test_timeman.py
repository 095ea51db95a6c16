"""Time management (engine.timeman.budget): soft and hard limits from the clock values of ``go``."""
import pytest

from engine.search import Limits
from engine.timeman import DEFAULT_MOVES_TO_GO, MOVE_OVERHEAD, budget


def test_time_budgets():
    sudden_death = budget(Limits(time_left=10.0, increment=0.1))
    assert 0.2 < sudden_death.soft < sudden_death.hard < 2.0
    nearly_flagged = budget(Limits(time_left=0.1, increment=0.0))
    assert nearly_flagged.hard <= 0.06
    last_move_before_control = budget(Limits(time_left=5.0, movestogo=1))
    assert 3.0 < last_move_before_control.hard < 5.0
    assert budget(Limits(movetime=1.0)).hard == pytest.approx(0.95)
    assert budget(Limits(depth=5)).hard is None


def test_movetime_is_the_budget_less_the_overhead():
    b = budget(Limits(movetime=2.0))
    assert b.soft == b.hard == pytest.approx(2.0 - MOVE_OVERHEAD)
    assert budget(Limits(movetime=0.03)).hard == pytest.approx(0.01)          # never below 10 ms
    # A fixed time wins over the clock values sent beside it.
    assert budget(Limits(movetime=1.0, time_left=100.0, increment=5.0)).hard == pytest.approx(0.95)


def test_sudden_death_with_increment():
    # 10 s + 0.1 s: reserve 0.05 + 2% = 0.25 s; usable 9.75 s over 30 moves plus 3/4 of the increment.
    b = budget(Limits(time_left=10.0, increment=0.1))
    assert b.soft == pytest.approx(9.75 / DEFAULT_MOVES_TO_GO + 0.075)           # 0.4 s
    assert b.hard == pytest.approx(4 * b.soft)                                   # 1.6 s (< 40% of usable)
    # The increment adds to the soft limit; without it the budget is smaller.
    assert budget(Limits(time_left=10.0)).soft == pytest.approx(0.325)
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
