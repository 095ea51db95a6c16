"""Playing levels (issue 30, engine/levels.py): one mechanism under UCI's Skill Level / UCI_Elo, UCCI's pruning,
knowledge and randomness, xboard's Skill Level and ``shuai play --level``.  Small node budgets and fixed seeds:
fast and deterministic."""
import os
import random
import re
from types import SimpleNamespace

import pytest

from engine import levels
from engine.levels import ELO_MAX, ELO_MIN, MAX_SKILL, Level, choose, from_options
from engine.protocol import ucci, uci, xboard
from engine.protocol.core import OPTIONS

from test_protocol import EngineProcess, REPLY_TIMEOUT, SEARCH_TIMEOUT, started

XIANGQI_MATE_IN_ONE = ("4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1", "b0b9")
CHESS_MATE_IN_ONE = ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8")


def line(score, mate=None, pv=("a0a1",)):
    return SimpleNamespace(score=score, mate=mate, pv=list(pv))


# -- the mechanism, without a search ------------------------------------------------------------------------------

def test_full_strength_is_no_level_at_all():
    defaults = {key: OPTIONS[key].default for key in ("skill", "limit_strength", "elo", "pruning", "knowledge",
                                                      "randomness")}
    assert from_options(**defaults) is None
    assert from_options(skill=MAX_SKILL) is None
    assert from_options(limit_strength=False, elo=ELO_MIN) is None        # UCI_Elo counts only when limited
    assert from_options(limit_strength=True, elo=ELO_MAX) is None         # the table's top is full strength
    assert Level.of(MAX_SKILL).full and Level().full


def test_the_options_come_down_to_one_level():
    assert from_options(skill=10) == Level.of(10)
    assert from_options(limit_strength=True, elo=ELO_MIN) == Level.of(levels.CALIBRATED_FROM)   # the lowest offered
    assert from_options(limit_strength=True, elo=1500) == Level.of(12)              # measured: 50% against 1500
    assert from_options(limit_strength=True, elo=levels.ELO_OF_SKILL[13] + 1) == Level.of(13)
    assert from_options(skill=3, limit_strength=True, elo=ELO_MAX) is None     # UCI_Elo decides when limited
    assert from_options(pruning="none").skill == levels.SKILL_OF_GRADE["none"]
    small = from_options(knowledge="small")
    assert (small.skill, small.tables, small.book) == (levels.SKILL_OF_GRADE["small"], False, False)
    medium = from_options(knowledge="medium")
    assert not medium.tables and medium.book
    noisy = from_options(randomness="huge")
    assert noisy.skill == MAX_SKILL and noisy.temperature == 80 and noisy.lines == levels.LINES
    assert from_options(skill=18, randomness="huge").temperature == 80     # the larger of the two


def test_weaker_levels_search_less_and_choose_more_widely():
    caps = [(levels.node_cap(s), levels.depth_cap(s), levels.temperature_of(s), levels.lines_of(s))
            for s in range(MAX_SKILL)]
    assert all(a[0] < b[0] and a[1] <= b[1] and a[2] > b[2] and a[3] >= b[3] for a, b in zip(caps, caps[1:]))
    assert levels.node_cap(MAX_SKILL) is None and levels.temperature_of(MAX_SKILL) == 0
    assert levels.depth_cap(0) == 1


def test_choose_plays_a_mate_avoids_being_mated_and_prefers_the_better_lines():
    rng = random.Random(1)
    assert all(choose([line(30000, mate=3), line(500), line(490)], 1000, rng) == 0 for _ in range(50))
    assert all(choose([line(10), line(-30000, mate=-2)], 1000, rng) == 0 for _ in range(50))
    assert choose([line(10), line(9)], 0, rng) == 0                        # full strength: the best
    picks = [choose([line(50), line(40), line(-300)], 30, rng) for _ in range(2000)]
    assert 0.5 < picks.count(0) / 2000 < 0.75 and picks.count(2) < 20    # exp(-10/30) = 0.72: about 58% / 42%


def test_the_options_are_advertised_in_every_protocol():
    assert uci.option_line("Skill Level") == "option name Skill Level type spin default 20 min 0 max 20"
    assert uci.option_line("UCI_Elo") == f"option name UCI_Elo type spin default {ELO_MAX} min {ELO_MIN} max {ELO_MAX}"
    assert uci.option_line("UCI_LimitStrength") == "option name UCI_LimitStrength type check default false"
    assert ucci.option_line("pruning") == "option pruning type combo var none var small var medium var large default large"
    assert ucci.option_line("knowledge") == \
        "option knowledge type combo var none var small var medium var large default large"
    assert ucci.option_line("randomness") == \
        "option randomness type combo var none var tiny var small var medium var large var huge default none"
    assert xboard.option_feature("Skill Level", 20) == 'feature option="Skill Level -spin 20 0 20"'


# -- searches -------------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def searchers():
    from engine.searcher import QUICK_HASH_MB, Searcher
    return [Searcher(QUICK_HASH_MB), Searcher(QUICK_HASH_MB)]


def search(searcher, fen, game, **limits):
    from engine.searcher import Limits, search_once
    return search_once(game.position(fen), searcher=searcher, limits=Limits(**limits))


@pytest.mark.parametrize("game_name, fen, mate", [("xiangqi", *XIANGQI_MATE_IN_ONE), ("chess", *CHESS_MATE_IN_ONE)])
def test_every_level_takes_a_mate_in_one(searchers, game_name, fen, mate):
    from engine.game import game_named
    s = searchers[0]
    for skill in (0, 3, 10):
        for seed in range(4):
            s.seed(seed)
            result = search(s, fen, game_named(game_name), movetime=5, level=Level.of(skill))
            assert result.best == mate, (skill, seed)
    s.seed(5)
    assert search(s, fen, game_named(game_name), movetime=5, level=Level.of(20, 500)).best == mate


def test_full_strength_is_the_search_of_bench(searchers):
    """Skill 20 (and UCI_LimitStrength off) runs exactly the full-strength search: the same move, score and
    node count as a search with no level at all, from a fresh table."""
    from engine.game import XIANGQI
    from engine.xiangqi.bench import FENS
    s = searchers[0]
    results = []
    for level in (None, Level.of(MAX_SKILL), from_options(skill=MAX_SKILL, limit_strength=False, elo=ELO_MIN)):
        s.new_game()
        r = search(s, FENS[3], XIANGQI, depth=6, level=level)
        results.append((r.best, r.info.score, r.info.nodes, r.info.pv))
    assert results[0] == results[1] == results[2]


def test_a_weak_level_searches_little_but_always_completes_its_first_iteration(searchers):
    from engine.game import XIANGQI
    s = searchers[0]
    s.seed(0)
    r = search(s, XIANGQI.start_fen, XIANGQI, nodes=1, level=Level.of(0))
    assert r.info.depth == 1 and len(r.lines) == levels.lines_of(0)
    assert r.best in XIANGQI.position().legal_move_names()
    r = search(s, XIANGQI.start_fen, XIANGQI, movetime=10, level=Level.of(10))
    assert r.info.depth <= levels.depth_cap(10) and r.info.nodes <= levels.node_cap(10) + 2048


def test_two_level_10_engines_vary_their_games(searchers):
    """20 games of 8 plies between two level-10 engines (tiny node budgets), each pair with its own seeds: at
    least 15 different positions after 8 plies."""
    from engine.game import XIANGQI
    from engine.searcher import Limits, search_once
    ends = set()
    for game in range(20):
        for i, s in enumerate(searchers):
            s.seed(2 * game + i)
            s.new_game()
        pos = XIANGQI.position()
        for ply in range(8):
            s = searchers[ply % 2]
            pos.push(search_once(pos, searcher=s, limits=Limits(nodes=1500, level=Level.of(10))).best)
        ends.add(pos.fen())
    assert len(ends) >= 15, len(ends)


def test_the_same_seed_plays_the_same_moves(searchers):
    from engine.game import XIANGQI
    s = searchers[0]
    moves = []
    for _ in range(2):
        s.seed(7)
        s.new_game()
        moves.append([search(s, XIANGQI.start_fen, XIANGQI, nodes=1500, level=Level.of(5)).best for _ in range(6)])
    assert moves[0] == moves[1]


# -- through the protocols ----------------------------------------------------------------------------------------

def max_depth(lines):
    return max(int(m.group(1)) for m in (re.match(r"info depth (\d+)", ln) for ln in lines) if m)


def test_ucci_pruning_and_randomness_change_the_play():
    engine = started(EngineProcess(env=dict(os.environ, SHUAI_SEED="3")), "ucci")
    try:
        engine.send("position startpos")
        engine.send("go depth 6")
        _, full = engine.bestmove(SEARCH_TIMEOUT)
        assert max_depth(full) == 6
        engine.send("setoption pruning none")             # skill 5: the search stops at depth 3
        engine.send("setoption randomness huge")
        engine.send("go depth 6")
        _, weak = engine.bestmove(SEARCH_TIMEOUT)
        assert max_depth(weak) == levels.depth_cap(levels.SKILL_OF_GRADE["none"])
        replies = set()
        for _ in range(8):
            engine.send("go depth 6")
            _, lines = engine.bestmove(SEARCH_TIMEOUT)
            replies.add(lines[-1].split()[1])
        assert len(replies) >= 2                          # the same position, different moves
        engine.send("setoption pruning medium")
        engine.send("setoption pruning huge")              # not a grade: one error line, nothing changed
        _, lines = engine.read_until(lambda ln: ln.startswith("info string error"), REPLY_TIMEOUT)
        assert "pruning must be one of none, small, medium, large" in lines[-1]
    finally:
        engine.close()


def test_uci_skill_level_and_uci_elo():
    engine = started(EngineProcess(env=dict(os.environ, SHUAI_SEED="1")), "uci")
    try:
        engine.send("setoption name Skill Level value 0")
        engine.send("position startpos")
        engine.send("go depth 5")
        _, lines = engine.bestmove(SEARCH_TIMEOUT)
        assert max_depth(lines) == 1 and "multipv 6" in " ".join(lines)
        engine.send("setoption name Skill Level value 21")
        _, lines = engine.read_until(lambda ln: ln.startswith("info string error"), REPLY_TIMEOUT)
        assert "out of range (0..20)" in lines[-1]
        engine.send("setoption name UCI_LimitStrength value true")
        engine.send(f"setoption name UCI_Elo value {ELO_MAX}")        # the table's top: full strength
        engine.send("go depth 4")
        _, lines = engine.bestmove(SEARCH_TIMEOUT)
        assert max_depth(lines) == 4 and "multipv 2" not in " ".join(lines)
    finally:
        engine.close()
