"""The searcher: one object per engine, driving the numba search in a worker thread.

Interface used by the protocol loop and the command line (times are seconds everywhere here):

    searcher = Searcher(hash_mb=64)
    searcher.start(pos, Limits(...), on_info, on_done, banned=[...])   # returns at once
    searcher.stop()          # ask the running search to finish; on_done follows within ~100 ms
    searcher.ponderhit()     # a ponder search becomes a normal timed search
    searcher.wait()          # block until the search thread has finished (on_done has been called)

``on_info(SearchInfo)`` is called after every completed iteration (from the search thread);
``on_done(SearchResult)`` exactly once per ``start``.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence

MATE_SCORE = 30000              # score of a mate on the board; mate in n plies scores MATE_SCORE - n
MATE_BOUND = MATE_SCORE - 1000  # scores beyond this are mates


@dataclass
class Limits:
    """What ``go`` asked for.  ``None`` = no such limit."""
    depth: Optional[int] = None
    nodes: Optional[int] = None
    movetime: Optional[float] = None        # seconds for this move
    time_left: Optional[float] = None       # own clock, seconds
    increment: float = 0.0                  # own increment per move, seconds
    opp_time: Optional[float] = None
    opp_increment: float = 0.0
    movestogo: Optional[int] = None
    mate: Optional[int] = None              # search for a mate in this many moves
    infinite: bool = False
    ponder: bool = False


@dataclass
class SearchInfo:
    depth: int
    seldepth: int
    score: int                              # centipawns from the side to move's view
    mate: Optional[int]                     # moves to mate: > 0 we mate, < 0 we are mated; None if no mate seen
    nodes: int
    time: float                             # seconds since start
    pv: list[str] = field(default_factory=list)
    hashfull: int = 0                       # per mille

    @property
    def nps(self) -> int:
        return int(self.nodes / self.time) if self.time > 0 else 0


@dataclass
class SearchResult:
    best: Optional[str]                     # None: no legal move (the side to move has lost)
    ponder: Optional[str]
    info: Optional[SearchInfo]              # the last completed iteration


class Searcher:
    def __init__(self, hash_mb: int = 64):
        self.hash_mb = hash_mb
        self._thread: Optional[threading.Thread] = None
        self._stop = threading.Event()
        self._pondering = False

    # -- options ----------------------------------------------------------------------------------------------
    def set_hash(self, mb: int) -> None:
        self.hash_mb = mb

    def new_game(self) -> None:
        """Forget everything learnt (transposition table, history)."""

    # -- control ----------------------------------------------------------------------------------------------
    def start(self, pos, limits: Limits, on_info: Callable[[SearchInfo], None],
              on_done: Callable[[SearchResult], None], banned: Sequence[str] = ()) -> None:
        self.stop()
        self.wait()
        self._stop.clear()
        self._pondering = limits.ponder or limits.infinite
        pos = pos.copy()
        self._thread = threading.Thread(target=self._run, args=(pos, limits, on_info, on_done, list(banned)),
                                        daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._pondering = False
        self._stop.set()

    def ponderhit(self) -> None:
        self._pondering = False

    def wait(self) -> None:
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    @property
    def searching(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    # -- the search thread (placeholder: plays the first legal move; the real search replaces this) ------------
    def _run(self, pos, limits, on_info, on_done, banned):
        t0 = time.perf_counter()
        moves = [m for m in pos.legal_move_names() if m not in banned] or pos.legal_move_names()
        info = SearchInfo(1, 1, 0, None, len(moves), time.perf_counter() - t0, moves[:1])
        if moves:
            on_info(info)
        while self._pondering and not self._stop.is_set():
            time.sleep(0.005)
        on_done(SearchResult(moves[0] if moves else None, None, info if moves else None))
