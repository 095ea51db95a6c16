"""The search's tunable parameters (engine.search_params), the SearchParams option, and the SPSA tuner
(engine.tune.spsa): parsing, the engine actually searching with the values set, perturbation and update, and
the state file that carries a run across sittings."""
import json
import random

import pytest

from engine import search_params
from engine.search_params import DEFAULTS, INDEX, PARAMS, parse
from engine.tune import spsa


def test_parse_reads_names_and_checks_ranges():
    assert parse("") == {} and parse(" , ") == {}
    assert parse("futility_margin=150, LMP_BASE=4;RAZOR_MARGIN = 300") == {
        "FUTILITY_MARGIN": 150, "LMP_BASE": 4, "RAZOR_MARGIN": 300}
    for bad, said in (("NOPE=1", "unknown search parameter"), ("FUTILITY_MARGIN", "expected NAME=VALUE"),
                      ("FUTILITY_MARGIN=ten", "not an integer"), ("FUTILITY_MARGIN=99999", "outside"),
                      ("LMP_BASE=-1", "outside")):
        with pytest.raises(ValueError, match=said):
            parse(bad)
    values = {"HISTORY_LIMIT": 12000, "BONUS_CONSTANT": -100}
    assert parse(search_params.format_values(values)) == values
    a = search_params.array(values)
    assert a[INDEX["HISTORY_LIMIT"]] == 12000 and a[INDEX["LMP_BASE"]] == PARAMS[INDEX["LMP_BASE"]].default
    assert tuple(search_params.array()) == DEFAULTS


def test_the_search_reads_its_parameters_at_run_time():
    """The defaults search exactly as the compiled constants did (the same tree); other values, set without
    recompiling, search another tree; and the defaults again give the first tree back."""
    from engine.searcher import Searcher, search_once
    from engine.xiangqi.position import Position
    fen = "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 4 3"
    s = Searcher(16)
    first = search_once(Position(fen), depth=7, searcher=s).info.nodes
    s.new_game()
    s.set_params({"FUTILITY_MARGIN": 60, "LMP_BASE": 1, "LMR_DIVISOR": 120})
    other = search_once(Position(fen), depth=7, searcher=s).info.nodes
    s.new_game()
    s.set_params(None)
    again = search_once(Position(fen), depth=7, searcher=s).info.nodes
    assert first == again and other != first


def test_a_game_searches_with_its_own_defaults_and_a_set_value_overrides_them():
    """A game may keep its own default for a parameter (``Game.search_params``, each kept by an SPRT in that
    game): xiangqi extends singular moves only on lines not already extended, chess on every line; the same
    searcher switches with the game, and a value set by name (the SearchParams option, an SPRT's) wins over the
    game's and the shared default (pruning by exchange, on in both games)."""
    from engine.game import game_named
    from engine.searcher import Searcher, search_once
    chess, xiangqi = game_named("chess"), game_named("xiangqi")
    assert chess.search_params == {}
    assert xiangqi.search_params == {"SINGULAR_LINE_EXTENSION": 1}
    line, see = INDEX["SINGULAR_LINE_EXTENSION"], INDEX["SEE_PRUNE_DEPTH"]
    assert DEFAULTS[line] == 99 and DEFAULTS[see] == 8
    s = Searcher(16)
    for game, expected in ((chess, 99), (xiangqi, 1), (chess, 99)):
        search_once(game.position(), depth=2, searcher=s)
        assert s.params[line] == expected and s.params[INDEX["LMP_BASE"]] == DEFAULTS[INDEX["LMP_BASE"]]
    for game in (chess, xiangqi):
        nodes = []
        for values in ({"SEE_PRUNE_DEPTH": 0, "SINGULAR_LINE_EXTENSION": 99}, None):
            s.new_game()
            s.set_params(values)
            nodes.append(search_once(game.position(), depth=9, searcher=s).info.nodes)
            assert s.params[see] == (0 if values else 8)
            assert s.params[line] == (99 if values else game.search_params.get("SINGULAR_LINE_EXTENSION", 99))
        assert nodes[0] != nodes[1]


def test_the_option_sets_the_parameters_and_refuses_bad_ones():
    from engine.protocol.core import OPTIONS, CommandError
    option = OPTIONS["search_params"]
    assert option.parse("LMP_BASE=4", "SearchParams") == "LMP_BASE=4"
    assert option.parse("<empty>", "SearchParams") == ""
    with pytest.raises(CommandError, match="SearchParams: unknown search parameter"):
        option.parse("BOGUS=3", "SearchParams")


def test_perturbation_is_symmetric_and_clipped():
    state = spsa.State(iterations=100)
    assert "LMP_BASE" in state.names and "SINGULAR_DEPTH" not in state.names and "SEE_PRUNE_DEPTH" not in state.names
    delta, plus, minus = spsa.perturbed(state, 1, random.Random(5))
    c, _ = state.gains(1)
    for name, d, ci, p in zip(state.names, delta, c, state.params()):
        assert d in (-1, 1)
        assert plus[name] == min(p.hi, max(p.lo, round(p.default + ci * d)))
        assert minus[name] == min(p.hi, max(p.lo, round(p.default - ci * d)))
    # Gains shrink over the run; at the end c is each parameter's step.
    c_end, r_end = state.gains(100)
    assert all(abs(x - p.step) < 1e-9 for x, p in zip(c_end, state.params())) and abs(r_end - spsa.RATE) < 1e-12
    assert all(a > b for a, b in zip(c, c_end)) and state.gains(1)[1] > r_end


def test_update_moves_toward_the_side_that_scored():
    state = spsa.State(iterations=10, names=["FUTILITY_MARGIN", "LMP_BASE"])
    start = list(state.theta)
    spsa.update(state, 1, [1, -1], 2)                    # the + engine won both games
    assert state.theta[0] > start[0] and state.theta[1] < start[1] and state.k == 1
    state = spsa.State(iterations=10, names=["LMP_BASE"], theta=[0.0])
    spsa.update(state, 1, [-1], 2)
    assert state.theta == [PARAMS[INDEX["LMP_BASE"]].lo]   # clipped to the range


def test_state_round_trip_and_hostile_files(tmp_path):
    state = spsa.State(iterations=50, names=["RAZOR_MARGIN"], theta=[333.5], k=7, games=14, wins=5, draws=4,
                       losses=5, commit="abc1234", tc="2+0.02", game="xiangqi")
    path = tmp_path / "state.json"
    path.write_text(state.to_json())
    again = spsa.State.load(str(path))
    assert again == state and again.values() == {"RAZOR_MARGIN": 334}
    table = spsa.report(again)
    assert "| RAZOR_MARGIN | 350 | 334 |" in table and "option.SearchParams=RAZOR_MARGIN=334" in table
    good = json.loads(state.to_json())
    for change in ({"version": 99}, {"names": ["NOPE"]}, {"theta": ["x"]}, {"theta": [1.0, 2.0]},
                   {"k": 51}, {"iterations": "50"}, {"theta": [float("inf")]}):
        path.write_text(json.dumps({**good, **change}))
        with pytest.raises(ValueError):
            spsa.State.load(str(path))
    path.write_text("{not json")
    with pytest.raises(ValueError):
        spsa.State.load(str(path))


def test_the_reductions_at_the_default_divisor_are_the_table_they_replaced():
    """log d * log i / 1.95, rounded: computed per node and move now (the divisor is a parameter), the same
    number at every depth and move number the table covered."""
    import math
    from engine.alphabeta import LMR_SIZE, lmr_depth_factor, lmr_reduction
    for d in range(1, LMR_SIZE[0]):
        factor = lmr_depth_factor(d, 195)
        for i in range(1, LMR_SIZE[1]):
            assert lmr_reduction(factor, i) == int(0.5 + math.log(d) * math.log(i) / 1.95), (d, i)


def test_a_run_plays_its_iterations_with_the_engines_it_started_once(tmp_path, monkeypatch):
    """Every iteration is a match of its own, but the engines live through the run (an EnginePool): two engine
    starts for three iterations, not six.  The fake engines give up at their first move, so every game is Red's
    loss: each pair 1-1, and θ does not move."""
    import sys
    from pathlib import Path
    from types import SimpleNamespace
    from engine.game import XIANGQI
    from engine.match import runner
    started = []
    real_start = runner.start_engine
    monkeypatch.setattr(runner, "start_engine", lambda *a, **kw: started.append(a[0]) or real_start(*a, **kw))
    fake = [sys.executable, str(Path(__file__).parent / "fakes" / "fake_engine.py"), "--proto", "uci",
            "--fault", "resign", "--at", "0"]
    args = SimpleNamespace(game="xiangqi", state=str(tmp_path / "state.json"), iterations=3, stop_after=None,
                           pairs=1, tc="10+0", params="LMP_BASE", rate=spsa.RATE, openings=XIANGQI.openings,
                           engine=fake, hash=1, concurrency=1, cluster=None, seed=1)
    lines = []
    state = spsa.run(args, out=lines.append)
    assert (state.k, state.games, state.wins, state.draws, state.losses) == (3, 6, 3, 0, 3)
    assert state.theta == [float(PARAMS[INDEX["LMP_BASE"]].default)] and len(lines) == 3
    assert len(started) == 2


def test_ctrl_c_stops_the_run_and_keeps_the_state_of_the_last_whole_iteration(tmp_path, monkeypatch):
    """The match runner takes Ctrl-C itself (it kills the engines, drops the games in play and returns): the
    run must stop there too, not count the broken batch and go on with the next iteration."""
    from types import SimpleNamespace
    from engine.match import runner
    calls = []

    def fake_run(self):
        calls.append(1)
        res = runner.MatchResult(["plus", "minus"])
        res.pair = {(0, 1): runner.Tally(1, 0, 0) if len(calls) == 1 else runner.Tally()}
        res.interrupted = len(calls) == 2
        return res
    monkeypatch.setattr(runner.Match, "run", fake_run)
    args = SimpleNamespace(game="xiangqi", state=str(tmp_path / "state.json"), iterations=5, stop_after=None,
                           pairs=1, tc="10+0", params="LMP_BASE", rate=spsa.RATE, openings=None, engine=["true"],
                           hash=1, concurrency=1, cluster=None, seed=1)
    monkeypatch.setattr("engine.match.openings.load_openings", lambda *a: [None])
    with pytest.raises(KeyboardInterrupt):
        spsa.run(args, out=lambda line: None)
    state = spsa.State.load(args.state)
    assert len(calls) == 2 and (state.k, state.games, state.wins) == (1, 1, 1)


def test_sigterm_stops_a_background_run_with_its_engines(tmp_path):
    """``make spsa`` left running in the background (where SIGINT is ignored) is stopped by SIGTERM: the run
    ends with the state of its last whole iteration and a line saying so, and takes its engines with it (they
    live in sessions of their own and would otherwise run on)."""
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path
    marker = f"sigterm-test-{os.getpid()}"
    fake = f"{sys.executable} {Path(__file__).parent / 'fakes' / 'fake_engine.py'} --proto uci --fault resign " \
           f"--at 0 --name {marker}"
    state = tmp_path / "state.json"
    proc = subprocess.Popen([sys.executable, "-m", "engine.tune", "spsa", "--engine", fake, "--state", str(state),
                             "--iterations", "100000", "--tc", "10+0", "--params", "LMP_BASE", "--concurrency", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            cwd=Path(__file__).resolve().parents[1])

    def engines() -> list[int]:
        found = []
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                if marker.encode() in Path(f"/proc/{pid}/cmdline").read_bytes():
                    found.append(int(pid))
            except OSError:
                pass
        return found
    try:
        deadline = time.monotonic() + 60
        while not (state.exists() and spsa.State.load(str(state)).k >= 2) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert engines(), "the run's engines should be running"
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 130 and "interrupted: the state of the last whole iteration is in" in out, out
    k = spsa.State.load(str(state)).k
    assert k >= 2 and spsa.State.load(str(state)).games == 2 * k
    time.sleep(0.5)
    assert engines() == []
