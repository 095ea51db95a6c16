"""Arrays a timed search writes, made resident before it runs.

A fresh numpy array is address space only: the operating system hands over each page at its first write,
zeroed, and on a loaded machine whose memory is fragmented or full of cache it may first have to reclaim or
compact memory for it (with transparent huge pages, 2 MB at a time), which no search's clock can stop.  Left
lazy, the transposition table after every ``ucinewgame`` and the tables' chunk cache in the first endings of a
process were first written inside timed searches: in two of a match's four engine processes a new game's first
searches took a median of 752 page faults, an ending's first chunk reads up to 500 (``shuai diagnose stall-watch``,
chess at 2 s + 0.02 s).  Written once when they are made -- at start-up, ``setoption`` or ``ucinewgame``, which a
GUI follows with ``isready`` -- they cost nothing in a search (64 MB took 92 ms to make resident and 6 ms to
clear again, on a 2-core machine busy with a match).  Up to ``RESIDENT_LIMIT``: a larger array stays lazy, so
that ``setoption Hash 2048`` followed at once by ``go`` keeps the move's budget (tests/test_protocol.py; a GUI
need not send ``isready``), its faults spread over the long searches that such a table is for.
"""
import numpy as np

RESIDENT_LIMIT = 128 << 20      # bytes: about 0.2 s to make resident on a loaded machine


def is_resident(array: np.ndarray) -> bool:
    """Whether ``zeros`` made ``array`` resident (its size is within ``RESIDENT_LIMIT``)."""
    return array.nbytes <= RESIDENT_LIMIT


def zeros(shape, dtype) -> np.ndarray:
    """``np.zeros(shape, dtype)``, with every page already written if it is within ``RESIDENT_LIMIT``."""
    array = np.zeros(shape, dtype)
    if is_resident(array):
        array.fill(0)
    return array
