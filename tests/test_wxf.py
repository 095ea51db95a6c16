"""Chinese and WXF move notation (engine.xiangqi.wxf): known names, tandem pieces, round trips on random
positions, and clear errors for bad input."""
import random

import pytest

from conftest import random_positions
from engine.xiangqi.position import FenError, Position
from engine.xiangqi.wxf import MoveNames, MoveParseError, file_of_number, side_file


def names_by_iccs(fen):
    pos = Position(fen)
    return pos, {n.iccs: n for n in MoveNames.of(pos).names}


def check(fen, cases):
    """cases: iccs -> (chinese, wxf)"""
    pos, names = names_by_iccs(fen)
    for iccs, (cn, wxf) in cases.items():
        assert iccs in names, f"{iccs} is not legal in {fen}"
        assert (names[iccs].chinese, names[iccs].wxf) == (cn, wxf), iccs
        parser = MoveNames.of(pos)
        assert parser.parse(cn) == names[iccs].move
        assert parser.parse(wxf) == names[iccs].move


START = Position().fen()


def test_notation_and_constants_load_no_compiled_code():
    """The Python edges (notation, constants, move packing) must not pull in numba: GUIs wait on them."""
    import subprocess
    import sys
    code = ("import sys, engine.xiangqi.wxf, engine.xiangqi.constants, engine.move, engine.game; "
            "print('numba' in sys.modules, 'numpy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_file_numbers():
    # Red counts from its right: file i is Red's 1, file a Red's 9.  Black sits opposite: its right hand is
    # towards file a, so file a is Black's 1 and file i Black's 9.
    assert [side_file(0, f) for f in range(9)] == [9, 8, 7, 6, 5, 4, 3, 2, 1]
    assert [side_file(1, f) for f in range(9)] == [1, 2, 3, 4, 5, 6, 7, 8, 9]
    for side in (0, 1):
        assert all(file_of_number(side, side_file(side, f)) == f for f in range(9))


def test_red_opening_moves():
    check(START, {
        "h2e2": ("炮二平五", "C2=5"),       # the central cannon
        "b2e2": ("炮八平五", "C8=5"),
        "h0g2": ("马二进三", "H2+3"),
        "b0c2": ("马八进七", "H8+7"),
        "i0i1": ("车一进一", "R1+1"),
        "a0a2": ("车九进二", "R9+2"),
        "g0e2": ("相三进五", "E3+5"),
        "c0e2": ("相七进五", "E7+5"),
        "f0e1": ("仕四进五", "A4+5"),
        "d0e1": ("仕六进五", "A6+5"),
        "e0e1": ("帅五进一", "K5+1"),
        "c3c4": ("兵七进一", "P7+1"),
        "g3g4": ("兵三进一", "P3+1"),
        "b2b9": ("炮八进七", "C8+7"),       # takes the horse
        "h2h1": ("炮二退一", "C2-1"),
    })


def test_black_replies():
    black_first = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1"
    check(black_first, {
        "h9g7": ("马8进7", "H8+7"),
        "b9c7": ("马2进3", "H2+3"),
        "b7e7": ("炮2平5", "C2=5"),
        "h7e7": ("炮8平5", "C8=5"),
        "h7h0": ("炮8进7", "C8+7"),         # takes the horse on h0: seven ranks towards Red
        "h7h8": ("炮8退1", "C8-1"),
        "a9a8": ("车1进1", "R1+1"),
        "i9i7": ("车9进2", "R9+2"),
        "c9e7": ("象3进5", "E3+5"),
        "g9e7": ("象7进5", "E7+5"),
        "d9e8": ("士4进5", "A4+5"),
        "f9e8": ("士6进5", "A6+5"),
        "e9e8": ("将5进1", "K5+1"),
        "c6c5": ("卒3进1", "P3+1"),
        "g6g5": ("卒7进1", "P7+1"),
    })


def test_retreats_and_sideways_for_black():
    # black chariot on d4 (black file 4), black horse on f5 (black file 6)
    fen = "4k4/9/9/9/5n3/3r5/9/9/9/5K3 b - - 0 1"
    check(fen, {
        "d4d7": ("车4退3", "R4-3"),
        "d4d1": ("车4进3", "R4+3"),
        "d4a4": ("车4平1", "R4=1"),
        "f5e7": ("马6退5", "H6-5"),
        "f5g3": ("马6进7", "H6+7"),
    })


def test_two_chariots_on_a_file():
    fen = "4k4/9/9/9/R8/9/9/9/9/R2K5 w - - 0 1"
    check(fen, {
        "a5a6": ("前车进一", "R++1"),
        "a5a4": ("前车退一", "R+-1"),
        "a5b5": ("前车平八", "R+=8"),
        "a0a1": ("后车进一", "R-+1"),
        "a0b0": ("后车平八", "R-=8"),
    })
    pos, names = names_by_iccs(fen)
    parser = MoveNames.of(pos)
    assert parser.parse("+R-1") == names["a5a4"].move              # the other WXF spelling
    assert parser.parse("r+.8") == names["a5b5"].move              # lower case, '.' for sideways
    assert parser.parse("车前退一") == names["a5a4"].move           # traditional word order
    assert parser.parse("車前退一") == names["a5a4"].move
    assert parser.parse("俥九退一") == names["a5a4"].move            # plain file: only the front one can
    with pytest.raises(MoveParseError, match="ambiguous"):
        parser.parse("车九进一")                                    # both can: say so, list them
    with pytest.raises(MoveParseError, match="ambiguous"):
        parser.parse("R9=8")


def test_two_black_horses_on_a_file():
    fen = "4k4/9/7n1/9/9/9/7n1/9/9/3K5 b - - 0 1"        # horses on h7 and h3; Black's front is h3
    check(fen, {
        "h3g1": ("前马进7", "H++7"),
        "h3i5": ("前马退9", "H+-9"),
        "h7g5": ("后马进7", "H-+7"),
        "h7g9": ("后马退7", "H--7"),
    })


def test_two_advisors_on_a_file_keep_the_file_number():
    fen = "4k4/9/9/9/9/9/9/3A5/9/3A1K3 w - - 0 1"
    check(fen, {"d0e1": ("仕六进五", "A6+5"), "d2e1": ("仕六退五", "A6-5")})
    pos, names = names_by_iccs(fen)
    assert MoveNames.of(pos).parse("前仕退五") == names["d2e1"].move


def test_three_soldiers_on_a_file():
    fen = "3k5/9/4P4/4P4/4P4/9/9/9/9/4K4 w - - 0 1"       # red soldiers e7 e6 e5
    check(fen, {
        "e7e8": ("前兵进一", "P++1"),
        "e7d7": ("前兵平六", "P+=6"),
        "e6f6": ("中兵平四", "P5=4"),
        "e5d5": ("后兵平六", "P-=6"),
    })
    pos, names = names_by_iccs(fen)
    parser = MoveNames.of(pos)
    assert parser.parse("二兵平四") == names["e6f6"].move
    assert parser.parse("+P+1") == names["e7e8"].move


def test_three_black_soldiers_on_a_file():
    fen = "4k4/9/9/9/9/2p6/2p6/2p6/9/3K5 b - - 0 1"       # black soldiers c4 c3 c2; Black's front is c2
    check(fen, {
        "c2c1": ("前卒进1", "P++1"),
        "c2d2": ("前卒平4", "P+=4"),
        "c3b3": ("中卒平2", "P3=2"),
        "c4d4": ("后卒平4", "P-=4"),
    })


def test_five_and_four_soldiers_on_a_file():
    five = "3k5/4P4/4P4/4P4/4P4/4P4/9/9/9/4K4 w - - 0 1"    # e8 e7 e6 e5 e4
    check(five, {
        "e8e9": ("一兵进一", "+++1"),
        "e8d8": ("一兵平六", "++=6"),
        "e7d7": ("二兵平六", "P+=6"),
        "e6d6": ("三兵平六", "P5=6"),
        "e5f5": ("四兵平四", "P-=4"),
    })
    pos, names = names_by_iccs(five)
    assert MoveNames.of(pos).parse("前兵平六") == names["e8d8"].move      # 前 = the first of five
    four = "3k5/4P4/4P4/4P4/4P4/9/9/9/9/4K4 w - - 0 1"      # e8 e7 e6 e5
    check(four, {
        "e8d8": ("一兵平六", "++=6"),
        "e7d7": ("二兵平六", "P+=6"),
        "e6d6": ("三兵平六", "P-=6"),
        "e5d5": ("四兵平六", "--=6"),
    })
    pos, names = names_by_iccs(four)
    assert MoveNames.of(pos).parse("后兵平六") == names["e5d5"].move      # 后 = the last


def test_soldiers_doubled_on_two_files():
    fen = "3k5/9/2P6/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1"    # c7 c6 c5 (Red's 七), g6 g5 (Red's 三)
    check(fen, {
        "c7c8": ("前七进一", "7++1"),
        "c7b7": ("前七平八", "7+=8"),
        "c6b6": ("中七平八", "77=8"),
        "c5d5": ("后七平六", "7-=6"),
        "g6g7": ("前三进一", "3++1"),
        "g5h5": ("后三平二", "3-=2"),
    })
    black = "4k4/9/9/9/9/2p3p2/2p3p2/9/9/3K5 b - - 0 1"   # c4 c3, g4 g3: Black's 3 and 7
    check(black, {
        "c3c2": ("前3进1", "3++1"),
        "c4b4": ("后3平2", "3-=2"),
        "g3h3": ("前7平8", "7+=8"),
        "g4f4": ("后7平6", "7-=6"),
    })


def test_input_variants():
    pos = Position()
    names = MoveNames.of(pos)
    h2e2 = names.parse("h2e2")
    for text in ("H2-E2", " h2e2 ", "h2-e2", "炮二平五", "炮2平5", "砲二平五", "包二平五", "c2=5", "C2.5",
                 "C2=5", "炮 二 平 五", "ｈ２ｅ２", "炮２平５"):
        assert names.parse(text) == h2e2, text
    b0c2 = names.parse("b0c2")
    for text in ("马八进七", "馬八進七", "傌八进七", "H8+7", "N8+7", "h8+7"):
        assert names.parse(text) == b0c2, text
    assert names.parse("相三进五") == names.parse("B3+5") == names.parse("g0e2")


@pytest.mark.parametrize("text, message", [
    ("", "empty"),
    ("hello", "cannot read"),
    ("h2e3", "not a legal move"),
    ("h2h2", "must go somewhere"),
    ("炮二平九十", "cannot read"),
    ("炮五平四", "not a legal move"),       # no cannon on file 五
    ("马二进四", "not a legal move"),
    ("C2=0", "cannot read"),
    ("Z2=5", "cannot read"),
    ("象棋", "cannot read"),
    ("前车进一", "not a legal move"),       # no tandem chariots
])
def test_bad_input_is_a_clear_error(text, message):
    with pytest.raises(MoveParseError, match=message):
        MoveNames.of(Position()).parse(text)


def test_garbage_never_crashes():
    rng = random.Random(7)
    alphabet = "abchiz0129+-=.前后中车马炮兵卒进退平一二九 ＋ｈ２\t\x00é"
    names = MoveNames.of(Position())
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 7)))
        try:
            names.parse(text)
        except MoveParseError:
            pass


def _variants(cn):
    table = str.maketrans("马车炮兵帅将进后", "馬車砲卒帥將進後")
    return [cn, cn.translate(table)]


def round_trip(fen):
    pos = Position(fen)
    names = MoveNames.of(pos)
    chinese = [n.chinese for n in names.names]
    wxf = [n.wxf for n in names.names]
    assert len(set(chinese)) == len(chinese), (fen, chinese)
    assert len(set(wxf)) == len(wxf), (fen, wxf)
    for n in names.names:
        for text in _variants(n.chinese) + [n.wxf, n.wxf.lower(), n.iccs, f"{n.iccs[:2]}-{n.iccs[2:]}".upper()]:
            assert names.parse(text) == n.move, (fen, text, n)
    return len(names.names)


def test_round_trip_on_random_games():
    total = sum(round_trip(fen) for fen in random_positions(600, seed=4242, max_plies=160))
    assert total > 10000


def random_placement(rng):
    """A random legal-looking position with many soldiers, often several on one file (tandem names)."""
    board = [[" "] * 9 for _ in range(10)]
    used = set()

    def put(ch, squares):
        free = [s for s in squares if s not in used]
        if free:
            f, r = rng.choice(free)
            used.add((f, r))
            board[r][f] = ch

    palace = {0: [(f, r) for f in (3, 4, 5) for r in (0, 1, 2)], 1: [(f, r) for f in (3, 4, 5) for r in (7, 8, 9)]}
    for side in (0, 1):
        up = str.upper if side == 0 else str.lower
        own = range(0, 5) if side == 0 else range(5, 10)
        far = range(5, 10) if side == 0 else range(0, 5)
        put(up("k"), palace[side])
        files = rng.sample(range(9), rng.randint(1, 3))
        for _ in range(rng.randint(2, 5)):
            put(up("p"), [(f, r) for f in files for r in far])
        for ch, n in (("r", 2), ("n", 2), ("c", 2)):
            for _ in range(rng.randint(0, n)):
                put(up(ch), [(f, r) for f in range(9) for r in range(10)])
        for _ in range(rng.randint(0, 2)):
            put(up("a"), [(f, r) for f, r in palace[side] if (f + r) % 2 == (1 if side == 0 else 0)])
        for _ in range(rng.randint(0, 2)):
            put(up("b"), [(f, r) for f in (0, 2, 4, 6, 8) for r in own if (f // 2 + r) % 2 == 0 and
                          r in ((0, 2, 4) if side == 0 else (5, 7, 9))])
    rows = []
    for r in range(9, -1, -1):
        row, empty = "", 0
        for f in range(9):
            if board[r][f] == " ":
                empty += 1
            else:
                row += (str(empty) if empty else "") + board[r][f]
                empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + (" w" if rng.random() < 0.5 else " b") + " - - 0 1"


def test_round_trip_on_random_placements_with_tandem_soldiers():
    rng = random.Random(99)
    done, tandem = 0, 0
    while done < 400:
        fen = random_placement(rng)
        try:
            pos = Position(fen)
        except FenError:
            continue
        if not pos.legal_moves():
            continue
        round_trip(fen)
        names = MoveNames.of(pos).names
        tandem += any(n.chinese[0] in "前中后一二三四五" for n in names)
        done += 1
    assert tandem > 150          # the point of this test: many positions with tandem pieces
