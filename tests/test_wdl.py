"""Win/draw/loss chances (``engine.wdl``, ``UCI_ShowWDL``): the fitted models' arithmetic for both games, the
fit on a small made-up sample, and the numbers as the engine process and the terminal game's hint show them."""
import json
import re

import numpy as np
import pytest

from engine.game import GAMES, XIANGQI
from engine.scores import MATE_SCORE, RULE_WIN_SCORE
from engine.wdl import WdlModel, position_wdl

from test_play import run_session, thinker_factory  # noqa: F401 (a fixture)
from test_protocol import LOAD_TIMEOUT, SEARCH_TIMEOUT, EngineProcess

SCORES = range(-3000, 3001, 7)
PLIES = (0, 1, 10, 39, 80, 150, 400, 5000)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_per_mille_sums_to_1000_rises_with_the_score_and_is_symmetric(game):
    model = game.wdl()
    for ply in PLIES:
        triples = [model.wdl(s, ply) for s in SCORES]
        assert all(sum(t) == 1000 and min(t) >= 0 for t in triples)
        wins, losses = [t[0] for t in triples], [t[2] for t in triples]
        assert wins == sorted(wins) and losses == sorted(losses, reverse=True)
        assert wins[0] == 0 and losses[-1] == 0 and wins[-1] > 990 and losses[0] > 990        # +-30 pawns
        assert model.wdl(20000, ply) == (1000, 0, 0)                    # beyond every evaluation
        for s in SCORES:
            assert model.wdl(-s, ply) == model.wdl(s, ply)[::-1]
        w, d, l = model.wdl(0, ply)
        assert w == l and d > 0                     # an even score: as many wins as losses, and some draws


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_mates_and_rule_wins_are_certain(game):
    model = game.wdl()
    for ply in PLIES:
        assert model.wdl(MATE_SCORE - 1, ply) == (1000, 0, 0)          # mate in 1 for the side to move
        assert model.wdl(MATE_SCORE - 400, ply) == (1000, 0, 0)
        assert model.wdl(-MATE_SCORE, ply) == (0, 0, 1000)             # mated
        assert model.wdl(-(MATE_SCORE - 2), ply) == (0, 0, 1000)
        assert model.wdl(RULE_WIN_SCORE, ply) == (1000, 0, 0)          # perpetual check by the opponent


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_the_fitted_model_means_what_it_says(game):
    """``a`` is the score at which a win is 50% likely, the draw takes the rest; the values come from the
    tuner's command, with their provenance."""
    model = game.wdl()
    provenance = json.loads(game.package_file("wdl.json").read_text())["provenance"]
    assert provenance["command"].startswith("python -m engine.tune wdl")
    for ply in PLIES:
        a = model.even_score(ply)
        assert 0 < a < 2000                         # the fit's range (engine.tune.wdl.A_RANGE)
        assert abs(model.chances(a, ply)[0] - 0.5) < 1e-12
    win, loss = model.chances(np.array([100.0, 100.0]), np.array([20, 60]))
    assert win.shape == (2,) and np.all((win > 0) & (win < 1) & (loss > 0) & (win + loss < 1))


def test_position_wdl_reads_the_game_and_ply_of_the_position():
    pos = XIANGQI.position()
    assert pos.game_ply == 0
    pos.push("h2e2")
    pos.push("h9g7")
    assert pos.game_ply == 2 and pos.fullmove_number() == 2
    assert position_wdl(pos, 50) == XIANGQI.wdl().wdl(50, 2)
    later = XIANGQI.position("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 21")
    assert later.game_ply == 41


def test_the_fit_recovers_a_known_model():
    """Results drawn from a known model are fitted back to it (engine.tune.wdl; golden-section sweeps)."""
    from engine.tune.wdl import Outcomes, fit_wdl, log_loss
    true = WdlModel(100, (150.0, 100.0, 60.0), (90.0, 80.0, 70.0))
    rng = np.random.default_rng(7)
    n = 20000
    ply = rng.integers(0, 110, n).astype(float)
    score = rng.normal(0, 250, n)
    win, loss = true.chances(score, ply)
    u = rng.random(n)
    result = np.where(u < win, 1.0, np.where(u < win + loss, 0.0, 0.5))
    data = Outcomes(ply, score, result)
    model, sweeps = fit_wdl(data)
    assert model.ply_cap == 110                     # the ply 95% of positions have not passed, rounded up
    assert log_loss(model, data) <= log_loss(true, data)
    for ply in (0, 50, 100):
        assert abs(model.even_score(ply) - true.even_score(ply)) < 25
        assert abs(float(model.shape(ply)[1]) - float(true.shape(ply)[1])) < 25


WDL_INFO = re.compile(r"info depth \d+ .*score (?:cp -?\d+|mate -?\d+) wdl (\d+) (\d+) (\d+) nodes ")


@pytest.mark.parametrize("variant, fen", [
    ("xiangqi", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"),
    ("chess", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
])
def test_uci_show_wdl_through_the_engine_process(variant, fen):
    """``setoption name UCI_ShowWDL value true``: every info line with a score carries ``wdl W D L`` (MultiPV
    lines too), the model's numbers for the line's score; without the option none does."""
    engine = EngineProcess()
    try:
        lines = engine.handshake("uci")
        assert "option name UCI_ShowWDL type check default false" in lines
        engine.send(f"setoption name UCI_Variant value {variant}")
        engine.send(f"position fen {fen}")
        engine.ready()
        engine.send("go depth 3")
        _, lines = engine.bestmove(SEARCH_TIMEOUT)
        scored = [ln for ln in lines if " score " in ln]
        assert scored and not any(" wdl " in ln for ln in lines)
        engine.send("setoption name UCI_ShowWDL value true")
        engine.send("setoption name MultiPV value 2")
        engine.send("go depth 3")
        _, lines = engine.bestmove(SEARCH_TIMEOUT)
        scored = [ln for ln in lines if " score " in ln]
        assert len(scored) >= 6 and {re.search(r"multipv (\d+)", ln).group(1) for ln in scored} == {"1", "2"}
        game = next(g for g in GAMES if g.name == variant)
        ply = game.position(fen).game_ply
        for ln in scored:
            m = WDL_INFO.match(ln)
            assert m, f"no wdl in {ln!r}"
            triple = tuple(int(x) for x in m.groups())
            assert sum(triple) == 1000
            cp = re.search(r"score cp (-?\d+)", ln)
            if cp:
                assert triple == game.wdl().wdl(int(cp.group(1)), ply)
        engine.send("setoption name UCI_ShowWDL value false")
        engine.send("go depth 2")
        _, lines = engine.bestmove(SEARCH_TIMEOUT)
        assert not any(" wdl " in ln for ln in lines)
        engine.send("quit")
        assert engine.proc.wait(LOAD_TIMEOUT) == 0
    finally:
        engine.close()


def test_uci_info_lines_carry_the_wdl_after_the_score():
    from engine.protocol import uci
    from engine.searcher import SearchInfo
    from test_protocol import _dialect
    pos = XIANGQI.position("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 30")
    d = _dialect(uci.UciDialect, position=lambda: pos)
    d.core.values["show_wdl"] = True
    w, dr, l = XIANGQI.wdl().wdl(-42, 58)
    info = SearchInfo(6, 9, -42, None, 12345, 0.5, ["h2e2", "h9g7"], hashfull=17, tbhits=3, multipv=2)
    assert d.format_info(info) == [f"info depth 6 seldepth 9 multipv 2 score cp -42 wdl {w} {dr} {l} nodes 12345 "
                                   "nps 24690 hashfull 17 tbhits 3 time 500 pv h2e2 h9g7"]
    assert " score mate 3 wdl 1000 0 0 nodes " in d.format_info(SearchInfo(9, 9, MATE_SCORE - 5, 3, 10, 0.1))[0]
    assert " score mate -2 wdl 0 0 1000 nodes " in d.format_info(SearchInfo(9, 9, 4 - MATE_SCORE, -2, 10, 0.1))[0]


def test_ucci_has_no_wdl_option():
    """UCCI has no such field: the option is UCI's only."""
    from engine.protocol import ucci
    assert "show_wdl" not in ucci.NAMES.values()


def test_the_play_hint_shows_the_same_numbers(thinker_factory):
    """``shuai play``'s hint: the move, its score and the win/draw/loss chances UCI_ShowWDL would report."""
    fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"
    session, out = run_session(thinker_factory, ["hint", "quit"], side=1, fen=fen)
    m = re.search(r"Hint: .*eval ([+-]\d+\.\d\d) for you, W/D/L (\d+\.\d)/(\d+\.\d)/(\d+\.\d)%", out)
    assert m, out[-500:]
    cp = round(float(m.group(1)) * 100)
    per_mille = tuple(round(float(x) * 10) for x in m.groups()[1:])
    assert sum(per_mille) == 1000 and per_mille == position_wdl(XIANGQI.position(fen), cp)


def test_a_model_file_is_written_and_read_back_and_a_bad_one_refused(tmp_path):
    """``engine.tune.wdl.write_model`` writes what ``WdlModel.from_file`` reads; a file that is not a model (not
    JSON, a field missing, two values instead of three, a ply cap of 0) is one ValueError naming the file."""
    from engine.tune.wdl import write_model
    model = WdlModel(200, (100.0, 300.0, 900.0), (150.0, 140.0, 220.0))
    path = tmp_path / "wdl.json"
    write_model(path, model, {"command": "test"}, "xiangqi")
    assert WdlModel.from_file(path) == model
    for text in ("not json", '{"ply_cap": 200, "a": [1, 2, 3]}', '{"ply_cap": 200, "a": [1, 2], "b": [1, 2, 3]}',
                 '{"ply_cap": 0, "a": [1, 2, 3], "b": [1, 2, 3]}', "[]"):
        path.write_text(text)
        with pytest.raises(ValueError, match="wdl.json: not a win/draw/loss model"):
            WdlModel.from_file(path)
