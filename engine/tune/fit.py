"""The evaluation tuner (issue 13): Texel's method on the project's own positions.

Every position's evaluation is linear in the parameter vector ``W`` of the game's evaluation (``Game.evaluation()``:
every function here takes the game's name, xiangqi by default) for a fixed phase:
``evaluate_trace`` gives each parameter's coefficient, from the very code the engine runs.  The positions
(``engine.tune.selfplay``) become one sparse matrix ``C`` (positions x parameters, Red's/White's view), and the tuner
minimises the mean squared error between ``sigmoid(C @ w)`` and a target: the game's result, blended with the
search's score turned into an expected result (``lam`` of the result).  ``sigmoid(s) = 1 / (1 + 10^(-k s / 400))``
with ``k`` fitted first, so that scores stay in centipawns.  The optimiser is Adam on the full batch.

Ridge regularisation (``l2``, the loss added per (100 cp)^2 of deviation) keeps what few positions decide from
running wild: each piece-square table is pulled towards its own mean (so a square seen rarely stays near the
piece's value, while the piece's value itself is free), every other parameter towards its start value.  It
also settles the terms that are collinear with material (horse mobility with the horse's table, the terms for
missing advisors and elephants with their tables), which the data alone leave undetermined.  The validation
loss picks ``l2``.

Positions where the evaluation is not linear in W (mop-up of a lone general, a side that cannot win; chess: a
side without pawns that the no-pawn rule may scale down) are left out.  Parameters that no position uses keep
their start value.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from ..game import DEFAULT, GAMES, game_named



def evaluation(game: str = DEFAULT.name):
    """The evaluation module of ``game`` (its LAYOUT, W, evaluate_trace, TABLE_SIZE ...)."""
    if game not in {g.name for g in GAMES}:
        raise ValueError(f"unknown game {game!r}")
    return game_named(game).evaluation()


def table_size(game: str = DEFAULT.name) -> int:
    """The size of ``game``'s piece-square tables (xiangqi: half boards, chess: whole boards)."""
    return evaluation(game).TABLE_SIZE


def plain_start(game: str = DEFAULT.name) -> np.ndarray:
    """Material only, the same on every square, every other term zero: the tuner's start, owing nothing to any
    engine's tables (the game's ``tuning.PLAIN_MATERIAL``, textbook piece values)."""
    ev = evaluation(game)
    size = table_size(game)
    w = np.zeros(ev.N_PARAMS, np.float64)
    for kind, value in game_named(game).tuning().PLAIN_MATERIAL.items():
        for phase in ("mg", "eg"):
            at = ev.OFFSET[f"{kind}_{phase}"]
            w[at:at + size] = value
    return w


@dataclass
class Dataset:
    """The positions as a CSR matrix of coefficients (Red's view), with results and search scores."""
    indptr: np.ndarray
    cols: np.ndarray
    vals: np.ndarray
    result: np.ndarray          # 1, 0.5, 0 for Red (White)
    score: np.ndarray           # the search's score, centipawns, Red's (White's) view
    skipped: int = 0            # positions left out (not linear in W)
    game: str = DEFAULT.name

    @property
    def size(self) -> int:
        return len(self.result)

    def split(self, fraction: float) -> tuple["Dataset", "Dataset"]:
        """(the first 1 - fraction of the positions, the rest): the rest, later games, validates the fit."""
        cut = self.size - int(round(self.size * fraction))
        at = self.indptr[cut]
        head = Dataset(self.indptr[:cut + 1], self.cols[:at], self.vals[:at], self.result[:cut], self.score[:cut],
                       game=self.game)
        tail = Dataset(self.indptr[cut:] - at, self.cols[at:], self.vals[at:], self.result[cut:], self.score[cut:],
                       game=self.game)
        return head, tail


def build_dataset(rows, game: str = DEFAULT.name) -> Dataset:
    """``rows``: (FEN, result for Red, score for Red), as ``selfplay.read_positions`` yields them."""
    ev = evaluation(game)
    Position = game_named(game).Position
    n, t = ev.N_PARAMS, ev.TOTAL_PHASE
    trace = np.zeros(ev.TRACE_SIZE, np.int64)
    indptr, cols, vals, results, scores = [0], [], [], [], []
    skipped = 0
    for fen, result, score in rows:
        pos = Position(fen)
        ev.evaluate_trace(pos.board, pos.st, trace)
        if trace[ev.TRACE_NONLINEAR]:
            skipped += 1
            continue
        ph = trace[ev.TRACE_PHASE]
        coef = (trace[:n] * ph + trace[n:2 * n] * (t - ph)) / t
        nz = np.flatnonzero(coef)
        cols.append(nz.astype(np.int32))
        vals.append(coef[nz].astype(np.float64))
        indptr.append(indptr[-1] + len(nz))
        results.append(result)
        scores.append(score)
    cat = (lambda parts, dtype: np.concatenate(parts).astype(dtype) if parts else np.zeros(0, dtype))
    return Dataset(np.array(indptr, np.int64), cat(cols, np.int32), cat(vals, np.float64),
                   np.array(results, np.float64), np.array(scores, np.float64), skipped, game)


@njit(cache=True)
def _matvec(indptr, cols, vals, w, out):
    for i in range(len(indptr) - 1):
        s = 0.0
        for k in range(indptr[i], indptr[i + 1]):
            s += vals[k] * w[cols[k]]
        out[i] = s


@njit(cache=True)
def _rmatvec(indptr, cols, vals, g, out):
    out[:] = 0.0
    for i in range(len(indptr) - 1):
        gi = g[i]
        if gi != 0.0:
            for k in range(indptr[i], indptr[i + 1]):
                out[cols[k]] += vals[k] * gi


def sigmoid(s, k):
    return 1.0 / (1.0 + np.power(10.0, -k * s / 400.0))


def golden_section(err, lo: float, hi: float, steps: int = 60) -> float:
    """The ``x`` in ``lo..hi`` where ``err(x)`` is least, for an ``err`` with one minimum there."""
    g = (math.sqrt(5) - 1) / 2
    a, b = hi - g * (hi - lo), lo + g * (hi - lo)
    fa, fb = err(a), err(b)
    for _ in range(steps):
        if fa < fb:
            hi, b, fb = b, a, fa
            a = hi - g * (hi - lo)
            fa = err(a)
        else:
            lo, a, fa = a, b, fb
            b = lo + g * (hi - lo)
            fb = err(b)
    return (lo + hi) / 2


def fit_k(evals: np.ndarray, target: np.ndarray) -> float:
    """The sigmoid scale that best maps ``evals`` to ``target`` (least squared error)."""
    return golden_section(lambda k: float(np.mean((sigmoid(evals, k) - target) ** 2)), 0.05, 5.0)


@dataclass
class FitResult:
    w: np.ndarray
    k: float
    loss_start: float
    loss: float
    iterations: int
    seconds: float
    history: list = field(default_factory=list)


def target_of(data: Dataset, k: float, lam: float) -> np.ndarray:
    """What the fit aims at: ``lam`` of the game result, the rest the search score's expected result."""
    return lam * data.result + (1 - lam) * sigmoid(data.score, k)


def loss_of(data: Dataset, w: np.ndarray, k: float, lam: float) -> float:
    """The fit's loss for ``data`` with parameters ``w`` (e.g. held-out positions, or other parameters)."""
    evals = np.zeros(data.size)
    _matvec(data.indptr, data.cols, data.vals, np.asarray(w, np.float64), evals)
    return float(np.mean((sigmoid(evals, k) - target_of(data, k, lam)) ** 2))


L2_UNIT = 100.0 ** 2                # ``l2`` is the loss added per (100 cp)^2 of deviation


def table_groups(used: np.ndarray, game: str = DEFAULT.name) -> list[np.ndarray]:
    """The used entries of every piece-square table (the half-board blocks; chess: the 64-square blocks), one
    index array per table: the groups that ridge regularisation pulls towards their own mean."""
    ev = evaluation(game)
    board = table_size(game)
    groups = []
    for name, size in ev.LAYOUT:
        if size == board:
            at = ev.OFFSET[name]
            idx = at + np.flatnonzero(used[at:at + size])
            if len(idx):
                groups.append(idx)
    return groups


def ridge(w: np.ndarray, w0: np.ndarray, used: np.ndarray, l2: float, groups=None,
          game: str = DEFAULT.name) -> tuple[float, np.ndarray]:
    """(penalty, gradient) of the ridge term: the used entries of each table against the table's mean, every
    other used parameter against its start value ``w0``; ``groups``: ``table_groups(used)``, if already known."""
    dev = np.where(used, w - w0, 0.0)
    for idx in table_groups(used, game) if groups is None else groups:
        dev[idx] = w[idx] - w[idx].mean()
    scale = l2 / L2_UNIT
    return scale * float(dev @ dev), 2.0 * scale * dev


def fit(data: Dataset, w0: np.ndarray, lam: float = 0.5, iterations: int = 2000, lr: float = 2.0,
        l2: float = 0.0, progress=None) -> FitResult:
    """Adam on the mean squared error of ``sigmoid(C @ w)`` against ``lam * result + (1 - lam) * sigmoid(score)``,
    plus the ridge term ``l2`` (see the module docstring); ``k`` is fitted to the search scores against the results
    first, so the target does not depend on ``w``.  The losses reported are the squared error alone."""
    t0 = time.monotonic()
    k = fit_k(data.score, data.result)
    target = target_of(data, k, lam)
    w = w0.astype(np.float64).copy()
    used = np.zeros(len(w), np.bool_)
    used[np.unique(data.cols)] = True
    groups = table_groups(used, data.game)
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    evals = np.zeros(data.size)
    grad = np.zeros_like(w)
    b1, b2, eps = 0.9, 0.999, 1e-8
    history = []
    c = math.log(10.0) * k / 400.0
    for it in range(iterations + 1):
        _matvec(data.indptr, data.cols, data.vals, w, evals)
        p = sigmoid(evals, k)
        diff = p - target
        loss = float(np.mean(diff * diff))
        history.append(loss)
        if progress and (it % 100 == 0 or it == iterations):
            progress(it, loss)
        if it == iterations:
            break
        _rmatvec(data.indptr, data.cols, data.vals, 2.0 * diff * p * (1.0 - p) * c / data.size, grad)
        if l2:
            grad += ridge(w, w0, used, l2, groups)[1]
        m = b1 * m + (1 - b1) * grad
        v = b2 * v + (1 - b2) * grad * grad
        step = lr * (m / (1 - b1 ** (it + 1))) / (np.sqrt(v / (1 - b2 ** (it + 1))) + eps)
        w -= np.where(used, step, 0.0)
    return FitResult(w, k, history[0], history[-1], iterations, time.monotonic() - t0, history)


def occurrences(data: Dataset) -> np.ndarray:
    """How much each parameter counts over the positions (the sum of its coefficients' magnitudes)."""
    weight = np.zeros(evaluation(data.game).N_PARAMS)
    np.add.at(weight, data.cols, np.abs(data.vals))
    return weight


def search_scale(w: np.ndarray, weight: np.ndarray, game: str = DEFAULT.name) -> float:
    """The factor that puts ``w`` on the search's scale.  The fit fixes the evaluation only up to the sigmoid's
    scale (``k * w`` is what it sees), while the search's margins and exchange values are in ``PIECE_VALUE``
    units: this is the least-squares factor from the fitted middle-game values of rooks, horses and cannons
    (chess: knights, bishops, rooks and queens; their tables' means, weighted by how often each square occurs)
    to their ``PIECE_VALUE``."""
    ev = evaluation(game)
    size = table_size(game)
    fitted, nominal = [], []
    for kind in game_named(game).tuning().SCALE_KINDS:
        at = ev.OFFSET[f"{kind}_mg"]
        block, seen = w[at:at + size], weight[at:at + size]
        fitted.append(float(block @ seen / seen.sum()) if seen.sum() else float(block.mean()))
        nominal.append(float(ev.PIECE_VALUE[ev.KINDS.index(kind)]))
    fitted, nominal = np.array(fitted), np.array(nominal)
    return float(fitted @ nominal / (fitted @ fitted))


def params_of(w: np.ndarray, game: str = DEFAULT.name) -> dict:
    """The parameter vector as named blocks (rounded to integers), for ``params.write_params``."""
    ev = evaluation(game)
    return {name: [int(round(x)) for x in w[ev.OFFSET[name]:ev.OFFSET[name] + size]] for name, size in ev.LAYOUT}


def params_vector(path, game: str = DEFAULT.name, filled: list | None = None) -> np.ndarray:
    """The parameter vector of a parameter module (as ``params.write_params`` writes them), e.g. to measure the
    loss of other values than those in use.  Blocks the module lacks (it was written before those terms existed)
    count as zeros, the evaluation without them, and their names are added to ``filled``; a module that cannot
    be read, or has a block the evaluation has not or one of another size, is a ValueError (one line)."""
    import runpy
    from ..evaluation import load_vector
    from ..files import clip
    ev = evaluation(game)
    try:
        params = runpy.run_path(str(path))["PARAMS"]
        sizes = {name: len(values) for name, values in params.items()}
    except Exception as e:                  # any error of the module: it is not one
        raise ValueError(f"{clip(path, 200)}: not a parameter module ({clip(e)})") from None
    layout = dict(ev.LAYOUT)
    unknown = sorted(name for name in sizes if name not in layout)
    if unknown:
        raise ValueError(f"{clip(path, 200)}: blocks the {game} evaluation has not: {clip(', '.join(unknown))}")
    wrong = [f"{name} ({sizes[name]}, expected {layout[name]})" for name in sizes if sizes[name] != layout[name]]
    if wrong:
        raise ValueError(f"{clip(path, 200)}: blocks of the wrong size: {clip(', '.join(wrong))}")
    missing = [name for name, _ in ev.LAYOUT if name not in params]
    if filled is not None:
        filled.extend(missing)
    full = {name: params[name] if name in params else (0,) * size for name, size in ev.LAYOUT}
    return load_vector(full, ev.LAYOUT, ev.TABLE_SIZE, ev.table_values).astype(np.float64)
