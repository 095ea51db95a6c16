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
* Pentanomial SPRT (fishtest's model since 2019): the two games of an opening, one with each colour, are not
  independent -- an opening that favours one side gives each engine a win in its turn -- so the sample is the
  pairs, each scoring 0, 1/4, 1/2, 3/4 or 1 (its two games' mean), counted in five classes; the same LLR with the
  pairs' count, mean and variance.  Where the colours' results are anti-correlated the pairs vary less than two
  independent games would, and the test needs fewer games; where they are independent it gives what the
  trinomial gives.  A match's record (``llr_record``) keeps its complete pairs by their two results (``PAIR_KINDS``:
  the five classes, the middle one split into two draws and a win and a loss, so that the games outside the
  pairs are known exactly): the pairs count as pairs, the other games -- one whose partner was not played, or a
  sitting's played before pairs were kept -- alone; the samples are independent, so their LLRs add.  Each
  class counts a tenth of a pair more (``PAIR_PRIOR``): one or two pairs decide nothing, and a one-sided record
  decides about as soon as the trinomial's (13 pairs of wins, against 22 won games).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054          # two-sided 95 % quantile of the standard normal
SPRT_PRIOR = 0.5                 # pseudo-games added to each of W, D, L in the LLR (see the module docstring)
PAIR_PRIOR = 0.1                 # pseudo-pairs added to each of the five pair classes
PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)   # a pair's score in each class: its two games' mean
# A pair by its two results, the first engine's loss L, draw D, win W: its pentanomial class, its W, D, L.
PAIR_KINDS = ("LL", "LD", "DD", "WL", "WD", "WW")
PAIR_CLASS = (0, 1, 2, 2, 3, 4)


def elo_from_score(s: float) -> float:
    if s <= 0.0:
        return -math.inf
    if s >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / s - 1.0)


def score_from_elo(elo: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def _mean_var(counts, scores) -> tuple[float, float]:
    """The mean and variance of a sample that has ``counts[k]`` members scoring ``scores[k]``."""
    n = sum(counts)
    s = sum(c * x for c, x in zip(counts, scores)) / n
    return s, sum(c * (x - s) ** 2 for c, x in zip(counts, scores)) / n


def _score_var(w: int, d: int, l: int) -> tuple[float, float]:
    return _mean_var((w, d, l), (1.0, 0.5, 0.0))


def pair_kind(first: float, second: float) -> int:
    """The index in ``PAIR_KINDS`` of a pair whose games scored ``first`` and ``second`` (0, 0.5 or 1 each)."""
    low, high = sorted((first, second))
    return {(0.0, 0.0): 0, (0.0, 0.5): 1, (0.5, 0.5): 2, (0.0, 1.0): 3, (0.5, 1.0): 4, (1.0, 1.0): 5}[low, high]


def pentanomial(kinds) -> list[int]:
    """The five classes' counts of pairs counted by ``PAIR_KINDS``."""
    classes = [0] * 5
    for k, count in enumerate(kinds):
        classes[PAIR_CLASS[k]] += count
    return classes


def unpaired(wins: int, draws: int, losses: int, kinds) -> tuple[int, int, int]:
    """W, D, L of the games of a record that are in none of its pairs (``kinds``, counted by ``PAIR_KINDS``);
    ValueError when the pairs hold more wins, draws or losses than the record."""
    rest = [wins, draws, losses]
    for kind, count in zip(PAIR_KINDS, kinds):
        for result in kind:
            rest["WDL".index(result)] -= count
    if min(rest) < 0:
        raise ValueError("the pairs hold more games of a result than the record")
    return rest[0], rest[1], rest[2]


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
        if not all(math.isfinite(x) for x in kw.values()):
            raise ValueError("SPRT parameters must be finite numbers")
        if not sprt.elo0 < sprt.elo1:
            raise ValueError("SPRT needs elo0 < elo1")
        if not (0 < sprt.alpha < 1 and 0 < sprt.beta < 1 and sprt.alpha + sprt.beta < 1):
            # alpha + beta >= 1 puts the bound for H0 at or above the one for H1: decided by any first game
            raise ValueError("SPRT alpha and beta must lie between 0 and 1, their sum below 1")
        return sprt

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1.0 - self.beta) / self.alpha)

    def _llr(self, counts, scores, prior: float) -> float:
        """The normal approximation's LLR of a sample (``_mean_var``), each class ``prior`` members more."""
        if sum(counts) == 0:
            return 0.0
        counts = [c + prior for c in counts]
        s, var = _mean_var(counts, scores)
        s0, s1 = score_from_elo(self.elo0), score_from_elo(self.elo1)
        return sum(counts) * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)

    def llr(self, wins: int, draws: int, losses: int) -> float:
        """The LLR of games taken as independent (trinomial)."""
        return self._llr((wins, draws, losses), (1.0, 0.5, 0.0), SPRT_PRIOR)

    def llr_pairs(self, classes) -> float:
        """The LLR of game pairs (pentanomial): ``classes[k]`` pairs scoring ``PAIR_SCORES[k]``."""
        return self._llr(classes, PAIR_SCORES, PAIR_PRIOR)

    def llr_record(self, wins: int, draws: int, losses: int, kinds) -> float:
        """The LLR of a match's record: W, D, L of all its games, ``kinds`` its complete pairs counted by
        ``PAIR_KINDS``; the pairs count as pairs, the other games alone."""
        return self.llr_pairs(pentanomial(kinds)) + self.llr(*unpaired(wins, draws, losses, kinds))

    def decision(self, wins: int, draws: int, losses: int) -> str | None:
        """'H1' (elo1 accepted: A is stronger), 'H0', or None (go on), by the games' LLR."""
        return self.verdict(self.llr(wins, draws, losses))

    def verdict(self, llr: float) -> str | None:
        """'H1' when ``llr`` has reached the upper bound, 'H0' the lower, else None."""
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
