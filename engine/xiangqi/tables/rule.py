"""Xiangqi's step of the perpetual-check pass (:mod:`engine.egtb.rule`, where the pass is described): the
kernel that walks a position's captures and pushes messages to its predecessors.  It runs over a whole table
(``engine.egtb.rule.WholeTable``) or over a slice of it on a Ray actor (``engine.egtb.sliced``)."""
import numpy as np
from numba import njit

from ...egtb.codes import DRAW
from ...egtb.levels import collect
from ...egtb.material import MAX_SLOTS
from ...egtb.rule import (ANY, ATTR_DROP, ATTR_OWN, ATTR_PUSH, CHECK, OP_COUNT, OP_JOIN, OP_UNCOUNT, PROP_OWN,
                          PROP_PUSH, PROP_WAVE, QUIET, is_loss, is_win, receive, target)
from ...moving import move_from, move_to
from ..board import NSQ, ST_SIDE, ST_KING, ST_LEN, MAX_MOVES
from ..movegen import GEN_CAPTURES, generate, is_legal, king_attacked
from .index import decode
from .moves import MAX_PREDECESSORS, capture_code, predecessors


@njit(cache=True, nogil=True)
def rule_step(spec, slot_pieces, vals, cnt, ways, flag, base, lo, hi, step, checker, code, sub_specs, sub_vals,
               sub_off, cap_sub, cap_flip, out):
    """One step over the indices [lo, hi) (the arrays hold the entries from ``base``).  ``checker``: the side C
    of an attractor round; ``code``: the first code of the positions decided since the last propagation (the
    ``*_PUSH`` steps), or the codes of the previous round (``PROP_WAVE``, ``ATTR_DROP``).  Messages for entries
    the arrays do not hold are collected in ``out``.  Returns (the positions the step took: in ``ATTR_WAVE``
    those that pushed, out, how many messages)."""
    npos = spec[1]
    end = base + vals.shape[0]
    counter, kind = target(step, cnt, ways)
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
                c = capture_code(board, side, move_from(m), move_to(m), sub_specs, sub_vals, sub_off, cap_sub,
                                 cap_flip, work)
                if step == PROP_OWN:
                    if is_loss(c):
                        flag[i] = 1
                    elif not is_win(c):
                        cnt[i] += 1
                elif side == checker:
                    if not is_win(c):     # a capture C does not lose: a way out of checking for ever
                        ways[i] += 1
                elif is_loss(c):          # O wins outright: a move that keeps O's position out of A
                    ways[i] += 1
            taken += 1
            continue
        need = ANY                         # push whatever the move into this position was, or only a check/not
        if step == PROP_PUSH:
            if v == DRAW:
                op = OP_COUNT
            elif v >= code and is_loss(v):
                op = OP_JOIN
            else:
                continue
        elif step == PROP_WAVE:
            if v != code and v != code + 1:
                continue
            op = OP_JOIN if is_loss(v) else OP_UNCOUNT
        elif step == ATTR_PUSH:
            if v == DRAW:
                # a non-checking move into Z: a way out of checking for C, one that keeps O out (for now)
                op, need = OP_COUNT, QUIET
            elif side == checker and v >= code and is_loss(v):
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
        n = predecessors(spec, slot_pieces, psq, board, froms, side ^ 1, preds, counted)
        for j in range(n):
            if op != OP_JOIN and not counted[j]:
                continue                   # a counter counts moves: each once
            q = preds[j]
            if base <= q < end:
                receive(vals, counter, flag, q - base, op, kind)
            else:
                out, nout = collect(out, nout, q * 4 + op)
    return taken, out, nout
