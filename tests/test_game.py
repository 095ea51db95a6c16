"""The Game carries its parts (engine.game): the front ends ask it for the session, the referee, the PGN writer,
the openings and the evaluation's layout, and describing a game loads no compiled code."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.game import CHESS, DEFAULT, GAMES, XIANGQI, game_named

ROOT = Path(__file__).resolve().parent.parent

MATED = {"xiangqi": "R3k4/1R7/9/9/9/9/9/9/9/3K5 b - - 0 1",                                  # Black is mated
         "chess": "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"}           # fool's mate


def test_registry():
    assert GAMES == (XIANGQI, CHESS) and DEFAULT is XIANGQI
    assert game_named("chess") is CHESS and XIANGQI.side_names == ("red", "black")
    assert (XIANGQI.uci_variant, XIANGQI.xboard_variant, XIANGQI.ucci, XIANGQI.iccs) == ("xiangqi", "xiangqi", True, True)
    assert (CHESS.uci_variant, CHESS.xboard_variant, CHESS.ucci, CHESS.iccs) == ("chess", "normal", False, False)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_session_plays_the_game(game):
    session = game.Session
    assert session.__module__.startswith("engine.play.")
    assert session.side_names == tuple(s.capitalize() for s in game.side_names)
    assert session.record.START_FEN == game.start_fen
    assert session.ranks == game.ranks
    record = session.record()
    assert record.fen() == game.start_fen and record.check_end() is None
    with pytest.raises(ValueError):
        session.record("not a fen")


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_referee_judges_a_mate_and_checks_openings(game):
    over = game.referee(MATED[game.name]).result()
    assert over == (("1-0", "checkmate") if game is XIANGQI else ("0-1", "checkmate"))
    assert game.referee(game.start_fen).result() is None
    fen, moves = game.Referee.opening(game.start_fen, ())
    assert fen == game.start_fen and moves == ()
    assert game.Referee.path_from_start(game.start_fen) == []


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_openings_are_the_games(game):
    from engine.match.openings import load_openings, openings_game
    assert Path(game.openings).is_file()
    assert openings_game(game.openings) == game.name
    book = load_openings(game.openings, game.name)
    assert len(book) >= 10 and game.referee(book[0].fen, book[0].moves).result() is None


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_pgn_writer_writes_the_games_pgn(game):
    first = game.side_names[0].capitalize()
    moves = ["h2e2", "h9g7"] if game is XIANGQI else ["e2e4", "e7e5"]
    text = game.pgn().format_record({"Event": "t", first: "A", "Black": "B"}, game.start_fen, moves, "end", "*")
    assert f'[{first} "A"]' in text and "end }" in text.replace("{end}", "{ end }") and "FEN" not in text
    if game is XIANGQI:
        from engine.match.xiangqi_pgn import parse_pgn
        assert parse_pgn(text)[0].moves == moves
    else:
        from engine.match.chess_pgn import read_game
        assert read_game(text).moves == moves


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_evaluation_layout(game):
    ev = game.evaluation()
    rows = ev.TABLE_SIZE // ev.TABLE_ROW
    assert rows * ev.TABLE_ROW == ev.TABLE_SIZE and rows == game.ranks
    block = list(range(ev.TABLE_SIZE))
    assert ev.table_values(ev.table_values(block)) == block                   # its own inverse
    assert ev.table_values(block)[:ev.TABLE_ROW] == block[-ev.TABLE_ROW:]     # the file's last row is rank 0
    assert ev.PARAMS_HEADER[0].startswith(f"Each block is a term of engine/{game.name}/evaluate.py")
    assert len(ev.W) == ev.N_PARAMS and ev.TRACE_SIZE == 2 * ev.N_PARAMS + 2


def test_describing_a_game_loads_no_compiled_code_and_evaluations_no_front_end():
    probe = ("import json, sys\n"
             "from engine.game import GAMES\n"
             "described = [(g.name, g.openings, g.side_names, g.uci_variant) for g in GAMES]\n"
             "light = 'numba' not in sys.modules\n"
             "for g in GAMES:\n"
             "    g.evaluation()\n"
             "front = sorted(n for n in sys.modules if n.split('.')[:2] in (['engine', 'tune'], ['engine', 'play'],"
             " ['engine', 'match']))\n"
             "print(json.dumps({'light': light, 'front': front}))\n")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=280,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr[-2000:]
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert report == {"light": True, "front": []}
