"""A generation of the evaluation network (engine.tune.generation): its child starts from the parent's weights,
refuses a parent it cannot descend from, names its parent, and the data folder is read as the generation plans.
The training itself needs PyTorch (the optional extra ``nnue``): that test is skipped where it is missing."""
import os

import numpy as np
import pytest

from conftest import random_positions
from engine.game import CHESS, XIANGQI
from engine.nnue.network import Network, NetworkError, load
from engine.tune import nnue_data as nd
from engine.tune.generation import COLUMNS, HAND_WRITTEN, Generation, Plan
from engine.tune.nnue_train import Settings, check_parent


def material_rows(count: int, seed: int):
    """Random positions, the result given to the side with more pieces and the score by the difference."""
    rows = []
    for fen in random_positions(count, seed, max_plies=40):
        pieces = fen.split()[0]
        red = sum(c.isupper() for c in pieces)
        black = sum(c.islower() for c in pieces)
        rows.append((fen, 1.0 if red > black else 0.0 if black > red else 0.5, 40 * (red - black)))
    return rows


def chess_material_rows(count: int, seed: int):
    """The same for chess, along random games of python-chess."""
    import random

    import chess
    rng, rows = random.Random(seed), []
    while len(rows) < count:
        board = chess.Board()
        for _ in range(60):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            white, black = (chess.popcount(board.occupied_co[c]) for c in (chess.WHITE, chess.BLACK))
            rows.append((board.fen(), 1.0 if white > black else 0.0 if black > white else 0.5, 40 * (white - black)))
    return rows[:count]


def write_seed(folder, seed: int, count: int, network_crc32: str | None, game=XIANGQI) -> None:
    provenance = {"seed": seed, **({"network_crc32": network_crc32} if network_crc32 else {})}
    rows = (material_rows if game is XIANGQI else chess_material_rows)(count, seed)
    nd.write_positions(folder / game.name / f"seed{seed}.bin", game, [nd.records_of(rows, game)], provenance)


def tiny_network(game=XIANGQI, hidden=16, seed=5, generation=None) -> Network:
    rng = np.random.default_rng(seed)
    inputs = 2 * game.kinds * game.squares
    net = Network(game.name, rng.integers(-60, 60, (inputs, hidden)).astype(np.int16),
                  rng.integers(0, 120, hidden).astype(np.int16), rng.integers(-40, 40, 2 * hidden).astype(np.int16),
                  int(rng.integers(-10 ** 6, 10 ** 6)))
    if generation is not None:
        net.provenance = {"generation": generation}
    return net


def test_a_network_is_named_by_the_checksum_its_file_stores():
    """The CRC-32 of a whole network file is one constant (data followed by its own CRC always give the same):
    the name is the CRC the file ends with, different for different weights."""
    import struct
    import zlib
    a, b = tiny_network(seed=1).to_bytes(), tiny_network(seed=2).to_bytes()
    assert zlib.crc32(a) == zlib.crc32(b)                       # why the whole file cannot be the name
    assert nd.crc_of(a) != nd.crc_of(b)
    assert nd.crc_of(a) == f"{struct.unpack('<I', a[-4:])[0]:08x}"


def test_a_child_refuses_a_parent_it_cannot_descend_from(tmp_path):
    parent = tiny_network(hidden=16)
    check_parent(parent, XIANGQI, Settings(hidden=16, factorize=False))          # its own architecture: fine
    with pytest.raises(ValueError, match=r"16 hidden units in 1 king bucket\(s\), not 32 in 1"):
        check_parent(parent, XIANGQI, Settings(hidden=32, factorize=False))
    with pytest.raises(ValueError, match="without factors"):
        check_parent(parent, XIANGQI, Settings(hidden=16, factorize=True))
    with pytest.raises(ValueError, match="for xiangqi, not chess"):
        check_parent(parent, CHESS, Settings(hidden=16, factorize=False))
    chess_net = tmp_path / "chess.nnue"
    tiny_network(CHESS).save(chess_net)
    with pytest.raises(NetworkError, match="a network for 'chess', not xiangqi"):
        Generation(XIANGQI, tmp_path, Plan(), parent_path=chess_net)


def test_the_data_folder_is_read_as_the_generation_plans(tmp_path):
    """The parent's own files are told by its CRC-32 in their provenance; the replay buffer takes the newest
    older files up to its size; a broken file is one line and left out; the next seed follows the highest."""
    parent_path = tmp_path / "parent.nnue"
    tiny_network().save(parent_path)
    lines = []
    g = Generation(XIANGQI, tmp_path, Plan(replay=50), parent_path=parent_path, log=lines.append)
    assert g.parent_crc == nd.crc_of(parent_path.read_bytes()) and g.folder == tmp_path / "xiangqi"
    write_seed(tmp_path, 1, 30, None)               # the hand-written evaluation's
    write_seed(tmp_path, 2, 30, "0badc0de")         # an older network's
    write_seed(tmp_path, 3, 30, "0badc0de")
    write_seed(tmp_path, 9, 20, g.parent_crc)       # the parent's own
    (g.folder / "seed12.bin").write_bytes(b"not a positions file")
    (g.folder / "notes.bin").write_bytes(b"ignored: not a seed file")
    assert [(f.seed, f.player, f.positions) for f in g.files()] == [
        (1, HAND_WRITTEN, 30), (2, "0badc0de", 30), (3, "0badc0de", 30), (9, g.parent_crc, 20)]
    assert len(lines) == 1 and "seed12.bin" in lines[0]
    assert [f.seed for f in g.own_files()] == [9]
    assert [f.seed for f in g.replay_files()] == [2, 3]         # 30 + 30 reach the 50 wanted, newest first
    assert g.next_seed() == 13
    stale, live = g.folder / "seed13.bin.tmp99999999.x1", g.folder / f"seed13.bin.tmp{os.getpid()}.x2"
    stale.write_bytes(b"cut off")
    live.write_bytes(b"being written")
    g.plan.positions = 20                                       # enough of the parent's own already: plays nothing
    g.play()
    assert g.next_seed() == 13
    assert not stale.exists() and live.exists()                 # a killed writer's file goes, a running one's stays
    assert lines[-1] == "removed seed13.bin.tmp99999999.x1, a file whose self-play was cut off"
    assert Generation(XIANGQI, tmp_path, Plan(replay=0), parent_path=parent_path).replay_files() == []


def test_a_kept_child_becomes_the_network_and_a_row_of_the_table(tmp_path):
    parent_path = tmp_path / "parent.nnue"
    tiny_network(generation=2).save(parent_path)
    target, table = tmp_path / "network.nnue", tmp_path / "networks.tsv"
    g = Generation(XIANGQI, tmp_path, Plan(), parent_path=parent_path, log=lambda line: None, table=table)
    child = tiny_network(seed=6)
    child.provenance = {"generation": 3, "positions": 100, "new_positions": 60, "held_out_loss_quantized": 0.021,
                        "parent": {"crc32": g.parent_crc, "held_out_loss_quantized": 0.022}, "commit": "abc1234"}
    row = {"wins": 120, "draws": 300, "losses": 80, "elo": "27.9", "elo_error": "12.0", "llr": "2.95",
           "tc": "2+0.02", "elo0": "0", "elo1": "10", "verdict": "H1"}
    g.keep(child, row, target)
    assert load(target, XIANGQI).provenance["generation"] == 3
    header, line = table.read_text().splitlines()
    kept = dict(zip(header.split("\t"), line.split("\t")))
    assert header.split("\t") == list(COLUMNS)
    assert (kept["generation"], kept["parent_crc32"], kept["network_crc32"], kept["verdict"]) == (
        "3", g.parent_crc, nd.crc_of(child.to_bytes()), "H1")
    assert kept["sprt"] == "120-300-80 27.9 +/- 12.0 LLR 2.95 at 2+0.02 [0, 10]"


def test_a_child_trains_from_its_parents_weights_and_names_it(tmp_path):
    """With a learning rate of almost nothing the child is its parent, weight for weight (from random weights it
    would be nothing like it); a real rate moves it, but it stays its parent's child.  The provenance names the
    parent and the generation; the same command again finds the child trained already."""
    pytest.importorskip("torch")
    parent_path = tmp_path / "parent.nnue"
    parent = tiny_network(generation=4)
    parent.save(parent_path)
    g = Generation(XIANGQI, tmp_path, Plan(epochs=1, lr=1e-12), parent_path=parent_path, log=lambda line: None)
    write_seed(tmp_path, 1, 200, g.parent_crc)
    child = g.train()
    assert (child.w1 == parent.w1).all() and (child.b1 == parent.b1).all() and (child.w2 == parent.w2).all()
    assert abs(child.b2 - parent.b2) <= 64                      # float32 of a value near 10**6
    p = child.provenance
    assert p["generation"] == 5 and p["parent"]["crc32"] == g.parent_crc and p["parent"]["generation"] == 4
    assert p["parent"]["file"] == "parent.nnue" and p["new_positions"] == 200
    assert abs(p["held_out_loss_quantized"] - p["parent"]["held_out_loss_quantized"]) < 1e-4
    assert [d["file"] for d in p["data"]] == ["seed1.bin"]
    assert load(g.child_path, XIANGQI).to_bytes() == child.to_bytes()
    assert g.train().to_bytes() == child.to_bytes()             # resumed: trained already, on the same files

    g.child_path.unlink()
    g.plan.lr = 3e-3
    moved = g.train()
    assert (moved.w1 != parent.w1).any()
    assert np.corrcoef(moved.w1.ravel(), parent.w1.ravel())[0, 1] > 0.9


def test_a_child_no_better_on_the_held_out_games_is_not_played(tmp_path):
    """The SPRT is hours on 2 cores: a child whose held-out loss is not below its parent's is not played (the
    verdict says so and no SPRT row is written), unless forced."""
    parent_path = tmp_path / "parent.nnue"
    tiny_network().save(parent_path)
    lines = []
    g = Generation(XIANGQI, tmp_path, Plan(), parent_path=parent_path, log=lines.append)
    child = tiny_network(seed=7)
    child.provenance = {"generation": 1, "held_out_loss_quantized": 0.0230,
                        "parent": {"crc32": g.parent_crc, "held_out_loss_quantized": 0.0229}}
    g.judge = lambda net: pytest.fail("no SPRT for a child no better than its parent")
    assert g.conclude(child) == {"verdict": "not played"}
    assert "no SPRT" in lines[-1]
    g.plan.force = True
    g.judge = lambda net: {"verdict": "H0"}
    assert g.conclude(child) == {"verdict": "H0"}


def test_an_interrupted_sprt_goes_on_from_its_transcript(tmp_path, monkeypatch):
    """The generation's SPRT keeps its transcript beside the data; run again, it resumes from it with the games
    left of its cap, and once the cap is spent it says so instead of playing again."""
    from engine.match import sprt as S
    parent_path = tmp_path / "parent.nnue"
    tiny_network().save(parent_path)
    lines = []
    g = Generation(XIANGQI, tmp_path, Plan(sprt_games=100), parent_path=parent_path, log=lines.append)
    g.folder.mkdir(parents=True)
    child = tiny_network(seed=8, generation=2)
    seen = {}

    def fake_play(args, transcript):
        seen["args"], seen["transcript"] = args, transcript
        return ("Score of new vs base: 30 - 10 - 40  [0.625] 80\n"
                "SPRT (elo0=0 elo1=10 alpha=0.05 beta=0.05): LLR 2.96 (bounds -2.94, 2.94): H1 accepted\n")

    monkeypatch.setattr(S, "working_tree_commit", lambda: "abc1234")
    monkeypatch.setattr(S, "make_copy", lambda copy: None)
    monkeypatch.setattr(S, "play", fake_play)
    monkeypatch.setattr(S, "append_row", lambda row, *a, **k: seen.setdefault("rows", []).append(row))
    name = f"xiangqi-generation-2-{nd.crc_of(child.to_bytes())}"
    (g.folder / f"{name}.txt").write_text(
        "Score of new vs base: 20 - 5 - 15  [0.625] 40  Elo +89 +/- 80  LLR 1.50 [-2.94, 2.94]\n")
    row = g.judge(child)
    args = seen["args"]
    assert seen["transcript"] == g.folder / f"{name}.txt"
    assert args[args.index("--resume") + 1] == "20,15,5" and args[args.index("--games") + 1] == "60"
    assert "goes on after 40 games" in lines[-1]
    assert (row["wins"], row["draws"], row["losses"], row["verdict"]) == (30, 40, 10, "H1")
    assert g.judge(child) == row and len(seen["rows"]) == 1        # the verdict is kept: not played again

    other = tiny_network(seed=9, generation=2)
    (g.folder / f"xiangqi-generation-2-{nd.crc_of(other.to_bytes())}.txt").write_text(
        "Score of new vs base: 40 - 20 - 40  [0.600] 100\n")
    with pytest.raises(ValueError, match="holds 100 games of the most 100 but no verdict"):
        g.judge(other)


def test_a_child_with_king_buckets_starts_as_its_parent_of_one_bucket(tmp_path):
    """Grown from a parent of one block of inputs, with a learning rate of almost nothing, the child has the
    game's three buckets and each is its parent's block, weight for weight: it starts as the same function, so
    a generation stays continuous.  A parent of three buckets is refused to a child of one."""
    pytest.importorskip("torch")
    parent_path = tmp_path / "parent.nnue"
    parent = tiny_network(generation=2)
    parent.save(parent_path)
    g = Generation(XIANGQI, tmp_path, Plan(epochs=1, lr=1e-12, king_buckets=True), parent_path=parent_path,
                   log=lambda line: None)
    write_seed(tmp_path, 1, 200, g.parent_crc)
    child = g.train()
    assert child.buckets == 3 and child.w1.shape == (3 * parent.w1.shape[0], 16)
    assert (child.w1.reshape(3, *parent.w1.shape) == parent.w1[None]).all() and (child.w2 == parent.w2).all()
    p = child.provenance
    assert p["generation"] == 3 and abs(p["held_out_loss_quantized"] - p["parent"]["held_out_loss_quantized"]) < 1e-4
    with pytest.raises(ValueError, match=r"16 hidden units in 3 king bucket\(s\), not 16 in 1"):
        check_parent(child, XIANGQI, Settings(hidden=16, factorize=False))


def test_a_first_network_is_trained_as_one_and_banked_as_the_candidate(tmp_path):
    """After the hand-written evaluation (chess has no network) the child is generation 0: from random weights
    with the first network's epochs, rate and factors (a child's 2 epochs at a tenth of the rate would leave it
    half trained), and banked at once as the game's candidate, with a row of the table, so that a lost data
    folder does not lose it.  The next generation 0 starts from the candidate, as a child does from its
    parent, and counts the positions both learnt; a candidate that wins its SPRT becomes the network and is
    removed."""
    pytest.importorskip("torch")
    candidate, table, lines = tmp_path / "candidate.nnue", tmp_path / "networks.tsv", []
    g = Generation(CHESS, tmp_path, Plan(), log=lines.append, candidate_path=candidate, table=table)
    assert g.parent is None and g.parent_crc == HAND_WRITTEN and g.start is None
    write_seed(tmp_path, 1, 300, None, CHESS)
    first = g.train()
    p = first.provenance
    assert (p["settings"]["epochs"], p["settings"]["lr"], p["settings"]["factorize"]) == (8, 1e-3, True)
    assert p["generation"] == 0 and p["parent"]["crc32"] == HAND_WRITTEN and "start" not in p
    assert p["positions_learnt"] == 300 and p["new_positions"] == 300
    assert load(candidate, CHESS).to_bytes() == first.to_bytes()
    assert "banked:" in lines[-1] and f"git add {candidate} {table}" in lines[-1]
    banked = dict(zip(*(line.split("\t") for line in table.read_text().splitlines())))
    assert (banked["generation"], banked["verdict"], banked["sprt"]) == ("0", "candidate", "")

    (tmp_path / "chess" / "seed1.bin").unlink()     # the next sitting: its data folder lost, the candidate kept
    g.child_path.unlink()
    write_seed(tmp_path, 2, 300, None, CHESS)
    again = Generation(CHESS, tmp_path, Plan(epochs=1, lr=1e-12), log=lines.append, candidate_path=candidate,
                       table=table)
    assert again.start is not None and again.start.to_bytes() == first.to_bytes()
    second = again.train()
    assert (second.w1 == first.w1).all() and (second.w2 == first.w2).all()      # it goes on from the candidate
    q = second.provenance
    assert q["generation"] == 0 and q["start"]["crc32"] == nd.crc_of(first.to_bytes())
    assert q["positions_learnt"] == 600 and q["settings"]["epochs"] == 1 and not q["settings"]["factorize"]
    assert abs(q["held_out_loss_quantized"] - q["start"]["held_out_loss_quantized"]) < 1e-4
    assert load(candidate, CHESS).to_bytes() == second.to_bytes()

    target = tmp_path / "network.nnue"
    again.keep(second, {"wins": 1, "draws": 2, "losses": 0, "elo": "1", "elo_error": "1", "llr": "2.95",
                        "tc": "2+0.02", "elo0": "0", "elo1": "10", "verdict": "H1"}, target)
    assert load(target, CHESS).to_bytes() == second.to_bytes() and not candidate.exists()
    assert f"git rm {candidate}" in lines[-1]
    assert [line.split("\t")[COLUMNS.index("verdict")] for line in table.read_text().splitlines()[1:]] == [
        "candidate", "candidate", "H1"]
