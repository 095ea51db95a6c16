"""The tables against the referee (issue 32): positions whose verdict the rule changed, played out.

A table built under a rule (``--rule check`` or ``chase``) calls some positions won that the same table built
under a weaker rule (``--rule none``, or ``check``) calls drawn: the defender's only way to hold was to attack
for ever.  :func:`play_out` checks such a verdict the way a game would: the winner plays the new table's moves
(:meth:`Tablebases.best_move`, which prefers the lowest rule order and the least attacking move), the defender
tries every move the old table calls drawing (or, where there is none, the new table's best defence), and the
game's referee (``Game.game_result``: mate, the move limit, repetitions judged at the third occurrence) ends
each line.  Every line must end in a win for the winner -- by mate, or by the defender's perpetual check or
chase -- within ``max_plies``; a line longer than that, or beyond the budget of lines, is counted unresolved.

:class:`Recorded` keeps the tables' answers along the lines, so that a test can replay them against the referee
without the tables: the smallest table with chase-decided verdicts, KRNvKR, has 65.6 M entries.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..codes import DRAW, ILLEGAL
from ..probe import ProbeResult


@dataclass
class Outcome:
    """The lines played from one position: how each ended."""
    wins: dict = field(default_factory=dict)        # reason (checkmate, perpetual-chase ...) -> lines
    unresolved: int = 0
    failures: list = field(default_factory=list)    # "moves: result reason" of each line the winner did not win

    def lines(self) -> int:
        return sum(self.wins.values()) + self.unresolved + len(self.failures)


def changed_indices(new_values: np.ndarray, old_values: np.ndarray) -> np.ndarray:
    """The indices a rule decided: drawn by the old table, won or lost by the new one."""
    return np.flatnonzero((old_values == DRAW) & (new_values != DRAW) & (new_values != ILLEGAL))


def play_out(game, pos, new, old, max_plies: int = 60, max_lines: int = 200) -> Outcome:
    """Play ``pos`` out as the module says: ``new`` and ``old`` are the two ``Tablebases``."""
    verdict = new.probe(pos).kind
    if verdict not in ("win", "loss"):
        raise ValueError(f"{pos.fen()}: the new table says {verdict}, not a win or a loss")
    winner = pos.side if verdict == "win" else pos.side ^ 1
    won = "1-0" if winner == 0 else "0-1"
    outcome = Outcome()
    line: list[str] = []

    def walk():
        if outcome.lines() >= max_lines:
            return
        over = game.game_result(pos)
        if over is not None:
            result, reason = over
            if result == won:
                outcome.wins[reason] = outcome.wins.get(reason, 0) + 1
            else:
                outcome.failures.append(f"{' '.join(line)}: {result} {reason}")
            return
        if len(line) >= max_plies:
            outcome.unresolved += 1
            return
        if pos.side == winner:
            tries = [new.best_move(pos)]
        else:
            tries = [m for m in pos.legal_move_names() if _old_draw(pos, m, old)] or [new.best_move(pos)]
        for m in tries:
            pos.push(m)
            line.append(m)
            walk()
            line.pop()
            pos.pop()

    walk()
    return outcome


def _old_draw(pos, move: str, old) -> bool:
    pos.push(move)
    kind = old.probe(pos).kind
    pos.pop()
    return kind == "draw"


def sample(rng: np.random.Generator, indices: np.ndarray, count: int) -> np.ndarray:
    return indices if len(indices) <= count else np.sort(rng.choice(indices, count, replace=False))


class Recorded:
    """A stand-in for a ``Tablebases`` in :func:`play_out`: the kind of each position probed and its best move.
    Given ``tables`` it asks them and remembers the answers (``answers``, a dict of strings, for a JSON file);
    without, it answers from ``answers`` alone and raises KeyError for a position they do not hold -- a line
    the referee ended elsewhere than when they were recorded."""

    def __init__(self, tables=None, answers: dict | None = None):
        self.tables = tables
        self.answers = {} if answers is None else answers

    def _ask(self, what: str, pos, ask):
        key = f"{what} {' '.join(pos.fen().split()[:2])}"      # board and side: what the tables look at
        if key not in self.answers:
            if self.tables is None:
                raise KeyError(f"no recorded answer for {key}")
            self.answers[key] = ask(pos)
        return self.answers[key]

    def probe(self, pos) -> ProbeResult:
        return ProbeResult(self._ask("probe", pos, lambda p: self.tables.probe(p).kind))

    def best_move(self, pos):
        return self._ask("best", pos, lambda p: self.tables.best_move(p))
