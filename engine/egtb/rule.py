"""The perpetual-check pass of the table generator (Asian rules: xiangqi's), run after the levels of
:mod:`engine.xiangqi.tables.generate`: a side that checks on every move of an endless line loses, unless the
other side checks on every move as well.  This module is the pass's game-neutral part -- the driver, the
messages and the scans; the step that walks a position's moves and un-moves (``rule_step``) is the game's
(:mod:`engine.xiangqi.tables.rule`), handed to the driver with the table.

After the levels, ``DRAW`` entries are positions where neither side can force mate.  Some are draws only
because a side *C* keeps checking for ever -- under the Asian rules that side loses.  For each side C that has
a piece able to give check, with Z = the drawn positions, we solve the game "C must make a non-checking move
infinitely often, staying in Z" (a Buchi game, nested fixpoint):

* A = the attractor, for C, of the *seeds* -- C-to-move positions of Z with a non-checking move into Z, or a
  capture into a smaller position C does not lose: C-to-move positions with any move into A join it; positions
  of the other side O join when every move goes into A, or to a position O does not win outright, or is a
  checking move of O into Z (see the limits);
* if A = Z we are done; otherwise Z - A is won by O (C to move: lost) and the round repeats with Z = A.

In Z - A, O's strategy uses only quiet moves (or moves into earlier rounds), C's quiet moves lead into earlier
rounds, so every endless line ends with C checking on every move while O never checks: a loss for C.  Those
positions get ``RULE_BASE + 2 * order + (1 if the side to move wins)`` where ``order`` numbers the rounds (the
winner keeps it from growing: into a lower order, or a quiet move into the same).  Then plain propagation
(*rule propagation*: a drawn position with a move into a lost one wins, one whose every move goes into a won
one loses; one ``order`` per round of it) spreads these results, and the passes repeat for both sides until
nothing changes; rule-decided results of smaller tables enter through captures the same way.

**Pushed, not pulled.**  Both computations run backwards, like the levels: counters of the moves that still
keep a position out (O's non-checking moves into Z outside A; in the propagation, the moves into drawn
positions) are filled by every position of Z pushing to its predecessors, and a position that joins (or is
decided) pushes to its predecessors in turn -- each position is expanded a few times a round instead of once
a sweep until nothing changes.  An attractor round starts from ``ways`` (for C: its ways out of checking;
for O: its moves that keep it out before anything joins), counted from scratch at a checker's first round and
then kept up to date from the positions each round removes (Z only shrinks): a round after the first costs
the attractor's waves, not a push from all of Z.  A step writes only the entries of its predecessors, so the same kernels run
over a whole table (two threads, one a side to move) or over a slice of it on a Ray actor, which sends the
predecessors it does not hold to the actors that do (``engine.egtb.sliced``); the results do not depend on the
order in which the pushes arrive (an attractor is a least fixpoint; a propagation round only reads the
results of the rounds before it), so they are the same either way.

A drawn position has no move into a position lost for its opponent (the levels are exact, and a propagation
ends only when none is left), except into positions the rule decided since the last propagation: those are
the only lost children a step needs to push from (``fresh``).

Limits: (1) mutual perpetual check (both sides check on every move: a draw) is handled conservatively -- a
checking move of O never counts as O's way out, so a draw is never turned into a loss because of it, but a few
real wins of O that need O's own checks inside the cycle may stay draws; (2) perpetual chasing and the other
Asian rules about idle/one-check-one-chase cycles are not modelled; (3) no 60-move rule; (4) rule-decided
results carry an order, not a distance to mate.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .codes import DIST0, DRAW, RULE_BASE

# What a pushed message does to a predecessor (the message is ``index * 4 + op``): count one more move, one
# fewer, or join (the attractor; in a propagation: won).
OP_COUNT, OP_UNCOUNT, OP_JOIN = 0, 1, 2
# The steps (the game's ``rule_step``): fill a propagation's counters from each position's own captures, then by pushes;
# a wave of a propagation.  Fill an attractor's ``ways`` (C: its ways out of checking -- captures C does not
# lose and non-checking moves into Z; O: its moves that keep it out of A before anything joins) the same two
# ways at a checker's first round; at the next ones take off what the last round removed (``ATTR_DROP``:
# Z only shrinks, so the rounds after the first cost a push from the removed positions, not from all of Z);
# a wave of an attractor round.
PROP_OWN, PROP_PUSH, PROP_WAVE, ATTR_OWN, ATTR_PUSH, ATTR_DROP, ATTR_WAVE = range(7)
# The scans (``rule_scan``): decide a propagation round; start an attractor round from ``ways`` (seeds join);
# give the positions left out of the attractor their results.
PROP_DECIDE, ATTR_START, ATTR_REMOVE = range(3)
# How ``receive`` takes a message: a propagation's counter and flag, an attractor wave's, or ``ways`` alone.
PROPAGATION, ATTRACTOR, WAYS = range(3)
MAX_ORDER = (0xFFFF - RULE_BASE) // 2
ANY, QUIET, CHECK = range(3)            # which moves into a position a step pushes along: all, non-checking, checks


@njit(cache=True, inline="always")
def is_loss(code):
    """Is ``code`` a loss for its side to move (by mate or by the rule)?"""
    if code >= RULE_BASE:
        return (code - RULE_BASE) % 2 == 0
    return code >= DIST0 and (code - DIST0) % 2 == 0


@njit(cache=True, inline="always")
def is_win(code):
    if code >= RULE_BASE:
        return (code - RULE_BASE) % 2 == 1
    return code >= DIST0 and (code - DIST0) % 2 == 1


@njit(cache=True, inline="always")
def receive(vals, cnt, flag, i, op, kind):
    """Apply one pushed message to entry ``i``: only drawn entries take part.  ``flag``: in a propagation
    1 = won, 2 = lost (decided this round); in an attractor round 1 = joined (to push), 2 = joined and pushed.
    ``kind`` ``WAYS``: ``cnt`` is the attractor's ``ways``, only counted."""
    if vals[i] != DRAW:
        return
    if op == OP_COUNT:
        cnt[i] += 1
    elif kind == WAYS:
        cnt[i] -= 1
    elif op == OP_JOIN:
        if kind == PROPAGATION or flag[i] == 0:
            flag[i] = 1                    # a win outranks a loss found in the same round
    elif kind == ATTRACTOR:
        if flag[i] == 0:
            cnt[i] -= 1
            if cnt[i] == 0:
                flag[i] = 1
    else:
        cnt[i] -= 1
        if cnt[i] == 0 and flag[i] == 0:
            flag[i] = 2


@njit(cache=True, inline="always")
def target(step, cnt, ways):
    """The counter a step's messages change, and how (``receive``'s ``kind``)."""
    if step < ATTR_OWN:
        return cnt, PROPAGATION
    if step == ATTR_WAVE:
        return cnt, ATTRACTOR
    return ways, WAYS


@njit(cache=True, nogil=True)
def rule_receive(vals, cnt, ways, flag, base, messages, step):
    """The messages of ``step`` other slices pushed into this one (entries from index ``base``)."""
    counter, kind = target(step, cnt, ways)
    for k in range(messages.shape[0]):
        receive(vals, counter, flag, (messages[k] >> 2) - base, messages[k] & 3, kind)


@njit(cache=True, nogil=True)
def rule_scan(vals, cnt, ways, flag, npos, base, lo, hi, scan, checker, order):
    """A scan of the entries [lo, hi) after a step's messages have all arrived; returns how many it changed."""
    changed = 0
    for idx in range(lo, hi):
        i = idx - base
        if vals[i] != DRAW:
            if scan == ATTR_START:
                flag[i] = 0
            continue
        side = 0 if idx < npos else 1
        if scan == PROP_DECIDE:
            f = flag[i]
            if f != 0 or cnt[i] == 0:      # a move into a lost position, or every move into a won one
                vals[i] = RULE_BASE + 2 * order + (1 if f == 1 else 0)
                changed += 1
            flag[i] = 0
        elif scan == ATTR_START:
            # seeds: C's positions with a way out; O's with no move that keeps them out
            cnt[i] = ways[i]
            flag[i] = 1 if (ways[i] != 0) == (side == checker) else 0
            changed += flag[i]
        elif flag[i] == 0:                 # ATTR_REMOVE: out of the attractor -- C to move loses
            vals[i] = RULE_BASE + 2 * order + (1 if side != checker else 0)
            changed += 1
    return changed


def has_rule_results(subs) -> bool:
    """Do the smaller tables (the generator's ``capture_tables`` arrays: their values come second) hold results
    the rule decided?  Then they enter
    through captures, and the pass starts with a propagation."""
    return bool((subs[1] >= RULE_BASE).any())


def rule_pass(material, table, report) -> int:
    """The perpetual-check correction of ``material``'s values, which ``table`` holds (a :class:`WholeTable`,
    or the slices of a build on Ray); returns the number of positions it changed."""
    checkers = [c for c in (0, 1) if material.can_check(c)]
    has_rule = table.sub_has_rule
    if not checkers and not has_rule:
        return 0
    order = 0
    fresh = 0                           # the orders from this one on were decided since the last propagation
    changed_total = 0
    progress = True
    while progress:
        progress = False
        if has_rule:                    # plain propagation of the rule-decided results
            table.step(PROP_OWN)
            table.step(PROP_PUSH, code=RULE_BASE + 2 * fresh)
            while True:
                decided = table.scan(PROP_DECIDE, order=order)
                if not decided:
                    break
                table.step(PROP_WAVE, code=RULE_BASE + 2 * order)
                order += 1
                changed_total += decided
                progress = True
            fresh = order
        for checker in checkers:
            report(0.9, f"perpetual check ({material.SIDE_NAMES[checker]})")
            removed_total = 0
            while True:
                if removed_total == 0:
                    table.step(ATTR_OWN, checker)
                    table.step(ATTR_PUSH, checker, RULE_BASE + 2 * fresh)
                else:
                    table.step(ATTR_DROP, checker, RULE_BASE + 2 * (order - 1))
                table.scan(ATTR_START, checker)
                while table.step(ATTR_WAVE, checker):
                    pass
                removed = table.scan(ATTR_REMOVE, checker, order)
                if not removed:
                    break
                order += 1
                removed_total += removed
            if removed_total:
                changed_total += removed_total
                has_rule = True
                progress = True
        if order >= MAX_ORDER:
            raise RuntimeError("too many perpetual-check rounds")
    return changed_total


class WholeTable:
    """The rule pass's state over a whole table in memory (3 bytes an entry besides the values): a step (the
    game's ``rule_step`` kernel) runs in two threads, one a side to move -- the predecessors of one side's
    positions are the other side's."""

    def __init__(self, material, vals, subs, pool, rule_step):
        self.material, self.vals, self.subs, self.pool = material, vals, subs, pool
        self.rule_step = rule_step
        self.spec, self.slot_pieces = material.spec(), material.slot_pieces()
        self.cnt = np.zeros(vals.shape[0], np.uint8)
        self.ways = np.zeros(vals.shape[0], np.uint8)
        self.flag = np.zeros(vals.shape[0], np.uint8)
        self.halves = [(0, material.npos), (material.npos, material.size)]
        self.no_out = np.zeros(0, np.int64)
        self.sub_has_rule = has_rule_results(subs)

    def step(self, step, checker=0, code=0) -> int:
        futures = [self.pool.submit(self.rule_step, self.spec, self.slot_pieces, self.vals, self.cnt, self.ways,
                                    self.flag, 0, lo, hi, step, checker, code, *self.subs, self.no_out)
                   for lo, hi in self.halves]
        return sum(int(f.result()[0]) for f in futures)

    def scan(self, scan, checker=0, order=0) -> int:
        futures = [self.pool.submit(rule_scan, self.vals, self.cnt, self.ways, self.flag, self.material.npos, 0,
                                    lo, hi, scan, checker, order) for lo, hi in self.halves]
        return sum(int(f.result()) for f in futures)
