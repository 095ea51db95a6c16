"""The chunk cache (seed 000: "an LRU of decompressed chunks"), kept in arrays the numba search reads directly.

* ``pool``       uint16[nslots, width]: decompressed chunks (value codes), one per slot
* ``slot_of``    int32[total chunks]: global chunk id (table's first id + chunk number) -> slot, -1 if absent
* ``slot_chunk`` int64[nslots]: slot -> global chunk id, -1 if free
* ``stamps``     int64[nslots]: last use (a clock in ``ctr``); the slot with the smallest stamp is evicted

The memory limit fixes ``nslots`` once: the cache never holds more than ``nslots * width * 2`` bytes of chunks,
whatever is probed.  Loading (Python) writes a slot in an order that lets a concurrent reader notice a
replaced slot: the old mapping is withdrawn first, the data written, the new mapping published last; readers
check ``slot_chunk[slot]`` after reading a value.
"""
from __future__ import annotations

import numpy as np

# ctr fields
CTR_CLOCK, CTR_HITS, CTR_MISSES, CTR_LOADS, CTR_EVICTIONS, CTR_ID, CTR_MAXPIECES, CTR_MODE, CTR_NPENDING, \
    CTR_SEARCH_LOADS = range(10)          # CTR_SEARCH_LOADS: chunks read because a search kernel asked
CTR_LEN = 16
PENDING_CAP = 64
MODE_SYNC, MODE_DEFER = 0, 1


class ChunkPool:
    def __init__(self, total_chunks: int, width: int, memory_bytes: int):
        self.width = max(1, int(width))
        self.nslots = max(1, int(memory_bytes) // (self.width * 2))
        self.pool = np.zeros((self.nslots, self.width), np.uint16)
        self.slot_of = np.full(max(1, total_chunks), -1, np.int32)
        self.slot_chunk = np.full(self.nslots, -1, np.int64)
        self.stamps = np.full(self.nslots, -1, np.int64)
        self.ctr = np.zeros(CTR_LEN, np.int64)
        self.pending = np.zeros(PENDING_CAP, np.int64)

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

    def take_pending(self) -> list[int]:
        n = int(min(self.ctr[CTR_NPENDING], PENDING_CAP))
        out = [int(g) for g in self.pending[:n]]
        self.ctr[CTR_NPENDING] = 0
        return out
