"""The ``Searcher``: its lifecycle -- ``start`` a search in a thread, ``stop``, ``ponderhit``, ``wait``, the search
thread's frame (``_run``: the hold of ``go infinite``/``ponder``, the failure's salvage, the helpers' end) and
its heartbeat -- over its parts: ``Options``, ``Root``, ``Iterations``, ``Pool``, ``Recovery`` (whose methods it
combines) and its ``Clock`` (an object it holds, with a state of its own).
``search_once``: one synchronous search."""
from __future__ import annotations

import threading
import time
from dataclasses import replace
from typing import Callable, Optional, Sequence

import numpy as np

from .. import alphabeta as ab
from .clock import Clock
from .iterations import NO_NODE_LIMIT, Iterations
from .options import Options
from .pool import Pool
from .recovery import Recovery
from .results import Limits, Progress, SearchInfo, SearchResult
from .root import Root

QUICK_HASH_MB = 16      # the table of bench, self-play and one-off searches: small, and the same everywhere
                        # (the bench signature depends on it)

HEARTBEAT = 1.0             # a search that reported nothing for this long reports its progress (seconds)
HEARTBEAT_POLL = 0.1        #   looked at this often


class Searcher(Options, Root, Iterations, Pool, Recovery):
    def __init__(self, hash_mb: int):
        from .. import tt
        self._lock = threading.Lock()
        self.clock = Clock(self._lock, self._stop_flag)     # a part of its own: its state is its own
        self._init_options()
        self._init_root()
        self._init_pool()
        self._init_recovery()
        self.tt = tt.new_table(hash_mb)
        self.game = None                    # the game of the work arrays (set by the first search)
        self.ctrl = ab.new_work_arrays(1, 1)[0]
        self.threads = 1
        self.age = 0
        self._thread: Optional[threading.Thread] = None
        self._pondering = False

    # -- control ----------------------------------------------------------------------------------------------
    def start(self, pos, limits: Limits, on_info: Callable[[SearchInfo], None],
              on_done: Callable[[SearchResult], None], banned: Sequence[str] = (),
              on_progress: Optional[Callable[[Progress], None]] = None) -> None:
        self.stop()
        self.wait()
        self.clock.next_search()
        if limits.level is not None and (limits.level.full or limits.infinite):
            limits = replace(limits, level=None)        # full strength; analysis always is
        if limits.level is not None:
            limits = limits.level.restrict(limits)
        self._use_game(pos.game)
        ab.reset_ctrl(self.ctrl, self.params)
        self.ctrl[ab.C_NODE_LIMIT] = limits.nodes if limits.nodes else NO_NODE_LIMIT
        self._pondering = limits.ponder or limits.infinite
        self._infinite = limits.infinite
        self.clock.plan(limits, self.time_params)
        self._failure, self._reported = None, None
        if not self._pondering:
            self.clock.arm()
        self._last_report = self.clock.started

        def report(info):
            self._last_report = time.perf_counter()
            if info.multipv == 1:
                self._reported = info
            on_info(info)
        self._thread = threading.Thread(target=self._run, args=(pos.copy(), limits, report, on_done,
                                                                list(banned), on_progress), daemon=True)
        self._thread.start()

    def _stop_flag(self) -> None:
        """Stop the running search (the clock's hard stop; the caller holds the lock)."""
        self.ctrl[ab.C_STOP] = 1

    def stop(self) -> None:
        self._pondering = False
        with self._lock:                                # not lost to an OVERTAKEN (see _end)
            self.ctrl[ab.C_STOP] = 1
        self._stop_helpers()

    def ponderhit(self) -> None:
        if self._pondering:
            self._pondering = self._infinite
            if not self._infinite:
                self.clock.arm()

    def wait(self) -> None:
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    @property
    def searching(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    # -- the search thread ------------------------------------------------------------------------------------
    def _run(self, pos, limits, on_info, on_done, banned, on_progress):
        done = threading.Event()
        beat = None
        result = None
        if on_progress is not None:
            beat = threading.Thread(target=self._guarded, args=(self._heartbeat, done, pos.game.move_name,
                                                                 on_progress), daemon=True)
            beat.start()
        try:
            result = self._iterate(pos, limits, on_info, banned)
        except Exception as e:                          # noqa: BLE001 -- MemoryError too: the GUI gets a move
            self._failed(e)
        finally:
            self._stop_helpers()
            done.set()
            if beat is not None:
                beat.join()                             # no progress line after the search's last words
            self.clock.cancel()
        if self._failure is not None:
            result = self._salvaged(pos, banned, result)
        elif limits.level is not None and result is not None and result.lines:
            result = self._chosen(result, limits.level)
        # The hold (see the package doc): under `go infinite` / `go ponder` no bestmove before `stop` / `ponderhit`.
        while self._pondering and self.ctrl[ab.C_STOP] == 0:
            time.sleep(0.002)
        self.clock.cancel()                             # armed by a ponderhit while we waited
        try:
            on_done(result)
        finally:
            self._join_helpers()                        # stopped already; the bestmove did not wait for them

    def _heartbeat(self, done: threading.Event, move_name, on_progress) -> None:
        """While the search runs: its progress whenever it has reported nothing for ``HEARTBEAT`` seconds (a GUI
        shows the engine alive in long iterations).  Reads the search's counters as it writes them: a figure
        may be a node or a move behind."""
        from ..tt import tt_hashfull
        while not done.wait(HEARTBEAT_POLL):
            now = time.perf_counter()
            if now - self._last_report < HEARTBEAT or self.game is None:
                continue
            self._last_report = now
            move = int(self.ss[0, ab.SS_MOVE])
            order = self.moves[0, :max(0, int(self.ctrl[ab.C_ROOT_MOVES]))]
            at = np.flatnonzero(order == move) if move else ()
            on_progress(Progress(self._nodes(), now - self.clock.started,
                                 int(tt_hashfull(self.tt, self.age)), move_name(move) if len(at) else None,
                                 int(at[0]) + 1 if len(at) else 0))


def search_once(pos, depth: int = None, movetime: float = None, nodes: int = None, searcher: Searcher = None,
                limits: Limits = None):
    """Search synchronously and return the SearchResult (handy in scripts, tools and tests); a search that
    failed raises its error (a tool must not go on with a salvaged move).  ``limits``: instead of the three."""
    searcher = searcher or Searcher(QUICK_HASH_MB)
    out = []
    limits = limits or Limits(depth=depth, movetime=movetime, nodes=nodes)
    searcher.start(pos, limits, lambda i: None, out.append)
    searcher.wait()
    if out[0].error is not None:
        raise out[0].error
    return out[0]
