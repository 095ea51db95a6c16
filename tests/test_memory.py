"""The arrays a timed search writes are resident before it runs (engine.memory): the transposition table when
made and after ``ucinewgame``, and the tables' chunk cache; larger than ``RESIDENT_LIMIT``, they stay lazy.
Residency is read from the kernel (``mincore``), so the test does not hang on how many faults a search takes."""
import ctypes
import os

import numpy as np

from engine import memory, tt
from engine.egtb.cache import ChunkPool
from engine.searcher import Searcher

libc = ctypes.CDLL(None, use_errno=True)
PAGE = os.sysconf("SC_PAGE_SIZE")


def resident_share(array: np.ndarray) -> float:
    """The share of ``array``'s pages that are in memory now."""
    start = array.ctypes.data - array.ctypes.data % PAGE
    length = array.ctypes.data + array.nbytes - start
    pages = (ctypes.c_ubyte * ((length + PAGE - 1) // PAGE))()
    assert libc.mincore(ctypes.c_void_p(start), ctypes.c_size_t(length), pages) == 0, os.strerror(ctypes.get_errno())
    return sum(p & 1 for p in pages) / len(pages)


def test_the_table_is_resident_when_made_and_after_a_new_game():
    searcher = Searcher(64)
    assert resident_share(searcher.tt) == 1.0          # lazy np.zeros: 0.0 (a page at most)
    table = searcher.tt
    searcher.new_game()
    assert searcher.tt is table and resident_share(searcher.tt) == 1.0      # cleared in place
    searcher.set_hash(32)
    assert resident_share(searcher.tt) == 1.0


def test_the_chunk_cache_is_resident_when_made():
    pool = ChunkPool(1, 8192, 64 << 20, [0], [0], [0], np.zeros(4, np.int64), [0])
    assert resident_share(pool.pool) == 1.0


def test_beyond_the_limit_an_array_stays_lazy():
    """So that ``setoption Hash 2048`` then ``go`` keeps the move's budget (tests/test_protocol.py)."""
    big = memory.zeros(memory.RESIDENT_LIMIT // 4 + 4096, np.uint32)
    assert resident_share(big) < 0.1
    assert not memory.is_resident(big) and tt.cleared(big) is not big
