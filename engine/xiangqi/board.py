"""Xiangqi geometry tables, Zobrist keys and make/unmake (numba).  The facts themselves -- squares, piece codes,
the layout of the position arrays -- live in ``constants`` and are re-exported here for the kernels.

A position is four arrays, passed together to every kernel (numba compiles one signature for them):

* ``board`` int8[90]: piece code per square (``constants``)
* ``st``    int32[ST_LEN]: side to move, current ply index, the two general squares
* ``hist``  int32[MAX_HIST, H_LEN]: per ply index, the move played from it, the piece it captured, the
  number of plies since the last capture ("clock", for the 60-move rule and repetition windows) and whether
  the side to move there is in check (the repetition rules read it)
* ``keys``  uint64[MAX_HIST, 2]: Zobrist key and 32-bit lock of the position at each ply index

Geometry is precomputed into tables of squares (``-1`` terminated), so move generation never tests board edges.
"""
import numpy as np
from numba import njit

from ..moving import last_move, move_from, move_to, record_move, unrecord_move
from ..move import NO_MOVE
from .constants import (FILES, RANKS, NSQ, EMPTY, KING, ADVISOR, ELEPHANT, HORSE, ROOK, CANNON, PAWN,  # noqa: F401
                        RED, BLACK, BLACK_BIT, PIECE_CODES, ST_SIDE, ST_PLY, ST_KING, ST_LEN, H_MOVE, H_CAPTURED,
                        H_CLOCK, H_CHECK, H_LEN, MAX_HIST, MAX_MOVES)

NULL_MOVE = NO_MOVE     # the null move is recorded as "no move" (from a0 to a0 never happens)


def square(file: int, rank: int) -> int:
    return rank * FILES + file


# --------------------------------------------------------------------------------------------------------------
# Geometry tables
# --------------------------------------------------------------------------------------------------------------

def _on_board(f, r):
    return 0 <= f < FILES and 0 <= r < RANKS


def _in_palace(f, r):
    return 3 <= f <= 5 and (0 <= r <= 2 or 7 <= r <= 9)


def _same_half(r1, r2):
    return (r1 <= 4) == (r2 <= 4)


ORTHO = ((0, 1), (0, -1), (1, 0), (-1, 0))       # (file, rank) steps: north, south, east, west
DIAG = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def _build_tables():
    rays = np.full((NSQ, 4, 10), -1, np.int8)           # rook/cannon rays, nearest square first
    king_to = np.full((NSQ, 5), -1, np.int8)
    advisor_to = np.full((NSQ, 5), -1, np.int8)
    elephant_to = np.full((NSQ, 5), -1, np.int8)
    elephant_eye = np.full((NSQ, 5), -1, np.int8)
    horse_to = np.full((NSQ, 9), -1, np.int8)
    horse_leg = np.full((NSQ, 9), -1, np.int8)
    horse_from = np.full((NSQ, 9), -1, np.int8)         # squares a horse attacks this square from ...
    horse_from_leg = np.full((NSQ, 9), -1, np.int8)     # ... and the leg that must be empty for it
    pawn_to = np.full((2, NSQ, 4), -1, np.int8)
    pawn_from = np.full((2, NSQ, 4), -1, np.int8)       # squares a pawn of that colour attacks this square from
    for sq in range(NSQ):
        f, r = sq % FILES, sq // FILES
        for d, (df, dr) in enumerate(ORTHO):
            n, ff, rr = 0, f + df, r + dr
            while _on_board(ff, rr):
                rays[sq, d, n] = square(ff, rr)
                n, ff, rr = n + 1, ff + df, rr + dr
        if _in_palace(f, r):
            n = 0
            for df, dr in ORTHO:
                if _in_palace(f + df, r + dr) and _same_half(r, r + dr):
                    king_to[sq, n] = square(f + df, r + dr)
                    n += 1
            n = 0
            for df, dr in DIAG:
                if _in_palace(f + df, r + dr) and _same_half(r, r + dr):
                    advisor_to[sq, n] = square(f + df, r + dr)
                    n += 1
        n = 0
        for df, dr in DIAG:
            if _on_board(f + 2 * df, r + 2 * dr) and _same_half(r, r + 2 * dr):
                elephant_to[sq, n] = square(f + 2 * df, r + 2 * dr)
                elephant_eye[sq, n] = square(f + df, r + dr)
                n += 1
        n = 0
        for df, dr in ((1, 2), (-1, 2), (1, -2), (-1, -2), (2, 1), (2, -1), (-2, 1), (-2, -1)):
            if _on_board(f + df, r + dr):
                horse_to[sq, n] = square(f + df, r + dr)
                # The leg is the orthogonal neighbour in the direction of the long step.
                horse_leg[sq, n] = square(f + (df // 2 if abs(df) == 2 else 0), r + (dr // 2 if abs(dr) == 2 else 0))
                n += 1
        for colour, fwd in ((RED, 1), (BLACK, -1)):
            crossed = (r >= 5) if colour == RED else (r <= 4)
            n = 0
            steps = [(0, fwd)] + ([(1, 0), (-1, 0)] if crossed else [])
            for df, dr in steps:
                if _on_board(f + df, r + dr):
                    pawn_to[colour, sq, n] = square(f + df, r + dr)
                    n += 1
    # Invert the horse and pawn tables: "who attacks sq" is what check detection asks.
    hcount = np.zeros(NSQ, np.int64)
    pcount = np.zeros((2, NSQ), np.int64)
    for sq in range(NSQ):
        for i in range(8):
            t = horse_to[sq, i]
            if t >= 0:
                horse_from[t, hcount[t]] = sq
                horse_from_leg[t, hcount[t]] = horse_leg[sq, i]
                hcount[t] += 1
        for colour in (RED, BLACK):
            for i in range(3):
                t = pawn_to[colour, sq, i]
                if t >= 0:
                    pawn_from[colour, t, pcount[colour, t]] = sq
                    pcount[colour, t] += 1
    return (rays, king_to, advisor_to, elephant_to, elephant_eye, horse_to, horse_leg, horse_from, horse_from_leg,
            pawn_to, pawn_from)


(RAYS, KING_TO, ADVISOR_TO, ELEPHANT_TO, ELEPHANT_EYE, HORSE_TO, HORSE_LEG, HORSE_FROM, HORSE_FROM_LEG,
 PAWN_TO, PAWN_FROM) = _build_tables()

# Squares each piece kind may ever stand on, by colour (used to validate FENs and, later, to index tablebases).
def _legal_squares():
    allowed = np.zeros((2, 8, NSQ), np.bool_)
    for colour in (RED, BLACK):
        for sq in range(NSQ):
            f, r = sq % FILES, sq // FILES
            rr = r if colour == RED else 9 - r          # rank from the owner's side
            allowed[colour, KING, sq] = 3 <= f <= 5 and rr <= 2
            allowed[colour, ADVISOR, sq] = (f, rr) in ((3, 0), (5, 0), (4, 1), (3, 2), (5, 2))
            allowed[colour, ELEPHANT, sq] = (f, rr) in ((2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4))
            allowed[colour, HORSE, sq] = allowed[colour, ROOK, sq] = allowed[colour, CANNON, sq] = True
            allowed[colour, PAWN, sq] = rr >= 5 or (rr in (3, 4) and f % 2 == 0)
    return allowed


LEGAL_SQUARES = _legal_squares()
MAX_COUNT = np.array([0, 1, 2, 2, 2, 2, 2, 5], np.int64)   # per kind, per side

# --------------------------------------------------------------------------------------------------------------
# Zobrist keys: a 64-bit key (TT index, repetition) and an independent 32-bit lock (TT verification).
# A fixed seed makes keys, and so every node count, reproducible.
# --------------------------------------------------------------------------------------------------------------
_rng = np.random.Generator(np.random.PCG64(0x5348554149))
ZOBRIST_KEY = np.frombuffer(_rng.bytes(PIECE_CODES * NSQ * 8), np.uint64).reshape(PIECE_CODES, NSQ).copy()
ZOBRIST_LOCK = (np.frombuffer(_rng.bytes(PIECE_CODES * NSQ * 8), np.uint64).reshape(PIECE_CODES, NSQ)
                >> np.uint64(32)).copy()
ZOBRIST_KEY[0] = 0
ZOBRIST_LOCK[0] = 0
ZOBRIST_SIDE_KEY = np.uint64(int.from_bytes(_rng.bytes(8), "little"))
ZOBRIST_SIDE_LOCK = np.uint64(int.from_bytes(_rng.bytes(4), "little"))
del _rng


@njit(cache=True)
def compute_key(board, side):
    """Key and lock of a position from scratch (make_move keeps them incrementally)."""
    key = np.uint64(0)
    lock = np.uint64(0)
    for sq in range(NSQ):
        p = board[sq]
        if p != 0:
            key ^= ZOBRIST_KEY[p, sq]
            lock ^= ZOBRIST_LOCK[p, sq]
    if side == BLACK:
        key ^= ZOBRIST_SIDE_KEY
        lock ^= ZOBRIST_SIDE_LOCK
    return key, lock


def new_state():
    """Empty position arrays: (board, st, hist, keys)."""
    return (np.zeros(NSQ, np.int8), np.zeros(ST_LEN, np.int32), np.zeros((MAX_HIST, H_LEN), np.int32),
            np.zeros((MAX_HIST, 2), np.uint64))


# --------------------------------------------------------------------------------------------------------------
# Make / unmake
# --------------------------------------------------------------------------------------------------------------

@njit(cache=True, inline="always")
def lift_move(board, frm, to):
    """Move the piece on ``frm`` to ``to`` on the board alone -- no key, clock, history or general's square: a
    look at the position after a move (is it legal, does it check, chase, which table entry is it), taken back
    by ``unlift_move``.  Returns what stood on ``to``."""
    captured = board[to]
    board[to] = board[frm]
    board[frm] = 0
    return captured


@njit(cache=True, inline="always")
def unlift_move(board, frm, to, captured):
    """Take back ``lift_move(board, frm, to)``, which returned ``captured``."""
    board[frm] = board[to]
    board[to] = captured


@njit(cache=True)
def make_move(board, st, hist, keys, move):
    """Play a (pseudo-legal) move; the history row of the current ply records how to take it back."""
    frm = move_from(move)
    to = move_to(move)
    piece = board[frm]
    captured = board[to]
    ply = st[ST_PLY]
    key = keys[ply, 0] ^ ZOBRIST_KEY[piece, frm] ^ ZOBRIST_KEY[piece, to] ^ ZOBRIST_SIDE_KEY
    lock = keys[ply, 1] ^ ZOBRIST_LOCK[piece, frm] ^ ZOBRIST_LOCK[piece, to] ^ ZOBRIST_SIDE_LOCK
    if captured != 0:
        key ^= ZOBRIST_KEY[captured, to]
        lock ^= ZOBRIST_LOCK[captured, to]
    board[to] = piece
    board[frm] = 0
    if piece & 7 == KING:
        st[ST_KING + (piece >> 3)] = to
    record_move(st, hist, keys, move, captured, captured != 0, key, lock)
    return captured


@njit(cache=True)
def unmake_move(board, st, hist):
    ply, move, frm = last_move(st, hist)
    to = move_to(move)
    piece = board[to]
    board[frm] = piece
    board[to] = hist[ply, H_CAPTURED]
    if piece & 7 == KING:
        st[ST_KING + (piece >> 3)] = frm
    unrecord_move(st, ply)


@njit(cache=True)
def make_null_move(st, hist, keys):
    """Pass the turn (null-move pruning). The clock keeps counting: a null move is not irreversible."""
    ply = st[ST_PLY]
    hist[ply, H_MOVE] = NULL_MOVE
    hist[ply, H_CAPTURED] = 0
    hist[ply + 1, H_CLOCK] = hist[ply, H_CLOCK] + 1
    hist[ply + 1, H_CHECK] = 0
    keys[ply + 1, 0] = keys[ply, 0] ^ ZOBRIST_SIDE_KEY
    keys[ply + 1, 1] = keys[ply, 1] ^ ZOBRIST_SIDE_LOCK
    st[ST_PLY] = ply + 1
    st[ST_SIDE] ^= 1


@njit(cache=True)
def unmake_null_move(st, hist):
    st[ST_PLY] -= 1
    st[ST_SIDE] ^= 1
