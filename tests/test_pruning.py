"""The pruning and extension parts of the search, on real positions, through the search kernels themselves."""
import pytest

from engine.xiangqi.position import Position


@pytest.mark.parametrize("fen, allowed", [
    ("5k3/9/9/9/9/9/9/9/4R4/3K5 w - - 0 1", True),                    # a chariot: null move is safe
    ("3k5/9/9/9/9/2C3H2/9/9/9/4K4 w - - 0 1", True),                   # two pieces
    ("3k5/9/9/9/9/6H2/9/9/9/4K4 w - - 0 1", False),                    # one horse: zugzwang is real
    ("3ak4/4a4/9/9/4p4/9/4P4/9/4A4/4KA3 w - - 0 1", False),            # soldiers and advisors only
])
def test_null_move_is_not_tried_where_zugzwang_is_likely(fen, allowed):
    pos = Position(fen)
    assert bool(pos.game.kernels().null_move_allowed(pos.board, pos.st)) is allowed
