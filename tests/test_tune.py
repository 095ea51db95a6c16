"""The evaluation tuner (issue 13): self-play positions are reproducible and what they claim to be; the fit
lowers the loss and writes a parameter module the evaluation can load."""
import runpy

import numpy as np

from engine.xiangqi.tuning import PLAIN_MATERIAL
from engine.tune.fit import build_dataset, fit, loss_of, params_of, plain_start
from engine.tune.params import write_params
from engine.tune.selfplay import MAX_QUIET_SCORE, Settings, generate, read_positions
from engine.xiangqi import evaluate as E
from engine.xiangqi.position import Position


def test_selfplay_positions_are_reproducible_and_quiet(tmp_path):
    s = Settings(games=3, nodes=300, seed=7)
    n = generate(str(tmp_path / "a.gz"), s, workers=1)
    assert n == generate(str(tmp_path / "b.gz"), s, workers=1)
    rows = list(read_positions(str(tmp_path / "a.gz")))
    assert rows == list(read_positions(str(tmp_path / "b.gz")))
    assert len(rows) == n > 30                       # three games of tens of moves each
    assert len({fen for fen, _, _ in rows}) > 0.9 * n
    for fen, points, score in rows:
        pos = Position(fen)
        assert not pos.in_check() and pos.legal_moves()
        assert points in (0.0, 0.5, 1.0) and abs(score) <= MAX_QUIET_SCORE
    generate(str(tmp_path / "c.gz"), Settings(games=3, nodes=300, seed=8), workers=1)
    assert list(read_positions(str(tmp_path / "c.gz")))[:5] != rows[:5]   # the seed decides the games


def test_fit_lowers_the_loss_and_writes_a_loadable_module(tmp_path):
    generate(str(tmp_path / "p.gz"), Settings(games=2, nodes=300, seed=3), workers=1)
    data = build_dataset(read_positions(str(tmp_path / "p.gz")))
    assert data.size > 50 and len(data.vals) > 20 * data.size
    w0 = plain_start()
    assert set(np.unique(w0)) == set(PLAIN_MATERIAL.values())          # material only, nothing else
    train, held_out = data.split(0.25)
    assert train.size + held_out.size == data.size and held_out.size == round(0.25 * data.size)
    assert len(train.vals) + len(held_out.vals) == len(data.vals)
    res = fit(train, w0, lam=0.5, iterations=60, lr=5.0)
    assert res.loss < 0.8 * res.loss_start and res.history[-1] == res.loss
    assert abs(loss_of(train, res.w, res.k, 0.5) - res.loss) < 1e-6
    assert 0 <= loss_of(held_out, res.w, res.k, 0.5) <= 1       # two games are too few to expect it lower
    assert 0.2 < res.k < 5
    path = tmp_path / "eval_params.py"
    write_params(path, params_of(res.w), {"source": "test_tune"})
    module = runpy.run_path(str(path))
    assert module["PROVENANCE"] == {"source": "test_tune"}
    params = module["PARAMS"]
    assert [(name, len(params[name])) for name, _ in E.LAYOUT] == list(E.LAYOUT)
    assert all(isinstance(v, int) for block in params.values() for v in block)


def test_ridge_pulls_each_table_to_its_mean_and_other_terms_to_their_start():
    from engine.tune.fit import ridge, table_groups
    rng = np.random.default_rng(5)
    w0 = plain_start()
    used = np.zeros(E.N_PARAMS, np.bool_)
    used[rng.choice(E.N_PARAMS, E.N_PARAMS // 2, replace=False)] = True
    w = w0 + rng.normal(0, 50, E.N_PARAMS)
    penalty, grad = ridge(w, w0, used, 1e-4)
    assert penalty > 0 and not grad[~used].any()
    # The gradient is the penalty's: compare with central differences on a few used entries.
    for i in rng.choice(np.flatnonzero(used), 20, replace=False):
        step = np.zeros(E.N_PARAMS)
        step[i] = 1e-3
        numeric = (ridge(w + step, w0, used, 1e-4)[0] - ridge(w - step, w0, used, 1e-4)[0]) / 2e-3
        assert abs(numeric - grad[i]) < 1e-9 + 1e-6 * abs(grad[i])
    # A table shifted as a whole costs nothing: the piece's value is free; any other term is pulled to its start.
    rook = E.OFFSET["rook_mg"]
    shifted = w0.copy()
    shifted[rook:rook + E.HALF_BOARD] += 300
    assert ridge(shifted, w0, used, 1e-4)[0] < 1e-9
    assert any(len(g) and g[0] >= rook and g[-1] < rook + E.HALF_BOARD for g in table_groups(used))
    tempo = E.OFFSET["tempo_mg"]
    used[tempo] = True
    moved = w0.copy()
    moved[tempo] += 100
    assert abs(ridge(moved, w0, used, 1e-4)[0] - 1e-4) < 1e-12          # l2 per (100 cp)^2


def test_a_strong_ridge_flattens_the_tables(tmp_path):
    generate(str(tmp_path / "p.gz"), Settings(games=2, nodes=300, seed=3), workers=1)
    data = build_dataset(read_positions(str(tmp_path / "p.gz")))
    loose = fit(data, plain_start(), iterations=60, lr=5.0)
    tight = fit(data, plain_start(), iterations=60, lr=5.0, l2=1.0)
    spread = lambda w: np.mean([np.std(w[E.OFFSET[f"{k}_mg"]:E.OFFSET[f"{k}_mg"] + E.HALF_BOARD])
                                for k in ("horse", "rook", "cannon", "pawn")])
    assert spread(tight.w) < 0.5 * spread(loose.w)
    assert tight.loss > loose.loss                  # the ridge costs fit on the training data


# -- chess (``--game chess``) ------------------------------------------------------------------------------------

def test_chess_rules_end_games_as_python_chess_does():
    import chess
    from engine.chess.position import Position as ChessPosition
    from engine.chess.rules import game_result
    pos, board = ChessPosition(), chess.Board()
    for ply, move in enumerate(["g1f3", "g8f6", "f3g1", "f6g8"] * 2 + ["e2e4"]):
        assert game_result(pos) is None
        pos.push(move)
        board.push_uci(move)
        if ply == 7:                                # the start position for the third time
            assert board.is_repetition(3) and game_result(pos) == ("1/2-1/2", "repetition")
            break
    clock = ChessPosition("8/8/4k3/8/8/4K3/8/R7 w - - 98 80")
    clock.push("a1a2")
    assert game_result(clock) is None
    clock.push("e6d6")
    assert chess.Board(clock.fen()).is_fifty_moves() and game_result(clock) == ("1/2-1/2", "50-move")
    mated = ChessPosition("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2")
    mated.push("d8h4")
    assert game_result(mated) == ("0-1", "checkmate")
    assert game_result(ChessPosition("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")) == ("1/2-1/2", "stalemate")
    assert game_result(ChessPosition("8/8/4k3/8/8/2B1K3/8/8 w - - 0 1")) == ("1/2-1/2", "insufficient material")
    # Mate on the hundredth quiet ply is mate.
    late = ChessPosition("7k/8/6K1/8/8/8/8/5Q2 w - - 99 80")
    late.push("f1f8")
    assert game_result(late) == ("1-0", "checkmate")


def test_chess_openings_are_short_balanced_and_distinct():
    import chess
    from engine.game import CHESS
    from engine.match.openings import load_openings
    fens = [o.fen for o in load_openings(CHESS.openings, "chess")]
    assert len(fens) == 200 and len({" ".join(f.split()[:4]) for f in fens}) == 200
    for fen in fens:
        board = chess.Board(fen)
        assert board.is_valid() and not board.is_game_over()
        plies = 2 * (board.fullmove_number - 1) + (board.turn == chess.BLACK)
        assert 4 <= plies <= 8


def test_chess_selfplay_positions_are_reproducible_and_quiet(tmp_path):
    import chess
    s = Settings(games=2, nodes=300, seed=7, game="chess")
    n = generate(str(tmp_path / "a.gz"), s, workers=1)
    assert n == generate(str(tmp_path / "b.gz"), s, workers=1)
    rows = list(read_positions(str(tmp_path / "a.gz")))
    assert rows == list(read_positions(str(tmp_path / "b.gz")))
    assert len(rows) == n > 30
    for fen, points, score in rows:
        board = chess.Board(fen)
        assert board.is_valid() and not board.is_check() and not board.is_game_over()
        assert points in (0.0, 0.5, 1.0) and abs(score) <= MAX_QUIET_SCORE


def test_chess_fit_lowers_the_loss_and_writes_a_loadable_module(tmp_path):
    from engine.chess import evaluate as CE
    from engine.chess.tuning import PLAIN_MATERIAL as PLAIN_MATERIAL_CHESS
    from engine.tune.fit import params_vector
    generate(str(tmp_path / "p.gz"), Settings(games=2, nodes=300, seed=3, game="chess"), workers=1)
    data = build_dataset(read_positions(str(tmp_path / "p.gz")), "chess")
    assert data.game == "chess" and data.size > 50 and len(data.vals) > 20 * data.size
    w0 = plain_start("chess")
    assert len(w0) == CE.N_PARAMS and set(np.unique(w0)) == set(PLAIN_MATERIAL_CHESS.values())
    assert w0[CE.OFFSET["queen_eg"] + 27] == 900 and w0[CE.OFFSET["tempo_mg"]] == 0
    train, held_out = data.split(0.25)
    assert train.game == held_out.game == "chess" and train.size + held_out.size == data.size
    res = fit(train, w0, lam=0.5, iterations=60, lr=5.0, l2=1e-5)
    assert res.loss < 0.8 * res.loss_start and res.history[-1] == res.loss
    assert abs(loss_of(train, res.w, res.k, 0.5) - res.loss) < 1e-6
    assert 0 <= loss_of(held_out, res.w, res.k, 0.5) <= 1
    path = tmp_path / "eval_params.py"
    write_params(path, params_of(res.w, "chess"), {"source": "test_tune"}, game="chess")
    module = runpy.run_path(str(path))
    assert module["PROVENANCE"] == {"source": "test_tune"}
    params = module["PARAMS"]
    assert [(name, len(params[name])) for name, _ in CE.LAYOUT] == list(CE.LAYOUT)
    assert np.allclose(params_vector(path, "chess"), np.round(res.w))


def test_compare_reads_older_parameter_modules_and_refuses_bad_ones_before_fitting(tmp_path):
    """``fit --compare`` takes a module written before some terms existed (they count as zeros: the evaluation
    without them, and the report says which); a module with a block the evaluation has not, a block of another
    size, or no PARAMS at all is one error line -- before the fit, not after minutes of it."""
    import pytest
    from click.testing import CliRunner
    from engine.tune.__main__ import main as tune_main
    from engine.tune.fit import params_vector
    params = params_of(E.W.astype(float), "xiangqi")
    dropped = E.LAYOUT[-3][0]
    older = tmp_path / "older.py"
    write_params(older, {k: v for k, v in params.items() if k != dropped}, {"source": "test"}, game="xiangqi")
    filled = []
    w = params_vector(older, "xiangqi", filled)
    at, size = E.OFFSET[dropped], dict(E.LAYOUT)[dropped]
    assert filled == [dropped] and not w[at:at + size].any()
    assert np.array_equal(np.delete(w, range(at, at + size)), np.delete(E.W, range(at, at + size)))
    bad = {"extra.py": {**params, "no_such_term": [1]}, "long.py": {**params, dropped: [1] * (size + 1)}}
    for name, blocks in bad.items():
        write_params(tmp_path / name, blocks, {"source": "test"}, game="xiangqi")
    (tmp_path / "garbage.py").write_text("PARAMS = 7\n")
    for name, said in (("extra.py", "blocks the xiangqi evaluation has not: no_such_term"),
                       ("long.py", f"blocks of the wrong size: {dropped} \\({size + 1}, expected {size}\\)"),
                       ("garbage.py", "not a parameter module")):
        with pytest.raises(ValueError, match=said):
            params_vector(tmp_path / name, "xiangqi")
        r = CliRunner().invoke(tune_main, ["fit", "--data", str(tmp_path / "missing.gz"), "--out",
                                           str(tmp_path / "out.py"), "--compare", str(tmp_path / name)])
        assert r.exit_code == 2 and said.split(":")[0] in r.output and "Traceback" not in r.output, r.output
