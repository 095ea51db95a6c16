"""Call every numba kernel once with the argument types the engine uses, so numba compiles them into its
on-disk cache (``make setup``) or loads them from it (engine start-up)."""


def warm_all():
    from .egtb import warm as warm_tables
    from .perft import perft, perft_buffers
    from .search import search_once
    from .xiangqi.evaluate import evaluate
    from .xiangqi.movegen import gives_check, has_legal_move, is_attacked, move_buffer
    from .xiangqi.position import Position
    pos = Position()
    perft(*pos.arrays, 2, perft_buffers(2), 0)
    evaluate(pos.board, pos.st)
    pos.push("h2e2")
    gives_check(pos.board, pos.st, pos.legal_moves()[0])
    is_attacked(pos.board, 4, 1)
    has_legal_move(pos.board, pos.st, move_buffer())
    search_once(pos, depth=3)
    warm_tables()
