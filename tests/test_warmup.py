"""The warm-up loads every kernel that play reaches: after it, nothing is compiled or loaded mid-game.

numba compiles (or loads from its cache) a kernel the first time it is called with a type signature; one the
warm-up left out is compiled in the middle of a game, holding the GIL, and the clock's stop waits for it.  It
happened: ``gives_chase``, which the tables' move ranking calls only inside a table, was compiled in the first
won ending of each engine of a match on a fresh cache (about 1-2 s) and lost three games on time out of 100
at 2 s + 0.02 s.  And the kernels' read of a chunk from the disk, a ``numba.objmode`` block whose lifted code
numba compiles at its first run in every process, 50-150 ms holding the GIL: the first search of an engine that
read a chunk could not be stopped for that long.  The check runs in a fresh interpreter, since this one has
loaded everything already.
"""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PLAY = r'''
import sys
import numpy as np
from numba.core import event
from numba.core.dispatcher import Dispatcher, LiftedWith, _MemoMixin
from engine.game import XIANGQI, CHESS
from engine.warmup import warm_all
from engine.egtb.tableset import open_tables
from engine.nnue.features import input_count
from engine.nnue.network import Network
from engine.searcher import Limits, Searcher, search_once

for game in (XIANGQI, CHESS):
    warm_all(game)


def loaded():
    return {f"{name}.{k}": len(v.overloads) for name, mod in list(sys.modules.items()) if name.startswith("engine")
            for k, v in list(vars(mod).items()) if isinstance(v, Dispatcher)}


class Compiles(event.Listener):
    """Every compile from now on, of any dispatcher (``loaded`` counts the cache loads of the modules' kernels):
    also of the lifted code of a ``numba.objmode`` block (the kernels' chunk read), which is no module's
    attribute and which numba compiles in each process at the block's first run, never from its cache."""
    def on_start(self, ev):
        pass

    def on_end(self, ev):
        compiled.append(str(ev.data["dispatcher"]))


# numba tells the lifted blocks apart by an id drawn when their kernel was compiled, and the kernels compiled in
# different processes (the games compile side by side) carry different ones: forget every block known by its id,
# as in an engine whose kernels came from such a cache, so that only a block the warm-up ran counts as warm.
for key, dispatcher in list(_MemoMixin._memo.items()):
    if isinstance(dispatcher, LiftedWith):
        del _MemoMixin._memo[key]
_MemoMixin._recent.clear()
before, compiled, disk_reads = loaded(), [], {XIANGQI.name: 0, CHESS.name: 0}
event.register("numba:compile", Compiles())
searcher = Searcher(16)
games = [(XIANGQI, "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1", ""),           # a root in the tables (KRvK)
         (XIANGQI, "4k4/9/9/9/9/9/9/4c4/R8/3K5 w - - 0 1", ""),         # a search into them
         (XIANGQI, None, "h2e2 h9g7 h0g2 i9h9 g2h0 h9i9 h0g2 i9h9 g2h0 h9i9"),   # repetitions to judge
         (CHESS, "8/8/8/4k3/8/8/8/3QK3 w - - 0 1", ""),
         (CHESS, "4k3/8/8/8/8/8/8/r2QK3 w - - 0 1", ""),                # a search into them (KQvK)
         (CHESS, None, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8")]
for network in (False, True):
    for game, fen, moves in games:
        if network:
            rng = np.random.default_rng(1)
            inputs = input_count(game.squares, game.kinds)
            searcher.set_network(game, Network(game.name, rng.integers(-20, 20, (inputs, 16), dtype=np.int16),
                                               np.full(16, 40, np.int16), rng.integers(-50, 50, 32, dtype=np.int16), 0))
        pos = game.position(fen)
        for m in moves.split():
            pos.push(m)
        tables = open_tables()                         # the default set that make setup builds, none in memory
        searcher.set_tablebases(tables)
        search_once(pos, limits=Limits(time_left=0.5, increment=0.01), searcher=searcher)
        disk_reads[game.name] += tables.for_game(game).stats()["search_loads"]
print(min(disk_reads.values()))
print(sorted(k for k, n in loaded().items() if n > before.get(k, 0)) + compiled)
'''


def test_nothing_is_compiled_or_loaded_after_the_warm_up():
    out = subprocess.run([sys.executable, "-c", PLAY], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    disk_reads, compiled = out.stdout.strip().splitlines()[-2:]
    assert int(disk_reads) > 0                         # each game's search kernel read chunks from the disk ...
    assert compiled == "[]"                            # ... and compiled nothing for it


def test_the_games_are_prepared_side_by_side_and_answer_in_order():
    """``shuai setup`` compiles the games side by side (one process each where there are 2 cores) and reports
    them in the games' order, whichever finishes first."""
    from engine.game import GAMES
    from engine.warmup import for_each_game
    assert for_each_game(str.upper, GAMES) == [game.name.upper() for game in GAMES]


def test_the_loaded_engine_is_frozen_out_of_the_garbage_collectors_walks():
    """Loading freezes what it left alive (``warmup.freeze_heap``, from ``warm_all`` and the protocol's loader):
    the kernels' 150,000 objects, which a full collection would otherwise walk in the middle of a search (70 ms
    and more: a loss on time at a short clock).  After loading, and after the other game's kernels are loaded
    too, nothing of them is left tracked."""
    import gc
    from engine.game import CHESS, XIANGQI
    from engine.protocol.loop import Loader
    gc.unfreeze()
    try:
        loader = Loader(XIANGQI)
        loader.wait()
        first = gc.get_freeze_count()
        assert first > 50_000 and len(gc.get_objects()) < 1_000, (first, len(gc.get_objects()))
        loader.position_class(CHESS)
        assert gc.get_freeze_count() >= first and len(gc.get_objects()) < 1_000
    finally:
        gc.unfreeze()
