"""``shuai diagnose where-lost``: a referee's scores turned into where a player's games were lost.  The referee
here is a scripted UCI engine whose score depends only on the number of moves played, so every drop, the
order of the worst moves and the ply after which the game was lost are known in advance."""
import sys
import textwrap

from click.testing import CliRunner

from engine.game import XIANGQI
from engine.tools.where_lost import expected, where_lost

MOVES = "h2e2 h7e7 h0g2 h9g7 i0h0 i9h9 b0c2 b9c7 a0b0 a9b9".split()
# Red's view after n plies: level, then a rook down after ply 5, lost after ply 9
RED_VIEW = "0 if n <= 4 else -300 if n <= 8 else -2000"

REFEREE = textwrap.dedent(f"""\
    import sys
    n = 0
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "uci":
            print("id name referee"); print("uciok")
        elif words[0] == "isready":
            print("readyok")
        elif words[0] == "position":
            n = len(words) - words.index("moves") - 1 if "moves" in words else 0
        elif words[0] == "go":
            red = {RED_VIEW}
            best = "a0b0" if n == 8 else "a0a1"      # the move Red played at ply 9: the referee's own choice
            print(f"info depth 1 score cp {{red if n % 2 == 0 else -red}} pv {{best}}")
            print(f"bestmove {{best}}")
        elif words[0] == "quit":
            break
        sys.stdout.flush()
    """)


def pgn(red: str, black: str, result: str) -> str:
    return XIANGQI.pgn().format_record({"Red": red, "Black": black, "Round": "1", "Termination": "resignation"},
                                       XIANGQI.start_fen, MOVES, "", result)


def test_the_worst_moves_and_the_ply_of_the_loss(tmp_path):
    script = tmp_path / "referee.py"
    script.write_text(REFEREE)
    games = tmp_path / "games.pgn"
    games.write_text(pgn("Shuai 1.0", "other", "0-1") + pgn("other", "Shuai 1.0", "0-1"))   # lost, then won
    r = CliRunner().invoke(where_lost, [str(games), "--referee", f"{sys.executable} {script}", "--depth", "3",
                                        "--worst", "2"])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0] == "round 1: resignation, 10 plies, shuai red, lost from ply 9"
    five, nine = expected(0) - expected(-300), expected(-300) - expected(-2000)
    assert lines[1].startswith(f"  ply   5 (opening, phase 1.00, material 48-48)  drop {five:.2f} (0 -> -300)  "
                               f"played i0h0, the referee's a0a1")
    assert nine > 0.2                           # ... but the referee would have played ply 9's move too: its
    assert lines[2].startswith("  ply   1 (opening")    # drop is the referee's horizon, not ranked
    assert lines[3].startswith("1 lost games (1 resignation); the worst move of each: 1 in the opening; median ply 5")
    assert len(lines) == 4                      # the game Shuai won (as Black) is not listed
