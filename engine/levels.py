"""Playing levels (issue 30): one mechanism for both games and every front end.

A weaker level plays the way weaker players play, not by random blunders:

* it **searches less**: a node budget and a depth limit that grow with the skill (``node_cap``, ``depth_cap``);
  the first iteration always completes, whatever the budget (``Limits.floor_depth``), so every level sees the
  replies to its own moves one ply deep;
* it **chooses among the best lines**: the search reports ``lines`` of them (MultiPV) and the move is drawn with
  a chance that falls off with each line's score below the best, ``exp(-(best - score) / temperature)``
  (``choose``); the temperature grows as the skill falls, so a strong level nearly always plays its best move and
  a weak one often plays its second or third;
* it may **know less** (UCCI's ``knowledge``): no endgame tables, no opening book.

What never changes: a line that mates is played (a mate in one is never missed: the first iteration sees it); a
line in which the engine is mated is never chosen when another is not; the move is one the search returned, so
it is legal; and the search stops at its budget, so a level never stalls.  Analysis (``go infinite``) is always
at full strength.

The options of every protocol come down to one ``Level`` (``from_options``):

* UCI ``Skill Level`` 0-20, or ``UCI_LimitStrength`` with ``UCI_Elo`` (mapped onto a skill by ``ELO_OF_SKILL``);
* UCCI ``pruning`` (how much of the tree the engine may cut to look deeper: none/small/medium/large), ``knowledge``
  (none/small/medium/large) and ``randomness`` (none/tiny/small/medium/large/huge), ElephantEye's grades;
* xboard ``option Skill Level=N``; ``shuai play --level N``.

Full strength (skill 20, no randomness, full knowledge) is ``None``: the search path is exactly the one of
``shuai bench``.  The random choice uses the searcher's generator (``new_rng``): seeded from the operating system,
or from ``SHUAI_SEED`` (tests, reproducible matches).
"""
from __future__ import annotations

import math
import os
import random
from dataclasses import dataclass, replace
from typing import Optional, Sequence

MAX_SKILL = 20                  # full strength

# The search of a skill below MAX_SKILL: a node budget growing by NODE_GROWTH a level from NODES_AT_SKILL_0
# (skill 0: 1,024 nodes, 5: 3,000, 10: 8,800, 15: 25,800, 19: 61,000 -- at 10 s + 0.1 s full strength searches
# some 100,000-300,000 nodes a move on a 2-core machine), and a depth limit of 1 + skill / 2 plies (skill 0: 1,
# 10: 6, 19: 10).  The search compares its node count with the budget every 1,024 nodes
# (alphabeta.NODE_CHECK_MASK), so smaller budgets would mean nothing: below skill 8 the depth limit rules.
NODES_AT_SKILL_0 = 1024
NODE_GROWTH = 1.24
# The choice among lines: the temperature (centipawns) is TEMPERATURE_AT_0 * (1 - skill / 20) ** 2 + TEMPERATURE_MIN
# (skill 19: 6 cp, 15: 21, 10: 68, 5: 146, 0: 255): a line 100 cp below the best is chosen e^-1.5 = 22% as often
# as the best at skill 10, 0.8% as often at skill 15.
TEMPERATURE_AT_0 = 250.0
TEMPERATURE_MIN = 5.0
LINES = 4                       # lines to choose from; one more for every LINES_STEP levels below 20
LINES_STEP = 7                  # (skill 14-19: 4 lines, 7-13: 5, 0-6: 6)

# UCCI's grades (the spec's four; ElephantEye's randomness has six).
GRADES = ("none", "small", "medium", "large")
RANDOMNESS = ("none", "tiny", "small", "medium", "large", "huge")
# pruning and knowledge: the skill of the search each grade allows.
SKILL_OF_GRADE = {"large": MAX_SKILL, "medium": 15, "small": 10, "none": 5}
# randomness: a temperature (cp) for the choice among LINES lines, at any skill.
TEMPERATURE_OF_RANDOMNESS = {"none": 0.0, "tiny": 5.0, "small": 10.0, "medium": 20.0, "large": 40.0,
                             "huge": 80.0}

# UCI_Elo -> skill.  The Elo of each skill on Stockfish's UCI_Elo scale at 10 s + 0.1 s (chess), measured by
# scripts/calibrate_levels.py (Shuai at a skill against Stockfish 15.1 at a UCI_Elo; the README's table): skill 8
# 1253 (20 games), 10 1309 (40), 12 1500 (20), 14 1901, 16 1877, 18 1883 (20 each), 20 2026 (40).  Fitted:
# the points made monotone (14-18 pooled: 1887, the three within each other's error), a line through that block
# (15 Elo a skill, so that no two skills share an Elo), straight lines between the rest, full strength rounded
# down to 2000.  Skills below CALIBRATED_FROM were not measurable (skill 6 lost 20 of 20 to Stockfish's lowest
# setting, 1350): their entries continue the slope below skill 8 and are not offered.  The range of UCI_Elo
# is the calibrated part of the table, so the engine promises no strength it has not shown.
CALIBRATED_FROM = 8
ELO_OF_SKILL = (930, 970, 1010, 1050, 1090, 1130, 1170, 1210,           # 0-7: extrapolated, not offered
                1250, 1280, 1310, 1405, 1500, 1680, 1860, 1875, 1890, 1905, 1920, 1960, 2000)
ELO_MIN, ELO_MAX = ELO_OF_SKILL[CALIBRATED_FROM], ELO_OF_SKILL[-1]

SEED_VARIABLE = "SHUAI_SEED"    # an integer: the random choices of every search are reproducible

assert len(ELO_OF_SKILL) == MAX_SKILL + 1 and list(ELO_OF_SKILL) == sorted(set(ELO_OF_SKILL))


def node_cap(skill: int) -> Optional[int]:
    """The node budget of a search at ``skill`` (None: no cap, full strength)."""
    return None if skill >= MAX_SKILL else round(NODES_AT_SKILL_0 * NODE_GROWTH ** skill)


def depth_cap(skill: int) -> Optional[int]:
    """The depth limit of a search at ``skill`` (None: none)."""
    return None if skill >= MAX_SKILL else 1 + skill // 2


def temperature_of(skill: int) -> float:
    """The choice's temperature (centipawns) at ``skill``: 0 at full strength."""
    if skill >= MAX_SKILL:
        return 0.0
    return TEMPERATURE_AT_0 * (1 - skill / MAX_SKILL) ** 2 + TEMPERATURE_MIN


def lines_of(skill: int) -> int:
    return LINES + (MAX_SKILL - skill) // LINES_STEP


def skill_of_elo(elo: int) -> int:
    """The strongest skill whose Elo (``ELO_OF_SKILL``) is at most ``elo`` (0 below the table)."""
    return max([s for s, e in enumerate(ELO_OF_SKILL) if e <= elo], default=0)


def _tighter(cap: Optional[int], asked: Optional[int]) -> Optional[int]:
    """The smaller of a level's cap and the limit asked for (None: no limit)."""
    if cap is None or not asked:
        return asked or cap
    return min(cap, asked)


@dataclass(frozen=True)
class Level:
    """What a level changes; the default is full strength."""
    skill: int = MAX_SKILL          # the search's size (node_cap, depth_cap)
    temperature: float = 0.0        # the choice among lines (centipawns; 0: always the best)
    lines: int = 1                  # how many lines the search reports to choose from
    tables: bool = True             # the endgame tables may be used
    book: bool = True               # the opening book may be used

    @classmethod
    def of(cls, skill: int, temperature: float = 0.0, tables: bool = True, book: bool = True) -> "Level":
        """The level of ``skill`` (its search and its choice), with at least ``temperature``."""
        skill = max(0, min(MAX_SKILL, int(skill)))
        temperature = max(temperature_of(skill), temperature)
        lines = lines_of(skill) if temperature > 0 else 1
        return cls(skill, temperature, lines, tables, book)

    @property
    def full(self) -> bool:
        """Does this level change nothing?"""
        return self == Level()

    def restrict(self, limits):
        """``limits`` (a ``searcher.Limits``) within this level: the smaller depth and node budget, at least
        ``lines`` lines, and the first iteration completed whatever the budget."""
        depth = _tighter(depth_cap(self.skill), limits.depth)
        nodes = _tighter(node_cap(self.skill), limits.nodes)
        return replace(limits, depth=depth, nodes=nodes, multipv=max(limits.multipv, self.lines), floor_depth=1)


def from_options(skill: int = MAX_SKILL, limit_strength: bool = False, elo: int = ELO_MAX,
                 pruning: str = "large", knowledge: str = "large", randomness: str = "none") -> Optional[Level]:
    """The level the protocols' options ask for (``core.OPTIONS``: UCI's, UCCI's and xboard's together; each
    protocol sets only its own, the others keep their full-strength defaults); None at full strength.  UCI:
    ``UCI_LimitStrength`` makes ``UCI_Elo`` decide instead of ``Skill Level``.  UCCI: the weaker of ``pruning``'s
    and ``knowledge``'s skills, at least ``randomness``'s temperature; knowledge below large drops the endgame
    tables, below medium the book too."""
    if limit_strength:
        skill = skill_of_elo(elo)
    skill = min(skill, SKILL_OF_GRADE[pruning], SKILL_OF_GRADE[knowledge])
    grade = GRADES.index(knowledge)
    level = Level.of(skill, TEMPERATURE_OF_RANDOMNESS[randomness], tables=grade >= GRADES.index("large"),
                     book=grade >= GRADES.index("medium"))
    return None if level.full else level


def choose(lines: Sequence, temperature: float, rng: random.Random) -> int:
    """The index of the line to play among ``lines`` (each with ``score`` and ``mate``, best first, as the search
    reports them).  A mate for us is played at once; lines in which we are mated are left out while another is
    not; the others are drawn with weight ``exp((score - best) / temperature)``."""
    if not lines or temperature <= 0 or lines[0].mate is not None and lines[0].mate > 0:
        return 0
    candidates = [i for i, line in enumerate(lines) if line.mate is None or line.mate > 0] or [0]
    best = max(lines[i].score for i in candidates)
    return candidates[draw([math.exp((lines[i].score - best) / temperature) for i in candidates], rng)]


def draw(weights: Sequence[float], rng: random.Random) -> int:
    """An index of ``weights`` (positive), drawn with chances in proportion to them."""
    left = rng.random() * sum(weights)
    for i, weight in enumerate(weights):
        left -= weight
        if left < 0:
            return i
    return len(weights) - 1


def new_rng(seed: Optional[int] = None) -> random.Random:
    """The generator of the random choices: ``seed``, else ``SHUAI_SEED`` from the environment, else the
    operating system's entropy (every engine process plays its own games)."""
    if seed is None:
        text = os.environ.get(SEED_VARIABLE, "").strip()
        seed = int(text) if text.lstrip("-").isdigit() else None
    return random.Random(seed)
