"""FEN: round trips, agreement with pyffish, synonyms, and a clear error for each kind of bad input."""
import re

import pyffish
import pytest

from engine.xiangqi.position import Position, FenError, IllegalMoveError, START_FEN


def test_round_trip_and_pyffish_agree(positions_2500):
    for fen in positions_2500[::4]:
        pos = Position(fen)
        assert pos.fen() == fen
        assert Position(pos.fen()).key == pos.key
        # pyffish normalises the same position to the same board and side fields.
        assert pyffish.get_fen("xiangqi", fen, []).split()[:2] == fen.split()[:2]


def test_moves_update_fen_like_pyffish():
    pos = Position()
    for move, ff in [("h2e2", "h3e3"), ("h9g7", "h10g8"), ("h0g2", "h1g3"), ("i9h9", "i10h10")]:
        before = pos.fen()
        pos.push(move)
        assert pos.fen().split()[:2] == pyffish.get_fen("xiangqi", before, [ff]).split()[:2]
    assert pos.fullmove_number() == 3 and pos.side == 0
    for _ in range(4):
        pos.pop()
    assert pos.fen() == START_FEN


def test_synonyms_and_short_fens():
    assert Position("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w").fen() == START_FEN
    assert Position("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r - - 0 1").side == 0
    assert Position("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR").side == 0
    # The move counters with the castling and en-passant placeholders there, one of them, or none (XBoard's
    # form): the 60-move rule reads the halfmove clock.
    board = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"
    for rest in ("w - - 45 30", "w 45 30", "w - 45 30"):
        assert Position(f"{board} {rest}").fen() == f"{board} w - - 45 30", rest
    assert Position(f"{board} b 45").fen() == f"{board} b - - 45 1"


@pytest.mark.parametrize("fen,message", [
    ("", "empty FEN"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w", "expected 10 ranks"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w", "rank 0 .* has more than 9 files"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w", "has 8 files"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w", "unknown piece 'X'"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x", "side to move"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w", "no red general"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBAKABNR w", "too many red generals"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w - - 0 1".replace("1C5C1", "KC5C1"),
     "red general outside the palace"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/AC5C1/9/RNB1KABNR w", "red advisor outside the palace"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C1B3C1/9/RN1AKABNR w", "red elephant on an impossible square"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1CP4C1/9/RNBAKABNR w", "red soldier on an impossible square"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/R8/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "too many red chariots"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1", "must be integers"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 2147483648 1", "must be at most"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w 0 99999999999999999999", "must be at most"),
    ("4k4/9/9/9/9/9/9/9/9/4K4 w", "side not to move (black) is in check"),
    ("4k4/9/9/9/9/9/9/9/9/4K4 b", "side not to move (red) is in check"),
])
def test_bad_fens_are_named(fen, message):
    with pytest.raises(FenError, match=message if ".*" in message else re.escape(message)):
        Position(fen)


def test_failed_set_fen_keeps_the_old_position():
    pos = Position()
    pos.push("h2e2")
    with pytest.raises(FenError):
        pos.set_fen("garbage")
    assert pos.fen().startswith("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b")


@pytest.mark.parametrize("move,message", [("h2e3", "illegal move"), ("z9z9", "bad"), ("h2", "bad move"),
                                          ("e0e2", "illegal move"), ("h7e7", "illegal move")])
def test_illegal_moves_are_refused(move, message):
    pos = Position()
    with pytest.raises(IllegalMoveError, match=message):
        pos.push(move)
    assert pos.fen() == START_FEN


def test_iccs_dash_form_is_accepted():
    pos = Position()
    pos.push("H2-E2")
    assert pos.fen().split()[1] == "b"


def test_the_position_docstring_examples_hold():
    """``BasePosition``'s examples (one for each game) are run, so the documentation cannot drift."""
    import doctest
    import engine.position
    result = doctest.testmod(engine.position)
    assert result.failed == 0 and result.attempted >= 6
