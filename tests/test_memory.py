"""The arrays a timed search writes are resident before it runs (engine.memory): a search's thread takes no
page faults for the transposition table, after ``ucinewgame`` as before it, nor for the tables' chunk cache."""
import resource

import numpy as np

from engine.egtb.cache import ChunkPool
from engine.searcher import Limits, Searcher
from engine.xiangqi.position import Position

# A search's own page faults (its new thread's stack, Python's small objects): 12-15 measured.  A lazily
# zeroed 64 MB table took 900-1,100 in a new game's first search of 50,000 nodes, and 150 in each later one.
FEW = 100


def faults_of_search(searcher: Searcher, pos, nodes: int) -> int:
    """The minor page faults of the search thread (a new thread counts from zero) up to its result."""
    seen = []
    searcher.start(pos, Limits(nodes=nodes), lambda info: None,
                   lambda result: seen.append(resource.getrusage(resource.RUSAGE_THREAD).ru_minflt))
    searcher.wait()
    return seen[0]


def test_searches_write_no_fresh_table_memory():
    searcher = Searcher(64)
    pos = Position()
    faults_of_search(searcher, pos, 2_000)                      # the first: the process's own start-up pages
    assert faults_of_search(searcher, pos, 50_000) < FEW
    searcher.new_game()
    assert faults_of_search(searcher, pos, 50_000) < FEW
    searcher.set_hash(32)
    assert faults_of_search(searcher, pos, 50_000) < FEW


def test_the_chunk_cache_is_resident_when_made():
    pool = ChunkPool(1, 8192, 64 << 20, [0], [0], [0], np.zeros(4, np.int64), [0])
    before = resource.getrusage(resource.RUSAGE_THREAD).ru_minflt
    pool.pool.fill(1)                                           # every slot's first chunk read, at once
    assert resource.getrusage(resource.RUSAGE_THREAD).ru_minflt - before < 8   # lazy: 32 (2 MB pages) or more
