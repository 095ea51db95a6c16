"""Call every numba kernel once with the argument types the engine uses, so numba compiles them into its
on-disk cache (``make setup``) or loads them from it (engine start-up)."""
import gc
import os


def warm_all(game=None):
    """Load (or compile) ``game``'s kernels (default: the default game's) and the tables' probe code: the search's
    and the tables' here, the rest by the game's own ``warm``; then what loading left alive is frozen out of the
    garbage collector's walks (``freeze_heap``)."""
    from .egtb import warm as warm_tables
    from .game import DEFAULT
    from .perft import perft_count
    from .searcher import search_once
    game = game or DEFAULT
    pos = game.position()
    kernels = game.kernels()
    perft_count(pos, 2)
    pos.push(pos.legal_moves()[0])                     # the Python edge's make and unmake (a GUI's moves)
    pos.pop()
    kernels.evaluate(pos.board, pos.st)
    search_once(pos, depth=3)
    game.warm(pos)
    warm_tables(game)
    warm_disk_read(game)
    freeze_heap()


def warm_disk_read(game) -> None:
    """Run the search's read of a chunk from the disk once: a ``numba.objmode`` block, whose lifted code numba
    does not cache with the kernels around it but compiles in each process at its first run, 50-150 ms holding
    the GIL, in which neither the clock's timer nor ``stop`` can end the search (a fresh engine's first search
    that read a chunk: 284 ms, the next one 28 ms).  A run of the block from Python does not do: numba tells
    the lifted blocks apart by an id drawn when their kernel was compiled, and kernels compiled in different
    processes (the games compile side by side) carry different ones (a cache here held three: the search's and
    each game's probe kernel's), so the kernel itself must run it -- a search one capture from an ending whose
    tables read nothing (``Tablebases.unreadable``)."""
    from .egtb.tableset import TableSet
    from .searcher import Searcher, search_once
    material, fen = game.tables().WARM_ENDING
    searcher = Searcher(1)
    searcher.set_tablebases(TableSet.of(game, game.tables().Tablebases.unreadable(material)), probe_depth=0)
    search_once(game.position(fen), depth=2, searcher=searcher)


def freeze_heap() -> None:
    """Move every object alive now out of the garbage collector's sight (``gc.freeze``).  Loading numba's kernels
    leaves some 150,000 long-lived objects, and each full collection, which Python starts on its own as a game's
    allocations add up, walks them all: about 70 ms here, more on a loaded machine -- in the middle of a search,
    where at 2 s + 0.02 s a move the increment is 20 ms (a match here saw one stall of 430 ms in 287,000 moves,
    not machine load: a loss on time).  Frozen, they are never walked again (a full collection then takes
    microseconds); they are the compiled engine, freed only at exit."""
    gc.collect()
    gc.freeze()


def warm_named(name):
    """``warm_all`` for the game called ``name`` (what a worker process is sent)."""
    from .game import game_named
    warm_all(game_named(name))


def for_each_game(job, games):
    """``job(game.name)`` for every game, each in a process of its own while there are cores for them, and the
    results in the games' order.  The games share few kernels, so they compile side by side: a cold ``shuai setup``
    on 2 cores took 124 s, against 255 s one game after the other (kernels 85 s against 205 s, tables 38 s
    against 50 s)."""
    names = [game.name for game in games]
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    if min(cores, len(names)) < 2:
        return [job(name) for name in names]
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    # spawn, not fork: a forked child of a process that has loaded LLVM can hang on its locks
    with ProcessPoolExecutor(len(names), mp_context=multiprocessing.get_context("spawn")) as pool:
        return list(pool.map(job, names))


def warm_every_game(games):
    """Compile every game's kernels into numba's cache side by side, then load them all here once more: two
    writers of a kernel both games share may leave its cache entry to only one of them, and whatever is missing
    is compiled now rather than in a GUI's first game."""
    for_each_game(warm_named, games)
    for game in games:
        warm_all(game)
