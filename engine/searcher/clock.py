"""The clock of a search: armed at ``go`` (or at ``ponderhit``), a hard stop by a timer, and the decisions
made between iterations -- does the clock alone end this search (``_timed``), may the next iteration start
(``_done``, with ``engine.timeman``).  ``Clock`` is a part of the ``Searcher``: it owns the budget, the
deadlines, the timer and the iterations' best moves and scores."""
from __future__ import annotations

import threading
import time
from typing import Optional

from .. import alphabeta as ab
from .results import Limits, SearchInfo


class Clock:
    def _init_clock(self) -> None:
        self._timer: Optional[threading.Timer] = None
        self._soft_deadline: Optional[float] = None
        self._budget = None
        self._clock_start: Optional[float] = None  # perf_counter at go (set when the clock is armed)
        self._best_moves: list = []             # each completed iteration's best move and score (time management)
        self._scores: list[int] = []
        self._search_id = 0                     # a hard-stop timer stops only the search that armed it

    def _arm_clock(self) -> None:
        """Count this move's time from ``go``: at once, or at ``ponderhit`` when pondering -- then the time spent
        pondering counts as thinking time for the move (the UCI spec; Stockfish alike), so a long ponder on the
        right move is answered at once instead of with a fresh budget."""
        with self._lock:
            now = time.perf_counter()
            if self._budget.soft is not None:
                self._clock_start = start = self._start_time
                self._soft_deadline = start + self._budget.soft
                left = max(0.0, start + self._budget.hard - now)
                self._timer = threading.Timer(left, self._hard_stop, args=(self._search_id,))
                self._timer.daemon = True
                self._timer.start()

    def _hard_stop(self, search_id: int) -> None:
        # A timer armed by a ponderhit that came after its search had ended must not stop the next search.
        with self._lock:
            if search_id == self._search_id:
                self.ctrl[ab.C_STOP] = 1

    def _cancel_timer(self) -> None:
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

    def _timed(self, limits: Limits) -> bool:
        """Does the clock alone end this search?  Not ``go movetime``/``depth``/``nodes``/``mate``/``infinite``:
        those ask for a search of that size whatever the position (an analyser or a puzzle set wants the score
        of the only move too), as Stockfish manages time only under a clock."""
        return (self._budget.soft is not None and limits.movetime is None and not limits.infinite
                and limits.depth is None and limits.nodes is None and limits.mate is None)

    def _done(self, info: SearchInfo, limits: Limits) -> bool:
        """May the iterative deepening stop after this (completed) iteration?"""
        from ..timeman import may_start_iteration, scale_soft
        self._best_moves.append(info.pv[0] if info.pv else None)
        self._scores.append(info.score)
        if limits.mate is not None and info.mate is not None and 0 < info.mate <= limits.mate:
            return True
        if self._pondering:
            return False
        if info.mate is not None and info.depth >= 2 * abs(info.mate) + 4 and not limits.depth:
            return True                                 # a proven mate: searching deeper changes nothing
        with self._lock:
            deadline, clock_start = self._soft_deadline, self._clock_start
        if deadline is None:
            return False
        now = time.perf_counter()
        if self._budget.clock:
            # On the clock: the soft limit scaled by the best move's stability and the score's trend, and no
            # new iteration that would probably not finish before it.
            soft = scale_soft(self._budget.soft, self._best_moves, self._scores, self._budget.hard, self.time_params)
            return not may_start_iteration(now - clock_start, soft, self.time_params)
        return now >= deadline                          # movetime: the whole time
