"""One iteration of the root search within an aspiration window (the main thread's and the helpers')."""
from __future__ import annotations

from .. import alphabeta as ab
from ..scores import INFINITE

ASPIRATION_DEPTH = 4        # iterations from this depth on start with a window around the last score,
ASPIRATION_WINDOW = 40      # this wide on each side, doubled at each fail


def _aspirated(kernels, args, depth: int, score: int) -> tuple:
    """One iteration of the root search: from ASPIRATION_DEPTH on within a window around the last ``score``,
    widened on each side that fails.  Returns (value, raised): the value (0 when stopped: ``ctrl`` of ``args``
    says) and, if a pass failed high before the search was stopped, that pass's score (its move is then at the
    front of the root's moves: a better move than the last iteration's, proved at this depth though not yet by
    how much), else None."""
    ctrl = args[6]
    window = ASPIRATION_WINDOW
    alpha, beta = (score - window, score + window) if depth >= ASPIRATION_DEPTH else (-INFINITE, INFINITE)
    raised = None
    while True:
        ctrl[ab.C_SELDEPTH] = 0
        value = int(kernels.search(*args, depth, 0, alpha, beta))
        if ctrl[ab.C_STOP]:
            return value, raised
        if value <= alpha:
            alpha = max(-INFINITE, alpha - window)
        elif value >= beta:
            raised = value
            beta = min(INFINITE, beta + window)
        else:
            return value, None
        window *= 2
