"""The position arrays' layout every game shares (the rest of each array is the game's, in its ``constants``).

* ``st``: the state -- ``st[ST_SIDE]`` the side to move (0 moves first), ``st[ST_PLY]`` the plies since the
  FEN, ``st[ST_KING + colour]`` that colour's king (general) square;
* ``hist[ply]``: what happened at each ply -- the move played there (``H_MOVE``), the piece it captured
  (``H_CAPTURED``), the plies since the last irreversible move before it (``H_CLOCK``), whether the side to move
  there was in check (``H_CHECK``, filled in by the search or the Position when known);
* ``keys[ply]``: the Zobrist key and lock of the position at each ply.

Plain Python, no numba: the constants and the Python edge read it as well as the kernels.
"""

ST_SIDE, ST_PLY, ST_KING = 0, 1, 2
H_MOVE, H_CAPTURED, H_CLOCK, H_CHECK = 0, 1, 2, 3
