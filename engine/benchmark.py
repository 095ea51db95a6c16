"""`shuai bench`: a fixed-depth search over varied positions.  The total node count is deterministic (one
thread, depth limits, a fresh table) and so is the signature of the search: any change that alters it changes
the search.  nps is the speed figure."""
import time

from .game import DEFAULT, game_named


def run_bench(depth: int = None, hash_mb: int = None, out=print, game: str = DEFAULT.name,
              network=None) -> tuple[int, float]:
    """Search each bench position of ``game`` (``Game.bench()``) to ``depth`` (the game's default if None),
    evaluating with ``network`` (an ``engine.nnue.network.Network``) if given."""
    from .searcher import QUICK_HASH_MB, Searcher, search_once
    bench = game_named(game).bench()
    fens, depth = bench.FENS, depth or bench.DEPTH
    Position = game_named(game).Position
    searcher, warm_up = Searcher(hash_mb or QUICK_HASH_MB), Searcher(1)
    for s in (searcher, warm_up):
        s.new_game()
        if network is not None:
            s.set_network(game_named(game), network)
    # Loading the kernels from numba's cache takes a few hundred ms on the first search of a process; a shallow
    # search with a table of its own pays it before the clock starts, so nps measures the search alone.
    search_once(Position(fens[0]), depth=2, searcher=warm_up)
    total_nodes, total_time = 0, 0.0
    for i, fen in enumerate(fens):
        t = time.perf_counter()
        result = search_once(Position(fen), depth=depth, searcher=searcher)
        elapsed = time.perf_counter() - t
        info = result.info
        nodes = info.nodes if info else 0
        total_nodes += nodes
        total_time += elapsed
        out(f"position {i + 1:2}/{len(fens)}  bestmove {result.best or '(none)':5}  "
            f"score {info.score if info else 0:6}  nodes {nodes:9}")
    out(f"nodes {total_nodes} time_ms {total_time * 1000:.0f} nps {int(total_nodes / max(total_time, 1e-9))}")
    return total_nodes, total_time
