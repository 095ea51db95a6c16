"""The searcher: one object per engine, driving the numba search in a worker thread.

Interface used by the protocol loop and the command line (times are seconds everywhere here):

    searcher = Searcher(hash_mb)
    searcher.start(pos, Limits(...), on_info, on_done, banned=[...])   # returns at once
    searcher.stop()          # ask the running search to finish; on_done follows within ~100 ms
    searcher.ponderhit()     # a ponder search becomes a normal timed search
    searcher.wait()          # block until the search thread has finished (on_done has been called)

``on_info(SearchInfo)`` is called after every completed iteration (from the search thread);
``on_done(SearchResult)`` exactly once per ``start``, even when the search fails: an exception anywhere in it
(the search thread, a helper, the heartbeat, a callback, the tables) ends in a result that carries it
(``SearchResult.error``, the first one; its traceback goes to stderr) with the move of the last iteration
reported, else any legal move -- a GUI always gets its move, and the searcher serves the next ``start``.
Under ``Limits(infinite=True)`` or ``ponder=True`` a search that ends by itself (depth reached, mate found, one
legal move, failed) holds ``on_done`` back until ``stop`` (or, pondering, ``ponderhit``): the GUI may not see a
``bestmove`` before.  This is the one place of that rule; the protocol relies on it.

The position's game (``pos.game``) supplies the compiled search (``engine.template``): the same driver runs
every game.

Threads (``searcher.set_threads(n)``): Lazy SMP.  The search thread (the main thread of the search) drives the
iterations, the clock and the reports as with one thread; ``n - 1`` helper threads search the same root at the
same time, each with its own copy of the position and its own stacks, killers and histories, sharing only the
transposition table (lock-free, see ``engine.tt``): what one thread stores, the others find, and they start
their iterations at staggered depths (``helper_skips``) so that their trees differ.  The kernels release the
GIL, so the threads really run at once.  When the main thread ends, the helpers are stopped and the move is
chosen by a vote of the threads' last completed iterations, weighted by depth and score (``vote``).  Helpers
read no table chunk from disk (only the main thread does: the chunk cache has one writer).  With one thread
there are no helpers and the search is the deterministic one of ``shuai bench``.

Playing levels (``Limits.level``, see ``engine.levels``): a level below full strength restricts the search
(``Level.restrict``: node and depth caps, MultiPV lines, the first iteration completed whatever the budget) and the
move is drawn among the last iteration's lines (``levels.choose``) with the searcher's generator (``rng``,
``seed``); full strength and ``go infinite`` search as if there were no level.  Opening books
(``set_books``, ``engine.book``): a position the first book knows is answered without a search, the move drawn by
weight (``best``: the heaviest), unless the level excludes the book or the search ponders or is infinite; the
result says so (``SearchResult.book``).

Endgame tables (``searcher.set_tablebases(TableSet(...), probe_depth)``, see ``engine.egtb.tableset``): a
search uses the tables of its position's game (``for_game(pos.game)``).  A root position the tables know is
not searched -- the move is the tables' (fastest mate when winning, slowest when losing) and the PV follows
them to the mate; a drawn root is searched among the moves that keep the draw.  Inside the search, positions
entered by a capture are probed (see ``alphabeta``); ``probe_depth`` ("egtbply") is how many plies must be
left to search before a probe may read the disk.
"""
from __future__ import annotations

import threading
import time
import traceback
from dataclasses import dataclass, field, replace
from typing import Callable, Optional, Sequence

import numpy as np

from . import alphabeta as ab
from . import levels, search_params
from .egtb import DEFAULT_PROBE_DEPTH
from .files import clip
from .levels import Level
from .scores import INFINITE, mate_in_moves

QUICK_HASH_MB = 16      # the table of bench, self-play and one-off searches: small, and the same everywhere
                        # (the bench signature depends on it)


@dataclass
class Limits:
    """What ``go`` asked for.  ``None`` = no such limit."""
    depth: Optional[int] = None
    nodes: Optional[int] = None
    movetime: Optional[float] = None        # seconds for this move
    time_left: Optional[float] = None       # own clock, seconds
    increment: float = 0.0                  # own increment per move, seconds
    movestogo: Optional[int] = None
    mate: Optional[int] = None              # search for a mate in this many moves
    infinite: bool = False
    ponder: bool = False
    multipv: int = 1                        # lines to report (the best first)
    overhead: Optional[float] = None        # seconds kept from every budget for I/O and the GUI (Move Overhead);
                                            # None: timeman.MOVE_OVERHEAD
    level: Optional[Level] = None           # a playing level (engine.levels); None: full strength
    floor_depth: int = 0                    # iterations up to this depth complete whatever the node limit
    started: Optional[float] = None         # perf_counter when ``go`` arrived: the move's time counts from then,
                                            # what the protocol did before the search (tables opened) included;
                                            # None: from ``start``


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
    tbhits: int = 0                         # positions the endgame tables answered
    multipv: int = 1                        # which line (1 = the best)

    @property
    def nps(self) -> int:
        return int(self.nodes / self.time) if self.time > 0 else 0


@dataclass
class Progress:
    """Where a search stands between its iterations (the heartbeat, ``HEARTBEAT``)."""
    nodes: int
    time: float                             # seconds since start
    hashfull: int                           # per mille
    currmove: Optional[str]                 # the root move being searched (None: not known yet)
    currmovenumber: int                     # its place in this iteration's order of the root moves, from 1

    @property
    def nps(self) -> int:
        return int(self.nodes / self.time) if self.time > 0 else 0


@dataclass
class SearchResult:
    best: Optional[str]                     # None: no legal move (the side to move has lost)
    ponder: Optional[str]
    info: Optional[SearchInfo]              # the last completed iteration
    error: Optional[BaseException] = None   # what made the search fail (best is then a salvaged move)
    lines: list = field(default_factory=list)   # the last iteration's lines, best first (MultiPV; a level's
                                            # choice is among them)
    book: bool = False                      # the move is the opening book's (no search: info is None)

    @property
    def failure(self) -> Optional[str]:
        """The error as the one line a user sees; None if the search did not fail."""
        if self.error is None:
            return None
        said = clip(self.error, 200)                    # MemoryError() says nothing
        return f"search failed: {type(self.error).__name__}" + (f": {said}" if said else "")


def _earlier_lines(lines: list, earlier: list, count: int) -> list:
    """MultiPV lines after ``lines`` up to ``count``, when a stop left them unsearched at this depth: the last
    iteration's, less the moves ``lines`` already start with and renumbered, so that no two lines share a first
    move (a GUI keeps the last report of each line number)."""
    taken = {line.pv[0] for line in lines if line.pv}
    rest = [line for line in earlier if line.pv and line.pv[0] not in taken][:count - len(lines)]
    return [replace(line, multipv=len(lines) + k + 1) for k, line in enumerate(rest)]


MAX_TB_PV = 64              # plies of a tablebase PV shown
TABLE_LINE_SECONDS = 0.05   # ... walked for at most this long between iterations (9 plies take 1 ms)
OVERTAKEN = 2               # a stop flag value: another thread finished this thread's iteration first (_begin)
VOTE_MARGIN = 20            # centipawns: the weakest thread's vote still counts (see ``vote``)
NO_NODE_LIMIT = 1 << 62     # the node limit of a search without one
HEARTBEAT = 1.0             # a search that reported nothing for this long reports its progress (seconds)
HEARTBEAT_POLL = 0.1        #   looked at this often
ASPIRATION_DEPTH = 4        # iterations from this depth on start with a window around the last score,
ASPIRATION_WINDOW = 40      # this wide on each side, doubled at each fail


def _aspirated(kernels, args, depth: int, score: int) -> tuple:
    """One iteration of the root search: from ASPIRATION_DEPTH on within a window around the last ``score``,
    widened on each side that fails.  Returns (value, raised): the value (0 when stopped: ``ctrl`` of ``args``
    says) and, if a pass failed high before the search was stopped, that pass's score (its move is then at the
    front of the root's moves: a better move than the last iteration's, proved at this depth though not yet by
    how much), else None."""
    ctrl = args[6]
    window = ASPIRATION_WINDOW
    alpha, beta = (score - window, score + window) if depth >= ASPIRATION_DEPTH else (-INFINITE, INFINITE)
    raised = None
    while True:
        ctrl[ab.C_SELDEPTH] = 0
        value = int(kernels.search(*args, depth, 0, alpha, beta))
        if ctrl[ab.C_STOP]:
            return value, raised
        if value <= alpha:
            alpha = max(-INFINITE, alpha - window)
        elif value >= beta:
            raised = value
            beta = min(INFINITE, beta + window)
        else:
            return value, None
        window *= 2


def _best_first(root, lines: list) -> list:
    """MultiPV's lines of one depth, best first and renumbered, the root's first moves (line k's move at index
    k - 1) put in the same order: each later line is searched alone with a full window, and the table and the
    histories it leaves may score it above an earlier one -- then it is the better move, and line 1, the move
    played, is the best of those searched (as Stockfish sorts its lines).  A stable sort: ties keep their order."""
    order = sorted(range(len(lines)), key=lambda i: -lines[i].score)
    if order == list(range(len(lines))):
        return lines
    moves = [int(root[i]) for i in range(len(lines))]
    for k, i in enumerate(order):
        root[k] = moves[i]
    return [replace(lines[i], multipv=k + 1) for k, i in enumerate(order)]


def _to_front(moves, n: int, move: int) -> None:
    """Move ``move`` to the front of the first ``n`` of ``moves``, the others keeping their order."""
    at = int(np.flatnonzero(moves[:n] == move)[0])
    moves[1:at + 1] = moves[:at].copy()
    moves[0] = move


def helper_skips(index: int, depth: int) -> bool:
    """Does helper ``index`` (from 1) skip this iteration?  Helpers search in blocks of ``size`` depths, every
    other block, starting at different phases, so that at any time the threads are spread over the depths
    around the main thread's and fill the table ahead of it."""
    size = 1 + (index - 1).bit_length() // 2             # helpers 1-2: single depths, 3-8: pairs, ...
    phase = (index - 1) % (2 * size)
    return ((depth + phase) // size) % 2 == 0


def vote(candidates: list) -> tuple:
    """The threads' choice: ``candidates`` are each thread's last completed iteration, (depth, move, score,
    PV), the main thread's first.  A mate found for us wins (the nearest); otherwise each candidate votes for
    its move with depth times its score above the worst (plus VOTE_MARGIN), and the move with the most votes is
    played, with the line of the deepest (then best) thread that chose it.  Only iterations at most one short
    of the deepest vote: a thread overtaken at every depth since (``_end``) keeps a stale shallow result whose
    score says little next to a deep one."""
    from .scores import MATE_BOUND
    mates = [c for c in candidates if c[2] > MATE_BOUND]
    if mates:
        return max(mates, key=lambda c: c[2])
    deepest = max(c[0] for c in candidates)
    candidates = [c for c in candidates if c[0] >= deepest - 1]
    lowest = min(c[2] for c in candidates)
    votes: dict = {}
    for depth, move, score, _ in candidates:
        votes[move] = votes.get(move, 0) + depth * (score - lowest + VOTE_MARGIN)
    winner = max(votes, key=lambda m: (votes[m], m == candidates[0][1]))
    return max((c for c in candidates if c[1] == winner), key=lambda c: (c[0], c[2]))


class Searcher:
    def __init__(self, hash_mb: int):
        from . import tt
        from .egtb.tableset import TableSet
        self.tablebases = TableSet()                          # no tables
        self._tables = None                                   # the tables of the game searched now
        self.tb_depth = DEFAULT_PROBE_DEPTH
        self.tt = tt.new_table(hash_mb)
        self.game = None                    # the game of the work arrays (set by the first search)
        self.ctrl = ab.new_work_arrays(1, 1)[0]
        self.threads = 1
        self._helpers: list = []            # each helper thread's work arrays (ab.new_work_arrays)
        self._helper_threads: list[threading.Thread] = []
        self._depths: list[int] = []        # each thread's iteration now (the main thread's first)
        self._finished = 0                  # the deepest iteration any thread has finished
        self._share_iterations = True       # does a finished iteration end the others' (not with MultiPV)
        self.age = 0
        self._thread: Optional[threading.Thread] = None
        self._timer: Optional[threading.Timer] = None
        self._lock = threading.Lock()
        self._pondering = False
        self._soft_deadline: Optional[float] = None
        self._budget = None
        self._clock_start: Optional[float] = None  # perf_counter at go (set when the clock is armed)
        self._best_moves: list = []             # each completed iteration's best move and score (time management)
        self._scores: list[int] = []
        self._search_id = 0                     # a hard-stop timer stops only the search that armed it
        self._failure: Optional[BaseException] = None   # the first exception of the running search
        self._reported: Optional[SearchInfo] = None     # its last reported line 1 (what a failure salvages)
        self.rng = levels.new_rng()             # a level's choice among lines, a book's among its moves
        self.books: list = []                   # opening books (engine.book), the first that knows a position
        self.book_best = False                  # play the book's heaviest move rather than draw one by weight
        self._no_tables = TableSet()            # the tables of a level that may not use them
        self.param_values: dict = {}            # the search's tunable parameters set by name (set_params) ...
        self.params = search_params.array()     # ... and all of them for this search (_use_game): the kernels'
        self.time_params = search_params.time_values()      # ... and the time manager's
        self.networks: dict = {}                # game name -> its evaluation network (set_network), if any
        self._thread_nets: list = []            # each thread's network and accumulators (engine.nnue.kernels)

    # -- options ----------------------------------------------------------------------------------------------
    def set_hash(self, mb: int) -> None:
        from . import tt
        self.wait()
        self.tt = tt.new_table(mb)

    def set_tablebases(self, tables=None, probe_depth: int = None) -> None:
        """Search with these tables (an ``egtb.tableset.TableSet``; None: none); ``probe_depth``: egtbply."""
        from .egtb.tableset import TableSet
        self.wait()
        self.tablebases = tables if tables is not None else TableSet()
        if probe_depth is not None:
            self.tb_depth = int(probe_depth)

    def set_books(self, books, best: bool = False) -> None:
        """Play from these opening books (``engine.book.Book``s; empty: none) when they know the position --
        the heaviest move with ``best``, else one drawn by weight."""
        self.wait()
        self.books = list(books)
        self.book_best = best

    def seed(self, seed: Optional[int] = None) -> None:
        """Seed the random choices (a level's, a book's): ``levels.new_rng``."""
        self.rng = levels.new_rng(seed)

    def set_params(self, values: Optional[dict] = None) -> None:
        """Search with these tunable parameters (``engine.search_params``: {name: value}, checked there); the
        others at their defaults, the game's where it has its own (``Game.search_params``).  None or {}: all
        at their defaults."""
        self.wait()
        self.param_values = dict(values or {})

    def set_network(self, game, network=None) -> None:
        """Evaluate ``game``'s positions with ``network`` (an ``engine.nnue.network.Network``; None: with the
        game's hand-written evaluation).  The table is cleared: its static evaluations are the other one's."""
        from . import tt
        self.wait()
        if network is None:
            self.networks.pop(game.name, None)
        else:
            self.networks[game.name] = network
        self._thread_nets = []
        self.tt = tt.cleared(self.tt)

    def _nets(self, pos) -> list:
        """The ``net`` argument of each thread's search of ``pos`` (the main thread's first): the game's network
        with that thread's accumulators, one row per ply of the game's history (kept between searches: a row
        still valid for its position is reused); or the empty net."""
        from .nnue.kernels import empty_net, thread_net
        network = self.networks.get(pos.game.name)
        if network is None:
            return [empty_net()] * (1 + len(self._helpers))
        weights, rows = network.arrays(), pos.hist.shape[0]
        self._thread_nets = [n for n in self._thread_nets if n[0] is weights[0] and n[4].shape[0] == rows]
        del self._thread_nets[1 + len(self._helpers):]
        while len(self._thread_nets) < 1 + len(self._helpers):
            self._thread_nets.append(thread_net(weights, rows))
        return list(self._thread_nets)

    def set_threads(self, n: int) -> None:
        """Search with ``n`` threads (from 1; the Threads option bounds it)."""
        self.wait()
        self.threads = max(1, int(n))

    def _use_game(self, game) -> None:
        """Work arrays shaped for ``game`` (made anew only when the game changes), one set per thread, and the
        search parameters: the game's defaults, then those set by name."""
        kernels = game.kernels()
        values = {**game.search_params, **self.param_values}
        self.params = search_params.array(values)
        self.time_params = search_params.time_values(values)
        if game is not self.game:
            (ctrl, self.ss, self.pv, self.moves, self.order, self.history,
             self.reps) = ab.new_work_arrays(kernels.MAX_MOVES, kernels.HISTORY_SIZE)
            self.ctrl[:] = ctrl                 # the same array: stop() may hold it
            self._helpers = []
            self.game = game
        del self._helpers[self.threads - 1:]
        while len(self._helpers) < self.threads - 1:
            self._helpers.append(ab.new_work_arrays(kernels.MAX_MOVES, kernels.HISTORY_SIZE))

    def hash_entry(self, pos):
        """What the transposition table holds for a position: (move name or None, score, depth, bound) with
        bound one of "exact", "lower", "upper"; None if it holds nothing."""
        from .tt import BOUND_EXACT, BOUND_LOWER, score_from_tt, tt_probe
        move_name = pos.game.move_name
        key, lock = pos.keys[pos.ply]
        found, move, score, depth, flag, _ = tt_probe(self.tt, key, lock)
        if not found:
            return None
        bound = {BOUND_EXACT: "exact", BOUND_LOWER: "lower"}.get(int(flag), "upper")
        return move_name(int(move)) if move else None, int(score_from_tt(score, 0)), int(depth), bound

    def new_game(self) -> None:
        """Forget everything learnt (transposition table, history)."""
        from . import tt
        self.wait()
        self.tt = tt.cleared(self.tt)
        if self.game is not None:
            self.history[:] = 0
            self.ss[:] = 0
        self._helpers = []                      # made afresh by the next search

    # -- control ----------------------------------------------------------------------------------------------
    def start(self, pos, limits: Limits, on_info: Callable[[SearchInfo], None],
              on_done: Callable[[SearchResult], None], banned: Sequence[str] = (),
              on_progress: Optional[Callable[[Progress], None]] = None) -> None:
        from .timeman import budget
        self.stop()
        self.wait()
        with self._lock:
            self._search_id += 1
        if limits.level is not None and (limits.level.full or limits.infinite):
            limits = replace(limits, level=None)        # full strength; analysis always is
        if limits.level is not None:
            limits = limits.level.restrict(limits)
        self._use_game(pos.game)
        ab.reset_ctrl(self.ctrl, self.params)
        self.ctrl[ab.C_NODE_LIMIT] = limits.nodes if limits.nodes else NO_NODE_LIMIT
        self._pondering = limits.ponder or limits.infinite
        self._infinite = limits.infinite
        self._budget = budget(limits, self.time_params)
        now = time.perf_counter()
        self._start_time = now if limits.started is None else min(limits.started, now)
        self._soft_deadline = None
        self._best_moves, self._scores = [], []
        self._failure, self._reported = None, None
        if not self._pondering:
            self._arm_clock()
        self._last_report = self._start_time

        def report(info):
            self._last_report = time.perf_counter()
            if info.multipv == 1:
                self._reported = info
            on_info(info)
        self._thread = threading.Thread(target=self._run, args=(pos.copy(), limits, report, on_done,
                                                                list(banned), on_progress), daemon=True)
        self._thread.start()

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

    def stop(self) -> None:
        self._pondering = False
        with self._lock:                                # not lost to an OVERTAKEN (see _end)
            self.ctrl[ab.C_STOP] = 1
        self._stop_helpers()

    def _stop_helpers(self) -> None:
        with self._lock:            # else a helper clearing an OVERTAKEN in _end could wipe this stop and run on
            for work in self._helpers:
                work[0][ab.C_STOP] = 1

    def ponderhit(self) -> None:
        if self._pondering:
            self._pondering = self._infinite
            if not self._infinite:
                self._arm_clock()

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
            self._cancel_timer()
        if self._failure is not None:
            result = self._salvaged(pos, banned, result)
        elif limits.level is not None and result is not None and result.lines:
            result = self._chosen(result, limits.level)
        # The hold (see the module doc): under `go infinite` / `go ponder` no bestmove before `stop` / `ponderhit`.
        while self._pondering and self.ctrl[ab.C_STOP] == 0:
            time.sleep(0.002)
        self._cancel_timer()                            # armed by a ponderhit while we waited
        try:
            on_done(result)
        finally:
            self._join_helpers()                        # stopped already; the bestmove did not wait for them

    def _chosen(self, result: SearchResult, level: Level) -> SearchResult:
        """A level's move: one of the search's lines, drawn by ``levels.choose``."""
        index = levels.choose(result.lines, level.temperature, self.rng)
        line = result.lines[index]
        if index == 0 or not line.pv:
            return result
        return replace(result, best=line.pv[0], ponder=line.pv[1] if len(line.pv) > 1 else None, info=line)

    def _book_move(self, pos, allowed, move_name) -> Optional[int]:
        """The books' move for ``pos`` among the ``allowed`` ones (None: the books do not know it)."""
        from .book import book_moves, choose
        names = {move_name(m): m for m in allowed}
        chosen = choose([mw for mw in book_moves(self.books, pos) if mw[0] in names], self.rng, self.book_best)
        return names[chosen] if chosen is not None else None

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

    def _heartbeat(self, done: threading.Event, move_name, on_progress) -> None:
        """While the search runs: its progress whenever it has reported nothing for ``HEARTBEAT`` seconds (a GUI
        shows the engine alive in long iterations).  Reads the search's counters as it writes them: a figure
        may be a node or a move behind."""
        from .tt import tt_hashfull
        while not done.wait(HEARTBEAT_POLL):
            now = time.perf_counter()
            if now - self._last_report < HEARTBEAT or self.game is None:
                continue
            self._last_report = now
            move = int(self.ss[0, ab.SS_MOVE])
            order = self.moves[0, :max(0, int(self.ctrl[ab.C_ROOT_MOVES]))]
            at = np.flatnonzero(order == move) if move else ()
            on_progress(Progress(self._nodes(), now - self._start_time,
                                 int(tt_hashfull(self.tt, self.age)), move_name(move) if len(at) else None,
                                 int(at[0]) + 1 if len(at) else 0))

    def _iterate(self, pos, limits, on_info, banned) -> SearchResult:
        kernels = pos.game.kernels().alphabeta
        move_name = pos.game.move_name
        level = limits.level
        self._tables = (self.tablebases if level is None or level.tables else self._no_tables).for_game(pos.game)
        legal = pos.legal_moves()
        allowed = [m for m in legal if move_name(m) not in banned] or legal
        if not allowed:
            return SearchResult(None, None, None)
        if self.books and (level is None or level.book) and not (limits.ponder or limits.infinite):
            move = self._book_move(pos, allowed, move_name)
            if move is not None:
                return SearchResult(move_name(move), None, None, book=True)
        known = self._root_tables(pos, allowed, move_name)
        if isinstance(known, SearchResult):
            on_info(known.info)
            return known
        table_draw = known is not allowed              # the tables call the root a draw: report 0
        allowed = known
        self.age = (self.age + 1) & 255
        ctrl, ss, pv = self.ctrl, self.ss, self.pv
        ctrl[ab.C_AGE] = self.age
        kernels.seed_repetitions(pos.st, pos.hist, pos.keys, self.reps)
        root = self.moves[0]                            # the root's moves, reordered by each iteration
        root[:len(allowed)] = allowed
        ctrl[ab.C_ROOT_MOVES] = len(allowed)
        ctrl[ab.C_TB_DEPTH] = self.tb_depth
        nets = self._nets(pos)
        args = (pos.board, pos.st, pos.hist, pos.keys, self.tt, self._tables.arrays, ctrl, ss, pv, self.moves,
                self.order, self.history, self.reps, nets[0])
        max_depth = min(limits.depth or ab.MAX_PLY - 4, ab.MAX_PLY - 4)
        if len(allowed) == 1 and self._timed(limits):
            max_depth = 1                               # the only move, on the clock: play it at once (timeman)
        if self._helpers:
            ctrl[ab.C_NODE_LIMIT] //= len(self._helpers) + 1     # `go nodes`: the threads' sum
        node_limit = int(ctrl[ab.C_NODE_LIMIT])
        if limits.floor_depth:
            ctrl[ab.C_NODE_LIMIT] = NO_NODE_LIMIT       # armed after the floor's iterations (a level's first)
        self._depths = [0] * (1 + len(self._helpers))
        self._finished = 0
        self._share_iterations = limits.multipv == 1
        completed = self._start_helpers(kernels, pos, allowed, max_depth, nets[1:])
        best, info, score = int(root[0]), None, 0
        shown = []                                      # the lines the last iteration reported (MultiPV)
        depth = 0
        while depth < max_depth:
            depth += 1
            if depth > limits.floor_depth:
                ctrl[ab.C_NODE_LIMIT] = node_limit
            self._begin(0, ctrl, depth)
            value, raised = _aspirated(kernels, args, depth, score)
            if self._end(0, ctrl, depth):               # a helper finished this depth first: take its result
                depth, best, score, line = max((c[-1] for c in completed if c and c[-1][0] >= depth),
                                               key=lambda c: c[0])
                _to_front(root, len(allowed), best)
                info = self._info(depth, 0 if table_draw else score, self._table_line(pos, line), move_name)
                on_info(info)
                if self._done(info, limits):
                    break
                continue
            stopped = bool(ctrl[ab.C_STOP])
            if stopped and ctrl[ab.C_ROOT_DONE] == 0 and raised is None:
                break                                   # nothing finished at this depth: keep the last result
            if stopped and int(root[0]) == best:
                break
            best = int(root[0])                         # stopped: the best so far, or the move that failed high
            score = value if not stopped else int(ctrl[ab.C_BEST_SCORE]) if ctrl[ab.C_ROOT_DONE] else raised
            pv_moves = self._table_line(pos, self._root_line(best))
            info = self._info(depth, 0 if table_draw else score, pv_moves, move_name)
            count = min(limits.multipv, len(allowed))
            lines = [] if stopped else self._more_lines(kernels, args, depth, count, table_draw, pos, move_name)
            if lines:
                info, *lines = _best_first(root, [info] + lines)
                best, score = int(root[0]), info.score
            lines += _earlier_lines([info] + lines, shown, count)   # a stop left lines unsearched at this depth
            shown = [info] + lines
            on_info(info)
            for line in lines:
                on_info(line)
            if stopped or self._done(info, limits):
                break
        self._stop_helpers()
        if info is None:                                # stopped before depth 1 completed
            best, info = self._first_iteration(kernels, args, best, move_name)
        elif completed and limits.multipv == 1 and not table_draw:
            depth, move, score, line = vote([(info.depth, best, info.score, None)] + [c[-1] for c in completed if c])
            if move != best:                            # a helper's line won: the GUI sees it before the move
                best = move
                info = self._info(depth, score, self._table_line(pos, line), move_name)
                on_info(info)
        ponder = info.pv[1] if len(info.pv) > 1 else None
        return SearchResult(move_name(best), ponder, info, lines=shown)

    def _first_iteration(self, kernels, args, best: int, move_name) -> tuple:
        """(move, info) of a search stopped before its first iteration completed: that iteration, searched now
        without limits (a few milliseconds: one ply and the captures after it), so that the move played is a
        searched one, not the first in the list.  Still stopped again (a second ``stop``): ``best`` unsearched."""
        ctrl = self.ctrl
        with self._lock:
            ctrl[ab.C_STOP] = 0
        ctrl[ab.C_NODE_LIMIT] = NO_NODE_LIMIT
        ctrl[ab.C_ROOT_FIRST] = 0
        ctrl[ab.C_SELDEPTH] = 0
        score = int(kernels.search(*args, 1, 0, -INFINITE, INFINITE))
        with self._lock:
            done = ctrl[ab.C_STOP] == 0
            ctrl[ab.C_STOP] = 1
        if not done:
            return best, self._info(0, 0, [best], move_name)
        best = int(self.moves[0][0])
        return best, self._info(1, score, self._root_line(best), move_name)

    def _start_helpers(self, kernels, pos, allowed, max_depth, nets) -> list:
        """Start the helper threads on the root (see the module doc); returns the list each fills with its
        completed iterations, (depth, best move, score, PV)."""
        completed = []
        self._helper_threads = []
        for index, (work, net) in enumerate(zip(self._helpers, nets), 1):
            ctrl = work[0]
            ab.reset_ctrl(ctrl, self.params)
            ctrl[ab.C_NODE_LIMIT] = self.ctrl[ab.C_NODE_LIMIT]
            ctrl[ab.C_AGE] = self.age
            ctrl[ab.C_TB_DEPTH] = ab.MAX_PLY            # no disk reads (the chunk cache has one writer)
            ctrl[ab.C_ROOT_MOVES] = len(allowed)
            work[3][0, :len(allowed)] = allowed
            completed.append([])
            thread = threading.Thread(target=self._guarded, daemon=True,
                                      args=(self._help, index, work, net, kernels, pos.copy(), max_depth,
                                            completed[-1]))
            self._helper_threads.append(thread)
            thread.start()
        return completed

    def _help(self, index, work, net, kernels, pos, max_depth, completed) -> None:
        """A helper thread: iterative deepening of the root with its own arrays, on the shared table."""
        ctrl, ss, pv, moves, order, history, reps = work
        kernels.seed_repetitions(pos.st, pos.hist, pos.keys, reps)
        args = (pos.board, pos.st, pos.hist, pos.keys, self.tt, self._tables.arrays) + tuple(work) + (net,)
        score = 0
        for depth in range(1, max_depth + 1):
            if (helper_skips(index, depth) and depth < max_depth) or depth <= self._finished:
                continue                                # staggered (never the last: no thread idles at the
                                                        # end of `go depth`); or another thread has finished it
            self._begin(index, ctrl, depth)
            value, _ = _aspirated(kernels, args, depth, score)
            best = int(moves[0, 0])
            if self._end(index, ctrl, depth):
                continue
            if ctrl[ab.C_STOP]:
                break
            score = value
            completed.append((depth, best, score, [int(m) for m in pv[0, :max(1, ss[0, ab.SS_PV_LEN])]]))
            self._end(index, ctrl, depth, finished=True)

    def _begin(self, index: int, ctrl, depth: int) -> None:
        """Thread ``index`` starts an iteration: one that another thread has finished already ends at once."""
        with self._lock:
            self._depths[index] = depth
            if self._share_iterations and depth <= self._finished and ctrl[ab.C_STOP] == 0:
                ctrl[ab.C_STOP] = OVERTAKEN

    def _end(self, index: int, ctrl, depth: int, finished: bool = False) -> bool:
        """Thread ``index`` is back from an iteration.  True if another thread had finished it first (its stop
        flag is cleared: the thread goes on with the next depth).  Otherwise, if it ``finished`` the
        iteration (the main thread's finished unless stopped), every thread still on this depth or a shallower
        one is overtaken: its iteration ends and it moves on.  All under the lock, with ``stop`` and
        ``_begin``: a stop is never lost, an OVERTAKEN never comes late."""
        with self._lock:
            if ctrl[ab.C_STOP] == OVERTAKEN:
                ctrl[ab.C_STOP] = 0
                return True
            if (finished or index == 0) and ctrl[ab.C_STOP] == 0 and self._share_iterations:
                self._finished = max(self._finished, depth)
                for work, now in zip([self.ctrl] + [w[0] for w in self._helpers], self._depths):
                    if 0 < now <= depth and work[ab.C_STOP] == 0 and work is not ctrl:
                        work[ab.C_STOP] = OVERTAKEN
            return False

    def _join_helpers(self) -> None:
        for thread in self._helper_threads:
            thread.join()
        self._helper_threads = []

    def _nodes(self) -> int:
        """Nodes searched so far by all the threads."""
        return int(self.ctrl[ab.C_NODES]) + sum(int(work[0][ab.C_NODES]) for work in self._helpers)

    def _root_line(self, best: int) -> list:
        """The PV the last root search left, if it starts with ``best`` (a stopped search may not have one)."""
        line = [int(m) for m in self.pv[0, :max(1, self.ss[0, ab.SS_PV_LEN])]]
        return line if line and line[0] == best else [best]

    def _more_lines(self, kernels, args, depth, count, table_draw, pos, move_name) -> list:
        """MultiPV: lines 2..count at ``depth``, each the best of the root moves the earlier lines left, searched
        with a full window (the root moves from index k on, ``C_ROOT_FIRST``).  Stops early when the search is
        stopped; an unfinished line is not reported."""
        ctrl = self.ctrl
        lines = []
        for k in range(1, count):
            ctrl[ab.C_ROOT_FIRST] = k
            ctrl[ab.C_SELDEPTH] = 0
            value = int(kernels.search(*args, depth, 0, -INFINITE, INFINITE))
            if ctrl[ab.C_STOP]:
                break
            line = self._table_line(pos, self._root_line(int(self.moves[0][k])))
            info = self._info(depth, 0 if table_draw else value, line, move_name)
            info.multipv = k + 1
            lines.append(info)
        ctrl[ab.C_ROOT_FIRST] = 0
        return lines

    def _root_tables(self, pos, allowed, move_name):
        """A root the tables know: the SearchResult to play (won or lost), or the moves that keep a draw (a new
        list).  The ``allowed`` list itself when the tables do not know the position (or one of its successors)."""
        tables = self._tables
        if not tables.names:
            return allowed
        ranked = [r for r in tables.rank_moves(pos) if r[1] in allowed]
        if not ranked or any(r[2].kind == "unknown" for r in ranked):
            return allowed
        best_rank, best, after = ranked[0]
        if after.kind == "draw":
            return [m for rank, m, res in ranked if res.kind == "draw"]
        if after.plies is not None:
            # The tables count no move clock: a mate (ours or theirs) that the move limit's draw would come
            # before, unless a capture or a pawn move resets it on the way, is left to the search, which knows.
            child = pos.copy()
            child.push(move_name(best))
            if child.halfmove_clock + after.plies > pos.game.move_limit:
                return allowed
        score = -after.score(1)
        line = self._table_line(pos, [best], seconds=None)
        self.ctrl[ab.C_TB_HITS] = 1 + len(line)
        self.ctrl[ab.C_SELDEPTH] = len(line)
        info = self._info(len(line), score, line, move_name)
        return SearchResult(move_name(best), info.pv[1] if len(info.pv) > 1 else None, info)

    def _table_line(self, pos, pv_moves, seconds: Optional[float] = TABLE_LINE_SECONDS):
        """``pv_moves`` continued by the tables' best moves from where it ends, while they know the position
        (up to MAX_TB_PV plies): a PV that enters a table ends there in the search, but shows the way to mate.
        The walk runs in Python outside the kernels and may read chunks from the disk, so it is bounded: it ends
        when the search is stopped (the clock's hard limit included) and after ``seconds`` (None: no limit but
        the stop; a root in the tables, whose line is its answer).  A won ending at a low clock never loses on
        time to its display."""
        tables = self._tables
        line = list(pv_moves)
        if not tables.names:
            return line
        walk = pos.copy()
        for m in line:
            walk.push(m)
        deadline = None if seconds is None else time.perf_counter() + seconds
        while (len(line) < MAX_TB_PV and not self.ctrl[ab.C_STOP]
               and (deadline is None or time.perf_counter() < deadline)):
            ranked = tables.rank_moves(walk)
            if not ranked or ranked[0][2].plies is None:    # unknown, a draw, or a rule result: no mating line
                break
            line.append(ranked[0][1])
            walk.push(ranked[0][1])
        return line

    def _info(self, depth, score, pv_moves, move_name) -> SearchInfo:
        from .tt import tt_hashfull
        return SearchInfo(depth, int(self.ctrl[ab.C_SELDEPTH]), score, mate_in_moves(score),
                          self._nodes(), time.perf_counter() - self._start_time, [move_name(m) for m in pv_moves],
                          int(tt_hashfull(self.tt, self.age)), int(self.ctrl[ab.C_TB_HITS]))

    def _timed(self, limits: Limits) -> bool:
        """Does the clock alone end this search?  Not ``go movetime``/``depth``/``nodes``/``mate``/``infinite``:
        those ask for a search of that size whatever the position (an analyser or a puzzle set wants the score
        of the only move too), as Stockfish manages time only under a clock."""
        return (self._budget.soft is not None and limits.movetime is None and not limits.infinite
                and limits.depth is None and limits.nodes is None and limits.mate is None)

    def _done(self, info: SearchInfo, limits: Limits) -> bool:
        """May the iterative deepening stop after this (completed) iteration?"""
        from .timeman import may_start_iteration, scale_soft
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
