"""What every game's moves share in the kernels: the packed move's fields (``engine.move``, compiled) and the
entry ``make_move`` leaves in the position's history (``engine.layout``)."""
from numba import njit

from . import move as _move
from .layout import H_CAPTURED, H_CHECK, H_CLOCK, H_MOVE, ST_PLY, ST_SIDE

move_from = njit(cache=True, inline="always")(_move.move_from)
move_to = njit(cache=True, inline="always")(_move.move_to)
move_promotion = njit(cache=True, inline="always")(_move.move_promotion)
pack_move = njit(cache=True, inline="always")(_move.pack_move)


@njit(cache=True, inline="always")
def record_move(st, hist, keys, move, captured, irreversible, key, lock):
    """The end of every game's ``make_move``: the move and what it took into the history, the move clock (reset
    by an ``irreversible`` move), no check known yet, the new position's key and lock, the other side to move."""
    ply = st[ST_PLY]
    hist[ply, H_MOVE] = move
    hist[ply, H_CAPTURED] = captured
    hist[ply + 1, H_CLOCK] = 0 if irreversible else hist[ply, H_CLOCK] + 1
    hist[ply + 1, H_CHECK] = 0
    keys[ply + 1, 0] = key
    keys[ply + 1, 1] = lock
    st[ST_PLY] = ply + 1
    st[ST_SIDE] ^= 1


@njit(cache=True, inline="always")
def last_move(st, hist):
    """The ply and the move that ``unmake_move`` takes back, and the square the move came from."""
    ply = st[ST_PLY] - 1
    move = hist[ply, H_MOVE]
    return ply, move, move_from(move)


@njit(cache=True, inline="always")
def unrecord_move(st, ply):
    """The end of every game's ``unmake_move``: back to ``ply``, the other side to move."""
    st[ST_PLY] = ply
    st[ST_SIDE] ^= 1
