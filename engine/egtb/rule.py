"""The perpetual-check pass of the table generator (Asian rules), run after the levels of
:mod:`engine.egtb.generate`: a side that checks on every move of an endless line loses, unless the other side
checks on every move as well.

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

from ..kernel import move_from, move_to
from ..xiangqi.board import NSQ, ST_SIDE, ST_KING, ST_LEN, MAX_MOVES
from ..xiangqi.movegen import GEN_CAPTURES, generate, is_legal, king_attacked
from .codes import DIST0, DRAW, RULE_BASE
from .generate import MAX_PREDECESSORS, _capture_code, _collect, _predecessors
from .index import MAX_SLOTS, decode

# What a pushed message does to a predecessor (the message is ``index * 4 + op``): count one more move, one
# fewer, or join (the attractor; in a propagation: won).
OP_COUNT, OP_UNCOUNT, OP_JOIN = 0, 1, 2
# The steps (``_rule_step``): fill a propagation's counters from each position's own captures, then by pushes;
# a wave of a propagation.  Fill an attractor's ``ways`` (C: its ways out of checking -- captures C does not
# lose and non-checking moves into Z; O: its moves that keep it out of A before anything joins) the same two
# ways at a checker's first round; at the next ones take off what the last round removed (``ATTR_DROP``:
# Z only shrinks, so the rounds after the first cost a push from the removed positions, not from all of Z);
# a wave of an attractor round.
PROP_OWN, PROP_PUSH, PROP_WAVE, ATTR_OWN, ATTR_PUSH, ATTR_DROP, ATTR_WAVE = range(7)
# The scans (``_rule_scan``): decide a propagation round; start an attractor round from ``ways`` (seeds join);
# give the positions left out of the attractor their results.
PROP_DECIDE, ATTR_START, ATTR_REMOVE = range(3)
# How ``_receive`` takes a message: a propagation's counter and flag, an attractor wave's, or ``ways`` alone.
PROPAGATION, ATTRACTOR, WAYS = range(3)
MAX_ORDER = (0xFFFF - RULE_BASE) // 2
ANY, QUIET, CHECK = range(3)            # which moves into a position a step pushes along: all, non-checking, checks


@njit(cache=True, inline="always")
def _is_loss(code):
    """Is ``code`` a loss for its side to move (by mate or by the rule)?"""
    if code >= RULE_BASE:
        return (code - RULE_BASE) % 2 == 0
    return code >= DIST0 and (code - DIST0) % 2 == 0


@njit(cache=True, inline="always")
def _is_win(code):
    if code >= RULE_BASE:
        return (code - RULE_BASE) % 2 == 1
    return code >= DIST0 and (code - DIST0) % 2 == 1


@njit(cache=True, inline="always")
def _receive(vals, cnt, flag, i, op, kind):
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
def _target(step, cnt, ways):
    """The counter a step's messages change, and how (``_receive``'s ``kind``)."""
    if step < ATTR_OWN:
        return cnt, PROPAGATION
    if step == ATTR_WAVE:
        return cnt, ATTRACTOR
    return ways, WAYS


@njit(cache=True, nogil=True)
def _rule_receive(vals, cnt, ways, flag, base, messages, step):
    """The messages of ``step`` other slices pushed into this one (entries from index ``base``)."""
    counter, kind = _target(step, cnt, ways)
    for k in range(messages.shape[0]):
        _receive(vals, counter, flag, (messages[k] >> 2) - base, messages[k] & 3, kind)


@njit(cache=True, nogil=True)
def _rule_step(spec, slot_pieces, vals, cnt, ways, flag, base, lo, hi, step, checker, code, sub_specs, sub_vals,
               sub_off, cap_sub, cap_flip, out):
    """One step over the indices [lo, hi) (the arrays hold the entries from ``base``).  ``checker``: the side C
    of an attractor round; ``code``: the first code of the positions decided since the last propagation (the
    ``*_PUSH`` steps), or the codes of the previous round (``PROP_WAVE``, ``ATTR_DROP``).  Messages for entries
    the arrays do not hold are collected in ``out``.  Returns (the positions the step took: in ``ATTR_WAVE``
    those that pushed, out, how many messages)."""
    npos = spec[1]
    end = base + vals.shape[0]
    counter, kind = _target(step, cnt, ways)
    psq = np.zeros(MAX_SLOTS, np.int64)
    work = np.zeros(MAX_SLOTS, np.int64)
    board = np.zeros(NSQ, np.int8)
    st = np.zeros(ST_LEN, np.int32)
    moves = np.zeros(MAX_MOVES, np.int32)
    froms = np.zeros(32, np.int64)
    preds = np.zeros(MAX_PREDECESSORS, np.int64)
    counted = np.zeros(MAX_PREDECESSORS, np.bool_)
    taken = 0
    nout = 0
    for idx in range(lo, hi):
        i = idx - base
        v = vals[i]
        side = 0 if idx < npos else 1
        if step == PROP_OWN or step == ATTR_OWN:
            # A round starts: clear this entry, then count its captures (they leave the table: no push).
            counter[i] = 0
            flag[i] = 0
            if v != DRAW:
                continue
            decode(idx, spec, psq, board)
            st[ST_SIDE] = side
            st[ST_KING] = psq[0]
            st[ST_KING + 1] = psq[1]
            checked = king_attacked(board, psq[side], side ^ 1)
            n = generate(board, side, moves, GEN_CAPTURES)
            for k in range(n):
                m = moves[k]
                if not is_legal(board, st, m, checked):
                    continue
                c = _capture_code(board, side, move_from(m), move_to(m), sub_specs, sub_vals, sub_off, cap_sub,
                                  cap_flip, work)
                if step == PROP_OWN:
                    if _is_loss(c):
                        flag[i] = 1
                    elif not _is_win(c):
                        cnt[i] += 1
                elif side == checker:
                    if not _is_win(c):     # a capture C does not lose: a way out of checking for ever
                        ways[i] += 1
                elif _is_loss(c):          # O wins outright: a move that keeps O's position out of A
                    ways[i] += 1
            taken += 1
            continue
        need = ANY                         # push whatever the move into this position was, or only a check/not
        if step == PROP_PUSH:
            if v == DRAW:
                op = OP_COUNT
            elif v >= code and _is_loss(v):
                op = OP_JOIN
            else:
                continue
        elif step == PROP_WAVE:
            if v != code and v != code + 1:
                continue
            op = OP_JOIN if _is_loss(v) else OP_UNCOUNT
        elif step == ATTR_PUSH:
            if v == DRAW:
                # a non-checking move into Z: a way out of checking for C, one that keeps O out (for now)
                op, need = OP_COUNT, QUIET
            elif side == checker and v >= code and _is_loss(v):
                op = OP_COUNT              # O's move into a position C has lost since: O wins, never A
            else:
                continue
        elif step == ATTR_DROP:
            if v != code and v != code + 1:
                continue
            if side != checker:            # out of Z: no way out for C any more
                op, need = OP_UNCOUNT, QUIET
            else:                          # C lost it: O's quiet move into it was counted, a check was not
                op, need = OP_COUNT, CHECK
        else:                              # ATTR_WAVE
            if flag[i] != 1:
                continue
            flag[i] = 2
            taken += 1
            if side != checker:
                # C's predecessors join -- unless the move into this position gave no check: then it is one
                # of their ways and they joined as seeds already
                op, need = OP_JOIN, CHECK
            else:
                op, need = OP_UNCOUNT, QUIET
        decode(idx, spec, psq, board)
        if need != ANY and king_attacked(board, psq[side], side ^ 1) != (need == CHECK):
            continue
        n = _predecessors(spec, slot_pieces, psq, board, froms, side ^ 1, preds, counted)
        for j in range(n):
            if op != OP_JOIN and not counted[j]:
                continue                   # a counter counts moves: each once
            q = preds[j]
            if base <= q < end:
                _receive(vals, counter, flag, q - base, op, kind)
            else:
                out, nout = _collect(out, nout, q * 4 + op)
    return taken, out, nout


@njit(cache=True, nogil=True)
def _rule_scan(vals, cnt, ways, flag, npos, base, lo, hi, scan, checker, order):
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
    """Do the smaller tables (``capture_tables``' arrays) hold results the rule decided?  Then they enter
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
            report(0.9, f"perpetual check ({'red' if checker == 0 else 'black'})")
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
    """The rule pass's state over a whole table in memory (3 bytes an entry besides the values): a step runs
    in two threads, one a side to move -- the predecessors of one side's positions are the other side's."""

    def __init__(self, material, vals, subs, pool):
        self.material, self.vals, self.subs, self.pool = material, vals, subs, pool
        self.spec, self.slot_pieces = material.spec(), material.slot_pieces()
        self.cnt = np.zeros(vals.shape[0], np.uint8)
        self.ways = np.zeros(vals.shape[0], np.uint8)
        self.flag = np.zeros(vals.shape[0], np.uint8)
        self.halves = [(0, material.npos), (material.npos, material.size)]
        self.no_out = np.zeros(0, np.int64)
        self.sub_has_rule = has_rule_results(subs)

    def step(self, step, checker=0, code=0) -> int:
        futures = [self.pool.submit(_rule_step, self.spec, self.slot_pieces, self.vals, self.cnt, self.ways, self.flag,
                                    0, lo, hi, step, checker, code, *self.subs, self.no_out) for lo, hi in self.halves]
        return sum(int(f.result()[0]) for f in futures)

    def scan(self, scan, checker=0, order=0) -> int:
        futures = [self.pool.submit(_rule_scan, self.vals, self.cnt, self.ways, self.flag, self.material.npos, 0,
                                    lo, hi, scan, checker, order) for lo, hi in self.halves]
        return sum(int(f.result()) for f in futures)
