"""The loop over distances every retrograde generator runs (xiangqi's, chess's, the sliced one on Ray)."""
from __future__ import annotations

from .codes import MAX_DIST


def run_levels(one_level, max_sched: int, report, start: float = 0.3, span: float = 0.6) -> int:
    """Run ``one_level(level)`` for level 1, 2, ... (it settles the positions lost or won at that distance and
    returns how many) until a level settles nothing and no capture level (up to ``max_sched``) is pending.
    ``report(fraction, text)`` moves the progress bar from ``start`` over ``span``.  Returns the levels run."""
    level = 0
    while True:
        level += 1
        settled = one_level(level)
        report(start + span * min(1.0, level / max(60, max_sched + 1)), f"ply {level}")
        if settled == 0 and level >= max_sched:
            return level
        if level >= MAX_DIST:
            raise RuntimeError("distance overflow")
