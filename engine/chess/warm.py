"""Load the chess tables' Python-side probe (``engine.warmup`` calls ``warm``); the kernels the Python edge
calls are the search's, already loaded."""


def warm(pos) -> None:
    from ..egtb import warm_chess
    warm_chess()
