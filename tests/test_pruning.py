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


def test_singular_extension_is_not_stacked_on_a_line_already_extended():
    """``SINGULAR_LINE_EXTENSION``: a node is singular-extended only where its line so far reaches at most that
    many plies beyond the root's depth (xiangqi's default: 1).  Unbounded, in this mate in 3 of the test set (Red
    in check, both sides checking), xiangqi's check extensions and singular extensions stack along the lines of
    checks and every iteration grows: no mate within 60,000 nodes (it needs about 339,000).  Bounded at one ply,
    the mate comes at the nodes the search without singular extension needs (about 15,600)."""
    from engine.searcher import Searcher, search_once
    fen = "3aka3/4n4/4R4/p3p3p/9/3p5/4P1P1P/7C1/1rcNK4/3A1ABN1 w - - 0 1"
    mates = []
    for params in ({"SINGULAR_DEPTH": 0}, {"SINGULAR_LINE_EXTENSION": 99}, {}):
        searcher = Searcher(16)
        searcher.set_params(params)
        mates.append(search_once(Position(fen), nodes=60_000, searcher=searcher).info.mate)
    assert mates == [3, None, 3], mates

