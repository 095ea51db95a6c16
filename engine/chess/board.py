"""Chess position arrays, Zobrist keys and make/unmake (numba).  The facts -- squares, piece codes, the layout
of the arrays -- live in ``constants``.

A position is four arrays, shaped as the shared search expects (``alphabeta``; the same roles as xiangqi's):

* ``board`` int8[64]: piece code per square (a mailbox: "what stands on this square" in one read)
* ``st``    int64[ST_LEN]: side to move, ply index, the king squares, a bitboard per piece code and per colour
  (stored as int64, read as uint64 through ``bitboard.bb``); make/unmake keep them in step with ``board``
* ``hist``  int32[MAX_HIST, H_LEN]: per ply index, the move played from it, the piece it captured, the clock,
  the check flag, castling rights, the en-passant square and the piece that moved (what unmake needs)
* ``keys``  uint64[MAX_HIST, 2]: Zobrist key and 32-bit lock at each ply index

The en-passant square is recorded (and keyed) only when an enemy pawn stands ready to capture there, so two
positions that differ only by an en-passant square nobody can use have one key, as the repetition rule wants.
"""
import numpy as np
from numba import njit

from ..moving import last_move, move_from, move_promotion, record_move, unrecord_move
from ..move import NO_MOVE
from .bitboard import PAWN_ATTACKS, SQUARE_BB, bb
from .constants import (NSQ, PAWN, ROOK, KING, WHITE, BLACK, BLACK_BIT, PIECE_CODES, PROMOTION_KINDS,  # noqa: F401
                        WHITE_OO, WHITE_OOO, BLACK_OO, BLACK_OOO, PROMOTION_FLAG, SQUARE_MASK, ST_SIDE, ST_PLY, ST_KING, ST_CASTLING, ST_EP, ST_BB, ST_OCC, ST_LEN,
                        H_MOVE, H_CAPTURED, H_CLOCK, H_CHECK, H_CASTLING, H_EP, H_MOVED, H_LEN, MAX_HIST, MAX_MOVES)

NULL_MOVE = NO_MOVE


@njit(cache=True, inline="always")
def move_target(move):
    """The destination square of a chess move (the shared ``move_to`` would include the promotion flag)."""
    return move & SQUARE_MASK


@njit(cache=True, inline="always")
def is_promotion(move):
    return (move & PROMOTION_FLAG) != 0


SQUARE_BIT = SQUARE_BB.view(np.int64)            # the same bits as int64, to XOR into ``st`` directly
PROMOTION_KIND = np.array(PROMOTION_KINDS, np.int64)

# Castling: the rights a move keeps when it leaves or lands on each square (king and rook home squares).
CASTLING_KEEP = np.full(NSQ, 15, np.int64)
CASTLING_KEEP[0], CASTLING_KEEP[4], CASTLING_KEEP[7] = 15 - WHITE_OOO, 15 - WHITE_OO - WHITE_OOO, 15 - WHITE_OO
CASTLING_KEEP[56], CASTLING_KEEP[60], CASTLING_KEEP[63] = 15 - BLACK_OOO, 15 - BLACK_OO - BLACK_OOO, 15 - BLACK_OO
# A castling move is the king's two-square step; the rook's move by the king's destination square.
CASTLING_ROOK_FROM = np.full(NSQ, -1, np.int64)
CASTLING_ROOK_TO = np.full(NSQ, -1, np.int64)
for _king_to, _rook_from, _rook_to in ((6, 7, 5), (2, 0, 3), (62, 63, 61), (58, 56, 59)):
    CASTLING_ROOK_FROM[_king_to], CASTLING_ROOK_TO[_king_to] = _rook_from, _rook_to
del _king_to, _rook_from, _rook_to

# Zobrist keys (a 64-bit key and an independent 32-bit lock, as for xiangqi), from a fixed seed.
def _zobrist_tables(rng):
    def draw(shape, bits=64):
        values = np.frombuffer(rng.bytes(int(np.prod(shape)) * 8), np.uint64).reshape(shape).copy()
        return values >> np.uint64(64 - bits) if bits < 64 else values
    tables = (draw((PIECE_CODES, NSQ)), draw((PIECE_CODES, NSQ), 32), draw(16), draw(16, 32), draw(8), draw(8, 32))
    for t in tables[:4]:
        t[0] = 0                                # an empty square, and no castling rights, change nothing
    return tables + (np.uint64(draw(1)[0]), np.uint64(draw(1, 32)[0]))


(ZOBRIST_KEY, ZOBRIST_LOCK, CASTLING_KEY, CASTLING_LOCK, EP_KEY, EP_LOCK,  # EP_*: by the en-passant file
 ZOBRIST_SIDE_KEY, ZOBRIST_SIDE_LOCK) = _zobrist_tables(np.random.Generator(np.random.PCG64(0x43484553)))


def new_state():
    """Empty position arrays: (board, st, hist, keys)."""
    return (np.zeros(NSQ, np.int8), np.zeros(ST_LEN, np.int64), np.zeros((MAX_HIST, H_LEN), np.int32),
            np.zeros((MAX_HIST, 2), np.uint64))


@njit(cache=True, inline="always")
def _toggle(st, piece, sq):
    """Put ``piece`` on ``sq`` in the bitboards, or take it off (XOR)."""
    st[ST_BB + piece] ^= SQUARE_BIT[sq]
    st[ST_OCC + (piece >> 3)] ^= SQUARE_BIT[sq]


@njit(cache=True)
def set_bitboards(board, st):
    """Bitboards and king squares from the mailbox (set-up; make/unmake keep them after that)."""
    st[ST_BB:ST_LEN] = 0
    st[ST_KING:ST_KING + 2] = 0
    for sq in range(NSQ):
        p = board[sq]
        if p != 0:
            _toggle(st, p, sq)
            if p & 7 == KING:
                st[ST_KING + (p >> 3)] = sq


@njit(cache=True, inline="always")
def ep_capturable(st, ep, side):
    """Could a pawn of ``side`` capture en passant on ``ep``?  (Then the square is part of the position.)"""
    return (PAWN_ATTACKS[side ^ 1][ep] & bb(st, ST_BB + side * BLACK_BIT + PAWN)) != 0


@njit(cache=True)
def compute_key(board, side, castling, ep):
    """Key and lock of a position from scratch (make_move keeps them incrementally)."""
    key = CASTLING_KEY[castling]
    lock = CASTLING_LOCK[castling]
    for sq in range(NSQ):
        p = board[sq]
        if p != 0:
            key ^= ZOBRIST_KEY[p, sq]
            lock ^= ZOBRIST_LOCK[p, sq]
    if ep != 0:
        key ^= EP_KEY[ep & 7]
        lock ^= EP_LOCK[ep & 7]
    if side == BLACK:
        key ^= ZOBRIST_SIDE_KEY
        lock ^= ZOBRIST_SIDE_LOCK
    return key, lock


@njit(cache=True, inline="always")
def captured_square(piece, to, ep):
    """Where a move of ``piece`` to ``to`` captures: ``to``, or the passed pawn's square for en passant."""
    if piece & 7 == PAWN and to == ep and ep != 0:
        return to - 8 if piece >> 3 == WHITE else to + 8
    return to


@njit(cache=True, inline="always")
def promoted_piece(piece, move):
    """The piece standing on the destination after ``piece`` made ``move`` (a promotion changes it)."""
    if is_promotion(move):
        return (piece & BLACK_BIT) + PROMOTION_KIND[move_promotion(move)]
    return piece


@njit(cache=True, inline="always")
def _relocate(board, st, piece, frm, landed, to):
    """Take ``piece`` off ``frm`` and put ``landed`` (the piece, or what it promotes to) on ``to``; the change to
    the key and the lock."""
    _toggle(st, piece, frm)
    _toggle(st, landed, to)
    board[frm] = 0
    board[to] = landed
    return ZOBRIST_KEY[piece, frm] ^ ZOBRIST_KEY[landed, to], ZOBRIST_LOCK[piece, frm] ^ ZOBRIST_LOCK[landed, to]


@njit(cache=True)
def make_move(board, st, hist, keys, move):
    """Play a (pseudo-legal) move; the history row of the current ply records how to take it back."""
    frm = move_from(move)
    to = move_target(move)
    piece = board[frm]
    us = piece >> 3
    ply = st[ST_PLY]
    castling = st[ST_CASTLING]
    ep = st[ST_EP]
    key = keys[ply, 0] ^ ZOBRIST_SIDE_KEY
    lock = keys[ply, 1] ^ ZOBRIST_SIDE_LOCK
    if ep != 0:
        key ^= EP_KEY[ep & 7]
        lock ^= EP_LOCK[ep & 7]
    cap_sq = captured_square(piece, to, ep)
    captured = board[cap_sq]
    if captured != 0:
        _toggle(st, captured, cap_sq)
        board[cap_sq] = 0
        key ^= ZOBRIST_KEY[captured, cap_sq]
        lock ^= ZOBRIST_LOCK[captured, cap_sq]
    landed = promoted_piece(piece, move)
    dk, dl = _relocate(board, st, piece, frm, landed, to)
    key ^= dk
    lock ^= dl
    new_ep = 0
    if piece & 7 == KING:
        st[ST_KING + us] = to
        if to - frm == 2 or frm - to == 2:
            rook = board[CASTLING_ROOK_FROM[to]]
            dk, dl = _relocate(board, st, rook, CASTLING_ROOK_FROM[to], rook, CASTLING_ROOK_TO[to])
            key ^= dk
            lock ^= dl
    elif piece & 7 == PAWN and (to - frm == 16 or frm - to == 16):
        passed = (frm + to) // 2
        if ep_capturable(st, passed, us ^ 1):
            new_ep = passed
            key ^= EP_KEY[passed & 7]
            lock ^= EP_LOCK[passed & 7]
    new_castling = castling & CASTLING_KEEP[frm] & CASTLING_KEEP[to]
    if new_castling != castling:
        key ^= CASTLING_KEY[castling] ^ CASTLING_KEY[new_castling]
        lock ^= CASTLING_LOCK[castling] ^ CASTLING_LOCK[new_castling]
    hist[ply, H_MOVED] = piece
    hist[ply + 1, H_CASTLING] = new_castling
    hist[ply + 1, H_EP] = new_ep
    st[ST_CASTLING] = new_castling
    st[ST_EP] = new_ep
    record_move(st, hist, keys, move, captured, captured != 0 or piece & 7 == PAWN, key, lock)
    return captured


@njit(cache=True)
def unmake_move(board, st, hist):
    ply, move, frm = last_move(st, hist)
    to = move_target(move)
    piece = hist[ply, H_MOVED]
    landed = board[to]
    _toggle(st, landed, to)
    _toggle(st, piece, frm)
    board[to] = 0
    board[frm] = piece
    captured = hist[ply, H_CAPTURED]
    if captured != 0:
        cap_sq = captured_square(piece, to, hist[ply, H_EP])
        _toggle(st, captured, cap_sq)
        board[cap_sq] = captured
    if piece & 7 == KING:
        st[ST_KING + (piece >> 3)] = frm
        if to - frm == 2 or frm - to == 2:
            rf, rt = CASTLING_ROOK_FROM[to], CASTLING_ROOK_TO[to]
            rook = board[rt]
            _toggle(st, rook, rt)
            _toggle(st, rook, rf)
            board[rt] = 0
            board[rf] = rook
    st[ST_CASTLING] = hist[ply, H_CASTLING]
    st[ST_EP] = hist[ply, H_EP]
    unrecord_move(st, ply)


@njit(cache=True)
def make_null_move(st, hist, keys):
    """Pass the turn (null-move pruning): the en-passant square lapses, the clock keeps counting."""
    ply = st[ST_PLY]
    key = keys[ply, 0] ^ ZOBRIST_SIDE_KEY
    lock = keys[ply, 1] ^ ZOBRIST_SIDE_LOCK
    ep = hist[ply, H_EP]
    if ep != 0:
        key ^= EP_KEY[ep & 7]
        lock ^= EP_LOCK[ep & 7]
    hist[ply, H_MOVE] = NULL_MOVE
    hist[ply, H_CAPTURED] = 0
    hist[ply, H_MOVED] = 0
    hist[ply + 1, H_CLOCK] = hist[ply, H_CLOCK] + 1
    hist[ply + 1, H_CHECK] = 0
    hist[ply + 1, H_CASTLING] = hist[ply, H_CASTLING]
    hist[ply + 1, H_EP] = 0
    st[ST_EP] = 0
    keys[ply + 1, 0] = key
    keys[ply + 1, 1] = lock
    st[ST_PLY] = ply + 1
    st[ST_SIDE] ^= 1


@njit(cache=True)
def unmake_null_move(st, hist):
    st[ST_PLY] -= 1
    st[ST_EP] = hist[st[ST_PLY], H_EP]
    st[ST_SIDE] ^= 1
