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

The package, one idea a module (as Stockfish splits ThreadPool / Worker / SearchManager / TimeManagement):

    results     what a search is asked and tells: Limits, SearchInfo, Progress, SearchResult
    core        the Searcher and its lifecycle (start, stop, ponderhit, wait, the search thread, the heartbeat);
                search_once
    options     the settings between searches (hash, threads, parameters, networks) and the work arrays
    root        the root step: opening books, the tables at the root and their line, a level's choice
    iterations  the iteration driver: iterative deepening, MultiPV's lines, the lines reported, the vote taken
    aspiration  one iteration within an aspiration window
    pool        Lazy SMP: the helper threads, their staggered depths, the iterations they share, the vote
    clock       the clock: armed at go or ponderhit, the hard stop, the decision to start another iteration
    recovery    a failed search's first exception kept and its move salvaged

The Searcher is made of the parts' classes (``Options``, ``Root``, ``Iterations``, ``Pool``, ``Clock``,
``Recovery``): each sets up the state it owns (``_init_...``); they share the searcher's lock, table and
``ctrl``.
"""
from .aspiration import ASPIRATION_DEPTH, ASPIRATION_WINDOW, _aspirated
from .core import HEARTBEAT, HEARTBEAT_POLL, QUICK_HASH_MB, Searcher, search_once
from .iterations import NO_NODE_LIMIT, _best_first, _earlier_lines, _to_front
from .pool import OVERTAKEN, VOTE_MARGIN, helper_skips, vote
from .results import Limits, Progress, SearchInfo, SearchResult
from .root import MAX_TB_PV, TABLE_LINE_SECONDS

__all__ = ["ASPIRATION_DEPTH", "ASPIRATION_WINDOW", "HEARTBEAT", "HEARTBEAT_POLL", "MAX_TB_PV", "NO_NODE_LIMIT",
           "OVERTAKEN", "QUICK_HASH_MB", "TABLE_LINE_SECONDS", "VOTE_MARGIN", "Limits", "Progress", "SearchInfo",
           "SearchResult", "Searcher", "_aspirated", "_best_first", "_earlier_lines", "_to_front", "helper_skips",
           "search_once", "vote"]
