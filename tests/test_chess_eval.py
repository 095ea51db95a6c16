"""Chess static evaluation: one parameter vector, a trace that is the same code, colour symmetry, the parameter
file's format, and the terms doing what they claim."""
import random

import chess
import numpy as np
import pytest

from engine.chess import evaluate as E
from engine.chess.constants import START_FEN
from engine.chess.position import Position


def ev(fen: str) -> int:
    pos = Position(fen)
    return int(E.evaluate(pos.board, pos.st))


def trace_of(fen: str):
    pos = Position(fen)
    trace = np.zeros(E.TRACE_SIZE, np.int64)
    score = int(E.evaluate_trace(pos.board, pos.st, trace))
    return score, trace, pos


def random_fens(count: int, seed: int) -> list[str]:
    """Positions from random games (captures favoured, so that endings come up), game not over."""
    rng = random.Random(seed)
    fens = []
    while len(fens) < count:
        board = chess.Board()
        for _ in range(rng.randint(0, 160)):
            moves = list(board.legal_moves)
            if not moves:
                break
            captures = [m for m in moves if board.is_capture(m)]
            board.push(rng.choice(captures if captures and rng.random() < 0.4 else moves))
        if not board.is_game_over():
            fens.append(board.fen())
    return fens


# Positions that reach the rarer terms: passed pawns near promotion with kings near and far, threats and hanging
# pieces of every kind, attacks on an uncastled king, open files at the king, promotions (three bishops).
SPECIAL = [
    "8/1P4k1/8/8/8/8/6p1/K7 w - - 0 1",
    "8/1P6/8/8/8/8/k5p1/6K1 b - - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    "r1b1k2r/ppppqppp/2n2n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQK2R w KQkq - 0 6",
    "7k/8/3n1b2/2R1Q3/1B1N4/8/8/4K3 w - - 0 1",
    "4k3/2p5/1n1b4/P1P1P3/1r1q4/8/8/4K3 b - - 0 1",
    "6k1/5ppp/8/8/8/8/3q1PPP/3Q2K1 w - - 0 1",
    "rnb1kbnr/pp3ppp/8/q1pp4/3P4/2N2N2/PPP2PPP/R1BQKB1R w KQkq - 0 6",
    "2k5/8/8/8/8/8/8/BBB1K3 w - - 0 1",
    "3qk3/8/8/8/8/8/8/3QK3 w - - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
]


@pytest.fixture(scope="module")
def sample():
    return random_fens(600, seed=20241125) + SPECIAL


def mirrored(fen: str) -> str:
    """Ranks mirrored, colours swapped, the other side to move (castling and en passant with them)."""
    return chess.Board(fen).mirror().fen()


def test_colour_symmetry(sample):
    for fen in sample:
        assert ev(fen) == ev(mirrored(fen)), fen


def test_trace_is_the_evaluation(sample):
    """evaluate_trace returns evaluate's score, and where the score is linear in W it is the trace's dot product
    with W (up to the integer rounding of the taper, once for the terms and once for the tempo)."""
    n = E.N_PARAMS
    linear = 0
    for fen in sample:
        score, trace, pos = trace_of(fen)
        assert score == ev(fen)
        ph = trace[E.TRACE_PHASE]
        assert 0 <= ph <= E.TOTAL_PHASE
        if trace[E.TRACE_NONLINEAR]:
            continue
        linear += 1
        white = (trace[:n] @ E.W * ph + trace[n:2 * n] @ E.W * (E.TOTAL_PHASE - ph)) / E.TOTAL_PHASE
        to_move = 1 if pos.side == 0 else -1
        assert abs(to_move * score - white) < 2, fen
    assert linear > len(sample) // 2


def test_trace_changes_sign_with_the_colours(sample):
    """Each parameter's coefficient in a position is minus its coefficient in the mirrored position."""
    for fen in sample[::5] + SPECIAL:
        _, a, _ = trace_of(fen)
        _, b, _ = trace_of(mirrored(fen))
        assert (a[:2 * E.N_PARAMS] == -b[:2 * E.N_PARAMS]).all(), fen
        assert a[E.TRACE_PHASE] == b[E.TRACE_PHASE] and a[E.TRACE_NONLINEAR] == b[E.TRACE_NONLINEAR]


def test_every_parameter_block_is_reached(sample):
    """Each named block of W counts in some position of the sample: no term the tuner could never see."""
    trace = np.zeros(E.TRACE_SIZE, np.int64)
    seen = np.zeros(E.N_PARAMS, np.bool_)
    for fen in sample:
        pos = Position(fen)
        E.evaluate_trace(pos.board, pos.st, trace)
        seen |= (trace[:E.N_PARAMS] != 0) | (trace[E.N_PARAMS:2 * E.N_PARAMS] != 0)
    unseen = [name for name, size in E.LAYOUT if not seen[E.OFFSET[name]:E.OFFSET[name] + size].any()]
    assert unseen == []


def test_nonlinear_flag_is_the_no_pawn_rule():
    """Flagged: a side without pawns and at most a minor ahead (the score may be scaled down); by material alone."""
    assert trace_of("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1")[1][E.TRACE_NONLINEAR] == 1      # bishop alone
    assert trace_of("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")[1][E.TRACE_NONLINEAR] == 0       # a rook up: wins
    assert trace_of("4k3/4p3/8/8/8/8/8/R3K3 w - - 0 1")[1][E.TRACE_NONLINEAR] == 0
    assert trace_of("4k3/4p3/8/8/8/8/8/N3K3 w - - 0 1")[1][E.TRACE_NONLINEAR] == 1      # White: no pawns
    assert trace_of(START_FEN)[1][E.TRACE_NONLINEAR] == 0
    # The rule at work: a lone bishop's advantage is divided by NO_PAWN_DIVISOR.
    assert 0 < ev("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1") < E.PIECE_VALUE[3] // 2


def test_start_position_is_level():
    tempo = (E.TEMPO_MG * E.TOTAL_PHASE) // E.TOTAL_PHASE
    assert ev(START_FEN) == tempo
    assert ev(START_FEN.replace(" w ", " b ")) == tempo


def test_parameter_file_round_trip(tmp_path):
    """The parameter module written from W loads back as the same blocks and vector (the tuner's output)."""
    import runpy
    from engine.chess.eval_params import PARAMS
    from engine.tune.fit import params_of, params_vector
    from engine.tune.params import write_params
    path = tmp_path / "params.py"
    write_params(path, params_of(E.W.astype(float), "chess"), {"source": "test"}, game="chess")
    loaded = runpy.run_path(str(path))["PARAMS"]
    assert list(loaded) == [name for name, _ in E.LAYOUT] and loaded == PARAMS
    assert (params_vector(path, "chess") == E.W).all()
    # Written rank 8 first: the file's first row is the eighth rank, from White's side.
    assert E.table_values(PARAMS["pawn_mg"])[8 * 6 + 4] == E.W[E.OFFSET["pawn_mg"] + 52]      # e7
    assert E.PST_MG[1, 52] == E.W[E.OFFSET["pawn_mg"] + 52]                                        # white on e7
    assert E.PST_MG[8 + 1, 12] == -E.W[E.OFFSET["pawn_mg"] + 52]                                   # black on e2


def test_piece_values_exported():
    assert E.PIECE_VALUE.dtype == np.int32 and E.PIECE_VALUE.shape == (8,)
    assert list(E.PIECE_VALUE) == [0, 100, 320, 330, 500, 950, 0, 0]


def test_material_counts():
    """A queen up is a lot, a pawn up a little (whatever values are in use)."""
    level = ev("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1")
    assert ev("3qk3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1") < level - 500
    assert level < ev("4k3/ppppppp1/8/8/8/8/PPPPPPPP/4K3 w - - 0 1") < level + 400


def test_pawn_piece_and_king_terms_count_where_they_should():
    """Each of these terms counts where it should, White's view (Black's count negative), and not elsewhere."""
    def count(fen, name, index):
        trace = trace_of(fen)[1]
        return int(trace[E.OFFSET[f"{name}_mg"] + index]), int(trace[E.N_PARAMS + E.OFFSET[f"{name}_eg"] + index])

    # Bb5 pins the knight on c6 to the king on e8; with a pawn on d7 as well nothing is pinned.
    assert count("r1bqk2r/ppp2ppp/2n2n2/1B1pp3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 1", "pinned", 1) == (-1, -1)
    assert count("r1bqk2r/pppp1ppp/2n2n2/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 1", "pinned", 1) == (0, 0)
    # A knight on e5 defended by d4, and no black pawn left that could attack it: an outpost.  With a black
    # pawn on f7 (it could come to f6), none.
    assert count("4k3/8/8/3pN3/3P4/8/8/4K3 w - - 0 1", "outpost", 0) == (1, 1)
    assert count("4k3/5p2/8/3pN3/3P4/8/8/4K3 w - - 0 1", "outpost", 0) == (0, 0)
    # A passed pawn on the sixth rank, blocked by the king; free, not.
    assert count("8/4k3/4P3/8/8/8/8/4K3 w - - 0 1", "passed_blocked", 5) == (1, 1)
    assert count("8/2k5/4P3/8/8/8/8/4K3 w - - 0 1", "passed_blocked", 5) == (0, 0)
    # The rook can check on a8, where nothing guards; with a black knight guarding a8 (from b6), it cannot.
    assert count("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "safe_check", E.ROOK - E.KNIGHT) == (1, 1)
    assert count("4k3/8/1n6/8/8/8/8/R3K3 w - - 0 1", "safe_check", E.ROOK - E.KNIGHT) == (0, 0)
    # d4 is backward: e6 attacks d5, and no white pawn on c or e stands beside or behind it; e3 would support it.
    # (Black's e6 is not: f7 stands behind it.)
    assert count("4k3/5p2/4p3/8/3P4/8/8/4K3 w - - 0 1", "backward", 0) == (1, 1)
    assert count("4k3/5p2/4p3/8/3P4/4P3/8/4K3 w - - 0 1", "backward", 0) == (0, 0)
    # A black pawn on g4, three ranks ahead of the white king on g1: a storm at distance 3.
    assert count("4k3/8/8/8/6p1/8/8/6K1 w - - 0 1", "king_storm", 3) == (1, 1)
    assert count("4k3/8/8/8/6p1/8/8/6K1 w - - 0 1", "king_storm", 0) == (2 - 3, 2 - 3)
    # A rook on the seventh; a bishop with pawns on its colour (c1 is dark: d2 and b2 too, e2 not).
    assert count("4k3/R7/8/8/8/8/8/4K3 w - - 0 1", "rook_seventh", 0) == (1, 1)
    assert count("4k3/8/8/8/8/8/1P1PP3/2B1K3 w - - 0 1", "bishop_pawns", 0) == (2, 2)
    # A passed pawn on e5: its path free; with the black king on d8 (guarding e7 and e8) only the next square is;
    # with it on d7, not even that.
    assert count("8/8/8/4P3/8/8/k7/4K3 w - - 0 1", "passed_free", 4) == (1, 1)
    assert count("3k4/8/8/4P3/8/8/8/4K3 w - - 0 1", "passed_free", 4) == (0, 0)
    assert count("3k4/8/8/4P3/8/8/8/4K3 w - - 0 1", "passed_push", 4) == (1, 1)
    assert count("8/3k4/8/4P3/8/8/8/4K3 w - - 0 1", "passed_push", 4) == (0, 0)
    # Space: White's d4 leaves 11 squares of c2-f4, d3 and d2 behind it count twice (13); Black's 12 squares of
    # c7-f5 lose c5 and e5 to the pawn (10).
    assert count("4k3/8/8/8/3P4/8/8/4K3 w - - 0 1", "space", 13) == (1, 1)
    assert count("4k3/8/8/8/3P4/8/8/4K3 w - - 0 1", "space", 10) == (-1, -1)
    # The rook on a7 attacks d7, e7 and f7 beside the black king, which only the king guards: three weak squares;
    # a black knight on e5 guards d7 and f7, leaving one.
    assert count("4k3/R7/8/8/8/8/8/4K3 w - - 0 1", "king_weak", 3) == (1, 1)
    assert count("4k3/R7/8/4n3/8/8/8/4K3 w - - 0 1", "king_weak", 1) == (1, 1)
    # c2-c3 would attack the knight on d4; with a black pawn on b4 guarding c3, no push threatens it.
    assert count("4k3/8/8/8/3n4/8/2P5/4K3 w - - 0 1", "push_threat", 0) == (1, 1)
    assert count("4k3/8/8/8/1p1n4/8/2P5/4K3 w - - 0 1", "push_threat", 0) == (0, 0)
    # d4 is isolated and no black pawn stands ahead of it on its file; with one on d6, neither pawn is unopposed.
    assert count("4k3/8/8/8/3P4/8/8/4K3 w - - 0 1", "weak_unopposed", 0) == (1, 1)
    assert count("4k3/8/3p4/8/3P4/8/8/4K3 w - - 0 1", "weak_unopposed", 0) == (0, 0)
    # e5 blocked by e6: White's on its fifth rank (4 from 0), Black's on its third (2).
    assert count("4k3/8/4p3/4P3/8/8/8/4K3 w - - 0 1", "blocked_pawn", 4) == (1, 1)
    assert count("4k3/8/4p3/4P3/8/8/8/4K3 w - - 0 1", "blocked_pawn", 2) == (-1, -1)
    # King danger: the rook on a7 attacks d7, e7 and f7 next to the black king, all three weak, and can check
    # safely on a8; a queen on a1 can check safely on a4 or h8: 3 + 3 + 2 + 2 units.  Without the queen, no king
    # danger; Black's queen on h8, boxed in by its pawns, attacks nothing at the white king: 0 units.
    assert count("4k2q/R5pp/8/8/8/8/8/Q3K3 w - - 0 1", "king_danger", 3 + 3 + 2 + 2) == (1, 1)
    assert count("4k2q/R5pp/8/8/8/8/8/Q3K3 w - - 0 1", "king_danger", 0) == (-1, -1)
    assert sum(count("4k3/R7/8/8/8/8/8/4K3 w - - 0 1", "king_danger", i)[0] for i in range(24)) == 0
    # Both rooks attack d5, e4 and b5; c4 attacks b5 and d5, which leaves Black one square, White three.
    assert count("7k/8/8/4r3/2PR4/8/8/K7 w - - 0 1", "restricted", 0) == (3 - 1, 3 - 1)
    # A queen on d5, in Black's half, where no black pawn can attack it; e7 could.
    assert count("4k3/8/8/3Q4/8/8/8/4K3 w - - 0 1", "queen_infiltration", 0) == (1, 1)
    assert count("4k3/4p3/8/3Q4/8/8/8/4K3 w - - 0 1", "queen_infiltration", 0) == (0, 0)
    # A knight on d3 behind the pawn on d4, two king steps from its king on e1; with the pawn on d5, not behind.
    assert count("4k3/8/8/8/3P4/3N4/8/4K3 w - - 0 1", "minor_behind_pawn", 0) == (1, 1)
    assert count("4k3/8/8/3P4/8/3N4/8/4K3 w - - 0 1", "minor_behind_pawn", 0) == (0, 0)
    assert count("4k3/8/8/3P4/8/3N4/8/4K3 w - - 0 1", "king_protector", 2) == (1, 1)
    # The white king attacks the knight on e2, which nothing defends; with a black pawn on d3, it is defended.
    assert count("4k3/8/8/8/8/8/4n3/4K3 w - - 0 1", "threat_by_king", 0) == (1, 1)
    assert count("4k3/8/8/8/8/3p4/4n3/4K3 w - - 0 1", "threat_by_king", 0) == (0, 0)
