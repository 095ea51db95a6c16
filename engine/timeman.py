"""Time management: how long to think, from the clock values of ``go``.

Two numbers come out: a *soft* limit (do not start another iteration after it) and a *hard* limit (stop the
search, whatever it is doing).  A safety margin covers the time between our ``bestmove`` and the GUI's clock:
pipes, the GUI's own lag; it grows with the time left, so at 10 s + 0.1 s the engine never flags.
"""
from dataclasses import dataclass

MOVE_OVERHEAD = 0.05          # seconds reserved per move for I/O and the GUI
DEFAULT_MOVES_TO_GO = 30      # sudden death: plan as if this many moves remained


@dataclass
class Budget:
    soft: float | None          # None: no time limit (depth/nodes/infinite)
    hard: float | None


def budget(limits) -> Budget:
    if limits.movetime is not None:
        t = max(0.01, limits.movetime - MOVE_OVERHEAD)
        return Budget(t, t)
    if limits.time_left is None:
        return Budget(None, None)
    left = max(0.0, limits.time_left)
    inc = max(0.0, limits.increment)
    mtg = limits.movestogo if limits.movestogo and limits.movestogo > 0 else DEFAULT_MOVES_TO_GO
    reserve = min(left * 0.5, MOVE_OVERHEAD + 0.02 * left)      # never spend this part of the clock
    usable = max(0.0, left - reserve)
    soft = usable / mtg + inc * 0.75
    hard = min(usable * (0.9 if mtg == 1 else 0.4), soft * 4.0)
    soft = min(soft, hard)
    return Budget(max(0.005, soft), max(0.01, hard))
