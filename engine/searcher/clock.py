"""The clock of a search (Stockfish's TimeManagement): armed at ``go`` (or at ``ponderhit``), a hard stop by a
timer, and the decisions made between iterations -- does the clock alone end this search (``timed``), may the
next iteration start (``done``, with ``engine.timeman``).  The ``Searcher`` holds one (``searcher.clock``); it
owns the budget, the deadlines, the timer and the completed iterations' best moves and scores."""
from __future__ import annotations

import threading
import time
from typing import Callable, Optional

from .results import Limits, SearchInfo


class Clock:
    def __init__(self, lock: threading.Lock, stop: Callable[[], None]):
        """``lock``: the searcher's (a timer and the search thread both touch the deadlines); ``stop``: ends the
        running search (the searcher's stop flag), called by the hard-stop timer with the lock held."""
        self._lock = lock
        self._stop = stop
        self._timer: Optional[threading.Timer] = None
        self.search_id = 0                      # a hard-stop timer stops only the search that armed it
        self.budget = None                      # engine.timeman's budget of the search (soft, hard, clock)
        self.started: Optional[float] = None    # perf_counter at go: the move's time counts from there
        self._soft_deadline: Optional[float] = None
        self._best_moves: list = []             # each completed iteration's best move and score (time management)
        self._scores: list[int] = []

    def next_search(self) -> None:
        """A new search: a timer armed for an earlier one no longer stops anything."""
        with self._lock:
            self.search_id += 1

    def plan(self, limits: Limits, time_params: dict) -> None:
        """The search's budget and its start (``go``'s arrival when the protocol gave it); nothing armed yet."""
        from ..timeman import budget
        self.budget = budget(limits, time_params)
        now = time.perf_counter()
        self.started = now if limits.started is None else min(limits.started, now)
        self._soft_deadline = None
        self._best_moves, self._scores = [], []

    def arm(self) -> None:
        """Count this move's time from ``go``: at once, or at ``ponderhit`` when pondering -- then the time spent
        pondering counts as thinking time for the move (the UCI spec; Stockfish alike), so a long ponder on the
        right move is answered at once instead of with a fresh budget."""
        with self._lock:
            if self.budget.soft is not None:
                self._soft_deadline = self.started + self.budget.soft
                left = max(0.0, self.started + self.budget.hard - time.perf_counter())
                self._timer = threading.Timer(left, self._hard_stop, args=(self.search_id,))
                self._timer.daemon = True
                self._timer.start()

    def _hard_stop(self, search_id: int) -> None:
        # A timer armed by a ponderhit that came after its search had ended must not stop the next search.
        with self._lock:
            if search_id == self.search_id:
                self._stop()

    def cancel(self) -> None:
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

    def timed(self, limits: Limits) -> bool:
        """Does the clock alone end this search?  Not ``go movetime``/``depth``/``nodes``/``mate``/``infinite``:
        those ask for a search of that size whatever the position (an analyser or a puzzle set wants the score
        of the only move too), as Stockfish manages time only under a clock."""
        return (self.budget.soft is not None and limits.movetime is None and not limits.infinite
                and limits.depth is None and limits.nodes is None and limits.mate is None)

    def done(self, info: SearchInfo, limits: Limits, pondering: bool, time_params: dict) -> bool:
        """May the iterative deepening stop after this (completed) iteration?"""
        from ..timeman import may_start_iteration, scale_soft
        self._best_moves.append(info.pv[0] if info.pv else None)
        self._scores.append(info.score)
        if limits.mate is not None and info.mate is not None and 0 < info.mate <= limits.mate:
            return True
        if pondering:
            return False
        if info.mate is not None and info.depth >= 2 * abs(info.mate) + 4 and not limits.depth:
            return True                                 # a proven mate: searching deeper changes nothing
        with self._lock:
            deadline = self._soft_deadline
        if deadline is None:
            return False
        now = time.perf_counter()
        if self.budget.clock:
            # On the clock: the soft limit scaled by the best move's stability and the score's trend, and no
            # new iteration that would probably not finish before it.
            soft = scale_soft(self.budget.soft, self._best_moves, self._scores, self.budget.hard, time_params)
            return not may_start_iteration(now - self.started, soft, time_params)
        return now >= deadline                          # movetime: the whole time
