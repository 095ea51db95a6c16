"""Match statistics: Elo difference with a 95 % error bar, likelihood of superiority, and the GSPRT.

All from one side's point of view: ``wins``, ``draws``, ``losses`` of engine A against engine B.

* Score s = (W + D/2) / N; Elo difference = -400 log10(1/s - 1) (the logistic model).
* Error bar: the per-game score variance of the trinomial W/D/L sample,
  var = (W (1-s)^2 + D (1/2-s)^2 + L s^2) / N, standard error sqrt(var/N); the bar is half the Elo distance
  between s ± 1.96 standard errors (cutechess-cli's way).
* SPRT: the generalised SPRT in its normal approximation (as fishtest and cutechess use):
  LLR = N (s1 - s0)(2 s - s0 - s1) / (2 var), with s0, s1 the logistic scores of elo0 and elo1; stop and
  accept H1 when LLR >= log((1-beta)/alpha), accept H0 when LLR <= log(beta/(1-alpha)).  Each of W, D, L
  counts half a game more in the LLR (a Jeffreys-like prior): without it the variance of a record of one or
  two games is (nearly) zero and the LLR explodes -- one lost game "accepted H0" -- while a long one-sided
  record (all wins) still decides; with many games the prior is negligible.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054          # two-sided 95 % quantile of the standard normal
SPRT_PRIOR = 0.5                 # pseudo-games added to each of W, D, L in the LLR (see the module docstring)


def elo_from_score(s: float) -> float:
    if s <= 0.0:
        return -math.inf
    if s >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / s - 1.0)


def score_from_elo(elo: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def _score_var(w: int, d: int, l: int) -> tuple[float, float]:
    n = w + d + l
    s = (w + 0.5 * d) / n
    var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * s ** 2) / n
    return s, var


@dataclass(frozen=True)
class EloEstimate:
    elo: float
    error: float                  # half-width of the 95 % interval; nan when undefined
    score: float
    los: float                    # likelihood of superiority, 0..1
    draw_ratio: float


def elo_estimate(wins: int, draws: int, losses: int) -> EloEstimate:
    n = wins + draws + losses
    if n == 0:
        return EloEstimate(0.0, math.nan, math.nan, math.nan, math.nan)
    s, var = _score_var(wins, draws, losses)
    se = math.sqrt(var / n)
    lo, hi = s - Z95 * se, s + Z95 * se
    if 0.0 < lo and hi < 1.0:
        err = (elo_from_score(hi) - elo_from_score(lo)) / 2.0
    else:
        err = math.nan
    return EloEstimate(elo_from_score(s), err, s, los(wins, losses), draws / n)


def los(wins: int, losses: int) -> float:
    """Likelihood of superiority: P(A stronger than B) from the decisive games (draws carry no information)."""
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


@dataclass(frozen=True)
class Sprt:
    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05

    @classmethod
    def parse(cls, text: str) -> "Sprt":
        """``elo0=0 elo1=5 alpha=0.05 beta=0.05`` (spaces or commas between; alpha and beta optional)."""
        kw = {}
        for word in text.replace(",", " ").split():
            k, eq, v = word.partition("=")
            if not eq or k not in ("elo0", "elo1", "alpha", "beta"):
                raise ValueError(f"bad SPRT parameter {word!r}: expected elo0=, elo1=, alpha=, beta=")
            kw[k] = float(v)
        if "elo0" not in kw or "elo1" not in kw:
            raise ValueError("SPRT needs elo0= and elo1=")
        sprt = cls(**kw)
        if not sprt.elo0 < sprt.elo1:
            raise ValueError("SPRT needs elo0 < elo1")
        if not (0 < sprt.alpha < 1 and 0 < sprt.beta < 1):
            raise ValueError("SPRT alpha and beta must lie between 0 and 1")
        return sprt

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1.0 - self.beta) / self.alpha)

    def llr(self, wins: int, draws: int, losses: int) -> float:
        if wins + draws + losses == 0:
            return 0.0
        wins, draws, losses = (x + SPRT_PRIOR for x in (wins, draws, losses))
        n = wins + draws + losses
        s, var = _score_var(wins, draws, losses)
        s0, s1 = score_from_elo(self.elo0), score_from_elo(self.elo1)
        return n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)

    def decision(self, wins: int, draws: int, losses: int) -> str | None:
        """'H1' (elo1 accepted: A is stronger), 'H0', or None (go on)."""
        llr = self.llr(wins, draws, losses)
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None

    def __str__(self) -> str:
        return f"elo0={self.elo0:g} elo1={self.elo1:g} alpha={self.alpha:g} beta={self.beta:g}"


def format_elo(e: EloEstimate) -> str:
    def num(x):
        return "nan" if math.isnan(x) else ("inf" if math.isinf(x) and x > 0 else
                                            "-inf" if math.isinf(x) else f"{x + 0.0:+.1f}")
    err = "nan" if math.isnan(e.error) else f"{e.error:.1f}"
    return f"{num(e.elo)} +/- {err}"
