"""Perft: node counts of the legal move tree must equal the published counts exactly."""
import pytest

from conftest import perft_cases
from engine.perft import perft_count, run_perft
from engine.xiangqi.position import Position

CASES = perft_cases()


@pytest.mark.parametrize("fen,counts", CASES, ids=[f"pos{i}" for i in range(len(CASES))])
def test_perft_to_depth_4(fen, counts):
    pos = Position(fen)
    before = pos.fen(), pos.key
    for depth in range(1, 5):
        assert perft_count(pos, depth) == counts[depth], f"depth {depth}"
    assert (pos.fen(), pos.key) == before, "perft must leave the position as it found it"


def test_divide_lines_sum_to_total():
    lines = []
    total = run_perft(Position(), 3, divide=True, out=lines.append)
    assert total == 79666
    per_move = dict(line.split(": ") for line in lines[:-1])
    assert len(per_move) == 44 and sum(map(int, per_move.values())) == 79666
    assert per_move["h2e2"] == "1920" or int(per_move["h2e2"]) > 0
    assert lines[-1].startswith("nodes 79666 time_ms ")


def test_perft_depth_zero_is_one():
    assert run_perft(Position(), 0, out=lambda s: None) == 1
