"""Repetition: detection and judgement by the Asian rules.  One module for the search, the referee (match
runner, terminal game, ``shuai judge``) and the tablebase generator.

Detection.  The key stack (``keys``) is walked back no further than the last capture (``H_CLOCK``: a capture is
irreversible, so no position before it can recur) nor across a null move.  The search first asks a small hash
of the keys on its path ("can this position have occurred?"), so the walk is rare.

Judgement of a cycle, from the first of the repeated positions to now:

* A side that gave check with every one of its moves in the cycle, while the other did not, loses
  (perpetual check).  Both: draw.
* Otherwise a side that chased the same enemy piece with every one of its moves, while the other did not,
  loses (perpetual chase).  Both: draw.
* Otherwise the repetition is a draw.

A move *chases* piece T when it creates a threat, by one of the mover's pieces A, that was not there before
the move (the pair A->T is new), where

* A is a chariot, horse, cannon, elephant or advisor (generals and soldiers may chase freely),
* T is not the general (that is check) and not a soldier on its own side of the river,
* A x T is a legal move, and
* T is unprotected -- its side has no legal recapture on T's square after A x T (this one definition covers
  pinned defenders, flying-general pins, cannons whose screen is the capturer and discovered checks) -- or
  T is worth more than A (horse or cannon against a chariot; elephant or advisor against chariot, horse or
  cannon), and
* it is not a mutual attack: T of the same kind as A and able to take A back legally (an offer to exchange).

Pieces are followed by identity through the cycle (no capture happens inside one), so "the same piece" is
exact even when it moves.  This is Fairy-Stockfish's model of the AXF rules with protection decided by
legal recapture instead of a list of special cases.
"""
import numpy as np
from numba import njit

from ..moving import move_from, move_to
from ..scores import NO_SCORE, RULE_WIN_SCORE
from .board import (H_CHECK, H_CLOCK, H_MOVE, KING, MAX_MOVES, NSQ, NULL_MOVE, PAWN, ST_KING, ST_PLY, ST_SIDE,
                    lift_move, make_move, unlift_move, unmake_move)
from .movegen import GEN_CAPTURES, generate, is_legal, king_attacked, in_check

VERDICT_DRAW, VERDICT_WIN, VERDICT_LOSS = 0, 1, -1                  # for the side to move
REASON_REPETITION, REASON_PERPETUAL_CHECK, REASON_PERPETUAL_CHASE = 0, 1, 2

# Value classes for "T is worth more than A" (a protected piece may still be chased by a lesser one).
CHASE_RANK = np.array([0, 0, 1, 1, 2, 3, 2, 1], np.int64)
MAX_IDS = 64


@njit(cache=True)
def find_repetition(st, hist, keys, occurrences):
    """Ply index of the earliest position of a run in which the current position has occurred
    ``occurrences`` times (itself included), or -1.  2 = "has it occurred before?" (the search),
    3 = threefold (the referee)."""
    n = st[ST_PLY]
    first = n - hist[n, H_CLOCK]
    key = keys[n, 0]
    lock = keys[n, 1]
    seen = 1
    i = n - 1
    while i >= first and i >= 0:
        if hist[i, H_MOVE] == NULL_MOVE:
            return -1
        if (n - i) % 2 == 0 and keys[i, 0] == key and keys[i, 1] == lock:
            seen += 1
            if seen >= occurrences:
                return i
        i -= 1
    return -1


@njit(cache=True, inline="always")
def _side_in_check(board, st, side):
    return king_attacked(board, st[ST_KING + side], side ^ 1)


@njit(cache=True)
def _legal_for(board, st, side, move):
    """Is ``move`` legal for ``side`` (whichever side is to move in ``st``)?"""
    saved = st[ST_SIDE]
    st[ST_SIDE] = side
    ok = is_legal(board, st, move, _side_in_check(board, st, side))
    st[ST_SIDE] = saved
    return ok


@njit(cache=True)
def _has_legal_capture_on(board, st, side, target, frm_only, buf):
    """Can ``side`` legally capture on ``target`` (with the piece on ``frm_only`` if that is >= 0)?"""
    n = generate(board, side, buf, GEN_CAPTURES)
    for i in range(n):
        m = buf[i]
        if move_to(m) == target and (frm_only < 0 or move_from(m) == frm_only):
            if _legal_for(board, st, side, m):
                return True
    return False


@njit(cache=True)
def chase_pairs(board, st, side, ids, pairs, buf, buf2):
    """Fill ``pairs[id of A]`` with the mask of ids of the pieces T that A (of ``side``) chases now."""
    pairs[:] = 0
    n = generate(board, side, buf, GEN_CAPTURES)
    for i in range(n):
        m = buf[i]
        a = move_from(m)
        t = move_to(m)
        attacker = board[a]
        victim = board[t]
        akind = attacker & 7
        tkind = victim & 7
        if akind == KING or akind == PAWN or tkind == KING:
            continue
        if tkind == PAWN:
            crossed = (t // 9 <= 4) if (victim >> 3) == 1 else (t // 9 >= 5)
            if not crossed:
                continue
        if not _legal_for(board, st, side, m):
            continue
        # Mutual attack between like pieces: an offer to exchange, not a chase.
        if tkind == akind and _has_legal_capture_on(board, st, side ^ 1, a, t, buf2):
            continue
        chased = CHASE_RANK[tkind] > CHASE_RANK[akind]
        if not chased:
            board[t] = attacker
            board[a] = 0
            chased = not _has_legal_capture_on(board, st, side ^ 1, t, -1, buf2)
            board[a] = attacker
            board[t] = victim
        if chased:
            pairs[ids[a]] |= np.uint64(1) << np.uint64(ids[t])


@njit(cache=True)
def chase_work():
    """The work arrays of a chase test: ``ids`` (square -> piece id), the pairs before and after a move, two
    move buffers."""
    return (np.full(NSQ, -1, np.int64), np.zeros(MAX_IDS, np.uint64), np.zeros(MAX_IDS, np.uint64),
            np.zeros(MAX_MOVES, np.int32), np.zeros(MAX_MOVES, np.int32))


@njit(cache=True, inline="always")
def number_pieces(board, ids):
    """``ids[square]``: 0, 1, ... for the pieces of ``board`` (-1: empty), their identity for ``chase_pairs``;
    returns how many."""
    count = 0
    for sq in range(NSQ):
        ids[sq] = -1
        if board[sq] != 0:
            ids[sq] = count
            count += 1
    return count


@njit(cache=True, inline="always")
def fresh_targets(after, before, count):
    """The ids of the pieces chased after a move and not before it, by any of the ``count`` attackers."""
    new = np.uint64(0)
    for a in range(count):
        new |= after[a] & ~before[a]
    return new


@njit(cache=True)
def new_chases(board, st, side, ids, count, frm, to, before, after, buf, buf2):
    """The ids of the pieces ``side``'s move from ``frm`` to ``to`` chases: the pairs after it that ``before``
    (``chase_pairs`` of the board as it is) lacks.  The board, ``st`` and ``ids`` are restored."""
    captured = lift_move(board, frm, to)
    king = frm == st[ST_KING + side]
    if king:
        st[ST_KING + side] = to
    moved_id = ids[frm]
    captured_id = ids[to]
    ids[to] = moved_id
    ids[frm] = -1
    chase_pairs(board, st, side, ids, after, buf, buf2)
    ids[frm] = moved_id
    ids[to] = captured_id
    if king:
        st[ST_KING + side] = frm
    unlift_move(board, frm, to, captured)
    return fresh_targets(after, before, count)


@njit(cache=True)
def gives_chase(board, st, move):
    """Does ``move`` (legal, of the side to move) chase -- create a chase pair, by the mover, that was not there
    before it?  (The tables' move picker: a side the rule makes the winner keeps clear of chases.)"""
    side = st[ST_SIDE]
    ids, before, after, buf, buf2 = chase_work()
    count = number_pieces(board, ids)
    chase_pairs(board, st, side, ids, before, buf, buf2)
    return new_chases(board, st, side, ids, count, move_from(move), move_to(move), before, after, buf, buf2) != 0


@njit(cache=True)
def judge_cycle(board, st, hist, keys, start):
    """Verdict and reason, for the side to move, of the cycle from ply index ``start`` to now.

    The moves of the cycle are taken back and replayed to see each position; the arrays end as they began."""
    n = st[ST_PLY]
    for _ in range(n - start):
        unmake_move(board, st, hist)
    ids, before, after, buf, buf2 = chase_work()
    count = number_pieces(board, ids)
    all_checks = np.ones(2, np.bool_)
    chasing = np.full(2, ~np.uint64(0), np.uint64)
    for j in range(start, n):
        mover = st[ST_SIDE]
        move = hist[j, H_MOVE]
        chase_pairs(board, st, mover, ids, before, buf, buf2)
        make_move(board, st, hist, keys, move)
        hist[j + 1, H_CHECK] = 1 if in_check(board, st) else 0
        frm = move_from(move)
        to = move_to(move)
        ids[to] = ids[frm]
        ids[frm] = -1
        chase_pairs(board, st, mover, ids, after, buf, buf2)
        chasing[mover] &= fresh_targets(after, before, count)
        if hist[j + 1, H_CHECK] == 0:
            all_checks[mover] = False
    us = st[ST_SIDE]
    them = us ^ 1
    if all_checks[us] or all_checks[them]:
        if all_checks[us] and all_checks[them]:
            return VERDICT_DRAW, REASON_PERPETUAL_CHECK
        return (VERDICT_LOSS if all_checks[us] else VERDICT_WIN), REASON_PERPETUAL_CHECK
    chase_us = chasing[us] != 0
    chase_them = chasing[them] != 0
    if chase_us or chase_them:
        if chase_us and chase_them:
            return VERDICT_DRAW, REASON_PERPETUAL_CHASE
        return (VERDICT_LOSS if chase_us else VERDICT_WIN), REASON_PERPETUAL_CHASE
    return VERDICT_DRAW, REASON_REPETITION


@njit(cache=True)
def repetition_score(board, st, hist, keys):
    """For the search: the score of the current position if it repeats an earlier one (its first repetition,
    judged by the rules as the referee would judge the third), else NO_SCORE."""
    start = find_repetition(st, hist, keys, 2)
    if start < 0:
        return NO_SCORE
    verdict, reason = judge_cycle(board, st, hist, keys, start)
    return verdict * RULE_WIN_SCORE
