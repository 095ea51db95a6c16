"""`shuai bench`: a fixed-depth search over varied positions.  The total node count is deterministic (one
thread, depth limits, a fresh table) and so is the signature of the search: any change that alters it changes
the search.  nps is the speed figure."""
import time

# Openings, middle games with tactics, and endings (Red and Black to move).
BENCH_FENS = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "rnbakabnr/9/c6c1/p1p1p1p1p/9/9/P1P1P1P1P/3C1C3/9/RNBAKABNR b - - 3 2",
    "rnbaka1nr/9/1c5cb/p1p1p1p1p/9/9/P1P1P1P1P/N6C1/1C7/R1BAKABNR b - - 3 2",
    "rnbak1bnr/4a4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/6CC1/4A4/RNBAK1BNR b - - 3 2",
    "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1CN3NC1/9/R1BAKAB1R w - - 4 5",
    "r1bakab1r/9/1cn2c1n1/p1p1p1p1p/9/6P2/P1P1P3P/1C2C1N2/9/RNBAKAB1R w - - 4 4",
    "2bakab2/9/2n1c1n2/p1p1p3p/6p2/2P6/P3P1P1P/2N1C1N2/4A4/2BAK1B2 w - - 0 12",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
    "3k1abr1/4a4/2cNb4/p5p1p/4C4/2Pc2P2/P4R2P/3C5/9/2BAKAB2 w - - 0 1",
    "2b1ka3/4a4/4b4/p7p/4P4/5NR2/P7P/4B4/1R1K5/2r1r4 b - - 0 1",
    "1Cna2b2/2C2k3/4b3n/3R5/2p3p2/p3p2r1/2P4c1/N3B4/4A4/2B1KA3 w - - 0 1",
    "4kab2/3raP1c1/4b4/2RN1n3/p8/4C1p2/8P/4B4/4A4/4KAB2 w - - 0 1",
    "5a3/3Ra4/4k4/1rp5p/2b1N1b2/P5B2/4P3P/3C5/9/2BAKA3 w - - 0 1",
    "2bak1b2/3RaR3/nrN3n2/p1p1p1p1p/4c4/6P2/P7P/2r1C4/4A4/2BA1KB2 w - - 0 1",
    "R2ak4/4aP3/6R1b/8p/2r3p2/9/6P1P/3CB3B/4A4/3AK2c1 w - - 0 1",
    "2bakab2/9/4c1n2/p3p3p/2p3p2/9/P1P1P1P1P/4C4/9/1NBAKAB2 b - - 0 15",
    "3akab2/9/4b4/p3p1p1p/9/2P6/P3P1P1P/4B4/4A4/3AK1B2 w - - 0 30",
    "4k4/9/9/9/9/9/9/9/4A4/R3K4 w - - 0 1",
    "3k5/9/9/9/9/9/9/9/9/4K1R2 w - - 0 1",
    "4kab2/4a4/4b4/9/9/9/9/4B4/4A4/3AKN3 w - - 0 1",
    "3aka3/9/4b4/9/2b6/9/9/9/3C5/4K4 w - - 0 1",
    "4k4/4a4/9/9/9/4P4/9/9/9/3K5 w - - 0 1",
    "3k5/4a4/9/9/9/9/9/9/3r5/3AK1R2 b - - 0 1",
    "2ba1k3/4a4/4b4/6N2/9/9/9/4B4/4A4/3AK4 w - - 0 1",
    "r3kab2/4a4/4b4/p3p3p/9/9/P3P3P/4B4/4A4/R3KAB2 w - - 0 20",
    "2baka3/9/4b1n2/p3p3p/2p6/6P2/P3P3P/4B1N2/4A4/2BAK4 b - - 0 25",
    "4k4/9/4b4/9/9/9/9/9/4A4/2C1K1N2 w - - 0 1",
]
# Chess: the well-known perft positions, openings, middle games and endings (both sides to move).
CHESS_BENCH_FENS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5",
    "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
    "rnbqkb1r/ppp1pppp/5n2/3p4/2PP4/8/PP2PPPP/RNBQKBNR w KQkq - 1 3",
    "r2q1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9",
    "r1bq1rk1/pp3ppp/2nbpn2/3p4/2PP4/1PN1PN2/P4PPP/R1BQKB1R w KQ - 1 8",
    "2rq1rk1/pb1nbppp/1p2pn2/2pp4/2PP4/1P2PNP1/PB1NQPBP/R4RK1 b - - 3 12",
    "r1b2rk1/2q1bppp/p2ppn2/1p6/3NP3/1BN1B3/PPP1QPPP/R4RK1 w - - 0 12",
    "3r1rk1/p4ppp/1pq1bn2/2b1p3/4P3/2N1BN1P/PPQ2PP1/3R1RK1 w - - 0 17",
    "r4rk1/1b2qppp/p3pn2/1p6/3N4/P1B1P3/1P2QPPP/2R2RK1 b - - 3 18",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "2r3k1/5pp1/p3p2p/1p1nP3/3P4/P4N1P/1P3PP1/2R3K1 w - - 0 28",
    "8/5pk1/6p1/4P2p/5P1P/6P1/6K1/8 w - - 0 45",
    "8/8/4k3/3p4/3P4/4K3/8/8 w - - 0 1",
    "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",
    "8/8/8/8/8/5k2/8/4K2R w K - 0 1",
    "8/8/3k4/8/8/8/8/1B1NK3 w - - 0 1",
    "4k3/8/8/8/8/8/3q4/R3K3 w Q - 0 1",
    "6k1/6p1/7p/8/8/1r6/5PPP/3R2K1 b - - 0 30",
    "8/3k4/8/3KP3/8/8/8/8 b - - 0 1",
    "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R w KQkq - 1 5",
    "rnb1kbnr/pppp1ppp/8/4p3/5PPq/8/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1",
    "r5k1/5ppp/8/8/8/8/5PPP/1R4K1 b - - 0 1",
    "8/1P6/8/8/8/8/6kp/K7 w - - 0 1",
]
BENCH = {"xiangqi": (BENCH_FENS, 8), "chess": (CHESS_BENCH_FENS, 10)}     # positions and default depth per game


def run_bench(depth: int = None, hash_mb: int = None, out=print, game: str = "xiangqi") -> tuple[int, float]:
    """Search each bench position of ``game`` to ``depth`` (the game's default if None)."""
    from .game import game_named
    from .search import QUICK_HASH_MB, Limits, Searcher
    fens, default_depth = BENCH[game]
    depth = depth or default_depth
    Position = game_named(game).Position
    searcher = Searcher(hash_mb or QUICK_HASH_MB)
    searcher.new_game()
    total_nodes, total_time = 0, 0.0
    for i, fen in enumerate(fens):
        result = []
        t = time.perf_counter()
        searcher.start(Position(fen), Limits(depth=depth), lambda info: None, result.append)
        searcher.wait()
        elapsed = time.perf_counter() - t
        info = result[0].info
        nodes = info.nodes if info else 0
        total_nodes += nodes
        total_time += elapsed
        out(f"position {i + 1:2}/{len(fens)}  bestmove {result[0].best or '(none)':5}  "
            f"score {info.score if info else 0:6}  nodes {nodes:9}")
    out(f"nodes {total_nodes} time_ms {total_time * 1000:.0f} nps {int(total_nodes / max(total_time, 1e-9))}")
    return total_nodes, total_time
