"""Write tests/data/chess-perft.epd: chess perft positions with their node counts, python-chess as the oracle.

    .venv/bin/python scripts/make_chess_perft.py [--out tests/data/chess-perft.epd] [--seed 20260501]

One position a line, ``<FEN> ;D1 n1 ;D2 n2 ;D3 n3`` (the style of xiangqi-perft.epd).  The counts are python-chess's
(``chess.Board``, legal moves counted recursively, leaves counted in bulk at depth 1), independent of our engine.
The output depends on the seed alone: run it twice, get the same file.

How the positions were picked, in file order:

1. The well-known perft positions (chessprogramming.org "Perft Results"): the start, Kiwipete, positions 3 to 6
   and position 4's colour-mirrored twin.  These also carry D4, checked against the published counts.
2. Hand-picked tricky cases: en passant that is illegal because it bares the king along a rank or a diagonal
   (the capturing pawn pinned, or the captured pawn the blocker), en passant that removes the pawn giving check,
   en passant that gives check; castling out of, through and into check, castling with b1/b8 or the rook attacked
   (legal), castling blocked by a piece; promotions (out of check, giving check, under-promotion), double and
   discovered checks, stalemate and mate traps (many from Peter Ellis Jones' and TalkChess' perft suites).
3. Positions met along seeded random games from the start position.  The move choice is biased (checks,
   captures and pawn moves are preferred now and then) so that games reach promotions, checks and thin
   endings.  Every position met is classified and a fixed quota is drawn (seeded) per class: castling
   available to the side to move; a castling right whose path is empty but which is barred by an attack;
   a legal en-passant capture; an en-passant capture that is pseudo-legal only; promotions (and promotions by
   capture); single check; double check; two or more pinned pieces of the side to move; and plain positions.
   Each FEN appears once (compared on its first four fields).

En-passant squares are written when a pawn could capture there pseudo-legally (python-chess's ``xfen`` rule,
which is also our engine's), so the pinned-pawn cases keep theirs.
"""
import random
import sys
from pathlib import Path

import chess
import click

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "tests" / "data" / "chess-perft.epd"

# (fen, published counts by depth) -- https://www.chessprogramming.org/Perft_Results
WELL_KNOWN = [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", {1: 20, 2: 400, 3: 8902, 4: 197281}),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", {1: 48, 2: 2039, 3: 97862, 4: 4085603}),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", {1: 14, 2: 191, 3: 2812, 4: 43238}),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", {1: 6, 2: 264, 3: 9467, 4: 422333}),
    ("r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1", {1: 6, 2: 264, 3: 9467, 4: 422333}),
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", {1: 44, 2: 1486, 3: 62379, 4: 2103487}),
    ("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
     {1: 46, 2: 2079, 3: 89890, 4: 3894594}),
]

HAND_PICKED = [
    # -- en passant --
    "8/8/8/KPp4r/8/8/8/7k w - c6 0 1",          # bxc6 e.p. bares the king along the 5th rank: illegal
    "8/8/8/8/R4pPk/8/8/4K3 b - g3 0 1",         # the same for Black (fxg3 e.p. opens a4-h4)
    "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1",         # the rook sees the king only after both pawns go: exd6 illegal
    "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1",        # d7d5 would allow an illegal cxd6
    "1b6/8/8/4Pp2/8/8/7K/k7 w - f6 0 1",        # e5 pinned on b8-h2: exf6 e.p. leaves the line, illegal
    "1b6/8/8/3pP3/8/8/7K/k7 w - d6 0 1",        # exd6 e.p. stays on the pin line: legal
    "b7/8/8/3pP3/8/8/8/k6K w - d6 0 1",         # the captured pawn blocked a8-h1: exd6 e.p. illegal
    "8/8/8/3pP3/4K3/8/8/k7 w - d6 0 1",         # d7d5 gave check: exd6 e.p. removes the checker
    "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",        # d2d4 gave check: exd3 e.p. (or cxd4) removes it
    "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",        # exd3 e.p. would bare the king to the queen: illegal
    "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",      # cxd3 e.p. gives check
    "8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1",       # d2d4 gives black an e.p. capture that is illegal
    "4k3/8/8/2PpP3/8/8/8/4K3 w - d6 0 1",       # two pawns can take e.p.
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",   # e.p. in an opening
    # -- castling --
    "4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1",       # f1 attacked: no O-O, O-O-O fine
    "4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1",       # in check: no castling
    "4k1r1/8/8/8/8/8/8/R3K2R w KQ - 0 1",       # g1 attacked: no O-O
    "2r1k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",       # c1 attacked: no O-O-O
    "1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",       # b1 attacked: O-O-O still legal
    "4k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1",       # h1 rook attacked: O-O still legal
    "4k3/8/8/8/8/8/8/RN2K1NR w KQ - 0 1",       # both castlings blocked by a knight
    "r3k2r/8/8/8/8/8/8/4K1R1 b kq - 0 1",       # g8 attacked: no O-O for Black
    "r3k2r/8/8/8/8/8/8/1R2K3 b kq - 0 1",       # b8 attacked: O-O-O legal for Black
    "r3k2r/8/8/8/8/8/6b1/R3K2R w KQkq - 0 1",   # bishop on g2 attacks f1 and h1
    "r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1",
    "r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
    "5k2/8/8/8/8/8/8/4K2R w K - 0 1",           # O-O gives check
    "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1",           # O-O-O gives check
    "r3k2r/p6p/8/B7/1pp1p3/3b4/P6P/R3K2R w KQkq - 0 1",
    # -- promotions --
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1",        # promote out of check (by capture)
    "4k3/1P6/8/8/8/8/K7/8 w - - 0 1",           # promote giving check
    "8/P1k5/K7/8/8/8/8/8 w - - 0 1",            # under-promotion to check
    "K1k5/8/P7/8/8/8/8/8 w - - 0 1",            # self-stalemate trap
    "8/k1P5/8/1K6/8/8/8/8 w - - 0 1",           # stalemate and mate by promotion
    # -- checks and pins --
    "8/8/2k5/5q2/5n2/8/5K2/8 b - - 0 1",        # double check
    "8/8/1P2K3/8/2n5/1q6/8/5k2 b - - 0 1",      # discovered check
    "5k2/8/8/8/1b5b/8/3NRN2/4K3 w - - 0 1",     # pinned pieces
    "4k3/8/8/1b5q/8/3P1N2/4K3/8 w - - 0 1",     # pinned pieces, one of them a pawn
    "7k/8/8/8/8/2n5/8/1R1QK2r w - - 0 1",       # in check along the rank, king boxed in
    "7k/8/8/8/8/8/8/K6q w - - 0 1",
]

PIECE_VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 0}

# Class -> how many random-game positions to draw for it.
QUOTAS = {
    "castle": 14,
    "castle_attacked": 8,
    "ep_legal": 14,
    "ep_pseudo": 4,
    "promotion": 14,
    "promotion_capture": 6,
    "check": 12,
    "double_check": 8,
    "pins": 12,
    "mate_or_stalemate": 3,
    "plain": 12,
}


def perft(board: chess.Board, depth: int) -> int:
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += perft(board, depth - 1)
        board.pop()
    return total


def fen_of(board: chess.Board) -> str:
    return board.fen(en_passant="xfen")


def classes(board: chess.Board) -> list[str]:
    """The classes of QUOTAS a position belongs to."""
    out = []
    moves = list(board.legal_moves)
    if not moves:
        return ["mate_or_stalemate"]
    if any(board.is_castling(m) for m in moves):
        out.append("castle")
    us = board.turn
    king = board.king(us)
    for rook_sq in chess.SquareSet(board.clean_castling_rights() & board.occupied_co[us]):
        target = chess.square(6 if rook_sq > king else 2, chess.square_rank(king))
        if not chess.SquareSet(chess.between(king, rook_sq)) & board.occupied and \
                not board.is_legal(chess.Move(king, target)):
            out.append("castle_attacked")
            break
    if board.has_legal_en_passant():
        out.append("ep_legal")
    elif board.has_pseudo_legal_en_passant():
        out.append("ep_pseudo")
    promos = [m for m in moves if m.promotion]
    if promos:
        out.append("promotion")
        if any(board.is_capture(m) for m in promos):
            out.append("promotion_capture")
    checkers = len(board.checkers())
    if checkers == 1:
        out.append("check")
    elif checkers >= 2:
        out.append("double_check")
    pinned = sum(1 for sq in chess.SquareSet(board.occupied_co[us]) if board.is_pinned(us, sq))
    if pinned >= 2:
        out.append("pins")
    if not out:
        out.append("plain")
    return out


def random_game_positions(rng: random.Random, games: int, max_plies: int = 160):
    """(fen, classes) of every position met along ``games`` biased random games."""
    seen = []
    for _ in range(games):
        board = chess.Board()
        for _ in range(max_plies):
            moves = list(board.legal_moves)
            seen.append((fen_of(board), classes(board)))
            if not moves or board.is_insufficient_material() or board.halfmove_clock >= 100:
                break
            r = rng.random()
            pick = None
            if r < 0.15:
                pick = [m for m in moves if board.gives_check(m)]
            elif r < 0.40:
                pick = [m for m in moves if board.is_capture(m)]
            elif r < 0.60:
                pick = [m for m in moves if board.piece_type_at(m.from_square) == chess.PAWN]
            board.push(rng.choice(pick or moves))
    return seen


def key4(fen: str) -> str:
    return " ".join(fen.split()[:4])


def select(rng: random.Random, games: int) -> list[str]:
    pool = random_game_positions(rng, games)
    taken, chosen = set(), []
    for fen in [f for f, _ in WELL_KNOWN] + HAND_PICKED:
        taken.add(key4(chess.Board(fen).fen(en_passant="xfen")))
    for cls, quota in QUOTAS.items():
        candidates = [f for f, c in pool if cls in c]
        rng.shuffle(candidates)
        n = 0
        for fen in candidates:
            if n >= quota:
                break
            if key4(fen) in taken:
                continue
            taken.add(key4(fen))
            chosen.append(fen)
            n += 1
        print(f"  {cls:18} {n:3} of {len(candidates):6} candidates", file=sys.stderr)
    return chosen


@click.command()
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=DEFAULT_OUT,
              show_default="tests/data/chess-perft.epd")
@click.option("--seed", type=int, default=20260501, show_default=True)
@click.option("--games", type=click.IntRange(1), default=400, show_default=True)
@click.option("--depth", type=click.IntRange(1), default=3, show_default=True)
def main(out, seed, games, depth):
    """Write the chess perft positions and their counts, by python-chess."""
    rng = random.Random(seed)
    lines = []
    for fen, published in WELL_KNOWN:
        board = chess.Board(fen)
        counts = {d: perft(board, d) for d in range(1, 5)}
        assert counts == published, (fen, counts, published)
        lines.append((fen, counts))
    for fen in HAND_PICKED:
        board = chess.Board(fen)
        assert board.is_valid() or board.status() & ~chess.STATUS_IMPOSSIBLE_CHECK == 0, (fen, board.status())
        lines.append((fen_of(board), {d: perft(board, d) for d in range(1, depth + 1)}))
    for fen in select(rng, games):
        board = chess.Board(fen)
        lines.append((fen, {d: perft(board, d) for d in range(1, depth + 1)}))
    out.write_text("".join(fen + "".join(f" ;D{d} {n}" for d, n in counts.items()) + "\n"
                                for fen, counts in lines))
    print(f"wrote {len(lines)} positions to {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
