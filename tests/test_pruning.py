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



@pytest.mark.parametrize("name, on", [("PROBCUT_DEPTH", 5), ("TT_EVAL", 1), ("GHI_ALL_MOVES", 1)])
def test_pruning_that_waits_for_an_sprt_changes_the_tree_and_finds_every_mate(name, on):
    """ProbCut (step 10 of ``pvs``), the table's bound as a better static evaluation (``_refined``) and path
    dependence from every move of a node not cut off (step 16) wait for an SPRT: off by default.  Turned on,
    the search over the bench positions (depth 8, a fresh table each) takes a different tree, finds every mate
    the search without it finds, at the same distance (perhaps more)."""
    from engine.game import game_named
    from engine.search_params import DEFAULTS, INDEX
    from engine.searcher import Searcher, search_once
    assert DEFAULTS[INDEX[name]] == 0
    bench = game_named("xiangqi").bench()
    runs = []
    for params in ({}, {name: on}):
        results = []
        for fen in bench.FENS:
            searcher = Searcher(16)
            searcher.set_params(params)
            r = search_once(Position(fen), depth=8, searcher=searcher)
            results.append((r.best, r.info.score, r.info.nodes))
        runs.append(results)
    plain, tried = runs
    assert [nodes for _, _, nodes in plain] != [nodes for _, _, nodes in tried]
    mates = [(i, score) for i, (_, score, _) in enumerate(plain) if score > 29000]
    assert len(mates) == 8 and all(tried[i][1] == score for i, score in mates)
