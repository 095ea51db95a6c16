"""Call every numba kernel once with the argument types the engine uses, so numba compiles them into its
on-disk cache (``make setup``) or loads them from it (engine start-up)."""


def warm_all(game=None):
    """Load (or compile) ``game``'s kernels (default: xiangqi) and the tables' probe code."""
    from .egtb import warm as warm_tables
    from .game import XIANGQI
    from .perft import perft_count
    from .search import search_once
    game = game or XIANGQI
    pos = game.position()
    kernels = game.kernels()
    perft_count(pos, 2)
    kernels.evaluate(pos.board, pos.st)
    search_once(pos, depth=3)
    if game is XIANGQI:
        from .xiangqi.movegen import gives_check, has_legal_move, is_attacked, move_buffer
        from .xiangqi.see import see, see_ge
        pos.push("h2e2")
        see(pos.board, pos.legal_moves()[0])
        see_ge(pos.board, pos.legal_moves()[0], 0)
        gives_check(pos.board, pos.st, pos.legal_moves()[0])
        is_attacked(pos.board, 4, 1)
        has_legal_move(pos.board, pos.st, move_buffer())
    warm_tables(game)
