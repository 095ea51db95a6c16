"""The chunk cache: an LRU of decompressed chunks, kept in arrays the numba search reads directly.

The search passes the tables through every node of its recursion, so they are two arrays, not a dozen (each
array argument is several machine words a call):

* ``pool`` uint16[nslots, width]: decompressed chunks (value codes), one per slot;
* ``meta`` int64[...]: the counters ``ctr`` (``CTR_*``) first, then the offset of each section (``SEC_*``),
  then the sections themselves:

  - ``keys``/``tnum``/``flip``: sorted material keys -> table number, and whether the colours are swapped
  - ``info`` [tables, 4]: first global chunk id, chunk width, ok flag, number of chunks (``INFO_*``)
  - ``specs`` [tables, SPEC_LEN]: each table's index specification
  - ``slot_of`` [total chunks]: global chunk id (table's first id + chunk number) -> slot, -1 if absent
  - ``slot_chunk`` [nslots]: slot -> global chunk id, -1 if free
  - ``stamps`` [nslots]: last use (a clock in ``ctr``); the slot with the smallest stamp is evicted

The Python side works on numpy views of the same memory (``ChunkPool.ctr``, ``.slot_of`` ...).

The memory limit fixes ``nslots`` once: the cache never holds more than ``nslots * width * 2`` bytes of chunks,
whatever is probed.  Loading (Python) writes a slot in an order that lets a concurrent reader notice a
replaced slot: the old mapping is withdrawn first, the data written, the new mapping published last; readers
check ``slot_chunk[slot]`` after reading a value.
"""
from __future__ import annotations

import numpy as np

from .. import memory

# ctr fields
CTR_CLOCK, CTR_HITS, CTR_MISSES, CTR_LOADS, CTR_EVICTIONS, CTR_ID, CTR_MAXPIECES, \
    CTR_SEARCH_LOADS = range(8)           # CTR_SEARCH_LOADS: chunks read because a search kernel asked
CTR_LEN = 16
# where each section of meta starts (stored in meta itself, after the counters)
SEC_KEYS, SEC_TNUM, SEC_FLIP, SEC_INFO, SEC_SPECS, SEC_SLOT_OF, SEC_SLOT_CHUNK, SEC_STAMPS, SEC_END = \
    range(CTR_LEN, CTR_LEN + 9)
META_HEADER = CTR_LEN + 9
INFO_BASE, INFO_CHUNK, INFO_OK, INFO_NCHUNKS = range(4)
INFO_LEN = 4


class ChunkPool:
    def __init__(self, total_chunks: int, width: int, memory_bytes: int, keys, tnum, flip, info, specs):
        """``keys``/``tnum``/``flip``/``info``/``specs``: the tables' fixed description (see the module
        docstring), copied into ``meta``."""
        self.width = max(1, int(width))
        self.nslots = max(1, int(memory_bytes) // (self.width * 2))
        self.pool = memory.zeros((self.nslots, self.width), np.uint16)     # not first written in a search
        fixed = [np.asarray(a, np.int64).ravel() for a in (keys, tnum, flip, info, specs)]
        sizes = [a.size for a in fixed] + [max(1, total_chunks), self.nslots, self.nslots]
        self.meta = np.zeros(META_HEADER + sum(sizes), np.int64)
        views = []
        off = META_HEADER
        for sec, size in zip(range(SEC_KEYS, SEC_END), sizes):
            self.meta[sec] = off
            views.append(self.meta[off:off + size])
            off += size
        self.meta[SEC_END] = off
        for view, a in zip(views, fixed):
            view[:] = a
        self.ctr = self.meta[:CTR_LEN]
        self.info = views[3].reshape(-1, INFO_LEN)
        self.slot_of, self.slot_chunk, self.stamps = views[5:]
        self.slot_of[:] = -1
        self.slot_chunk[:] = -1
        self.stamps[:] = -1

    @property
    def arrays(self):
        """What the kernels take: ``(meta, pool)``."""
        return self.meta, self.pool

    @property
    def memory_bytes(self) -> int:
        return int(self.pool.nbytes)

    @property
    def resident(self) -> int:
        return int((self.slot_chunk >= 0).sum())

    def lookup(self, g: int) -> int:
        s = int(self.slot_of[g])
        if s >= 0:
            self.ctr[CTR_CLOCK] += 1
            self.stamps[s] = self.ctr[CTR_CLOCK]
        return s

    def store(self, g: int, values: np.ndarray) -> int:
        """Put chunk ``g`` in the least recently used slot (evicting what was there); returns the slot."""
        s = int(np.argmin(self.stamps))
        old = int(self.slot_chunk[s])
        if old >= 0:
            self.slot_of[old] = -1
            self.ctr[CTR_EVICTIONS] += 1
        self.slot_chunk[s] = -1
        self.pool[s, :values.size] = values
        self.ctr[CTR_CLOCK] += 1
        self.stamps[s] = self.ctr[CTR_CLOCK]
        self.slot_chunk[s] = g
        self.slot_of[g] = s
        self.ctr[CTR_LOADS] += 1
        return s

    def drop_range(self, first: int, count: int) -> None:
        """Forget every chunk of a table (when it turns out broken)."""
        for g in range(first, first + count):
            s = int(self.slot_of[g])
            if s >= 0:
                self.slot_of[g] = -1
                self.slot_chunk[s] = -1
                self.stamps[s] = -1
