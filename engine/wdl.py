"""Win, draw and loss chances from a score: what ``UCI_ShowWDL`` reports (``info ... wdl W D L``) and the
terminal game's hint shows.

The model has the form Stockfish publishes (the idea only; every number here is fitted to this project's own
self-play by ``python -m engine.tune wdl``):

    win  = logistic((score - a) / b)
    loss = logistic((-score - a) / b)
    draw = 1 - win - loss

``a`` is the score at which a win is as likely as not, ``b`` how fast the chance grows around it; both depend on
how far the game has gone, its ply (from the FEN's move number), because the same advantage wins more surely
later in a game.  Each is a quadratic in the ply, given by its values at three knots -- ply 0, ``ply_cap / 2``
and ``ply_cap`` -- and held at its ``ply_cap`` value beyond (few games last longer, so the fit knows little of
them).  ``a >= 0`` keeps ``win + loss <= 1``.  The model is symmetric: ``wdl(-s)`` is ``wdl(s)`` reversed.

Each game's fitted values live in its package (``engine/<game>/wdl.json``, read by ``Game.wdl()``).  Mate
scores are certain: a mate for the side to move is ``1000 0 0``, being mated ``0 0 1000``.  Nothing here imports
numba: the protocol thread formats ``info`` lines with it.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .scores import MATE_BOUND

PER_MILLE = 1000
MAX_EXPONENT = 500.0        # logistic's argument is clipped here: exp() stays finite, the chance exactly 0 or 1
MIN_WIDTH = 1.0             # b is kept above this (a width of 0 would divide by zero)


def logistic(x):
    return 1.0 / (1.0 + np.exp(-np.clip(x, -MAX_EXPONENT, MAX_EXPONENT)))


def quadratic_through(knots, x):
    """The quadratic with values ``knots`` at x = 0, 1/2 and 1, at ``x`` (a number or an array)."""
    v0, v1, v2 = knots
    return v0 * (2 * x - 1) * (x - 1) + v1 * 4 * x * (1 - x) + v2 * x * (2 * x - 1)


@dataclass(frozen=True)
class WdlModel:
    ply_cap: int        # the last knot: a game beyond this ply counts as at it
    a: tuple            # the score at which a win is 50% likely, at ply 0, ply_cap / 2 and ply_cap
    b: tuple            # the logistic's width (centipawns) at the same plies

    @classmethod
    def from_file(cls, path) -> "WdlModel":
        """The model a tuner wrote (``engine.tune.wdl``): a JSON object with ``ply_cap`` (a positive integer),
        ``a`` and ``b`` (three numbers each), beside its ``provenance``.  Anything else is a ValueError."""
        import json
        from pathlib import Path
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
            ply_cap, a, b = int(data["ply_cap"]), tuple(map(float, data["a"])), tuple(map(float, data["b"]))
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise ValueError(f"{path}: not a win/draw/loss model ({e})") from None
        if ply_cap <= 0 or len(a) != 3 or len(b) != 3 or not all(map(np.isfinite, a + b)):
            raise ValueError(f"{path}: not a win/draw/loss model (ply_cap {ply_cap}, a {a}, b {b})")
        return cls(ply_cap, a, b)

    def shape(self, ply):
        """(a, b) at ``ply`` (a number or an array)."""
        x = np.minimum(np.maximum(ply, 0), self.ply_cap) / self.ply_cap
        return (np.maximum(quadratic_through(self.a, x), 0.0),
                np.maximum(quadratic_through(self.b, x), MIN_WIDTH))

    def chances(self, score, ply):
        """(win, loss) chances of the side whose score this is, for an evaluation (not a mate) ``score``
        at ``ply``; numbers or arrays.  The draw's is the rest."""
        a, b = self.shape(ply)
        return logistic((score - a) / b), logistic((-score - a) / b)

    def wdl(self, score: int, ply: int) -> tuple[int, int, int]:
        """(win, draw, loss) per mille, summing to exactly 1000, for a search score at ``ply`` (see the module
        doc)."""
        if score > MATE_BOUND:
            return PER_MILLE, 0, 0
        if score < -MATE_BOUND:
            return 0, 0, PER_MILLE
        win, loss = (float(p) for p in self.chances(score, ply))
        w, l = int(win * PER_MILLE + 0.5), int(loss * PER_MILLE + 0.5)
        if w + l > PER_MILLE:           # both rounded up, with no draw left: take the excess from the larger,
            if w > l:                   # which keeps the model's symmetry
                w -= 1
            else:
                l -= 1
        return w, PER_MILLE - w - l, l

    def even_score(self, ply: int) -> float:
        """The score at which a win is 50% likely at ``ply`` (the README's figure)."""
        return float(self.shape(ply)[0])


def position_wdl(pos, score: int) -> tuple[int, int, int]:
    """(win, draw, loss) per mille for the side to move in ``pos`` with search score ``score``: the model of its
    game at its ply."""
    return pos.game.wdl().wdl(score, pos.game_ply)
