"""Xiangqi move generation, attack tests and legality (numba kernels).

Generation is pseudo-legal (every rule of movement, but the own general may be left attacked); ``is_legal``
then decides with a cheap filter: a move can only expose its own general if the general moves, the side is in
check, or the move leaves/enters the general's rank or file (rook, cannon, flying general) or vacates one of
the four squares diagonal to it (a horse's leg).  Everything else is legal without touching the board.
"""
import numpy as np
from numba import njit

from ..moving import move_from, move_to, pack_move
from .board import (NSQ, KING, ADVISOR, ELEPHANT, HORSE, ROOK, CANNON, PAWN, BLACK_BIT,
                    ST_SIDE, ST_KING, MAX_MOVES, RAYS, KING_TO, ADVISOR_TO, ELEPHANT_TO, ELEPHANT_EYE,
                    HORSE_TO, HORSE_LEG, HORSE_FROM, HORSE_FROM_LEG, PAWN_TO, PAWN_FROM, lift_move,
                    unlift_move)

GEN_ALL, GEN_CAPTURES, GEN_QUIETS = 0, 1, 2


@njit(cache=True, inline="always")
def attacker(board, sq, by, flying, least):
    """Square of a piece of ``by`` that could capture on ``sq``, or -1.  With ``least``: its least valuable one
    (soldier, advisor, elephant, horse, cannon, rook: SEE's order); without: the first found among soldiers,
    horses, rooks and cannons (advisors and elephants never reach a general).  Its general's step is not looked
    at; with ``flying`` its general facing ``sq`` along an open file counts, as a rook (the flying-general rule,
    for a general standing on ``sq``).

    Shared with see.py, whose exchange board holds minus its code on a square a piece has captured from: so
    "empty" is ``<= 0`` here (a plain board never holds a negative code).  One function, its flags constants at
    every call, indexing the global tables in place: inlined helpers per ray or per piece kind made
    king_attacked 7% to over 40% slower (each adds a reference count increment and decrement of ``board``), and slicing
    a table or passing one as an argument costs numba its constants."""
    base = by * BLACK_BIT
    rook, cannon, king, horse, pawn = base + ROOK, base + CANNON, base + KING, base + HORSE, base + PAWN
    for i in range(3):
        s = PAWN_FROM[by, sq, i]
        if s < 0:
            break
        if board[s] == pawn:
            return s
    if least:
        advisor = base + ADVISOR
        for i in range(4):
            s = ADVISOR_TO[sq, i]
            if s < 0:
                break
            if board[s] == advisor:
                return s
        elephant = base + ELEPHANT
        for i in range(4):
            s = ELEPHANT_TO[sq, i]
            if s < 0:
                break
            if board[s] == elephant and board[ELEPHANT_EYE[sq, i]] <= 0:
                return s
    for i in range(8):
        s = HORSE_FROM[sq, i]
        if s < 0:
            break
        if board[s] == horse and board[HORSE_FROM_LEG[sq, i]] <= 0:
            return s
    rook_sq = -1
    for d in range(4):
        screened = False
        for i in range(10):
            s = RAYS[sq, d, i]
            if s < 0:
                break
            p = board[s]
            if p <= 0:
                continue
            if not screened:
                # Generals on one rank never happen (the palaces are ranks apart): any ray may test for one.
                if p == rook or (flying and p == king):
                    if not least:
                        return s
                    if rook_sq < 0:
                        rook_sq = s
                screened = True
            else:
                if p == cannon:     # a cannon before a rook (the rook may be its screen)
                    return s
                break
    return rook_sq


@njit(cache=True)
def king_attacked(board, ksq, by):
    """Is the general on ``ksq`` attacked by ``by``?  Advisors, elephants and the enemy general's step never
    reach a general, so only rooks, cannons, horses, pawns and the facing general are looked at."""
    return attacker(board, ksq, by, True, False) >= 0


@njit(cache=True)
def is_attacked(board, sq, by):
    """Could side ``by`` capture on square ``sq``?  (Every piece kind; if ``sq`` holds the other general, the
    flying-general rule counts too.)"""
    if attacker(board, sq, by, (board[sq] & 7) == KING, True) >= 0:
        return True
    for i in range(4):      # the general's step
        s = KING_TO[sq, i]
        if s < 0:
            break
        if board[s] == by * BLACK_BIT + KING:
            return True
    return False


@njit(cache=True)
def in_check(board, st):
    """Is the side to move in check?"""
    side = st[ST_SIDE]
    return king_attacked(board, st[ST_KING + side], side ^ 1)


@njit(cache=True, inline="always")
def _add(moves, n, frm, to, target, mode):
    if target == 0:
        if mode != GEN_CAPTURES:
            moves[n] = pack_move(frm, to, 0)
            return n + 1
    elif mode != GEN_QUIETS:
        moves[n] = pack_move(frm, to, 0)
        return n + 1
    return n


@njit(cache=True)
def generate(board, side, moves, mode):
    """Write pseudo-legal moves of ``side`` into ``moves`` (captures only, quiets only, or all) and return
    their number."""
    n = 0
    for frm in range(NSQ):
        p = board[frm]
        if p == 0 or (p >> 3) != side:
            continue
        kind = p & 7
        if kind == ROOK:
            for d in range(4):
                for i in range(10):
                    to = RAYS[frm, d, i]
                    if to < 0:
                        break
                    t = board[to]
                    if t == 0:
                        if mode != GEN_CAPTURES:
                            moves[n] = pack_move(frm, to, 0)
                            n += 1
                    else:
                        if (t >> 3) != side and mode != GEN_QUIETS:
                            moves[n] = pack_move(frm, to, 0)
                            n += 1
                        break
        elif kind == CANNON:
            for d in range(4):
                screened = False
                for i in range(10):
                    to = RAYS[frm, d, i]
                    if to < 0:
                        break
                    t = board[to]
                    if not screened:
                        if t == 0:
                            if mode != GEN_CAPTURES:
                                moves[n] = pack_move(frm, to, 0)
                                n += 1
                        else:
                            screened = True
                    elif t != 0:
                        if (t >> 3) != side and mode != GEN_QUIETS:
                            moves[n] = pack_move(frm, to, 0)
                            n += 1
                        break
        elif kind == HORSE:
            for i in range(8):
                to = HORSE_TO[frm, i]
                if to < 0:
                    break
                if board[HORSE_LEG[frm, i]] != 0:
                    continue
                t = board[to]
                if t == 0 or (t >> 3) != side:
                    n = _add(moves, n, frm, to, t, mode)
        elif kind == PAWN:
            for i in range(3):
                to = PAWN_TO[side, frm, i]
                if to < 0:
                    break
                t = board[to]
                if t == 0 or (t >> 3) != side:
                    n = _add(moves, n, frm, to, t, mode)
        elif kind == ELEPHANT:
            for i in range(4):
                to = ELEPHANT_TO[frm, i]
                if to < 0:
                    break
                if board[ELEPHANT_EYE[frm, i]] != 0:
                    continue
                t = board[to]
                if t == 0 or (t >> 3) != side:
                    n = _add(moves, n, frm, to, t, mode)
        elif kind == ADVISOR:
            for i in range(4):
                to = ADVISOR_TO[frm, i]
                if to < 0:
                    break
                t = board[to]
                if t == 0 or (t >> 3) != side:
                    n = _add(moves, n, frm, to, t, mode)
        else:  # KING
            for i in range(4):
                to = KING_TO[frm, i]
                if to < 0:
                    break
                t = board[to]
                if t == 0 or (t >> 3) != side:
                    n = _add(moves, n, frm, to, t, mode)
    return n


@njit(cache=True)
def is_legal(board, st, move, checked):
    """Is pseudo-legal ``move`` legal, i.e. does it leave the mover's general unattacked (flying general
    included)?  ``checked`` says whether the side to move is in check now."""
    side = st[ST_SIDE]
    ksq = st[ST_KING + side]
    frm = move_from(move)
    to = move_to(move)
    if not checked and frm != ksq:
        kf = ksq % 9
        kr = ksq // 9
        ff = frm % 9
        fr = frm // 9
        df = ff - kf
        dr = fr - kr
        on_line = df == 0 or dr == 0 or (to % 9) == kf or (to // 9) == kr
        on_leg = (df == 1 or df == -1) and (dr == 1 or dr == -1)
        if not on_line and not on_leg:
            return True
    captured = lift_move(board, frm, to)
    if frm == ksq:
        ksq = to
    attacked = king_attacked(board, ksq, side ^ 1)
    unlift_move(board, frm, to, captured)
    return not attacked


@njit(cache=True)
def generate_legal(board, st, moves, mode):
    """Legal moves (of the given mode) of the side to move, compacted into ``moves``; returns their number."""
    n = generate(board, st[ST_SIDE], moves, mode)
    checked = in_check(board, st)
    k = 0
    for i in range(n):
        m = moves[i]
        if is_legal(board, st, m, checked):
            moves[k] = m
            k += 1
    return k


@njit(cache=True)
def gives_check(board, st, move):
    """Does ``move`` (legal, by the side to move) put the opponent's general in check?"""
    side = st[ST_SIDE]
    frm = move_from(move)
    to = move_to(move)
    captured = lift_move(board, frm, to)
    checks = king_attacked(board, st[ST_KING + (side ^ 1)], side)
    unlift_move(board, frm, to, captured)
    return checks


@njit(cache=True)
def has_legal_move(board, st, moves):
    n = generate(board, st[ST_SIDE], moves, GEN_ALL)
    checked = in_check(board, st)
    for i in range(n):
        if is_legal(board, st, moves[i], checked):
            return True
    return False


def move_buffer():
    return np.zeros(MAX_MOVES, np.int32)
