"""Load (or compile) the xiangqi kernels that the Python edge calls beyond the search's -- exchange values,
check and attack tests, the legal-move test (``engine.warmup`` calls ``warm``)."""


def warm(pos) -> None:
    """``pos``: the start position (played on here)."""
    from .movegen import gives_check, has_legal_move, is_attacked, move_buffer
    from .see import see, see_ge
    pos.push("h2e2")
    see(pos.board, pos.legal_moves()[0])
    see_ge(pos.board, pos.legal_moves()[0], 0)
    gives_check(pos.board, pos.st, pos.legal_moves()[0])
    is_attacked(pos.board, 4, 1)
    has_legal_move(pos.board, pos.st, move_buffer())
