"""Retrograde generation of a xiangqi table: WDL and distance to mate in plies, both sides to move.

**Values** (``uint16`` per index, see :mod:`engine.egtb.codes`): ``DRAW`` 0, ``ILLEGAL`` 1 (don't care),
``2 + d`` for a result in ``d`` plies -- the parity tells who wins: odd ``d`` = the side to move mates in ``d``
plies, even ``d`` = the side to move is mated in ``d`` plies (0: no legal move now, mate and stalemate alike,
since a side without a legal move loses in xiangqi).  Codes from ``RULE_BASE`` up are results decided by the
rule on perpetual check and chase (below).

**Passes.**

1. *Initialisation* (one pass over every index): illegal indices (overlapping pieces, facing generals, side not
   to move in check) become ``ILLEGAL``; positions without a legal move are lost in 0 plies.  Every legal move is
   looked at once: a capture leaves the table, and its result is read from the already built smaller table
   (build order: fewer pieces first); a non-capture stays inside and is counted in ``counter``.  The best
   capture (a capture into a lost position wins at distance + 1) and, if every capture loses, the slowest of
   them are remembered in ``sched`` as the level at which the position is settled by captures alone.
2. *Levels* ``d = 1, 2, ...``: every position settled at distance ``d - 1`` is an event.  Its predecessors
   (un-moves of the side that just moved: non-captures only, pawns backwards) are positions with the other side
   to move.  If the event is a loss for its side to move, each predecessor wins in ``d``.  If the event is a
   win, each predecessor loses one more way of escape (``counter -= 1``); when none is left it is lost in
   ``d`` (or at its ``sched`` level, if a losing capture takes longer).  Pawn moves need no special care: a
   pawn step is a move inside the table like any other (the graph just has no cycle through it).  The levels
   stop when a level settles nothing and no capture level is pending.  What is left is a draw -- for now.
3. *Perpetual check and chase* (Asian rules: a side that checks on every move of an endless line loses, and
   failing that one that chases the same piece on every move, unless the other side attacks as much; ``--rule
   check`` leaves chases out, ``--rule none`` skips the pass).  See :mod:`engine.egtb.build.rule` (the pass) and
   :mod:`.rule` (its steps over xiangqi's moves, each move labelled by the referee's definitions).

**Mirror images.**  The index keeps one of a position and its left-right mirror when the general pair is
asymmetric.  Counters must match moves exactly, so an event is processed for both boards of its class and
an un-move counts only when the predecessor board is the stored representative (see ``moves.predecessors``).

**Threads.**  Kernels are ``nogil``: the initialisation is split in ranges over both cores; in a level, the
events of Red-to-move positions only write Black-to-move entries and vice versa, so the two halves run in
parallel without locks.
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numba import njit

from ....egtb.codes import DIST0, DRAW, ILLEGAL, RULE_BASE
from ....egtb.build.levels import BuildStats, collect, run_init, run_levels, smaller_tables, split_range
from ....egtb.material import MAX_SLOTS
from ....egtb.build.rule import WholeTable, rule_pass
from ....egtb.store import DEFAULT_RULE
from ....moving import move_from, move_to
from ...board import NSQ, BLACK_BIT, ST_SIDE, ST_KING
from ...movegen import GEN_ALL, generate, is_legal, king_attacked
from ..index import Material, decode
from .moves import capture_code, position_work, predecessors
from .rule import label_work, rule_held, rule_step, rule_trapped

DRAW_CAPTURE = 200              # added to a counter: a capture keeps at least a draw, never lost


# ----------------------------------------------------------------------------------------------------------------
# Kernels
# ----------------------------------------------------------------------------------------------------------------

@njit(cache=True, nogil=True)
def init_range(spec, vals, counter, sched, base, lo, hi, sub_specs, sub_vals, sub_off, cap_sub, cap_flip):
    """Pass 1 over indices [lo, hi); the arrays hold the entries from index ``base`` on (a slice of the table,
    or all of it with ``base`` 0).  Returns the largest capture level scheduled."""
    psq, work, board, st, moves = position_work()
    max_sched = 0
    for idx in range(lo, hi):
        at = idx - base
        side = decode(idx, spec, psq, board)
        if side < 0:
            vals[at] = ILLEGAL
            continue
        if king_attacked(board, psq[side ^ 1], side):
            vals[at] = ILLEGAL
            continue
        st[ST_SIDE] = side
        st[ST_KING] = psq[0]
        st[ST_KING + 1] = psq[1]
        n = generate(board, side, moves, GEN_ALL)
        checked = king_attacked(board, psq[side], side ^ 1)
        quiet = 0
        legal = 0
        drawn = False
        win_level = 0
        loss_level = 0
        all_caps_lose = True
        for i in range(n):
            m = moves[i]
            if not is_legal(board, st, m, checked):
                continue
            legal += 1
            frm = move_from(m)
            to = move_to(m)
            cap = board[to]
            if cap == 0:
                quiet += 1
                continue
            v = capture_code(board, side, frm, to, sub_specs, sub_vals, sub_off, cap_sub, cap_flip, work)
            if v >= DIST0 and v < RULE_BASE:
                d = v - DIST0
                if d % 2 == 0:            # the opponent is lost: we win in d + 1
                    if win_level == 0 or d + 1 < win_level:
                        win_level = d + 1
                else:                     # the opponent wins: this capture loses in d + 1
                    if d + 1 > loss_level:
                        loss_level = d + 1
            else:                         # draw (or a result decided by the repetition rule): not lost
                all_caps_lose = False
                drawn = True
        if legal == 0:
            vals[at] = DIST0
            counter[at] = 0
            sched[at] = 0
            continue
        vals[at] = DRAW
        c = quiet
        if drawn:
            c += DRAW_CAPTURE
        counter[at] = c
        if win_level > 0:
            sched[at] = win_level
        elif all_caps_lose and loss_level > 0:
            sched[at] = loss_level
        else:
            sched[at] = 0
        if sched[at] > max_sched:
            max_sched = sched[at]
    return max_sched


@njit(cache=True, inline="always")
def settle(vals, counter, sched, i, level, event_lost):
    """A predecessor (entry ``i`` of the arrays) of an event of this level: won when the event is lost for its
    side to move; else one way of escape fewer, lost when none is left (unless a capture is slower).  Returns
    1 when it settled the entry.  The order of the calls within a level does not matter."""
    if vals[i] != DRAW:
        return 0
    if event_lost:
        vals[i] = DIST0 + level
        return 1
    c = counter[i] - 1
    counter[i] = c
    if c == 0:
        sc = sched[i]
        if sc == 0 or (sc % 2 == 0 and sc <= level):
            vals[i] = DIST0 + level
            return 1
    return 0


@njit(cache=True, nogil=True)
def propagate(spec, slot_pieces, vals, counter, sched, base, lo, hi, level, out):
    """Level ``level``: the events are the entries of [lo, hi) settled at distance ``level - 1``; their
    predecessors (the other side to move) are settled here when the arrays hold them (entries ``base`` to
    ``base + len(vals)``), else their indices are collected for the slice that holds them.  Returns (positions
    settled, the collected indices: ``out`` or a larger copy, and how many)."""
    npos = spec[1]
    end = base + vals.shape[0]
    psq = np.zeros(MAX_SLOTS, np.int64)
    board = np.zeros(NSQ, np.int8)
    froms, preds, counted, moved, origin, _ = label_work()
    target = DIST0 + level - 1
    event_lost = (level - 1) % 2 == 0
    settled = 0
    nout = 0
    for idx in range(lo, hi):
        if vals[idx - base] != target:
            continue
        mover = 1 if idx < npos else 0     # the side that made the last move, to move in the predecessors
        decode(idx, spec, psq, board)
        n = predecessors(spec, slot_pieces, psq, board, froms, mover, preds, counted, moved, origin)
        for j in range(n):
            # a win event counts once per stored board (a counter counts moves)
            if event_lost or counted[j]:
                q = preds[j]
                if base <= q < end:
                    settled += settle(vals, counter, sched, q - base, level, event_lost)
                else:
                    out, nout = collect(out, nout, q)
    return settled, out, nout


@njit(cache=True, nogil=True)
def settle_all(vals, counter, sched, base, indices, level):
    """The predecessors another slice collected (``propagate``) for this one."""
    event_lost = (level - 1) % 2 == 0
    settled = 0
    for k in range(indices.shape[0]):
        settled += settle(vals, counter, sched, indices[k] - base, level, event_lost)
    return settled


@njit(cache=True, nogil=True)
def sched_scan(vals, counter, sched, level, lo, hi):
    """Positions settled by their captures at this level."""
    settled = 0
    for idx in range(lo, hi):
        if sched[idx] == level and vals[idx] == DRAW:
            if level % 2 == 1 or counter[idx] == 0:
                vals[idx] = DIST0 + level
                settled += 1
    return settled


# ----------------------------------------------------------------------------------------------------------------
# Driver
# ----------------------------------------------------------------------------------------------------------------

def capture_tables(material: Material, load_sub, sub_vals=None):
    """The smaller tables (``engine.egtb.build.levels.smaller_tables``: specs, values, offsets) and, for each piece
    code that can be captured, the number of the one it leads to and whether its colours are swapped."""
    specs, sub_vals, offsets = smaller_tables(material, load_sub, sub_vals)
    subs = material.subtables()
    cap_sub = np.zeros(16, np.int64)
    cap_flip = np.zeros(16, np.bool_)
    for colour, kind, after in material.transitions():
        canon, flip = after.canonical()
        cap_sub[colour * BLACK_BIT + kind] = subs.index(canon)
        cap_flip[colour * BLACK_BIT + kind] = flip
    return specs, sub_vals, offsets, cap_sub, cap_flip


def generate_table(material: Material, load_sub, progress=None, threads: int = 2, rule: str = DEFAULT_RULE):
    """Build the values of ``material`` (canonical).  ``load_sub(material)`` returns the values of a smaller
    table; ``progress(fraction, text)`` is called now and then; ``rule``: "chase" (the rule pass for perpetual
    check and chase), "check" or "none".  Returns (values uint16[size], BuildStats)."""
    stats = BuildStats()
    spec, slot_pieces, size, npos = material.spec(), material.slot_pieces(), material.size, material.npos
    vals = np.zeros(size, np.uint16)
    counter = np.zeros(size, np.uint8)
    sched = np.zeros(size, np.uint16)
    sub_specs, sub_vals, sub_off, cap_sub, cap_flip = capture_tables(material, load_sub)
    report = progress or (lambda f, t: None)

    pool = ThreadPoolExecutor(max(1, threads))
    try:
        # Pass 1, in slices so that the progress bar moves.
        max_sched = max(int(r) for r in run_init(
            lambda lo, hi: pool.submit(init_range, spec, vals, counter, sched, 0, lo, hi, sub_specs, sub_vals, sub_off,
                                       cap_sub, cap_flip), size, report))
        # Pass 2: levels.
        no_out = np.zeros(0, np.int64)             # the whole table is here: nothing is collected

        def one_level(level):
            # Events of one side to move settle only entries of the other: the halves run in parallel.
            futs = [pool.submit(propagate, spec, slot_pieces, vals, counter, sched, 0, lo, hi, level, no_out)
                    for lo, hi in ((0, npos), (npos, size))]
            settled = sum(int(f.result()[0]) for f in futs)
            if level <= max_sched:
                futs = [pool.submit(sched_scan, vals, counter, sched, level, lo, hi) for lo, hi in split_range(size, 2)]
                settled += sum(int(f.result()) for f in futs)
            return settled
        stats.levels = run_levels(one_level, max_sched, report)
        counter = sched = None                      # freed before the rule pass (3 bytes an entry)
        if rule != "none":
            table = WholeTable(material, vals, (sub_specs, sub_vals, sub_off, cap_sub, cap_flip), pool, rule_step,
                                rule_trapped, rule_held)
            stats.rule_changed, stats.rule_chase = rule_pass(material, table, report, chase=rule == "chase")
    finally:
        pool.shutdown()
    report(1.0, "done")
    stats.stop()
    return vals, stats
