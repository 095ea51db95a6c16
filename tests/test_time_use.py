"""shuai diagnose time-use: the time each engine of a match spent a move, read from the runner's engine traffic."""
import pytest
from click.testing import CliRunner

from engine.tools import time_use

LOG = """\
     3.651 a #1 > position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1
     3.680 a #1 > go time 2000 increment 20 opptime 2000 oppincrement 20
     3.850 a #1 < bestmove h2e2
     3.850 b #2 > position startpos moves e2e4
     3.900 b #2 > go wtime 9000 btime 8000 winc 100 binc 100
     4.150 b #2 < bestmove e7e5
     4.160 a #1 > go depth 5
     4.200 a #1 < bestmove b0c2
     4.210 b #2 > position fen 8/8/8/8/8/8/8/K1k5 w - - 0 1 moves a1a2
     4.220 b #2 > go wtime 5000 btime 3000 winc 100 binc 100
     4.520 b #2 < bestmove c1c2
"""


def test_time_use_reads_both_protocols_clocks_and_skips_untimed_moves(tmp_path):
    log = tmp_path / "match.log"
    log.write_text(LOG)
    assert [(name, number, round(used), clock) for name, number, used, clock in time_use.moves([str(log)])] == [
        ("a", 1, 170, 2000.0),          # UCCI: its own time
        ("b", 1, 250, 8000.0),          # UCI, black to move after one move from the start: btime
        ("b", 2, 300, 3000.0),          # black to move after one move from a FEN with white to move
    ]                                   # a's "go depth 5" (move 2) has no clock and is left out


@pytest.mark.parametrize("position, side", [("position startpos", "w"), ("position startpos moves e2e4", "b"),
                                            ("position fen 8/8/8/8/8/8/8/K1k5 b - - 0 1 moves c1d1 a1a2", "b")])
def test_side_to_move_after_a_position_command(position, side):
    assert time_use.side_to_move(position) == side


def test_time_use_rows_are_named_by_the_moves_they_hold(tmp_path):
    log = tmp_path / "match.log"
    log.write_text(LOG)
    out = CliRunner().invoke(time_use.time_use, [str(log), "--bucket", "1"]).output.splitlines()
    b = next(i for i, line in enumerate(out) if line.startswith("b:"))
    assert out[b + 1:b + 3] == [
        "    1-1   |      1 |   250.0   250.0 |  3.13",
        "    2-2   |      1 |   300.0   300.0 | 10.00"]
