"""Retrograde generation of a chess table: win / loss with the distance to mate in plies, or draw, for both sides
to move (the chess counterpart of :mod:`engine.xiangqi.tables.build.generate`).

**Rules.**  Checkmate: the side to move has lost (distance 0); stalemate: a draw.  Moves that change the material
-- captures, promotions (to Q, R, B or N), promotions with capture -- lead into smaller or other tables, built
first, or into a material where no side can mate (K v K, K + N v K, K + B v K): a draw.  No castling.  No 50-move
rule (distance to mate, not to conversion).  En passant: a table holds no en-passant right, but its values
account for it -- the child of a double step next to an enemy pawn is valued as that position *with* the right
(the better for the capturing side of the position without it and of each legal en-passant capture), so every
stored value is exact.  A position whose own FEN carries a usable en-passant square is not a table entry; the
Python probe answers it from the table and the captures, the search's kernel probe answers unknown.

**Values** (``uint16``, :mod:`engine.egtb.codes`): ``DRAW`` 0, ``ILLEGAL`` 1 (pieces overlap, or the side not to
move is in check), ``2 + d``: the game ends by mate in ``d`` plies, odd ``d`` a win for the side to move, even
``d`` a loss.  No perpetual-check rule in chess: no ``RULE_BASE`` codes.

**Passes.**

1. *Initialisation*: illegal indices; mate (loss in 0) and stalemate (a final draw, ``sched = FINAL``); every
   legal move that leaves the table is valued from the smaller table, and the level at which those moves alone
   would settle the position is kept in ``sched`` (the fastest win, or -- when every such move loses and none
   draws -- the slowest loss, plus one).  Positions with a double step next to an enemy pawn are flagged
   (``epflag``).
2. *Levels* ``d = 1, 2, ...``, each in two phases.  (a) Every position settled at ``d - 1`` is an event; its
   predecessors (un-moves of the side that just moved: no un-captures, no un-promotions; pawns one step back,
   or two from the fourth rank) are candidates.  At odd ``d`` (the event is a loss) a candidate is won in ``d``
   at once; at even ``d`` it is *verified*: its moves are generated and it is lost in ``d`` when every child is
   known to be won by the opponent within ``d - 1`` plies.  (b) Positions whose ``sched`` is ``d`` and flagged
   positions are verified.  Verification counts a child as known only if its distance is at most ``d - 1``, so
   a level settles exactly the positions whose value is ``d`` (Bellman's iteration, evaluated lazily).  The
   levels stop when one settles nothing and no scheduled level is ahead.  What is left is a draw.

Symmetry needs no care: the index maps every board to the one stored representative of its class (see
``index.encode_slots``), so the predecessors of the decoded board of an event stand for those of every
board of its class.

**Threads.**  Kernels are ``nogil``: the initialisation in slices over both cores; in phase (a) the events of
White-to-move positions write Black-to-move entries and vice versa; phase (b) splits the index range.  Writes
only ever turn ``DRAW`` into ``2 + d`` and readers ignore distances of ``d`` or more, so the result does not
depend on the interleaving.
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numba import njit

from ....egtb import codes
from ....egtb.codes import DIST0, DRAW, ILLEGAL
from ....egtb.build.levels import BuildStats, run_init, run_levels, smaller_tables, split_range
from ....egtb.material import MAX_SLOTS
from ....moving import move_from, pack_move
from ...bitboard import KING_ATTACKS, KNIGHT_ATTACKS, SQUARE_BB, ZERO, bishop_attacks, lsb, rook_attacks
from ...board import SQUARE_BIT, move_target, promoted_piece
from ...constants import (NSQ, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, WHITE, BLACK_BIT, ST_SIDE, ST_KING, ST_EP,
                         ST_BB, ST_OCC, ST_LEN, MAX_MOVES)
from ...movegen import GEN_ALL, generate_legal, in_check, is_attacked, is_legal
from ..index import Material, decode, encode_board, encode_slots

FINAL = 0xFFFF                  # sched of a stalemate: a draw that no level may change
NO_LIMIT = 1 << 30
BAD_CHILD = -1                  # a child that no table encodes (a bug): counted, and the build fails


# ----------------------------------------------------------------------------------------------------------------
# Kernels
# ----------------------------------------------------------------------------------------------------------------

@njit(cache=True, inline="always")
def _setup_st(psq, nslots, slot_pieces, side, st):
    """Bitboards, king squares and side to move of the position in ``psq`` (no castling, no en passant)."""
    for i in range(ST_LEN):
        st[i] = 0
    st[ST_SIDE] = side
    for s in range(nslots):
        p = slot_pieces[s]
        b = SQUARE_BIT[psq[s]]
        st[ST_BB + p] |= b
        st[ST_OCC + (p >> 3)] |= b
    st[ST_KING] = psq[0]
    st[ST_KING + 1] = psq[1]


@njit(cache=True, inline="always")
def _known(code, lim):
    """``code`` if it is a result within ``lim`` plies, else DRAW (a draw, or not known yet)."""
    if code >= DIST0 and code - DIST0 <= lim:
        return code
    return DRAW


goodness = njit(cache=True, inline="always")(codes.goodness)


@njit(cache=True, inline="always")
def _sub_code(board, mover, frm, to, cap_sq, landed, sub_specs, sub_vals, sub_off, sub_map, sub_flip, work):
    """Value code (the opponent of ``mover`` to move) of the position after a move that changes the material:
    ``mover``'s piece from ``frm`` lands on ``to`` as ``landed``, taking whatever stands on ``cap_sq``.  The board
    is restored.  BAD_CHILD if no table encodes it."""
    piece = board[frm]
    captured = board[cap_sq]
    key = np.int64(captured) * 16 + (np.int64(landed) if landed != piece else 0)
    t = sub_map[key]
    if t == -1:
        return DRAW                                   # insufficient material: no side can mate
    if t < 0:
        return BAD_CHILD
    board[cap_sq] = 0
    board[frm] = 0
    board[to] = landed
    sidx = encode_board(board, mover ^ 1, sub_specs[t], sub_flip[key], work)
    board[to] = 0
    board[cap_sq] = captured
    board[frm] = piece
    if sidx < 0:
        return BAD_CHILD
    return np.int64(sub_vals[sub_off[t] + sidx])


@njit(cache=True, inline="always")
def _ep_ready(board, to, them):
    """Does an enemy pawn stand beside ``to`` (the square a double step landed on)?"""
    pawn = them * BLACK_BIT + PAWN
    f = to & 7
    return (f > 0 and board[to - 1] == pawn) or (f < 7 and board[to + 1] == pawn)


@njit(cache=True)
def _ep_combine(board, psq, s, nslots, slot_pieces, side, frm, to, plain, lim, st2, sub_specs, sub_vals,
                sub_off, sub_map, sub_flip, work):
    """The code (opponent to move) of the position after ``side``'s double step ``frm``-``to`` when the opponent
    may capture en passant: the best for the opponent of ``plain`` (the position without the right) and of each
    legal en-passant capture, each counted only when known within ``lim`` plies."""
    piece = board[frm]
    them = side ^ 1
    ep = (frm + to) // 2
    board[frm] = 0
    board[to] = piece
    psq[s] = to
    _setup_st(psq, nslots, slot_pieces, them, st2)
    st2[ST_EP] = ep
    checked = in_check(board, st2)
    best = plain
    pawn = them * BLACK_BIT + PAWN
    for k in range(2):
        a = to - 1 if k == 0 else to + 1
        if (k == 0 and (to & 7) == 0) or (k == 1 and (to & 7) == 7) or board[a] != pawn:
            continue
        if not is_legal(board, st2, pack_move(a, ep, 0), checked):
            continue
        e = _sub_code(board, them, a, ep, to, pawn, sub_specs, sub_vals, sub_off, sub_map, sub_flip, work)
        if e == BAD_CHILD:
            best = BAD_CHILD
            break
        c = DRAW
        if e >= DIST0:
            c = e + 1                                 # the mover's result d: the capturer's d + 1
        c = _known(c, lim)
        if goodness(c) > goodness(best):
            best = c
    board[to] = 0
    board[frm] = piece
    psq[s] = frm
    return best


@njit(cache=True)
def _child_code(board, st, psq, nslots, slot_pieces, side, m, lim, spec, vals, st2, sub_specs, sub_vals,
                sub_off, sub_map, sub_flip, work):
    """Code (opponent to move) of the child after legal move ``m``, as known within ``lim`` plies."""
    frm = move_from(m)
    to = move_target(m)
    piece = board[frm]
    landed = promoted_piece(piece, m)
    if board[to] != 0 or landed != piece:
        c = _sub_code(board, side, frm, to, to, landed, sub_specs, sub_vals, sub_off, sub_map, sub_flip, work)
        if c == BAD_CHILD:
            return c
        return _known(c, lim)
    s = 0
    while psq[s] != frm:
        s += 1
    psq[s] = to
    q = encode_slots(psq, spec, side ^ 1)
    psq[s] = frm
    if q < 0:
        return BAD_CHILD
    c = _known(np.int64(vals[q]), lim)
    if (piece & 7) == PAWN and (to - frm == 16 or frm - to == 16) and _ep_ready(board, to, side ^ 1):
        c = _ep_combine(board, psq, s, nslots, slot_pieces, side, frm, to, c, lim, st2, sub_specs, sub_vals,
                        sub_off, sub_map, sub_flip, work)
    return c


@njit(cache=True)
def _verify(q, level, spec, slot_pieces, vals, psq, board, st, st2, moves, sub_specs, sub_vals, sub_off,
            sub_map, sub_flip, work):
    """Is position ``q`` won (odd ``level``) or lost (even) in exactly ``level`` plies, given the values settled
    before this level?  Returns its new code, DRAW when not, or BAD_CHILD."""
    nslots = spec[3]
    side = decode(q, spec, psq, board)
    _setup_st(psq, nslots, slot_pieces, side, st)
    legal = generate_legal(board, st, moves, GEN_ALL)
    want_win = level % 2 == 1
    lim = level - 1
    for i in range(legal):
        m = moves[i]
        c = _child_code(board, st, psq, nslots, slot_pieces, side, m, lim, spec, vals, st2, sub_specs, sub_vals,
                        sub_off, sub_map, sub_flip, work)
        if c == BAD_CHILD:
            return BAD_CHILD
        if want_win:
            if c >= DIST0 and (c - DIST0) % 2 == 0:
                return DIST0 + level
        elif not (c >= DIST0 and (c - DIST0) % 2 == 1):
            return DRAW
    if want_win or legal == 0:
        return DRAW
    return DIST0 + level


@njit(cache=True, inline="always")
def _buffers():
    return (np.zeros(MAX_SLOTS, np.int64), np.zeros(NSQ, np.int8), np.zeros(ST_LEN, np.int64),
            np.zeros(ST_LEN, np.int64), np.zeros(MAX_MOVES, np.int32), np.zeros(MAX_SLOTS, np.int64))


@njit(cache=True, nogil=True)
def init_range(spec, slot_pieces, vals, sched, epflag, lo, hi, sub_specs, sub_vals, sub_off, sub_map, sub_flip,
               out):
    """Pass 1 over indices [lo, hi).  ``out`` receives (largest level scheduled, bad children)."""
    psq, board, st, st2, moves, work = _buffers()
    nslots = spec[3]
    max_sched = 0
    bad = 0
    for idx in range(lo, hi):
        side = decode(idx, spec, psq, board)
        if side < 0:
            vals[idx] = ILLEGAL
            continue
        if encode_slots(psq, spec, side) != idx:          # the other image of a self-symmetric king pair
            vals[idx] = ILLEGAL
            continue
        _setup_st(psq, nslots, slot_pieces, side, st)
        if is_attacked(st, psq[side ^ 1], side):
            vals[idx] = ILLEGAL
            continue
        legal = generate_legal(board, st, moves, GEN_ALL)
        win_level = 0
        loss_level = 0
        draw_exit = False
        flag = 0
        for i in range(legal):
            m = moves[i]
            frm = move_from(m)
            to = move_target(m)
            piece = board[frm]
            landed = promoted_piece(piece, m)
            if board[to] != 0 or landed != piece:
                c = _sub_code(board, side, frm, to, to, landed, sub_specs, sub_vals, sub_off, sub_map, sub_flip,
                              work)
                if c == BAD_CHILD:
                    bad += 1
                elif c >= DIST0:
                    d = c - DIST0
                    if d % 2 == 0:
                        if win_level == 0 or d + 1 < win_level:
                            win_level = d + 1
                    elif d + 1 > loss_level:
                        loss_level = d + 1
                else:
                    draw_exit = True
            elif (piece & 7) == PAWN and (to - frm == 16 or frm - to == 16) and _ep_ready(board, to, side ^ 1):
                flag = 1
                s = 0
                while psq[s] != frm:
                    s += 1
                # The levels the en-passant captures can matter at: up to their distance + 1.
                c = _ep_combine(board, psq, s, nslots, slot_pieces, side, frm, to, DRAW, NO_LIMIT, st2,
                                sub_specs, sub_vals, sub_off, sub_map, sub_flip, work)
                if c == BAD_CHILD:
                    bad += 1
                elif c >= DIST0 and c - DIST0 + 1 > max_sched:
                    max_sched = c - DIST0 + 1
        epflag[idx] = flag
        if legal == 0:
            if in_check(board, st):
                vals[idx] = DIST0
                sched[idx] = 0
            else:
                vals[idx] = DRAW
                sched[idx] = FINAL
            continue
        vals[idx] = DRAW
        if win_level > 0:
            sched[idx] = win_level
        elif not draw_exit:
            sched[idx] = loss_level
        else:
            sched[idx] = 0
        if sched[idx] > max_sched:
            max_sched = sched[idx]
    out[0] = max_sched
    out[1] = bad


@njit(cache=True, inline="always")
def _unmove_origins(kind, colour, sq, occ):
    """Squares a piece of ``kind`` and ``colour`` now on ``sq`` may have come from by a move that neither
    captured nor promoted."""
    empty = ~occ
    if kind == KNIGHT:
        return KNIGHT_ATTACKS[sq] & empty
    if kind == BISHOP:
        return bishop_attacks(sq, occ) & empty
    if kind == ROOK:
        return rook_attacks(sq, occ) & empty
    if kind == QUEEN:
        return (bishop_attacks(sq, occ) | rook_attacks(sq, occ)) & empty
    if kind == KING:
        return KING_ATTACKS[sq] & empty
    r = sq >> 3
    out = ZERO
    if colour == WHITE:
        if r >= 2 and (empty & SQUARE_BB[sq - 8]):
            out |= SQUARE_BB[sq - 8]
            if r == 3 and (empty & SQUARE_BB[sq - 16]):
                out |= SQUARE_BB[sq - 16]
    else:
        if r <= 5 and (empty & SQUARE_BB[sq + 8]):
            out |= SQUARE_BB[sq + 8]
            if r == 4 and (empty & SQUARE_BB[sq + 16]):
                out |= SQUARE_BB[sq + 16]
    return out


@njit(cache=True, nogil=True)
def propagate(spec, slot_pieces, vals, sched, epflag, ev_side, level, sub_specs, sub_vals, sub_off, sub_map,
              sub_flip, out):
    """Phase (a) of ``level``: events are the positions of ``ev_side`` to move settled at ``level - 1``; their
    predecessors (the other side to move) are settled (odd level) or verified (even).  Flagged predecessors are
    left to phase (b).  ``out``: (settled, bad children)."""
    npos = spec[1]
    nslots = spec[3]
    psq = np.zeros(MAX_SLOTS, np.int64)
    board = np.zeros(NSQ, np.int8)
    vpsq, vboard, st, st2, moves, work = _buffers()
    target = DIST0 + level - 1
    mover = ev_side ^ 1
    win = level % 2 == 1
    settled = 0
    bad = 0
    base = ev_side * npos
    for idx in range(base, base + npos):
        if vals[idx] != target:
            continue
        decode(idx, spec, psq, board)
        occ = ZERO
        for s in range(nslots):
            occ |= SQUARE_BB[psq[s]]
        for s in range(nslots):
            piece = slot_pieces[s]
            if (piece >> 3) != mover:
                continue
            sq = psq[s]
            origins = _unmove_origins(piece & 7, mover, sq, occ)
            while origins:
                f = lsb(origins)
                origins &= origins - np.uint64(1)
                psq[s] = f
                q = encode_slots(psq, spec, mover)
                if q < 0 or vals[q] != DRAW or epflag[q] != 0 or sched[q] == FINAL:
                    continue
                if win:
                    vals[q] = DIST0 + level
                    settled += 1
                else:
                    v = _verify(q, level, spec, slot_pieces, vals, vpsq, vboard, st, st2, moves, sub_specs,
                                sub_vals, sub_off, sub_map, sub_flip, work)
                    if v == BAD_CHILD:
                        bad += 1
                    elif v != DRAW:
                        vals[q] = v
                        settled += 1
            psq[s] = sq
    out[0] = settled
    out[1] = bad


@njit(cache=True, nogil=True)
def scheduled(spec, slot_pieces, vals, sched, epflag, level, lo, hi, sub_specs, sub_vals, sub_off, sub_map,
              sub_flip, out):
    """Phase (b) of ``level`` over [lo, hi): positions scheduled for this level and flagged positions."""
    vpsq, vboard, st, st2, moves, work = _buffers()
    settled = 0
    bad = 0
    for q in range(lo, hi):
        if vals[q] != DRAW or (sched[q] != level and epflag[q] == 0) or sched[q] == FINAL:
            continue
        v = _verify(q, level, spec, slot_pieces, vals, vpsq, vboard, st, st2, moves, sub_specs, sub_vals, sub_off,
                    sub_map, sub_flip, work)
        if v == BAD_CHILD:
            bad += 1
        elif v != DRAW:
            vals[q] = v
            settled += 1
    out[0] = settled
    out[1] = bad


# ----------------------------------------------------------------------------------------------------------------
# Driver
# ----------------------------------------------------------------------------------------------------------------

def transition_tables(material: Material, load_sub):
    """The smaller tables (``engine.egtb.build.levels.smaller_tables``: specs, values, offsets) and where each
    material-changing move leads: ``sub_map[captured * 16 + promoted]`` = the smaller table's number (-1: a
    material no side can mate with, a draw; -2: impossible), ``sub_flip`` whether its colours are swapped."""
    specs, sub_vals, offsets = smaller_tables(material, load_sub)
    subs = material.subtables()
    sub_map = np.full(256, -2, np.int64)
    sub_flip = np.zeros(256, np.bool_)
    for captured, promoted, after in material.transitions():
        canon, flip = after.canonical()
        key = captured * 16 + promoted
        sub_map[key] = -1 if canon.trivial() else subs.index(canon)
        sub_flip[key] = flip
    return specs, sub_vals, offsets, sub_map, sub_flip


def generate_table(material: Material, load_sub, progress=None, threads: int = 2, rule: str = "none"):
    """Build the values of ``material`` (canonical).  ``load_sub(material)`` returns a smaller table's values;
    ``progress(fraction, text)`` is called now and then; ``rule``: chess has no rule pass (only "none").
    Returns (values uint16[size], BuildStats)."""
    if rule != "none":
        raise ValueError("chess tables have no perpetual-check pass")
    if not material.is_canonical():
        raise ValueError(f"{material.name} is not canonical")
    stats = BuildStats()
    spec, slot_pieces, size = material.spec(), material.slot_pieces(), material.size
    vals = np.zeros(size, np.uint16)
    sched = np.zeros(size, np.uint16)
    epflag = np.zeros(size, np.uint8)
    subs = transition_tables(material, load_sub)
    report = progress or (lambda f, t: None)
    pool = ThreadPoolExecutor(max(1, threads))
    bad = 0
    try:
        outs = []                                   # each slice's (largest level scheduled, bad children)

        def start(lo, hi):
            outs.append(np.zeros(2, np.int64))
            return pool.submit(init_range, spec, slot_pieces, vals, sched, epflag, lo, hi, *subs, outs[-1])
        run_init(start, size, report)
        max_sched = max(int(o[0]) for o in outs)
        bad += sum(int(o[1]) for o in outs)
        halves = split_range(size, 2)

        def one_level(level):
            nonlocal bad
            outs = [np.zeros(2, np.int64) for _ in range(2)]
            for f in [pool.submit(propagate, spec, slot_pieces, vals, sched, epflag, side, level, *subs, o)
                      for side, o in zip((0, 1), outs)]:
                f.result()
            outs2 = [np.zeros(2, np.int64) for _ in halves]
            for f in [pool.submit(scheduled, spec, slot_pieces, vals, sched, epflag, level, lo, hi, *subs, o)
                      for (lo, hi), o in zip(halves, outs2)]:
                f.result()
            bad += sum(int(o[1]) for o in outs + outs2)
            return sum(int(o[0]) for o in outs + outs2)
        stats.levels = run_levels(one_level, max_sched, report, span=0.7)
    finally:
        pool.shutdown()
    if bad:
        raise RuntimeError(f"{material.name}: {bad} moves led to positions no table encodes")
    report(1.0, "done")
    stats.stop()
    return vals, stats
