"""A search that fails still ends in a move (see the package doc): the first exception of any of its threads is
kept (``_failed``, ``_guarded``) and the result salvaged (``_salvaged``).  ``Recovery`` is a part of the
``Searcher``: it owns the failure and the last line 1 reported."""
from __future__ import annotations

import traceback
from dataclasses import replace
from typing import Optional

from .results import SearchInfo, SearchResult


class Recovery:
    def _init_recovery(self) -> None:
        self._failure: Optional[BaseException] = None   # the first exception of the running search
        self._reported: Optional[SearchInfo] = None     # its last reported line 1 (what a failure salvages)

    def _failed(self, error: BaseException) -> None:
        """An exception in one of the search's threads: kept (the first) for the result, its traceback to
        stderr.  The thread that raised ends; the others go on (a dead helper costs only speed)."""
        with self._lock:
            if self._failure is None:
                self._failure = error
        traceback.print_exception(error)

    def _guarded(self, target, *args) -> None:
        """``target(*args)`` as the body of a helper or heartbeat thread: its exception is the search's failure
        (``_failed``), not a thread that dies unseen."""
        try:
            target(*args)
        except Exception as e:                          # noqa: BLE001
            self._failed(e)

    def _salvaged(self, pos, banned, result: Optional[SearchResult]) -> SearchResult:
        """The result of a failed search: its own if it finished (a helper or the heartbeat failed), else the
        move of the last iteration reported, else any allowed legal move (None if even that fails: the
        protocol then plays a move of its own list)."""
        if result is not None:
            return replace(result, error=self._failure)
        info = self._reported
        if info is not None and info.pv:
            return SearchResult(info.pv[0], info.pv[1] if len(info.pv) > 1 else None, info, self._failure)
        try:
            legal = pos.legal_move_names()
        except Exception:                               # noqa: BLE001 -- nothing more to salvage
            legal = []
        allowed = [m for m in legal if m not in banned] or legal
        return SearchResult(allowed[0] if allowed else None, None, None, self._failure)
