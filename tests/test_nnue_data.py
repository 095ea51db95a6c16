"""The network's positions file (engine.tune.nnue_data): what is written is read back exactly, and a file that
is not one is refused with one line naming it."""
import json

import numpy as np
import pytest
import zstandard

from engine.game import CHESS, XIANGQI
from engine.tune import nnue_data as nd
from engine.tune.selfplay import DataError

ROWS = {
    XIANGQI: [("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", 0.5, 12),
              ("3k5/4a4/4b4/p3p4/9/9/4P4/4B4/4A4/1R2K4 b - - 3 41", 1.0, 830),
              ("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 7", 0.0, -40000)],
    CHESS: [("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0.5, 20),
            ("8/8/4k3/8/8/8/3QK3/8 b - - 5 60", 1.0, 900)],
}


@pytest.mark.parametrize("game", [XIANGQI, CHESS], ids=lambda g: g.name)
def test_positions_round_trip(tmp_path, game):
    rows = ROWS[game]
    path = tmp_path / "p.bin"
    n = nd.write_positions(path, game, [nd.records_of(rows[:1], game), nd.records_of(rows[1:], game)], {"seed": 7})
    p = nd.Positions(path)
    assert n == len(p) == len(rows) and p.game is game and p.provenance == {"seed": 7}
    boards = p.boards()
    for i, (fen, points, score) in enumerate(rows):
        pos = game.position(fen)
        assert (boards[i] == pos.board[:game.squares]).all()
        r = p.records[i]
        assert (r["side"], r["result"], r["score"]) == (pos.side, {0.0: 0, 0.5: 1, 1.0: 2}[points],
                                                           max(-32767, score))
        fullmove = int(fen.split()[-1])
        assert r["ply"] == 2 * (fullmove - 1) + pos.side
    assert p.records.itemsize == 40


def test_the_full_board_fits(tmp_path):
    """32 pieces, the most either game has, in 16 bytes of codes; every square code survives."""
    boards = np.zeros((2, XIANGQI.squares), np.int8)
    boards[0, :32] = np.arange(32) % 7 + 1 + (np.arange(32) % 2) * 8
    boards[1, -32:] = boards[0, :32]
    occupied, pieces = nd.encode_boards(boards, XIANGQI.squares)
    records = np.zeros(2, nd.RECORD)
    records["occupied"], records["pieces"] = occupied, pieces
    assert (nd.decode_boards(records, XIANGQI.squares) == boards).all()
    with pytest.raises(ValueError):
        nd.encode_boards(np.full((1, XIANGQI.squares), 1, np.int8), XIANGQI.squares)


def _file(tmp_path, records, provenance=b"{}", game=b"xiangqi", magic=nd.MAGIC, version=nd.FORMAT_VERSION,
          count=None):
    """A positions file as ``write_positions`` lays it out, its parts given: ``records`` bytes (compressed
    here) or an already compressed frame (a ``bytearray``), ``count`` the trailer's (the records' by default)."""
    path = tmp_path / f"bad{len(list(tmp_path.iterdir()))}.bin"
    frame = bytes(records) if isinstance(records, bytearray) else zstandard.ZstdCompressor().compress(records)
    count = len(records) // 40 if count is None else count
    path.write_bytes(nd.HEADER.pack(magic, version, 40, game, len(provenance)) + provenance + frame
                     + nd.TRAILER.pack(nd.END, count))
    return path


def test_hostile_positions_files(tmp_path):
    good = nd.records_of(ROWS[XIANGQI], XIANGQI)
    cases = {
        "bad magic": _file(tmp_path, good.tobytes(), magic=b"SHUAIPOZ"),
        "format version 2": _file(tmp_path, good.tobytes(), version=2),
        "unknown game": _file(tmp_path, good.tobytes(), game=b"shogi"),
        "not a JSON object": _file(tmp_path, good.tobytes(), provenance=b"[1]"),
        "trailer says 2 records": _file(tmp_path, good.tobytes()[:-3], count=2),
        "trailer says 3 records": _file(tmp_path, good.tobytes()[:-40], count=3),
        "corrupt records": _file(tmp_path, bytearray(zstandard.ZstdCompressor().compress(good.tobytes())[:-9]),
                                 count=3),
    }
    for expected, path in cases.items():
        with pytest.raises(DataError, match=expected):
            nd.Positions(path)
    for field, value in (("side", 2), ("result", 3)):
        bad = good.copy()
        bad[1][field] = value
        with pytest.raises(DataError, match="record 1 is not a position of xiangqi"):
            nd.Positions(_file(tmp_path, bad.tobytes()))
    bad = good.copy()
    bad[2]["pieces"][0] = 0x08                  # a colour bit with no kind
    with pytest.raises(DataError, match="record 2 is not"):
        nd.Positions(_file(tmp_path, bad.tobytes()))
    bad = good.copy()
    bad[0]["occupied"][15] = 0x80               # square 127: beyond the board
    with pytest.raises(DataError, match="record 0 is not"):
        nd.Positions(_file(tmp_path, bad.tobytes()))
    with pytest.raises(DataError, match="truncated"):
        (tmp_path / "short.bin").write_bytes(nd.MAGIC)
        nd.Positions(tmp_path / "short.bin")
    whole = tmp_path / "whole.bin"
    nd.write_positions(whole, XIANGQI, [good], {})
    (tmp_path / "cut.bin").write_bytes(whole.read_bytes()[:-1])      # cut short by one byte
    with pytest.raises(DataError, match="truncated"):
        nd.Positions(tmp_path / "cut.bin")
    with pytest.raises(DataError, match="cannot be read|No such|not found|missing"):
        nd.Positions(tmp_path / "absent.bin")


def test_a_decompression_bomb_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(nd, "MAX_POSITIONS", 1000)
    with pytest.raises(DataError, match="more than 1,000 positions"):
        nd.Positions(_file(tmp_path, bytes(40 * 1001)))
    with pytest.raises(DataError, match="corrupt records"):     # the trailer lies: 10 records, a million inside
        nd.Positions(_file(tmp_path, bytes(40 * 10 ** 6), count=10))


@pytest.mark.parametrize("game", [XIANGQI, CHESS], ids=lambda g: g.name)
def test_the_tuners_text_positions_convert_to_the_same_records(tmp_path, game):
    """``nnue-records``: the tuner's FEN;result;score lines (gzip text), several files, in small chunks,
    give the records ``records_of`` makes of the same rows; the provenance names each file by its text's hash."""
    import gzip
    from engine.tune.selfplay import data_digest
    rows = ROWS[game]
    text = [f"{fen};{points:g};{score}\n" for fen, points, score in rows]
    first, second = tmp_path / "a.txt.gz", tmp_path / "b.txt.gz"
    first.write_bytes(gzip.compress("".join(text[:-1]).encode()))
    second.write_bytes(gzip.compress(text[-1].encode()))
    n = nd.convert([str(first), str(second)], tmp_path / "p.bin", game, chunk=1)
    p = nd.Positions(tmp_path / "p.bin")
    assert n == len(p) == len(rows) and p.game is game
    assert p.records.tobytes() == nd.records_of(rows, game).tobytes()
    assert p.provenance["converted_from"] == [{"file": "a.txt.gz", "sha256": data_digest(str(first))},
                                              {"file": "b.txt.gz", "sha256": data_digest(str(second))}]


@pytest.mark.parametrize("line, says", [("garbage;1;3", ":3: not a chess position"),
                                        ("8/8/4k3/8/8/8/3QK3/8 b - - 5 60;0.7;12", ":3: not a chess position"),
                                        ("8/8/4k3/8/8/8/3QK3/8 b - - 5 60;1", ":3: not FEN;result;score")])
def test_a_bad_text_line_is_one_error_naming_it_and_nothing_is_written(tmp_path, line, says):
    import gzip
    rows = ROWS[CHESS]
    text = tmp_path / "t.txt.gz"
    lines = "".join(f"{fen};{points:g};{score}\n" for fen, points, score in rows) + line + "\n"
    text.write_bytes(gzip.compress(lines.encode()))
    with pytest.raises(DataError, match=f"t.txt.gz{says}"):
        nd.convert([str(text)], tmp_path / "p.bin", CHESS, chunk=2)
    assert not (tmp_path / "p.bin").exists()


def test_provenance_is_written_as_json(tmp_path):
    path = tmp_path / "p.bin"
    nd.write_positions(path, CHESS, [], {"commit": "abc", "seed": 3})
    raw = path.read_bytes()
    length = nd.HEADER.unpack_from(raw)[4]
    assert json.loads(raw[nd.HEADER.size:nd.HEADER.size + length]) == {"commit": "abc", "seed": 3}
    assert len(nd.Positions(path)) == 0


def test_self_play_with_a_network_names_it_and_refuses_a_bad_one(tmp_path):
    """``python -m engine.tune data --network FILE`` (``make nnue-data NETWORK=FILE``): the searches evaluate
    with that network -- other scores than the hand-written evaluation's from the same games' seeds -- and the
    file's provenance names it; a file that is not a network is one error line, before any game."""
    import zlib
    from pathlib import Path
    from click.testing import CliRunner
    from engine.tune.__main__ import main
    net = Path(__file__).resolve().parent.parent / "engine" / "xiangqi" / "network.nnue"
    common = ["data", "--nnue", "--games", "2", "--nodes", "300", "--seed", "5", "--workers", "1"]
    plain, with_net = tmp_path / "plain.bin", tmp_path / "net.bin"
    for out, extra in ((plain, []), (with_net, ["--network", str(net)])):
        r = CliRunner().invoke(main, common + ["--out", str(out)] + extra)
        assert r.exit_code == 0, r.output
    a, b = nd.Positions(plain), nd.Positions(with_net)
    assert "network" not in a.provenance
    assert b.provenance["network"] == "network.nnue"
    assert b.provenance["network_crc32"] == f"{zlib.crc32(net.read_bytes()[:-4]):08x}"     # the CRC it stores
    assert len(a) > 20 and len(b) > 20 and a.records["score"][:20].tolist() != b.records["score"][:20].tolist()
    bad = tmp_path / "bad.nnue"
    bad.write_bytes(b"not a network, and long enough for a header" * 4)
    r = CliRunner().invoke(main, common + ["--out", str(tmp_path / "x.bin"), "--network", str(bad)])
    assert r.exit_code == 1 and r.output.count("\n") == 1 and "not a Shuai network" in r.output, r.output
    assert not (tmp_path / "x.bin").exists()
