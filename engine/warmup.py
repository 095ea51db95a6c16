"""Call every numba kernel once with the argument types the engine uses, so numba compiles them into its
on-disk cache (``make setup``) or loads them from it (engine start-up)."""


def warm_all(game=None):
    """Load (or compile) ``game``'s kernels (default: the default game's) and the tables' probe code: the search's
    and the tables' here, the rest by the game's own ``warm``."""
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
