"""What every game's evaluation shares: the parameter vector, the tuner's trace, and two kernels written once.

A game's ``evaluate`` module declares its parameters as named blocks (``LAYOUT``: (name, size) pairs) and keeps
them in one vector ``W``, read from the generated module ``eval_params.py`` (written by ``engine.tune.params``).
Blocks of the game's ``TABLE_SIZE`` are piece-square tables; the file writes them board-shaped, top rank
first, in rows of ``TABLE_ROW`` values, while the evaluation indexes them rank 0 first (:func:`flip_rows`).

The trace (``evaluate_trace``) is the coefficient of every parameter in the score, as the tuner needs it:
``[0, N)`` middle-game counts and ``[N, 2N)`` ending counts, from the first player's view; then the phase and a
flag for the terms that are not linear in the parameters (:func:`trace_layout`).

``evaluate`` and ``evaluate_trace`` are template kernels (``engine.template``) around the game's
``_evaluate(board, st, trace)``: its evaluate module instantiates them (:func:`kernels`), so they exist once in
the source and are compiled beside each game's evaluation.
"""
import numpy as np
from numba import njit

from .template import Template, instantiate

TEMPLATE = Template(globals(), interface=("_evaluate",))


@TEMPLATE.kernel()
def evaluate(board, st):
    """Static score of the position from the side to move's point of view (see the game's evaluate module)."""
    return _evaluate(board, st, None)   # noqa: F821  (the game's, bound by engine.template)


@TEMPLATE.kernel()
def evaluate_trace(board, st, trace):
    """``evaluate``, also filling ``trace`` (int64[TRACE_SIZE]) with each parameter's coefficient: the tuner's
    view of the same code."""
    trace[:] = 0
    return _evaluate(board, st, trace)  # noqa: F821


def kernels(game_globals: dict, game_name: str):
    """(evaluate, evaluate_trace) for the evaluate module with ``game_globals`` (its ``_evaluate``)."""
    instance = instantiate(TEMPLATE, game_globals, game_name)
    return instance.evaluate, instance.evaluate_trace


def offsets(layout) -> tuple[dict, int]:
    """({block name: its first index in W}, the length of W), the blocks in ``layout`` order."""
    offset, at = {}, 0
    for name, size in layout:
        offset[name] = at
        at += size
    return offset, at


def flip_rows(block, width: int) -> list[int]:
    """A board block as the parameter file writes it (top rank first, rows of ``width`` values) -> values indexed
    rank * width + file (rank 0 first), and back: the rows reversed, which is its own inverse."""
    rows = [list(block[at:at + width]) for at in range(0, len(block), width)][::-1]
    return [v for row in rows for v in row]


def load_vector(params: dict, layout, table_size: int, table_values) -> np.ndarray:
    """W (int32) from a parameter module's ``PARAMS``: every block of ``layout``, the board blocks
    (``table_size`` values) turned from the file's order into the evaluation's by ``table_values``."""
    offset, n = offsets(layout)
    w = np.zeros(n, np.int32)
    for name, size in layout:
        values = list(params[name])
        assert len(values) == size, name
        w[offset[name]:offset[name] + size] = table_values(values) if size == table_size else values
    assert set(params) == {name for name, _ in layout}, "eval_params.py and LAYOUT disagree"
    return w


def trace_layout(n_params: int) -> tuple[int, int, int]:
    """(TRACE_PHASE, TRACE_NONLINEAR, TRACE_SIZE) for a vector of ``n_params``: the phase and the non-linear
    flag follow the mg and eg counts."""
    phase = 2 * n_params
    return phase, phase + 1, phase + 2


@njit(cache=True, inline="always")
def term(trace, index, phase_mg, phase_eg, count):
    """Record ``count`` uses of parameter ``index`` in the trace (numba prunes this when ``trace`` is None); the
    ending counts start after the middle-game ones, at N = (len(trace) - 2) / 2."""
    if trace is not None:
        if phase_mg:
            trace[index] += count
        if phase_eg:
            trace[(trace.shape[0] - 2) // 2 + index] += count


@njit(cache=True, inline="always")
def tdiv(a, b):
    """Integer division rounding toward zero, so that negating the input negates the output (colour symmetry)."""
    if a >= 0:
        return a // b
    return -((-a) // b)
