"""Chess endgame tables: index, generator (checked against python-chess's move generator), longest mates,
known positions, en passant, probing from Python, the command line and the search."""
import random
from pathlib import Path

import chess
import numpy as np
import pytest
from click.testing import CliRunner

from engine.chess.tables import DEFAULT_SET as CHESS_DEFAULT_SET, MAGIC, SUFFIX, Tablebases as ChessTablebases
from engine.chess.tables.build.generate import generate_table as generate_chess_table
from engine.chess.tables.index import (FLIP, TRANSFORM, Material as ChessMaterial, decode, encode_board,
                                       parse_material as parse_chess_material)
from engine.egtb.build import Builder, plan
from engine.egtb.codes import DIST0, DRAW, ILLEGAL
from engine.egtb.material import MAX_SLOTS, MaterialError as ChessMaterialError
from engine.egtb.store import TableFile, table_path
from engine.egtb.tableset import TableSet
from engine.game import CHESS, XIANGQI

pytestmark = pytest.mark.filterwarnings("ignore:Code running in object mode")

ROOT = Path(__file__).resolve().parent.parent
# A few seconds in all; KBvKN (3.8 M entries, 2.5 s), the quickest four-piece table with a piece on each side
# (a draw but for its mates in one), stands for the default set's four-piece tables, which take minutes to
# build and are checked below only where they are built.
BUILT = ["KQvK", "KRvK", "KPvK", "KBBvK", "KBNvK", "KBvKN"]
# Published longest mates (moves, side to move wins): KQK 10, KRK 16, KBBK 19, KBNK 33, KPK 28.
LONGEST_MOVES = {"KQvK": 10, "KRvK": 16, "KBBvK": 19, "KBNvK": 33, "KPvK": 28}
DEFAULT_DIR = ROOT / "tablebases"


# ------------------------------------------------------------------------------------------------------------
# An independent reference: python-chess's moves, the tables looked up child by child
# ------------------------------------------------------------------------------------------------------------

def board_array(b: chess.Board) -> np.ndarray:
    arr = np.zeros(64, np.int8)
    for sq, pc in b.piece_map().items():
        arr[sq] = pc.piece_type + (0 if pc.color == chess.WHITE else 8)
    return arr


def pychess_board(arr, side) -> chess.Board:
    b = chess.Board(None)
    for sq in range(64):
        p = int(arr[sq])
        if p:
            b.set_piece_at(sq, chess.Piece(p & 7, chess.WHITE if p < 8 else chess.BLACK))
    b.turn = side == 0
    return b


def goodness(code):
    if code >= DIST0:
        d = code - DIST0
        return 1_000_000 - d if d % 2 else -1_000_000 + d
    return 0


def insufficient(b: chess.Board) -> bool:
    """No side can ever mate: bare kings, or one knight or bishop alone."""
    pieces = [p for p in b.piece_map().values() if p.piece_type != chess.KING]
    return not pieces or (len(pieces) == 1 and pieces[0].piece_type in (chess.KNIGHT, chess.BISHOP))


class Reference:
    """Value codes of python-chess boards, read from table values by material (``values(material)``);
    a board with a usable en-passant capture takes the better of the stored position and the capture."""

    def __init__(self, values):
        self.values = values
        self.work = np.zeros(MAX_SLOTS, np.int64)

    def code(self, b: chess.Board) -> int:
        arr = board_array(b)
        if insufficient(b):
            stored = DRAW
        else:
            canon, flip = ChessMaterial.from_board(arr).canonical()
            idx = encode_board(arr, 0 if b.turn else 1, canon.spec(), flip, self.work)
            assert idx >= 0
            stored = int(self.values(canon)[idx])
        if not b.has_legal_en_passant():
            return stored
        best = stored
        for mv in b.legal_moves:
            if b.is_en_passant(mv):
                b.push(mv)
                child = self.code(b)
                b.pop()
                mine = child + 1 if child >= DIST0 else DRAW
                if goodness(mine) > goodness(best):
                    best = mine
        return best

    def expected(self, b: chess.Board) -> int:
        """The retrograde equation: mate = loss 0, stalemate = draw, else the best child for the mover (a child
        lost in n: won in n + 1; all children won, the longest n: lost in n + 1)."""
        moves = list(b.legal_moves)
        if not moves:
            return DIST0 if b.is_check() else DRAW
        best = None
        for mv in moves:
            b.push(mv)
            child = self.code(b)
            b.pop()
            mine = child + 1 if child >= DIST0 else DRAW
            if best is None or goodness(mine) > goodness(best):
                best = mine
        return best


def legal_samples(material, values, count, seed, want=None):
    """(index, python-chess board) of random legal, canonical entries (and satisfying ``want``)."""
    spec = material.spec()
    psq = np.zeros(MAX_SLOTS, np.int64)
    arr = np.zeros(64, np.int8)
    work = np.zeros(MAX_SLOTS, np.int64)
    rng = random.Random(seed)
    out = []
    tries = 0
    while len(out) < count:
        tries += 1
        assert tries < 200 * count + 10000
        idx = rng.randrange(material.size)
        if values[idx] == ILLEGAL:
            continue
        side = decode(idx, spec, psq, arr)
        if side < 0 or encode_board(arr, side, spec, False, work) != idx:
            continue
        b = pychess_board(arr, side)
        if not b.is_valid() or (want is not None and not want(b)):
            continue
        out.append((idx, b))
    return out


def file_values(directory):
    cache = {}

    def get(m):
        if m not in cache:
            with TableFile(table_path(directory, m.name, SUFFIX), MAGIC) as f:
                cache[m] = f.read_all()
        return cache[m]
    return get


@pytest.fixture(scope="module")
def tbdir(tmp_path_factory):
    d = tmp_path_factory.mktemp("chess_tables")
    Builder(CHESS, d).build(BUILT)
    return d


@pytest.fixture(scope="module")
def values(tbdir):
    return file_values(tbdir)


def max_win_moves(v):
    d = v[v >= DIST0].astype(np.int64) - DIST0
    return (int(d[d % 2 == 1].max()) + 1) // 2


# ------------------------------------------------------------------------------------------------------------
# Materials and index
# ------------------------------------------------------------------------------------------------------------

def test_material_names_orientation_and_sizes():
    assert parse_chess_material("KNBvK").name == "KBNvK"
    assert parse_chess_material("KvKQ").canonical() == (parse_chess_material("KQvK"), True)
    assert parse_chess_material("KNvKB").canonical()[0].name == "KBvKN"
    assert parse_chess_material("KPvKP").canonical() == (parse_chess_material("KPvKP"), False)
    assert parse_chess_material("KQvK").size == 2 * 462 * 64
    assert parse_chess_material("KBNvK").size == 2 * 462 * 64 * 64
    assert parse_chess_material("KBBvK").size == 2 * 462 * 2016
    assert parse_chess_material("KPvKP").size == 2 * 1806 * 48 * 48
    assert {m.name for m in parse_chess_material("KPvK").subtables()} == {"KQvK", "KRvK"}   # KB, KN: draws
    assert {m.name for m in parse_chess_material("KQvKP").subtables()} == {
        "KQvK", "KQvKQ", "KQvKR", "KQvKB", "KQvKN", "KPvK", "KRvK"}     # ...e1=R taking the queen: KvKR
    assert all(parse_chess_material(n).trivial() for n in ("KvK", "KNvK", "KvKB"))
    assert not parse_chess_material("KNNvK").trivial()
    names = [m.name for m in plan(["KPvKP"], parse_chess_material)]
    assert names[-1] == "KPvKP" and names.index("KQvKQ") < names.index("KQvKP") < names.index("KPvKP")
    for bad in ("KQK", "KXvK", "KQQQvK", "KQRBvKN"):
        with pytest.raises(ChessMaterialError):
            parse_chess_material(bad)


@pytest.mark.parametrize("name", ["KQvK", "KBNvK", "KBBvK", "KPvK", "KRvKP", "KPvKP"])
def test_index_round_trip_and_symmetries(name):
    m = parse_chess_material(name)
    spec = m.spec()
    psq = np.zeros(MAX_SLOTS, np.int64)
    work = np.zeros(MAX_SLOTS, np.int64)
    arr = np.zeros(64, np.int8)
    rng = random.Random(name)
    transforms = (0, 1) if m.has_pawns else range(8)
    seen = 0
    for _ in range(2000):
        idx = rng.randrange(m.size)
        side = decode(idx, spec, psq, arr)
        if side < 0:
            continue
        seen += 1
        own = encode_board(arr, side, spec, False, work)
        # Every image of the board under the index's symmetries has the same index (one stored image).
        for t in transforms:
            image = np.zeros(64, np.int8)
            image[TRANSFORM[t]] = arr
            assert encode_board(image, side, spec, False, work) == own
        # Colours swapped and the board turned over: found through the flip.
        flipped = np.zeros(64, np.int8)
        for sq in range(64):
            if arr[sq]:
                flipped[FLIP[sq]] = arr[sq] ^ 8
        assert encode_board(flipped, side ^ 1, spec, True, work) == own
    assert seen > 1000


# ------------------------------------------------------------------------------------------------------------
# The generator against python-chess
# ------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name,count", [("KQvK", 300), ("KRvK", 300), ("KPvK", 400), ("KBBvK", 300),
                                        ("KBNvK", 300), ("KBvKN", 300)])
def test_retrograde_equations_hold(values, name, count):
    """Each sampled position's value is the best of its children's (python-chess's legal moves; children in
    smaller tables looked up there, or drawn by insufficient material)."""
    ref = Reference(values)
    m = parse_chess_material(name)
    v = values(m)
    for idx, b in legal_samples(m, v, count, seed=hash(name) & 0xFFFF):
        assert int(v[idx]) == ref.expected(b), b.fen()


def test_illegal_entries_are_illegal_or_other_images(tbdir):
    """Entries the generator marks don't-care: overlapping pieces, the side not to move in check, or the
    second image of a position whose kings both stand on the diagonal (never looked up)."""
    b = Builder(CHESS, tbdir)
    for name in ("KQvK", "KPvK"):
        m = parse_chess_material(name)
        vals = generate_chess_table(m, b.load)[0]
        spec = m.spec()
        psq = np.zeros(MAX_SLOTS, np.int64)
        arr = np.zeros(64, np.int8)
        work = np.zeros(MAX_SLOTS, np.int64)
        illegal = np.flatnonzero(vals == ILLEGAL)
        for idx in random.Random(3).sample(list(illegal), 500):
            side = decode(int(idx), spec, psq, arr)
            if side < 0:
                continue
            valid = pychess_board(arr, side).is_valid()
            assert not valid or encode_board(arr, side, spec, False, work) != idx
        with TableFile(table_path(tbdir, name, SUFFIX), MAGIC) as f:
            stored = f.read_all()
        legal = vals != ILLEGAL
        assert np.array_equal(stored[legal], vals[legal])        # the file holds the generator's values


def test_longest_mates_are_the_published_ones(values):
    for name, moves in LONGEST_MOVES.items():
        assert max_win_moves(values(parse_chess_material(name))) == moves, name


def test_kbbk_same_coloured_bishops_never_win(values):
    m = parse_chess_material("KBBvK")
    v = values(m)
    samples = legal_samples(m, v, 300, seed=7)
    assert sum(v[idx] != DRAW for idx, _ in samples) > 100          # opposite colours mostly win
    for idx, b in samples:
        bishops = list(b.pieces(chess.BISHOP, chess.WHITE))
        same = (chess.square_file(bishops[0]) + chess.square_rank(bishops[0])) % 2 == \
            (chess.square_file(bishops[1]) + chess.square_rank(bishops[1])) % 2
        if same:
            assert v[idx] == DRAW, b.fen()                 # no mate exists with them at all


# ------------------------------------------------------------------------------------------------------------
# Known positions, probing
# ------------------------------------------------------------------------------------------------------------

KNOWN = [
    ("8/8/8/4k3/8/8/8/R3K3 w - - 0 1", "win"),          # KRK, the defending king in the centre
    ("8/8/8/4k3/8/8/8/R3K3 b - - 0 1", "loss"),
    ("8/8/8/8/8/8/1Qk5/7K b - - 0 1", "draw"),          # the king takes the queen: bare kings
    ("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1", "loss 0"),       # mated
    ("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1", "draw"),         # stalemate
    ("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1", "win"),         # KPK: the king in front of its pawn on the sixth
    ("4k3/8/4K3/4P3/8/8/8/8 b - - 0 1", "loss"),
    ("8/4k3/8/4K3/4P3/8/8/8 w - - 0 1", "draw"),        # the defender has the opposition
    ("8/4k3/8/4K3/4P3/8/8/8 b - - 0 1", "loss"),        # ... and without it
    ("8/k7/8/P7/8/8/8/7K w - - 0 1", "draw"),           # the rook pawn, the defending king in front
    ("4k3/4P3/4K3/8/8/8/8/8 b - - 0 1", "draw"),        # stalemate
    ("8/8/8/8/8/8/8/K6k w - - 0 1", "draw"),            # bare kings: no table needed
    ("8/8/8/8/8/1k6/8/KN6 w - - 0 1", "draw"),          # one knight cannot mate
    ("8/8/8/8/4q3/8/8/K6k b - - 0 1", "win"),           # colours the other way round (KvKQ)
    ("R3K3/8/8/8/8/8/8/4k3 w - - 0 1", "win"),          # a mirrored KRK position
]


@pytest.mark.parametrize("fen,expected", KNOWN)
def test_known_positions(tbdir, fen, expected):
    result = str(ChessTablebases(tbdir).probe(fen))
    assert result == expected or (result.split()[0] == expected and " " not in expected)


def test_probe_result_is_the_reference_and_best_moves_keep_the_distance(tbdir, values):
    from engine.chess.position import Position
    tbs = ChessTablebases(tbdir)
    ref = Reference(values)
    fen = "8/8/8/4k3/8/8/8/R3K3 w - - 0 1"
    pos = Position(fen)
    code = ref.code(chess.Board(fen))
    assert tbs.probe(pos).plies == code - DIST0 == 27
    plies = 27
    while plies > 0:                                     # the tables' line mates in exactly the announced plies
        ranked = tbs.rank_moves(pos)
        pos.push(ranked[0][1])
        plies -= 1
        assert tbs.probe(pos).plies == plies
    assert pos.legal_moves() == [] and pos.in_check()


def test_castling_rights_are_unknown_and_other_material_too(tbdir):
    tbs = ChessTablebases(tbdir)
    assert str(tbs.probe("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")) == "unknown"
    assert str(tbs.probe("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")).startswith("win")
    assert str(tbs.probe("4k3/8/8/8/8/8/8/RR2K3 w - - 0 1")) == "unknown"       # KRRvK: not built


def test_xiangqi_tables_open_the_chess_ones_for_chess(tbdir):
    """The engine's one ``TableSet`` answers chess positions through ``for_game``."""
    from engine.chess.position import Position
    tbs = TableSet(tbdir)
    assert tbs.for_game(XIANGQI).names == [] and tbs.for_game(XIANGQI) is tbs.for_game(XIANGQI)
    chess_tbs = tbs.for_game(CHESS)
    assert set(chess_tbs.names) == set(BUILT) and tbs.for_game(CHESS) is chess_tbs
    assert str(tbs.probe(Position("8/8/8/4k3/8/8/8/R3K3 w - - 0 1"))) == "win 27"
    assert str(tbs.probe("8/8/8/4k3/8/8/8/R3K3 w - - 0 1")) == "win 27"


def test_the_kernel_probe_agrees_with_python(tbdir, values):
    from engine.chess.tables.probe import tb_probe as chess_tb_probe
    tbs = ChessTablebases(tbdir, memory_mb=1)
    for name in ("KQvK", "KPvK", "KBNvK"):
        m = parse_chess_material(name)
        for idx, b in legal_samples(m, values(m), 50, seed=11):
            arr = board_array(b)
            code = chess_tb_probe(tbs.arrays, arr, 0 if b.turn else 1, True)
            assert code == tbs.probe_code(arr, 0 if b.turn else 1) == values(m)[idx]
    arr = board_array(chess.Board("8/8/8/8/8/1k6/8/KN6 w - - 0 1"))
    assert chess_tb_probe(tbs.arrays, arr, 0, True) == DRAW


def test_cli_build_and_probe(tmp_path):
    from engine.egtb.cli import tb
    runner = CliRunner()
    r = runner.invoke(tb, ["build", "--game", "chess", "KRvK", "KNvK", "--dir", str(tmp_path), "-q"])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "KRvK.ctb").is_file() and not (tmp_path / "KNvK.ctb").exists()
    r = runner.invoke(tb, ["probe", "--dir", str(tmp_path), "--fen", "8/8/8/4k3/8/8/8/R3K3 w - - 0 1", "--best"])
    assert r.exit_code == 0 and r.output.split("\n")[:2] == ["win 27", "bestmove e1e2"], r.output
    r = runner.invoke(tb, ["probe", "--dir", str(tmp_path), "--fen", "8/8/8/8/8/8/8/K6k w - - 0 1"])
    assert r.output.strip() == "draw"
    r = runner.invoke(tb, ["build", "--game", "chess", "KXvK", "--dir", str(tmp_path)])
    assert r.exit_code == 2


def test_the_default_set_covers_the_named_endings():
    names = {m.name for m in plan(CHESS_DEFAULT_SET, parse_chess_material)}
    for n in ("KQvK", "KRvK", "KBNvK", "KBBvK", "KPvK", "KQvKR", "KRvKB", "KRvKN", "KQvKP", "KRvKP", "KPvKP"):
        assert n in names


# ------------------------------------------------------------------------------------------------------------
# The search
# ------------------------------------------------------------------------------------------------------------

def chess_searcher(directory, probe_depth=1):
    from engine.searcher import Searcher
    searcher = Searcher(16)
    tables = TableSet(directory)
    searcher.set_tablebases(tables, probe_depth)
    return searcher, tables.for_game(CHESS)


def test_a_chess_root_in_the_tables_is_played_from_them(tbdir):
    from engine.chess.position import Position
    from engine.searcher import search_once
    searcher, tbs = chess_searcher(tbdir)
    pos = Position("8/8/8/4k3/8/8/8/R3K3 w - - 0 1")
    r = search_once(pos, depth=20, searcher=searcher)
    assert r.info.nodes == 0 and r.info.mate == 14 and len(r.info.pv) == 27
    walk = pos.copy()
    for m in r.info.pv:
        walk.push(m)
    assert walk.legal_moves() == [] and walk.in_check()


def test_a_root_mate_the_move_limit_would_come_before_is_left_to_the_search(tbdir):
    """The tables count no move clock.  KPK, 99 plies without a capture or a pawn move: the tables' mate in 10
    by a king move would be a draw at once by the 50-move rule; the search, which knows the rule, pushes the
    pawn (resetting the clock) and keeps the win.  With a fresh clock the root is played from the tables."""
    from engine.chess.position import Position
    from engine.searcher import search_once
    searcher, _ = chess_searcher(tbdir)
    fresh = search_once(Position("8/8/7P/8/6K1/k7/8/8 w - - 0 1"), depth=12, searcher=searcher)
    assert fresh.info.nodes == 0 and fresh.info.mate == 10
    searcher.new_game()
    late = search_once(Position("8/8/7P/8/6K1/k7/8/8 w - - 99 1"), depth=12, searcher=searcher)
    assert late.info.nodes > 0 and late.best == "h6h7"


def test_the_chess_search_enters_the_tables_through_captures(tbdir):
    """KRvKN is not built here: the king takes the knight (into KRvK) and the search reads the rest from the
    tables."""
    from engine.chess.position import Position
    from engine.searcher import Searcher, search_once
    fen = "8/8/8/3k4/8/8/3n4/R2K4 w - - 0 1"          # Kxd2
    searcher, tbs = chess_searcher(tbdir)
    assert str(tbs.probe(fen)) == "unknown"
    r = search_once(Position(fen), depth=5, searcher=searcher)
    assert r.info.tbhits > 0 and r.info.mate is not None and r.info.mate > 0
    plain = search_once(Position(fen), depth=5, searcher=Searcher(16))
    assert plain.info.tbhits == 0 and plain.info.mate is None


# ------------------------------------------------------------------------------------------------------------
# The default set, when it is built (``shuai tb build --game chess --default``): the four-piece tables and
# en passant
# ------------------------------------------------------------------------------------------------------------

FOUR = ["KQvKR", "KRvKB", "KRvKN", "KQvKP", "KRvKP", "KPvKP", "KQvKQ", "KQvKB", "KQvKN", "KRvKR", "KBvKP",
        "KNvKP", "KBvKB", "KBvKN", "KNvKN"]
needs_default = pytest.mark.skipif(not all((DEFAULT_DIR / f"{n}{SUFFIX}").is_file() for n in FOUR),
                                   reason="the default chess set is not built (shuai tb build --game chess --default)")


@needs_default
@pytest.mark.parametrize("name", FOUR)
def test_four_piece_tables_hold_the_retrograde_equations(name):
    vals = file_values(DEFAULT_DIR)
    ref = Reference(vals)
    m = parse_chess_material(name)
    for idx, b in legal_samples(m, vals(m), 300, seed=5):
        assert int(vals(m)[idx]) == ref.expected(b), b.fen()


def _double_step_allows_en_passant(b):
    for mv in b.legal_moves:
        if b.piece_type_at(mv.from_square) == chess.PAWN and abs(mv.to_square - mv.from_square) == 16:
            b.push(mv)
            ep = b.has_legal_en_passant()
            b.pop()
            if ep:
                return True
    return False


@needs_default
def test_en_passant_is_part_of_the_values():
    """KPvKP positions with a double step that allows an en-passant capture: their values account for it
    (the reference values the child with the right), and it matters for most of those children."""
    vals = file_values(DEFAULT_DIR)
    ref = Reference(vals)
    m = parse_chess_material("KPvKP")
    differ = 0
    for idx, b in legal_samples(m, vals(m), 150, seed=9, want=_double_step_allows_en_passant):
        assert int(vals(m)[idx]) == ref.expected(b), b.fen()
        for mv in b.legal_moves:
            if b.piece_type_at(mv.from_square) == chess.PAWN and abs(mv.to_square - mv.from_square) == 16:
                b.push(mv)
                if b.has_legal_en_passant():
                    arr = board_array(b)
                    plain = vals(m)[encode_board(arr, 0 if b.turn else 1, m.spec(), False,
                                                 np.zeros(MAX_SLOTS, np.int64))]
                    differ += int(plain != ref.code(b))
                b.pop()
    assert differ > 20
    tbs = ChessTablebases(DEFAULT_DIR)
    fen = "8/8/8/8/1Pp5/8/8/K6k b - b3 0 1"             # ...cxb3 e.p. and the pawn promotes first
    assert str(tbs.probe(fen)) == "draw"
    assert str(tbs.probe(fen.replace(" b3 ", " - "))) != "draw"  # without the right it is another value
