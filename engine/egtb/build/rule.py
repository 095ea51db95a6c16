"""The rule pass of the table generator (Asian rules: xiangqi's), run after the levels of
:mod:`engine.xiangqi.tables.build.generate`: a side that checks on every move of an endless line loses, and so does
one that chases the same enemy piece on every move -- the referee's rule (``engine.xiangqi.repetition``): check
is judged before chase, both sides attacking alike is a draw, and mixing checks with chases, or chasing
different pieces, is no perpetual attack.  This module is the pass's game-neutral part -- the driver, the
messages and the scans; the step that walks a position's moves and un-moves (``rule_step``) and labels each
move (check, chase) is the game's (:mod:`engine.xiangqi.tables.build.rule`), handed to the driver with the table.

After the levels, ``DRAW`` entries are positions where neither side can force mate.  Some are draws only
because a side *C* keeps attacking for ever -- under the Asian rules that side loses.  C escapes only if it
makes, infinitely often, a move that is not a check, and for every enemy piece T, infinitely often a move that
does not chase T (a generalized Buchi condition, one *goal* per kind of attack: the game's
``Material.rule_goals`` lists those that can occur).  With Z = the drawn positions, each round solves one goal
-- "C must make a *good* move (not a check; not a chase of T) infinitely often, staying in Z" (a Buchi game,
nested fixpoint):

* A = the attractor, for C, of the *seeds* -- C-to-move positions of Z with a good move into Z, or a capture
  into a smaller position C does not lose: C-to-move positions with any move into A join it; positions of the
  other side O join when every move goes into A, or to a position O does not win outright, or attacks (see
  the limits);
* if A = Z the goal is met; otherwise Z - A is won by O (C to move: lost) and the round repeats with Z = A.

The goals are taken in turn until none removes anything; then every position left can reach each goal in
turn, for ever: a draw.  In Z - A, O's strategy uses only moves that attack nothing the round counts (or
moves into earlier rounds), C's good moves lead into earlier rounds, so every endless line ends with C checking
on every move (or chasing T on every move) while O does neither: a loss for C.  Those positions get
``RULE_BASE + 2 * order + (1 if the side to move wins)`` where ``order`` numbers the rounds (the winner keeps
it from growing: into a lower order, or a move into the same that attacks nothing -- what the tables' move
picker plays, ``engine.egtb.probe.move_score``).  Then plain propagation (*rule propagation*: a drawn position
with a move into a lost one wins, one whose every move goes into a won one loses; one ``order`` per round of
it) spreads these results, and the passes repeat for both sides until nothing changes; rule-decided results of
smaller tables enter through captures the same way.

**A round that removes nothing is skipped.**  If every drawn position of C has a good move into Z (or a
capture it does not lose), every one is a seed, every position of O joins, and A = Z.  A whole table tells
this by looking forwards (``rule_trapped``: a move or two a position, against a full round's pushes), and
almost every round -- a perpetual check or chase forced on one side is rare -- is skipped; a sliced build,
whose moves lead into other slices, runs every round, with the same results.

**Pushed, not pulled.** Both computations run backwards, like the levels: counters of the moves that still keep a
position out (O's good moves into Z outside A; in the propagation, the moves into drawn positions) are filled by
every position of Z pushing to its predecessors, and a position that joins (or is decided) pushes to its
predecessors in turn -- each position is expanded a few times a round instead of once a sweep until nothing
changes. An attractor round starts from ``ways`` (for C: its good moves; for O: its moves that keep it out before
anything joins), counted from scratch at a goal's first round and then kept up to date from the positions each
round removes (Z only shrinks): a round after the first costs the attractor's waves, not a push from all of Z. A
step writes only the entries of its predecessors, so the same kernels run over a whole table (two threads, one a
side to move) or over a slice of it on a Ray actor, which sends the predecessors it does not hold to the actors
that do (``engine.egtb.build.sliced``); the results do not depend on the order in which the pushes arrive (an attractor
is a least fixpoint; a propagation round only reads the results of the rounds before it), so they are the same
either way.

A drawn position has no move into a position lost for its opponent (the levels are exact, and a propagation
ends only when none is left), except into positions the rule decided since the last propagation: those are
the only lost children a step needs to push from (``fresh``).

Limits: (1) mutual perpetual attack (both sides check, or both chase, on every move: a draw) is handled
conservatively -- a move of O that checks (in a chase round: checks or chases) never counts as O's way out, so
a draw is never turned into a loss because of it, but a few real wins of O that need O's own attacks inside the
cycle may stay draws (in a check round O may chase: the checker loses all the same); (2) two identical enemy
pieces (two advisors, two horses ...) are one goal, met unless a move chases *both*: the tables do not tell
the copies apart, so a cycle chasing one of them for ever stays a draw -- never a loss wrongly called, some
losses missed; (3) the other Asian rules (idle moves, one check one chase ...) are draws, as the referee
judges them, and there is no 60-move rule; (4) rule-decided results carry an order, not a distance to mate:
the side the rule makes lose is ruled at a repetition, whose distance depends on the line's history.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..codes import DIST0, DRAW, RULE_BASE

# What a pushed message does to a predecessor (the message is ``index * 4 + op``): count one more move, one
# fewer, or join (the attractor; in a propagation: won).
OP_COUNT, OP_UNCOUNT, OP_JOIN = 0, 1, 2
# The steps (the game's ``rule_step``): fill a propagation's counters from each position's own captures, then by
# pushes; a wave of a propagation.  Fill an attractor's ``ways`` (C: its ways towards the goal -- captures C does
# not lose and good moves into Z; O: its moves that keep it out of A before anything joins) the same two ways
# at a goal's first round; at the next ones take off what the last round removed (``ATTR_DROP``:
# Z only shrinks, so the rounds after the first cost a push from the removed positions, not from all of Z);
# a wave of an attractor round.
PROP_OWN, PROP_PUSH, PROP_WAVE, ATTR_OWN, ATTR_PUSH, ATTR_DROP, ATTR_WAVE = range(7)
# The scans (``rule_scan``): decide a propagation round; start an attractor round from ``ways`` (seeds join);
# give the positions left out of the attractor their results.
PROP_DECIDE, ATTR_START, ATTR_REMOVE = range(3)
# How ``receive`` takes a message: a propagation's counter and flag, an attractor wave's, or ``ways`` alone.
PROPAGATION, ATTRACTOR, WAYS = range(3)
MAX_ORDER = (0xFFFF - RULE_BASE) // 2
# A round is skipped when ``rule_held`` finds it would remove nothing -- tried on at most this many positions
# with no move towards the goal, for at most this many sweeps over them (each sweep costs about what a round's
# push costs for as many positions; a round costs a push from all of Z).
HELD_LIMIT, HELD_SWEEPS = 200_000, 6
# Which moves into a position a step pushes along: all, those that count towards the round's goal (for C: not a
# check, or not a chase of the goal's pieces; for O: no check and, in a chase round, no chase), the others.
ANY, GOOD, BAD = range(3)


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


def rule_pass(material, table, report, chase: bool = True) -> tuple[int, int]:
    """The perpetual-check (and, with ``chase``, perpetual-chase) correction of ``material``'s values, which
    ``table`` holds (a :class:`WholeTable`, or the slices of a build on Ray); returns the number of positions it
    changed, and how many of them its perpetual-chase rounds took out."""
    goals = material.rule_goals(chase)
    has_rule = table.sub_has_rule
    if not goals and not has_rule:
        return 0, 0
    order = 0
    fresh = 0                           # the orders from this one on were decided since the last propagation
    changed_total = chased_total = 0
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
        for checker, goal, what in goals:
            report(0.9, f"perpetual {what} ({material.SIDE_NAMES[checker]})")
            removed_total = 0
            if table.trapped(checker, goal, [g for c, g, _ in goals if c == checker]) == 0:
                continue                # every position of C has a way towards the goal: nothing to remove
            while True:
                if removed_total == 0:
                    table.step(ATTR_OWN, checker, goal)
                    table.step(ATTR_PUSH, checker, goal, RULE_BASE + 2 * fresh)
                else:
                    table.step(ATTR_DROP, checker, goal, RULE_BASE + 2 * (order - 1))
                table.scan(ATTR_START, checker)
                while table.step(ATTR_WAVE, checker, goal):
                    pass
                removed = table.scan(ATTR_REMOVE, checker, order)
                if not removed:
                    break
                order += 1
                removed_total += removed
            if removed_total:
                changed_total += removed_total
                chased_total += removed_total if goal else 0
                has_rule = True
                progress = True
        if order >= MAX_ORDER:
            raise RuntimeError("too many perpetual-check rounds")
    return changed_total, chased_total


class WholeTable:
    """The rule pass's state over a whole table in memory (3 bytes an entry besides the values): a step (the
    game's ``rule_step`` kernel) runs in two threads, one a side to move -- the predecessors of one side's
    positions are the other side's."""

    def __init__(self, material, vals, subs, pool, rule_step, rule_trapped, rule_held):
        self.material, self.vals, self.subs, self.pool = material, vals, subs, pool
        self.rule_step, self.rule_trapped, self.rule_held = rule_step, rule_trapped, rule_held
        self.version, self._trapped = 0, {}
        self.spec, self.slot_pieces = material.spec(), material.slot_pieces()
        self.cnt = np.zeros(vals.shape[0], np.uint8)
        self.ways = np.zeros(vals.shape[0], np.uint8)
        self.flag = np.zeros(vals.shape[0], np.uint8)
        self.halves = [(0, material.npos), (material.npos, material.size)]
        self.no_out = np.zeros(0, np.int64)
        self.sub_has_rule = has_rule_results(subs)

    def step(self, step, checker=0, goal=0, code=0) -> int:
        futures = [self.pool.submit(self.rule_step, self.spec, self.slot_pieces, self.vals, self.cnt, self.ways,
                                    self.flag, 0, lo, hi, step, checker, goal, code, *self.subs, self.no_out)
                   for lo, hi in self.halves]
        return sum(int(f.result()[0]) for f in futures)

    def trapped(self, checker, goal, goals) -> int:
        """How many of C's drawn positions a round for ``goal`` would remove (the game's ``rule_trapped``: those
        with no move towards it, then ``rule_held``: those of them O can hold there).  ``goals``: all of C's
        goals, whose positions one scan finds, kept until the values change."""
        key = (checker, tuple(goals))
        if key not in self._trapped or self._trapped[key][0] != self.version:
            lo, hi = checker * self.material.npos, (checker + 1) * self.material.npos
            mid = (lo + hi) // 2
            masks = np.array(goals, np.int64)
            futures = [self.pool.submit(self.rule_trapped, self.spec, self.vals, a, b, checker, masks, *self.subs)
                       for a, b in ((lo, mid), (mid, hi))]
            coded = np.concatenate([out[:n] for out, n in (f.result() for f in futures)])
            self._trapped[key] = (self.version, {g: np.sort(coded[coded % 8 == i] // 8) for i, g in enumerate(goals)})
        found = self._trapped[key][1][goal]
        if found.size == 0:
            return 0
        if found.size > HELD_LIMIT:
            return -1                   # many: the round itself is cheaper than sweeping them
        return int(self.rule_held(self.spec, self.slot_pieces, self.vals, found, checker, goal, HELD_SWEEPS))

    def scan(self, scan, checker=0, order=0) -> int:
        futures = [self.pool.submit(rule_scan, self.vals, self.cnt, self.ways, self.flag, self.material.npos, 0,
                                    lo, hi, scan, checker, order) for lo, hi in self.halves]
        changed = sum(int(f.result()) for f in futures)
        if changed and scan != ATTR_START:
            self.version += 1           # values decided: what ``trapped`` found is out of date
        return changed
