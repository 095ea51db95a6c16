"""Chess move generation against python-chess, the independent oracle: perft counts of tests/data/chess-perft.epd
(written by scripts/make_chess_perft.py from python-chess), legal move lists, FENs after every move, check
detection, FEN validation, make/unmake and the Zobrist keys (incremental = from scratch, equal on transpositions).

En-passant squares: ours are written when a pawn could capture there pseudo-legally, which is python-chess's
``en_passant="xfen"`` rule, so FENs are compared whole against ``board.fen(en_passant="xfen")``.
"""
import random

import chess
import numpy as np
import pytest

from conftest import DATA
from engine.chess.position import FenError, Position
from engine.perft import perft_count, run_perft


def chess_perft_cases():
    cases = []
    for line in (DATA / "chess-perft.epd").read_text().splitlines():
        if not line.strip():
            continue
        fen, *counts = line.split(";")
        cases.append((fen.strip(), {int(c.split()[0][1:]): int(c.split()[1]) for c in counts}))
    return cases


CASES = chess_perft_cases()
IDS = [f"pos{i}" for i in range(len(CASES))]
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def oracle_fen(board: chess.Board) -> str:
    return board.fen(en_passant="xfen")


def full_key(pos) -> tuple[int, int]:
    """Key and lock of the current ply."""
    return tuple(int(x) for x in pos.keys[pos.ply])


def assert_agrees(pos: Position, board: chess.Board, where: str) -> None:
    """Same legal moves, same check status, same FEN, and the incremental key equals the key from scratch."""
    assert sorted(pos.legal_move_names()) == sorted(m.uci() for m in board.legal_moves), where
    assert pos.in_check() == board.is_check(), where
    assert pos.fen() == oracle_fen(board), where
    assert full_key(pos) == full_key(Position(pos.fen())), f"incremental key != key from scratch: {where}"


def test_data_file_is_rich():
    assert len(CASES) >= 120
    fens = [fen for fen, _ in CASES]
    assert len(set(" ".join(f.split()[:4]) for f in fens)) == len(fens), "duplicate positions"
    boards = [chess.Board(f) for f in fens]
    assert sum(b.has_legal_en_passant() for b in boards) >= 10
    assert sum(b.has_pseudo_legal_en_passant() and not b.has_legal_en_passant() for b in boards) >= 5
    assert sum(any(b.is_castling(m) for m in b.legal_moves) for b in boards) >= 20
    assert sum(any(m.promotion for m in b.legal_moves) for b in boards) >= 15
    assert sum(len(b.checkers()) == 2 for b in boards) >= 5
    assert sum(b.is_check() for b in boards) >= 20


@pytest.mark.parametrize("fen,counts", CASES, ids=IDS)
def test_perft_matches_python_chess_counts(fen, counts):
    pos = Position(fen)
    before = pos.fen(), full_key(pos)
    assert min(counts) == 1 and max(counts) >= 3
    for depth, nodes in sorted(counts.items()):
        assert perft_count(pos, depth) == nodes, f"depth {depth}"
    assert (pos.fen(), full_key(pos)) == before, "perft must leave the position as it found it"


@pytest.mark.parametrize("fen,counts", CASES, ids=IDS)
def test_moves_fens_and_checks_agree_with_python_chess(fen, counts):
    """At the position and after each of its legal moves (so at every depth-1 child too)."""
    pos, board = Position(fen), chess.Board(fen)
    assert pos.fen() == fen, "FEN round trip"
    assert_agrees(pos, board, fen)
    names = pos.legal_move_names()
    assert len(names) == counts[1] == len(set(names))
    for name in names:
        pos.push(name)
        board.push_uci(name)
        assert_agrees(pos, board, f"{fen} after {name}")
        pos.pop()
        board.pop()
    assert pos.fen() == fen


def random_line(rng, pos, board, plies):
    """Play up to ``plies`` random legal moves on both boards (checks and captures a little preferred)."""
    played = 0
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        r = rng.random()
        pick = None
        if r < 0.1:
            pick = [m for m in moves if board.gives_check(m)]
        elif r < 0.35:
            pick = [m for m in moves if board.is_capture(m)]
        elif r < 0.5:
            pick = [m for m in moves if board.piece_type_at(m.from_square) == chess.PAWN]
        move = rng.choice(pick or moves)
        pos.push(move.uci())
        board.push(move)
        played += 1
    return played


@pytest.mark.parametrize("seed", range(8))
def test_random_games_agree_with_python_chess(seed):
    """Seeded random games from the start, engine and python-chess in lockstep: moves, check, FEN (clocks
    too) and key from scratch at every ply."""
    rng = random.Random(1000 + seed)
    plies = 0
    for game in range(25):
        pos, board = Position(), chess.Board()
        for _ in range(200):
            assert_agrees(pos, board, f"seed {seed} game {game}: {' '.join(m.uci() for m in board.move_stack)}")
            if random_line(rng, pos, board, 1) == 0 or board.is_insufficient_material():
                break
            plies += 1
    assert plies > 1500


def test_in_check_agrees_on_checks_and_double_checks():
    seen = {0: 0, 1: 0, 2: 0}
    for fen, _ in CASES:
        board = chess.Board(fen)
        n = len(board.checkers())
        seen[n] += 1
        assert Position(fen).in_check() == (n > 0), fen
    assert seen[1] >= 10 and seen[2] >= 5 and seen[0] >= 50


# ------------------------------------------------------------------------------------------------------------
# Published values
# ------------------------------------------------------------------------------------------------------------

def test_start_position_perft():
    pos = Position()
    assert [perft_count(pos, d) for d in range(1, 5)] == [20, 400, 8902, 197281]
    assert perft_count(pos, 5) == 4865609


def test_kiwipete_perft():
    pos = Position(KIWIPETE)
    assert [perft_count(pos, d) for d in range(1, 4)] == [48, 2039, 97862]
    assert perft_count(pos, 4) == 4085603


def test_start_position_moves():
    pos = Position()
    assert pos.fen() == chess.STARTING_FEN
    assert sorted(pos.legal_move_names()) == sorted(
        [f"{f}2{f}3" for f in "abcdefgh"] + [f"{f}2{f}4" for f in "abcdefgh"]
        + ["b1a3", "b1c3", "g1f3", "g1h3"])


def test_castling_promotion_and_en_passant_moves_by_name():
    pos = Position(KIWIPETE)
    assert {"e1g1", "e1c1"} <= set(pos.legal_move_names())
    pos.push("e1g1")
    assert pos.fen().startswith("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R4RK1 b kq - 1 1")
    pos = Position("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1")
    names = set(pos.legal_move_names())
    assert {"g2g1q", "g2g1r", "g2g1b", "g2g1n", "g2h1q", "g2f1n"} <= names and "g2g1" not in names
    pos = Position("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")
    assert "e5f6" in pos.legal_move_names() and "e5d6" not in pos.legal_move_names()   # d5 moved long ago
    pos.push("e5f6")
    assert pos.fen() == "rnbqkbnr/ppp1p1pp/5P2/3p4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3"
    # the ep capture that bares the king along the rank is not generated
    assert "b5c6" not in Position("8/8/8/KPp4r/8/8/8/7k w - c6 0 1").legal_move_names()


def oracle_perft(board: chess.Board, depth: int) -> int:
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in list(board.legal_moves):
        board.push(move)
        total += oracle_perft(board, depth - 1)
        board.pop()
    return total


def test_divide_matches_python_chess():
    lines = []
    total = run_perft(Position(KIWIPETE), 3, divide=True, out=lines.append)
    assert total == 97862 and lines[-1].startswith("nodes 97862 time_ms ")
    board = chess.Board(KIWIPETE)
    expected = {}
    for move in list(board.legal_moves):
        board.push(move)
        expected[move.uci()] = oracle_perft(board, 2)
        board.pop()
    assert {k: int(v) for k, v in (line.split(": ") for line in lines[:-1])} == expected


# ------------------------------------------------------------------------------------------------------------
# FEN validation
# ------------------------------------------------------------------------------------------------------------

BAD_FENS = [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w - - 0 1", "kings"),               # two white kings
    ("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "kings"),              # no black king
    ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "first or last rank"),                           # pawn on the 1st rank
    ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "first or last rank"),                           # pawn on the 8th rank
    ("4k3/8/8/8/8/8/8/4RK2 w - - 0 1", "not to move"),                                  # black in check, white to move
    ("4k3/8/8/8/8/8/4K3 w - - 0 1", "8 ranks"),                                         # 7 ranks
    ("4k3/8/8/8/8/8/8/4K3 x - - 0 1", "side to move"),
    ("4k3/8/8/8/8/8/8/4K3 w - e3 0 1", "en-passant"),                                   # wrong rank for white to move
]


@pytest.mark.parametrize("fen,message", BAD_FENS, ids=[m.replace(" ", "-") + str(i) for i, (_, m) in
                                                        enumerate(BAD_FENS)])
def test_bad_fens_raise(fen, message):
    with pytest.raises(FenError, match=message):
        Position(fen)
    try:
        assert not chess.Board(fen).is_valid(), "python-chess finds this FEN valid too"
    except ValueError:
        pass                                        # python-chess refuses to parse it at all


def test_fen_error_is_a_value_error_and_leaves_position_alone():
    assert issubclass(FenError, ValueError)
    pos = Position(KIWIPETE)
    with pytest.raises(FenError):
        pos.set_fen(BAD_FENS[0][0])
    assert pos.fen() == KIWIPETE


def test_castling_rights_without_king_or_rook_are_dropped():
    # python-chess cleans such rights the same way
    fen = "4k3/8/8/8/8/8/8/4K2R w KQkq - 0 1"
    assert Position(fen).fen() == "4k3/8/8/8/8/8/8/4K2R w K - 0 1" == chess.Board(fen).fen()


# ------------------------------------------------------------------------------------------------------------
# Make / unmake and Zobrist keys
# ------------------------------------------------------------------------------------------------------------

def snapshot(pos):
    return pos.board.copy(), pos.st.copy(), pos.keys[pos.ply].copy()


@pytest.mark.parametrize("seed", range(2))
def test_push_pop_restores_everything(seed):
    rng = random.Random(seed)
    for fen, _ in CASES:
        pos, board = Position(fen), chess.Board(fen)
        b0, st0, k0 = snapshot(pos)
        fen0 = pos.fen()
        n = random_line(rng, pos, board, rng.randint(1, 16))
        for _ in range(n):
            pos.pop()
        b1, st1, k1 = snapshot(pos)
        assert np.array_equal(b0, b1), fen
        assert np.array_equal(st0, st1), fen
        assert np.array_equal(k0, k1), fen
        assert pos.fen() == fen0
    with pytest.raises(IndexError):
        Position().pop()


def test_known_transpositions_have_equal_keys():
    def after(*lines):
        keys = set()
        for line in lines:
            pos = Position()
            for m in line.split():
                pos.push(m)
            keys.add(full_key(pos))
        return keys

    start = full_key(Position())
    assert after("g1f3 g8f6 f3g1 f6g8", "b1c3 b8c6 c3b1 c6b8") == {start}
    assert len(after("e2e4 e7e5 g1f3", "g1f3 e7e5 e2e4", "e2e3 e7e6 e3e4 e6e5 g1f3")) == 1
    assert len(after("d2d4 d7d5 c2c4 e7e6", "c2c4 e7e6 d2d4 d7d5", "d2d4 e7e6 c2c4 d7d5")) == 1
    # the castling rights are part of the key: same placement, rights lost by the king's walk
    assert len(after("e2e4 e7e5", "e2e4 e7e5 e1e2 e8e7 e2e1 e7e8")) == 2
    # and so is a capturable en-passant square
    with_ep = Position("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")
    without = Position("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3")
    assert full_key(with_ep) != full_key(without)
    # ... but not an uncapturable one (dropped on reading, as python-chess's xfen rule does)
    assert full_key(Position("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1")) == full_key(Position("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1"))
    pos = Position()
    pos.push("e2e4")
    assert pos.fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"


def play(fen, moves):
    """Both boards after ``moves`` (UCI) from ``fen``, or None if one is illegal (python-chess judges)."""
    board = chess.Board(fen)
    for m in moves:
        move = chess.Move.from_uci(m)
        if move not in board.legal_moves:
            return None
        board.push(move)
    pos = Position(fen)
    for m in moves:
        pos.push(m)
    return pos, board


@pytest.mark.parametrize("seed", range(4))
def test_random_transpositions_have_equal_keys(seed):
    """From positions along random games: a x b y against b x a y (two moves of one side swapped).  Where
    python-chess says the positions are equal (placement, side, castling, en passant) the keys must be equal,
    and equal to the key from scratch; where they differ the keys must differ."""
    rng = random.Random(500 + seed)
    equal = different = 0
    for game in range(25):
        pos, board = Position(), chess.Board()
        random_line(rng, pos, board, rng.randint(0, 80))
        if board.is_game_over():
            continue
        fen = board.fen(en_passant="xfen")
        for _ in range(15):
            moves = [m.uci() for m in board.legal_moves]
            if len(moves) < 2:
                break
            a, b = rng.sample(moves, 2)
            first = play(fen, [a])
            if first is None or first[1].is_game_over():
                continue
            x = rng.choice([m.uci() for m in first[1].legal_moves])
            one, two = play(fen, [a, x, b]), play(fen, [b, x, a])
            if one is None or two is None:
                continue
            (p1, b1), (p2, b2) = one, two
            same = " ".join(oracle_fen(b1).split()[:4]) == " ".join(oracle_fen(b2).split()[:4])
            if same:
                assert full_key(p1) == full_key(p2), (fen, a, x, b)
                equal += 1
            else:
                assert full_key(p1) != full_key(p2), (fen, a, x, b)
                different += 1
            for p in (p1, p2):
                assert full_key(p) == full_key(Position(p.fen())), (fen, a, x, b)
    assert equal >= 60, (equal, different)
