"""The evaluation network (engine.nnue): the compiled arithmetic equals the numpy reference, the file is checked
whole, the search evaluates with it, and the options load it or say why not."""
import struct
import zlib

import numpy as np
import pytest

from engine.game import CHESS, XIANGQI
from engine.move import move_from
from engine.nnue import kernels as K
from engine.layout import ST_KING
from engine.nnue.features import feature, features_of, input_count, mirror_files, relative
from engine.nnue.network import HEADER, Network, NetworkError, load, parse, reference_evaluate
from engine.tt import tt_probe


def random_net(game, hidden=32, seed=1, spread=300, buckets=1):
    """Weights wide enough that accumulators leave 0..QA both ways (the clip matters) and sums wrap nowhere."""
    rng = np.random.default_rng(seed)
    inputs = input_count(game.squares, game.kinds, buckets)
    return Network(game.name, rng.integers(-spread, spread, (inputs, hidden)).astype(np.int16),
                   rng.integers(-200, 400, hidden).astype(np.int16),
                   rng.integers(-3000, 3000, 2 * hidden).astype(np.int16), int(rng.integers(-10 ** 8, 10 ** 8)),
                   {"test": True}, game.net_king_buckets if buckets > 1 else None)


GAME_BUCKETS = [(XIANGQI, 1), (XIANGQI, 3), (CHESS, 1)]     # each game's networks: one bucket, or the game's map's




@pytest.mark.parametrize("game,buckets", GAME_BUCKETS, ids=lambda c: getattr(c, "name", str(c)))
def test_kernels_equal_the_reference_on_random_games(game, buckets):
    """2,000 positions of 100 random games a game, the accumulators built afresh: the compiled score is the
    reference's, to the unit."""
    net = random_net(game, buckets=buckets)
    assert net.buckets == buckets
    args = K.thread_net(net.arrays(), game.position().hist.shape[0])
    rng = np.random.default_rng(7)
    scores = set()
    for _ in range(100):
        pos = game.position()
        for _ in range(20):
            moves = pos.legal_moves()
            if not moves:
                break
            pos.push(moves[rng.integers(len(moves))])
            got = K.evaluate_fresh(pos.board, pos.st, pos.ply, args, game.files, game.ranks, game.kinds)
            assert got == reference_evaluate(net, pos.board, pos.side, game)
            scores.add(got)
    assert len(scores) > 250                    # the positions differ, and so do their scores


CHESS_SPECIALS = ["r3k2r/pppq1ppp/2n2n2/3pp3/1b1PP1b1/2N2N2/PPPQ1PPP/R3KB1R w KQkq - 0 8",     # castling
                  "4k3/1P6/8/8/8/8/6p1/4K2R b K - 0 1",                                   # promotions
                  "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "4k3/8/8/8/2pP4/8/8/4K3 b - d3 0 1"]  # en passant


@pytest.mark.parametrize("game,buckets", GAME_BUCKETS, ids=lambda c: getattr(c, "name", str(c)))
def test_incremental_accumulators_equal_the_reference_along_random_walks(game, buckets):
    """The search's evaluation (the game's ``net_evaluate``): walks of moves forward and back, as a search
    goes, 3,000 evaluations a game -- most of them updated from the parent's accumulators, the others
    refreshed (and, with king buckets, a king's move to another bucket refreshes its side) -- each equal to the
    reference's score of the position."""
    net = random_net(game, seed=4, buckets=buckets)
    kernels = game.kernels()
    args = K.thread_net(net.arrays(), game.position().hist.shape[0])
    rng = np.random.default_rng(11)
    starts = [None] + (CHESS_SPECIALS if game is CHESS else [])
    updated = evaluated = king_refreshes = 0
    special = {"castling": 0, "en passant": 0, "promotion": 0}
    for walk in range(30):
        pos = game.position(starts[walk % len(starts)])
        depth = 0
        for _ in range(100):
            moves = pos.legal_moves()
            if moves and (depth == 0 or rng.random() < 0.6):
                captures = [m for m in moves if kernels.is_capture(pos.board, m)]
                pick = captures if captures and rng.random() < 0.3 else moves    # captures, e.p., promotions
                move = pick[rng.integers(len(pick))]
                if game is CHESS:
                    name, piece = game.move_name(move), pos.board[move_from(move)] & 7
                    special["castling"] += piece == 6 and abs(ord(name[0]) - ord(name[2])) == 2
                    special["en passant"] += piece == 1 and name[0] != name[2] and pos.board[kernels.move_target(move)] == 0
                    special["promotion"] += len(name) == 5
                pos.push(move)
                depth += 1
            elif depth > 0:
                pos.pop()
                depth -= 1
            parent_valid = bool(K.parent_valid(args, pos.keys, pos.ply))
            updated += parent_valid
            got = kernels.net_evaluate(pos.board, pos.st, pos.hist, pos.keys, args)
            king_refreshes += parent_valid and (args[7][pos.ply] != args[7][pos.ply - 1]).any()
            assert got == reference_evaluate(net, pos.board, pos.side, game), pos.fen()
            evaluated += 1
    assert evaluated == 3000 and updated > evaluated // 2
    assert (king_refreshes > 20) == (buckets > 1), king_refreshes
    assert game is XIANGQI or min(special.values()) > 0, special


def test_features_are_one_rule_for_both_views():
    """A piece seen by Black is its colour-flipped twin seen by Red: the start position gives each side the
    same inputs; every input is in range and distinct."""
    for game in (XIANGQI, CHESS):
        board = game.position().board[:game.squares]
        red, black = (np.sort(features_of(board, v, game.files, game.ranks, game.kinds)) for v in (0, 1))
        assert (red == black).all() and len(set(red)) == len(red)
        assert red.min() >= 0 and red.max() < input_count(game.squares, game.kinds)
        for sq in np.flatnonzero(board):
            for viewer in (0, 1):
                assert feature(board[sq], sq, viewer, 0, game.files, game.ranks, game.kinds) in (
                    red if viewer == 0 else black)
    b = XIANGQI.position("4k4/9/9/9/9/9/9/9/2R6/3K5 w - - 0 1").board[:90]
    m = mirror_files(b[None, :], 9)[0]
    assert m[1 * 9 + 6] == b[1 * 9 + 2] and m[3] == b[5] and m[4] == b[4]


def test_king_buckets_are_the_generals_files():
    """A network of three buckets: each general's file picks a block of 1,260 inputs -- Red's general on d0 the
    first, Black's on f8 the third, Red's on e2 the second; a network of one bucket has only the first."""
    block = input_count(XIANGQI.squares, XIANGQI.kinds)
    offsets = random_net(XIANGQI, hidden=16, buckets=3).king_offsets()
    for fen, buckets in (("9/5k3/9/9/9/9/9/9/9/3K5 w - - 0 1", [0, 2]), ("3k5/9/9/9/9/9/9/4K4/9/9 w - - 0 1", [1, 0])):
        pos = XIANGQI.position(fen)
        assert [int(offsets[relative(pos.st[ST_KING + v], v, 9, 10)]) // block for v in (0, 1)] == buckets
    assert sorted(set(offsets // block)) == [0, 1, 2] and (random_net(XIANGQI, hidden=16).king_offsets() == 0).all()


def test_network_file_round_trip_and_hostile_files(tmp_path):
    net = random_net(XIANGQI, hidden=16)
    path = tmp_path / "n.nnue"
    net.save(path)
    back = load(path, XIANGQI)
    assert back.provenance == {"test": True} and back.b2 == net.b2
    assert all((a == b).all() for a, b in zip(back.arrays()[:3], net.arrays()[:3]))
    bucketed = random_net(XIANGQI, hidden=16, buckets=3)
    bucketed.save(tmp_path / "b.nnue")
    assert load(tmp_path / "b.nnue", XIANGQI).buckets == 3 and bucketed.shape == "16 hidden, 3 king buckets"
    assert net.shape == "16 hidden"
    random_net(CHESS, hidden=16, buckets=9).save(tmp_path / "c.nnue")            # chess has no buckets, as yet
    with pytest.raises(NetworkError, match="architecture 6912 inputs"):
        load(tmp_path / "c.nnue", CHESS)
    blob = path.read_bytes()

    def refused(data, expected, game=XIANGQI):
        bad = tmp_path / "bad.nnue"
        bad.write_bytes(data)
        with pytest.raises(NetworkError, match=expected) as e:
            load(bad, game)
        assert "\n" not in str(e.value)

    def resealed(body):
        return body + struct.pack("<I", zlib.crc32(body))

    refused(blob[:-1], "bytes, expected")
    refused(blob[:20], "truncated")
    refused(b"SHUAINEX" + blob[8:], "bad magic")
    refused(blob[:-4] + bytes(4), "bad checksum")
    mid = len(blob) // 2                                # a weight
    refused(blob[:mid] + bytes([blob[mid] ^ 1]) + blob[mid + 1:], "bad checksum")
    refused(blob, "for 'xiangqi', not chess", game=CHESS)
    header = list(HEADER.unpack_from(blob))
    for i, value, expected in ((1, 2, "format version 2"), (4, 1261, "architecture"), (4, 9 * 1260, "1260 or 3780"),
                               (5, 24, "architecture"), (6, 256, "architecture")):
        changed = header.copy()
        changed[i] = value
        refused(resealed(HEADER.pack(*changed) + blob[HEADER.size:-4]), expected)
    text = b"[1, 2]"
    changed = header.copy()
    changed[7] = len(text)
    length = header[7]
    refused(resealed(HEADER.pack(*changed) + text + blob[HEADER.size + length:-4]), "not a JSON object")
    text = b'{"a": ' + b"[" * 30000 + b"]" * 30000 + b"}"        # deeper than the JSON parser recurses
    changed[7] = len(text)
    refused(resealed(HEADER.pack(*changed) + text + blob[HEADER.size + length:-4]), "not a JSON object")
    with pytest.raises(NetworkError, match="missing"):
        load(tmp_path / "absent.nnue", XIANGQI)
    assert parse(blob, XIANGQI).hidden == 16


def test_the_search_evaluates_with_the_network():
    """With a network set, the static evaluation the search stores for the root is the network's, exactly;
    without, the hand-written one's."""
    from engine.searcher import Searcher, search_once
    from engine.xiangqi.kernels import evaluate
    fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
    net = random_net(XIANGQI, hidden=32, spread=40)
    searcher = Searcher(16)
    child = XIANGQI.position(fen)
    child.push("h2e2")                                  # a reply of the root, stored by the search below it
    by_net = reference_evaluate(net, child.board, child.side, XIANGQI)
    by_hand = int(evaluate(child.board, child.st))
    assert by_net != by_hand
    for network, expected in ((net, by_net), (None, by_hand)):
        searcher.set_network(XIANGQI, network)
        search_once(XIANGQI.position(fen), depth=4, searcher=searcher)
        key, lock = child.keys[child.ply]
        found, *_, static = tt_probe(searcher.tt, key, lock)
        assert found and static == expected


def test_an_evaluation_beyond_the_scale_is_clamped_and_the_search_ends():
    """A network whose weights are all legal and whose file is sound, but whose output would pass the mate scores
    and the windows' INFINITE (every unit saturated, the largest output weights): the evaluation is clamped to
    EVAL_LIMIT, and a search of it ends and plays (it looped in its aspiration windows before)."""
    from engine.scores import EVAL_LIMIT, MATE_BOUND
    from engine.searcher import Searcher, search_once
    inputs, hidden = input_count(XIANGQI.squares, XIANGQI.kinds), 128     # 128 x 32767 / 64: 65,535 unclamped
    for sign in (1, -1):
        net = Network(XIANGQI.name, np.zeros((inputs, hidden), np.int16), np.full(hidden, 255, np.int16),
                      np.concatenate([np.full(hidden, sign * 32767), np.zeros(hidden)]).astype(np.int16), 0, {})
        pos = XIANGQI.position()
        assert reference_evaluate(net, pos.board, pos.side, XIANGQI) == sign * EVAL_LIMIT
        searcher = Searcher(16)
        searcher.set_network(XIANGQI, net)
        result = search_once(pos, depth=3, searcher=searcher)
        assert result.best in pos.legal_move_names() and abs(result.info.score) <= MATE_BOUND


@pytest.mark.parametrize("king_buckets", [False, True], ids=["one-block", "king-buckets"])
def test_a_tiny_training_run_lowers_its_loss_and_writes_a_loadable_network(tmp_path, king_buckets):
    """The trainer (PyTorch, the optional extra ``nnue``: skipped where it is not installed) on 300 positions, with
    one block of inputs or the king buckets: the loss falls over the epochs, the quantized network (factor and
    shared rows folded in) scores as the float one did, and the network it writes loads, with its provenance,
    and scores the held-out positions about as the float network did."""
    pytest.importorskip("torch")
    from click.testing import CliRunner
    from engine.tune.__main__ import main
    from engine.tune import nnue_data as nd
    from engine.tune.nnue_train import Settings, held_out_loss_of, train
    rng = np.random.default_rng(3)
    rows = []
    for g in range(30):                         # random games; the result: the side with more material won
        pos = XIANGQI.position()
        for _ in range(10 + g % 7):
            moves = pos.legal_moves()
            pos.push(moves[rng.integers(len(moves))])
            red = sum(1 for p in pos.board[:90] if 0 < p < 8)
            black = sum(1 for p in pos.board[:90] if p >= 8)
            rows.append((pos.fen(), 1.0 if red > black else 0.0 if black > red else 0.5, 40 * (red - black)))
    data = tmp_path / "d.bin"
    nd.write_positions(data, XIANGQI, [nd.records_of(rows, XIANGQI)], {"seed": 3})
    positions = [nd.Positions(data)]
    net, stats = train(positions, Settings(hidden=16, epochs=30, batch=64, lr=3e-3, king_buckets=king_buckets),
                       log=lambda line: None)
    assert net.buckets == (3 if king_buckets else 1)
    first, last = stats["history"][0][0], stats["history"][-1][0]
    assert last < 0.8 * first                   # the training loss (300 positions: the held-out one overfits)
    assert abs(held_out_loss_of(net, positions, stats["k"], 0.5, 0.1) - stats["validation_loss"]) < 0.01
    # over every position the quantized network scores as the float one did (0.9 trained on, 0.1 held out):
    # the factor rows are folded into the file's (left out, the loss is 0.0028 off)
    everywhere = held_out_loss_of(net, positions, stats["k"], 0.5, 1.0)
    assert abs(everywhere - (0.9 * last + 0.1 * stats["validation_loss"])) < 0.001
    assert held_out_loss_of(net, positions, stats["k"], 0.5, 1.0, batch=7) == everywhere   # batches change nothing
    out = tmp_path / "n.nnue"
    r = CliRunner().invoke(main, ["nnue-train", "--data", str(data), "--out", str(out), "--hidden", "16",
                                  "--epochs", "2", "--batch", "64"] + ["--king-buckets"] * king_buckets)
    assert r.exit_code == 0, r.output
    loaded = load(out, XIANGQI)
    assert loaded.hidden == 16 and loaded.buckets == net.buckets and loaded.provenance["data"][0]["seed"] == 3
    assert loaded.provenance["positions"] == len(rows) and "held_out_loss" in loaded.provenance


def assert_scores_sanely(net, game, start_bound, side_to_move_ahead):
    """A committed network scores its game's start within ``start_bound`` of equality and each position of
    ``side_to_move_ahead`` (a major piece up for the side to move) above 500."""
    start = game.position()
    assert abs(reference_evaluate(net, start.board, start.side, game)) < start_bound
    for fen in side_to_move_ahead:
        pos = game.position(fen)
        assert reference_evaluate(net, pos.board, pos.side, game) > 500


def test_the_games_own_network_loads_and_scores_sanely():
    """The committed network (``engine/xiangqi/network.nnue``, generation 5, with king buckets: ``Use NNUE`` on
    by default, its SPRT against its parent passed): it loads, is within the issue's 2 MB, names its
    parent, the data and the training it came from (its parent's self-play alone: the older data folder was lost),
    fits its parent's newest games better than the parent did, and scores the start position near
    equality and a rook up as a large advantage for either side."""
    from pathlib import Path
    path = Path(XIANGQI.default_network)
    net = load(path, XIANGQI)
    p = net.provenance
    assert path.stat().st_size <= 2 << 20 and net.hidden == 128 and net.buckets == 3
    assert p["generation"] == 5 and p["parent"]["crc32"] == "7d3b5aad" and p["parent"]["generation"] == 4
    assert [d["seed"] for d in p["data"]] == list(range(1, 19)) and p["new_positions"] > 2_070_000
    assert p["positions"] == p["new_positions"] and p["settings"]["king_buckets"]
    assert p["held_out_loss_quantized"] < p["parent"]["held_out_loss_quantized"] - 0.00015 < 0.0211
    assert_scores_sanely(net, XIANGQI, 100,
                         ("1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",    # red a rook up
                          "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR b - - 0 1"))   # black a rook up


def test_the_chess_candidate_loads_and_scores_sanely():
    """The chess candidate (``engine/chess/candidate.nnue``, generation 0, played nowhere by default: it lost its
    SPRT against the hand-written evaluation, -202 Elo after 101 games) is what the next chess generation 0 trains
    on from: it loads as a chess network, says it learnt from the hand-written evaluation's self-play alone, and
    already scores the start position near equality and a queen up as a large advantage for either side."""
    from pathlib import Path
    path = Path(CHESS.package_file("candidate.nnue"))
    net = load(path, CHESS)
    p = net.provenance
    assert net.hidden == 128 and net.buckets == 1 and p["generation"] == 0
    assert p["parent"]["crc32"] == "none" and p["parent"]["generation"] == -1
    assert [d["seed"] for d in p["data"]] == list(range(1, 22))
    assert p["positions_learnt"] == p["positions"] == p["new_positions"] > 1_600_000
    assert p["held_out_loss_quantized"] < 0.0325 and p["settings"]["epochs"] == 8 and p["settings"]["factorize"]
    assert_scores_sanely(net, CHESS, 60, ("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",  # white a queen up
                                          "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR b KQkq - 0 1"))  # black a queen up
