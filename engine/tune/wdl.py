"""Fitting the win/draw/loss model (``engine.wdl``) to the project's own games (``python -m engine.tune wdl``).

The games are the tuner's self-play (``engine.tune.selfplay``: fixed nodes a move, reproducible from the seed),
by default with another seed than the evaluation's training games, so that the model is measured on games the
evaluation was not fitted to.  Each quiet position gives (ply, score, result), the score and result from the
same side's view -- the model is symmetric, so whose view does not matter.  The fit maximises the likelihood of
the results: the mean of -log(the chance the model gave the result that happened), over the six knot values
(``a`` and ``b`` at three plies), one at a time by golden-section search (``fit.golden_section``), sweeping
until a sweep gains almost nothing.  The last tenth of the positions (the last games) is held out and its loss
reported.  The result is written as ``engine/<game>/wdl.json``, with its provenance.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from ..game import game_named
from ..wdl import MIN_WIDTH, WdlModel
from .fit import golden_section

SEED = 2                    # not the evaluation's training seed (selfplay.Settings.seed)
GAMES = 1000                # self-play games a fit uses by default: about 100,000 positions, minutes on one core
CAP_QUANTILE = 0.95         # ply_cap: the ply that this share of the positions have not passed
CAP_ROUNDING = 10           # ... rounded up to a multiple of this
START = WdlModel(100, (100.0, 100.0, 100.0), (100.0, 100.0, 100.0))
A_RANGE = (0.0, 2000.0)     # where each knot is searched, centipawns
B_RANGE = (MIN_WIDTH, 2000.0)
MAX_SWEEPS = 40
TOLERANCE = 1e-7            # a sweep that lowers the loss by less than this ends the fit
HELD_OUT = 0.1
LEAST_CHANCE = 1e-12        # log(0) guard: a result the model called impossible costs this much


@dataclass
class Outcomes:
    """The positions as arrays: the game's ply, the search's score and the result (1, 0.5, 0), one view."""
    ply: np.ndarray
    score: np.ndarray
    result: np.ndarray

    def split(self, fraction: float) -> tuple["Outcomes", "Outcomes"]:
        cut = len(self.ply) - int(round(len(self.ply) * fraction))
        return (Outcomes(self.ply[:cut], self.score[:cut], self.result[:cut]),
                Outcomes(self.ply[cut:], self.score[cut:], self.result[cut:]))

    def rates(self) -> tuple[float, float, float]:
        """The share of wins, draws and losses."""
        return (float(np.mean(self.result == 1.0)), float(np.mean(self.result == 0.5)),
                float(np.mean(self.result == 0.0)))


def outcomes_of(rows, game: str) -> Outcomes:
    """``rows``: (FEN, result, score) as ``selfplay.read_positions`` yields them; the ply from each FEN."""
    Position = game_named(game).Position
    ply, score, result = [], [], []
    for fen, points, cp in rows:
        ply.append(Position(fen).game_ply)
        score.append(cp)
        result.append(points)
    return Outcomes(np.array(ply, np.float64), np.array(score, np.float64), np.array(result, np.float64))


def log_loss(model: WdlModel, data: Outcomes) -> float:
    """The mean of -log(the chance ``model`` gave each result)."""
    win, loss = model.chances(data.score, data.ply)
    chance = np.where(data.result == 1.0, win, np.where(data.result == 0.0, loss, 1.0 - win - loss))
    return float(-np.mean(np.log(np.maximum(chance, LEAST_CHANCE))))


def ply_cap_of(data: Outcomes) -> int:
    cap = np.quantile(data.ply, CAP_QUANTILE)
    return int(np.ceil(cap / CAP_ROUNDING) * CAP_ROUNDING)


def fit_wdl(data: Outcomes, progress=None) -> tuple[WdlModel, int]:
    """The model that best predicts ``data``'s results, and the sweeps it took (see the module doc)."""
    model = replace(START, ply_cap=ply_cap_of(data))
    best = log_loss(model, data)
    sweep = 0
    for sweep in range(1, MAX_SWEEPS + 1):
        for name, bounds in (("a", A_RANGE), ("b", B_RANGE)):
            for k in range(3):
                def with_knot(v, name=name, k=k):
                    knots = list(getattr(model, name))
                    knots[k] = v
                    return replace(model, **{name: tuple(knots)})
                value = golden_section(lambda v: log_loss(with_knot(v), data), *bounds)
                model = with_knot(round(value, 2))
        loss = log_loss(model, data)
        if progress:
            progress(sweep, loss)
        gain, best = best - loss, loss
        if gain < TOLERANCE:
            break
    return model, sweep


def data_path(game: str, games: int, seed: int, nodes: int) -> str:
    """Where the self-play of these settings is kept: named by them, so that a file is reused only for the
    same settings (the games are a function of them alone)."""
    return f"tune/wdl-{game}-{games}g-seed{seed}-{nodes}n.txt.gz"


def params_path(game: str) -> Path:
    """The game's model file: ``engine/<game>/wdl.json``."""
    return game_named(game).package_file("wdl.json")


def write_model(path, model: WdlModel, provenance: dict, game: str) -> None:
    """Write the model file ``Game.wdl()`` reads (``WdlModel.from_file``)."""
    data = {"about": f"The win/draw/loss model of {game} (engine/wdl.py), written by engine/tune/wdl.py: a is the "
                     "score (centipawns, the side to move's) at which a win is 50% likely, b the logistic's width, "
                     "each at ply 0, ply_cap / 2 and ply_cap, a quadratic in the ply between them.",
            "provenance": provenance, "ply_cap": int(model.ply_cap),
            "a": [float(v) for v in model.a], "b": [float(v) for v in model.b]}
    Path(path).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
