"""Xiangqi's step of the rule pass (:mod:`engine.egtb.build.rule`, where the pass is described): the kernel that walks a
position's captures and pushes messages to its predecessors, labelling each move into it as the round's goal
asks -- a check (the position after it alone says), or a chase (new attacks, by
:func:`engine.xiangqi.repetition.chase_pairs` -- the referee's one definition -- on the boards before and after
the move).  It runs over a whole table (``engine.egtb.build.rule.WholeTable``) or over a slice of it on a Ray actor
(``engine.egtb.build.sliced``)."""
import numpy as np
from numba import njit

from ....egtb.codes import DRAW
from ....egtb.build.levels import collect
from ....egtb.build.rule import (ANY, ATTR_DROP, ATTR_OWN, ATTR_PUSH, BAD, OP_COUNT, OP_JOIN, OP_UNCOUNT, PROP_OWN,
                          PROP_PUSH, PROP_WAVE, GOOD, is_loss, is_win, receive, target)
from ....moving import move_from, move_to
from ...board import ST_SIDE, ST_KING, lift_move, unlift_move
from ...movegen import GEN_ALL, GEN_CAPTURES, GEN_QUIETS, generate, is_legal, king_attacked
from ...repetition import chase_pairs, chase_work, fresh_targets, new_chases
from ..index import decode, encode_board
from .moves import MAX_PREDECESSORS, capture_code, position_work, predecessors


@njit(cache=True, inline="always")
def set_ids(psq, nslots, ids):
    """``ids[square]`` = the slot standing there (-1: empty): a piece's identity for ``chase_pairs``."""
    ids[:] = -1
    for s in range(nslots):
        ids[psq[s]] = s


@njit(cache=True, inline="always")
def set_up(idx, spec, psq, board, st, side):
    """Decode position ``idx`` into ``psq``/``board`` with ``side`` to move in ``st``; is that side in check?"""
    decode(idx, spec, psq, board)
    st[ST_SIDE] = side
    st[ST_KING] = psq[0]
    st[ST_KING + 1] = psq[1]
    return king_attacked(board, psq[side], side ^ 1)


@njit(cache=True, inline="always")
def quiet_child(board, st, spec, side, frm, to, work):
    """(index, check): the position after ``side``'s non-capture ``frm`` -> ``to``, and whether it gives
    check.  The board and ``st`` are restored."""
    lift_move(board, frm, to)
    king = frm == st[ST_KING + side]
    if king:
        st[ST_KING + side] = to
    idx = encode_board(board, side ^ 1, spec, False, work)
    check = king_attacked(board, st[ST_KING + (side ^ 1)], side)
    if king:
        st[ST_KING + side] = frm
    unlift_move(board, frm, to, 0)
    return idx, check


@njit(cache=True)
def move_chases(board, st, psq, nslots, slot, origin, mover, ids, pairs_after, pairs_before, buf, buf2):
    """The target slots that ``mover``'s move of ``slot`` from ``origin`` to where it stands chases: the pairs
    (attacker -> target) ``pairs_after`` holds for the board as it is, less those the board before the move
    had.  ``board``/``st``/``ids`` describe the position after the move; they are restored."""
    to = psq[slot]
    piece = board[to]
    board[to] = 0
    board[origin] = piece
    ids[to] = -1
    ids[origin] = slot
    if slot < 2:                       # slots 0 and 1 are the generals (Red's, Black's)
        st[ST_KING + slot] = origin
    chase_pairs(board, st, mover, ids, pairs_before, buf, buf2)
    if slot < 2:
        st[ST_KING + slot] = to
    ids[origin] = -1
    ids[to] = slot
    board[origin] = 0
    board[to] = piece
    return fresh_targets(pairs_after, pairs_before, nslots)


@njit(cache=True)
def chase_labels(board, st, psq, nslots, side, checker, goal, check, ids, pairs_after, buf, buf2):
    """Do the moves into the position decoded in ``psq``/``board`` (``side`` to move) need a chase label each
    (``move_chases``)?  In a chase round, unless the mover has no chase pair here at all, or none on the goal's
    pieces (C), or gives check (O: no good move then, chase or not).  Fills ``ids`` and ``pairs_after``."""
    mover = side ^ 1
    if goal == 0 or (mover != checker and check):
        return False
    st[ST_SIDE] = side
    st[ST_KING] = psq[0]
    st[ST_KING + 1] = psq[1]
    set_ids(psq, nslots, ids)
    chase_pairs(board, st, mover, ids, pairs_after, buf, buf2)
    relevant = np.uint64(0)
    for a in range(nslots):
        relevant |= pairs_after[a]
    if mover == checker:
        relevant &= np.uint64(goal)
    return relevant != 0


@njit(cache=True, inline="always")
def is_good(mover, checker, goal, check, chased):
    """Does a move count towards the round's goal (see ``engine.egtb.build.rule``)?  For C, the side the round is
    about: a move that is not a check (``goal`` 0) or does not chase every piece of ``goal`` (a mask of
    target slots).  For the other side O: a move that attacks nothing the rule could count against O -- no
    check, and in a chase round no chase either."""
    if goal == 0:
        return not check
    if mover == checker:
        return (chased & np.uint64(goal)) != np.uint64(goal)
    return not check and chased == 0


@njit(cache=True)
def label_work():
    """The work arrays of ``label_predecessors``: un-move origins, then per predecessor its index, whether it
    is counted, the slot moved, its origin and its label."""
    return (np.zeros(32, np.int64), np.zeros(MAX_PREDECESSORS, np.int64), np.zeros(MAX_PREDECESSORS, np.bool_),
            np.zeros(MAX_PREDECESSORS, np.int64), np.zeros(MAX_PREDECESSORS, np.int64),
            np.zeros(MAX_PREDECESSORS, np.bool_))


@njit(cache=True)
def label_predecessors(spec, slot_pieces, idx, psq, board, st, side, checker, goal, froms, preds, counted, moved,
                       origin, good, ids, pairs_after, pairs_before, buf, buf2):
    """The predecessors of position ``idx`` (decoded in ``psq``/``board``, ``side`` to move; see
    ``moves.predecessors``), and for each whether the move into ``idx`` is good for the round (``good[j]``).
    Returns how many; ``psq``/``board`` are left changed."""
    mover = side ^ 1
    check = king_attacked(board, psq[side], mover)
    labels = chase_labels(board, st, psq, spec[3], side, checker, goal, check, ids, pairs_after, buf, buf2)
    n = predecessors(spec, slot_pieces, psq, board, froms, mover, preds, counted, moved, origin)
    if labels:
        decode(idx, spec, psq, board)          # predecessors() left the other image
    for j in range(n):
        chased = np.uint64(0)
        if labels:
            chased = move_chases(board, st, psq, spec[3], moved[j], origin[j], mover, ids, pairs_after,
                                 pairs_before, buf, buf2)
        good[j] = is_good(mover, checker, goal, check, chased)
    return n


@njit(cache=True, nogil=True)
def rule_step(spec, slot_pieces, vals, cnt, ways, flag, base, lo, hi, step, checker, goal, code, sub_specs,
              sub_vals, sub_off, cap_sub, cap_flip, out):
    """One step over the indices [lo, hi) (the arrays hold the entries from ``base``). ``checker``: the side C of an
    attractor round; ``goal``: what C must stop doing to escape (0: checking; else a mask of the slots of the
    enemy pieces C must stop chasing); ``code``: the first code of the positions decided since the last
    propagation (the ``*_PUSH`` steps), or the codes of the previous round (``PROP_WAVE``, ``ATTR_DROP``).
    Messages for entries the arrays do not hold are collected in ``out``. Returns (the positions the step took: in
    ``ATTR_WAVE`` those that pushed, out, how many messages)."""
    npos = spec[1]
    end = base + vals.shape[0]
    counter, kind = target(step, cnt, ways)
    psq, work, board, st, moves = position_work()
    froms, preds, counted, moved, origin, good = label_work()
    ids, pairs_before, pairs_after, buf, _ = chase_work()
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
            checked = set_up(idx, spec, psq, board, st, side)
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
                    if not is_win(c):     # a capture C does not lose: a way out of attacking for ever
                        ways[i] += 1
                elif is_loss(c):          # O wins outright: a move that keeps O's position out of A
                    ways[i] += 1
            taken += 1
            continue
        need = ANY                         # push along every move into this position, or only GOOD or BAD ones
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
                # a good move into Z: a way towards the goal for C, one that keeps O out (for now)
                op, need = OP_COUNT, GOOD
            elif side == checker and v >= code and is_loss(v):
                op = OP_COUNT              # O's move into a position C has lost since: O wins, never A
            else:
                continue
        elif step == ATTR_DROP:
            if v != code and v != code + 1:
                continue
            if side != checker:            # out of Z: no way out for C any more
                op, need = OP_UNCOUNT, GOOD
            else:                          # C lost it: O's good move into it was counted, an attack was not
                op, need = OP_COUNT, BAD
        else:                              # ATTR_WAVE
            if flag[i] != 1:
                continue
            flag[i] = 2
            taken += 1
            if side != checker:
                # C's predecessors join -- unless the move into this position was good: then it is one of
                # their ways and they joined as seeds already
                op, need = OP_JOIN, BAD
            else:
                op, need = OP_UNCOUNT, GOOD
        decode(idx, spec, psq, board)
        if need == ANY:
            n = predecessors(spec, slot_pieces, psq, board, froms, side ^ 1, preds, counted, moved, origin)
        elif goal == 0 and king_attacked(board, psq[side], side ^ 1) == (need == GOOD):
            continue                       # a check round: every move into this position is labelled alike
        else:
            n = label_predecessors(spec, slot_pieces, idx, psq, board, st, side, checker, goal, froms, preds,
                                   counted, moved, origin, good, ids, pairs_after, pairs_before, buf, moves)
        for j in range(n):
            if op != OP_JOIN and not counted[j]:
                continue                   # a counter counts moves: each once
            if need != ANY and good[j] != (need == GOOD):
                continue
            q = preds[j]
            if base <= q < end:
                receive(vals, counter, flag, q - base, op, kind)
            else:
                out, nout = collect(out, nout, q * 4 + op)
    return taken, out, nout


@njit(cache=True, nogil=True)
def rule_trapped(spec, vals, lo, hi, checker, goals, sub_specs, sub_vals, sub_off, cap_sub, cap_flip):
    """The drawn positions of C (``checker``) in [lo, hi) with no move towards a goal -- no capture C does not
    lose, no good move into a drawn position (the whole table is in ``vals``) -- for each of ``goals`` (at most
    8) at once: (``index * 8 + the goal's number`` for each, how many).  Searched forwards, stopping when every
    goal has its move: a position is passed over in a move or two, whatever the number of goals."""
    nslots = spec[3]
    psq, work, board, st, moves = position_work()
    ids, pairs_before, pairs_after, buf, buf2 = chase_work()
    no_pairs = np.zeros_like(pairs_before)
    chases = False
    for g in range(goals.shape[0]):
        chases = chases or goals[g] != 0
    out = np.zeros(64, np.int64)
    nout = 0
    for idx in range(lo, hi):
        if vals[idx] != DRAW:
            continue
        checked = set_up(idx, spec, psq, board, st, checker)
        if chases:
            set_ids(psq, nslots, ids)
        before = False                     # pairs_before found (only when a move's pairs after need them)
        need = (1 << goals.shape[0]) - 1   # the goals still without a move
        n = generate(board, checker, moves, GEN_ALL)
        for k in range(n):
            m = moves[k]
            if not is_legal(board, st, m, checked):
                continue
            frm = move_from(m)
            to = move_to(m)
            if board[to] != 0:
                if not is_win(capture_code(board, checker, frm, to, sub_specs, sub_vals, sub_off, cap_sub, cap_flip,
                                           work)):
                    need = 0               # a way out of the table: towards every goal
            else:
                child, check = quiet_child(board, st, spec, checker, frm, to, work)
                if vals[child] == DRAW:
                    # every pair after the move first: a goal whose pieces are not among them is met whatever
                    # was there before; only the others need the pairs before
                    after = False
                    chased = np.uint64(0)
                    for g in range(goals.shape[0]):
                        if not (need >> g) & 1:
                            continue
                        if goals[g] != 0 and not after:
                            chased = new_chases(board, st, checker, ids, nslots, frm, to, no_pairs, pairs_after,
                                                buf, buf2)
                            after = True
                        good = is_good(checker, checker, goals[g], check, chased)
                        if not good and goals[g] != 0:
                            if not before:
                                chase_pairs(board, st, checker, ids, pairs_before, buf, buf2)
                                before = True
                            good = is_good(checker, checker, goals[g], check,
                                           fresh_targets(pairs_after, pairs_before, nslots))
                        if good:
                            need &= ~(1 << g)
            if need == 0:
                break
        for g in range(goals.shape[0]):
            if (need >> g) & 1:
                out, nout = collect(out, nout, idx * 8 + g)
    return out, nout


@njit(cache=True, nogil=True)
def rule_held(spec, slot_pieces, vals, trapped, checker, goal, sweeps):
    """How many of the ``trapped`` positions of C (sorted indices) O can hold trapped for ever: the greatest
    set S of them such that every move of C from S into a drawn position reaches a position of O with a good
    move back into S.  Exactly the positions of C an attractor round would remove (none: the round is
    skipped); found from these few positions alone, not from all of Z, in at most ``sweeps`` sweeps over them
    (-1: not settled by then -- the round will tell)."""
    psq, work, board, st, moves = position_work()
    froms, preds, counted, moved, origin, good = label_work()
    ids, pairs_before, pairs_after, buf, _ = chase_work()
    alive = np.ones(trapped.shape[0], np.bool_)
    held = trapped.shape[0]
    for _ in range(sweeps):
        if held == 0:
            return 0
        # O's positions with a good move into S
        keep = np.zeros(64, np.int64)
        nkeep = 0
        for t in range(trapped.shape[0]):
            if not alive[t]:
                continue
            decode(trapped[t], spec, psq, board)
            n = label_predecessors(spec, slot_pieces, trapped[t], psq, board, st, checker, checker, goal, froms,
                                   preds, counted, moved, origin, good, ids, pairs_after, pairs_before, buf, moves)
            for j in range(n):
                if good[j] and vals[preds[j]] == DRAW:
                    keep, nkeep = collect(keep, nkeep, preds[j])
        keep = np.sort(keep[:nkeep])
        # C's positions of S with a move into Z that leaves S
        dropped = 0
        for t in range(trapped.shape[0]):
            if not alive[t]:
                continue
            checked = set_up(trapped[t], spec, psq, board, st, checker)
            n = generate(board, checker, moves, GEN_QUIETS)
            for k in range(n):
                m = moves[k]
                if not is_legal(board, st, m, checked):
                    continue
                q = quiet_child(board, st, spec, checker, move_from(m), move_to(m), work)[0]
                if vals[q] == DRAW:
                    at = np.searchsorted(keep, q)
                    if at == keep.shape[0] or keep[at] != q:
                        alive[t] = False
                        dropped += 1
                        break
        if dropped == 0:
            return held
        held -= dropped
    return -1
