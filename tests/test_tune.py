"""The tuner's data (issue 13): self-play positions are reproducible and what they claim to be."""
from engine.tune.selfplay import MAX_QUIET_SCORE, Settings, generate, read_positions
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
