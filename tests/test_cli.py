"""The command line: perft output, and one clear error line with a non-zero exit for bad input."""
import re
import subprocess
import sys

from click.testing import CliRunner

from conftest import seed_tables
from engine.cli import main


def test_perft_divide_output():
    result = CliRunner().invoke(main, ["perft", "2", "--divide"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert len(lines) == 45 and lines[-1].startswith("nodes 1920 time_ms ")
    assert "h2e2: 45" in lines    # pyffish agrees: 45 replies to the central cannon


def test_perft_from_fen_with_moves():
    fen = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1"
    result = CliRunner().invoke(main, ["perft", "3", "--fen", fen])
    assert result.exit_code == 0 and result.output.split()[1] == "43929"


def test_bad_fen_is_one_line_and_exit_2():
    out = subprocess.run([sys.executable, "-m", "engine", "perft", "1", "--fen", "nonsense w"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr == "error: bad FEN 'nonsense w': expected 8 (chess) or 10 (xiangqi) ranks\n"
    out = subprocess.run([sys.executable, "-m", "engine", "perft", "1", "--fen", "9/9/9/9/9/9/9/9/9/9 w"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and out.stderr.startswith("error: bad FEN '9/9/9/9/9/9/9/9/9/9 w': "), out.stderr


def test_bad_files_and_counters_are_one_line_and_exit_2(tmp_path):
    """A network file bench cannot use, and a FEN whose move counters do not fit the position's int32 (it raised
    an OverflowError): ``error: ...`` and status 2, as every bad input on the command line."""
    for args, expected in ((["bench", "--network", str(tmp_path / "absent.nnue")], "error: network file "),
                           (["perft", "1", "--fen", "4k4/9/9/9/9/9/9/9/9/3K5 w - - 2147483648 1"],
                            "must be at most 1,000,000")):
        out = subprocess.run([sys.executable, "-m", "engine", *args], capture_output=True, text=True, timeout=120)
        assert out.returncode == 2 and expected in out.stderr and "Traceback" not in out.stderr, out.stderr


def test_console_script_runs():
    out = subprocess.run([sys.executable, "-m", "engine", "perft", "1", "--moves", "h2e2 h7e7"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.split()[1] == "35"      # as pyffish counts
    bad = subprocess.run([sys.executable, "-m", "engine", "perft", "1", "--moves", "h2e3"],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and bad.stderr.strip().startswith("error: illegal move 'h2e3'")


def test_judge_speaks_each_games_sides():
    """``shuai judge`` asks the position's game for its rules and side names."""
    def judge(*args):
        result = CliRunner().invoke(main, ["judge", *args])
        assert result.exit_code == 0, result.output
        return result.output.strip()
    assert judge("--moves", "h2e2 h9g7") == "ongoing"
    assert judge("--fen", "3k5/3R5/3R5/9/9/9/9/9/9/4K4 b - - 0 1") == "red wins checkmate"   # the flying general
    assert judge("--game", "chess", "--moves", "f2f3 e7e5 g2g4 d8h4") == "black wins checkmate"
    assert judge("--fen", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1") == "draw stalemate"


def test_setup_does_what_make_setup_does(tmp_path):
    """``shuai setup --dir`` (for systems without make): the kernels warmed and each game's quick tables built
    where they are missing, the same files as ``tb build`` writes, those present kept.  The directory is seeded
    with this checkout's tables but for one of each game (building all of them again is make setup's job)."""
    from engine.egtb import default_directory
    from engine.game import GAMES
    rebuilt = ("KCvK.xtb", "KRvK.ctb")
    seed_tables(tmp_path, rebuilt)
    command = [sys.executable, "-m", "engine", "setup", "--dir", str(tmp_path)]
    first = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert first.returncode == 0, first.stderr
    lines = first.stdout.splitlines()
    assert lines[0].startswith("numba kernels ready in ")
    xiangqi, chess = (int(re.match(r"\w+: (\d+) tables built, (\d+) present", line)[2]) for line in lines[1:3])
    assert lines[1].startswith("xiangqi: ") and lines[2].startswith("chess: ")
    assert xiangqi <= 44 and chess <= 4                    # the one removed of each was built again
    expected = {f"{name}{game.tables().SUFFIX}" for game in GAMES for name in game.tables().QUICK_SET}
    files = {p.name for p in tmp_path.iterdir()}
    assert expected <= files and len(files) == 51          # with the tables they capture into (KvK, KAvK ...)
    assert "MANIFEST.sha256" in files                      # and their digests
    for name in rebuilt:
        assert (tmp_path / name).read_bytes() == (default_directory() / name).read_bytes()
    again = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert "xiangqi: 0 tables built, 45 present already" in again.stdout


def test_tables_live_beside_a_checkout_or_in_the_users_data_directory(tmp_path, monkeypatch):
    """A GUI may start the engine from any directory: the default table directory never depends on it."""
    from pathlib import Path
    from engine.egtb import default_directory
    (tmp_path / "checkout").mkdir()
    (tmp_path / "checkout" / "pyproject.toml").write_text("")
    assert default_directory(tmp_path / "checkout") == tmp_path / "checkout" / "tablebases"
    monkeypatch.delenv("LOCALAPPDATA", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_directory(tmp_path / "site-packages") == tmp_path / "data" / "shuai" / "tablebases"
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path / "AppData"))             # Windows
    assert default_directory(tmp_path / "site-packages") == tmp_path / "AppData" / "shuai" / "tablebases"
    assert default_directory() == Path(__file__).resolve().parents[1] / "tablebases"     # this checkout
