"""Chess over UCI, as its clients drive it: the transcript mainline Cute Chess sends for a standard game, and
python-chess's ``SimpleEngine`` with no options set (complete games against itself and Stockfish, MultiPV
analysis).  Legality is judged by python-chess, an independent rule oracle.
"""
import re
import shutil
import sys
import time
from pathlib import Path

import chess
import chess.engine
import pytest

from test_protocol import LOAD_TIMEOUT, EngineProcess

SHUAI = Path(sys.executable).parent / "shuai"
UCI_MOVE = r"[a-h][1-8][a-h][1-8][qrbn]?"
INFO = re.compile(rf"info depth \d+ seldepth \d+ multipv \d+ score (?:cp -?\d+|mate -?\d+) nodes \d+ nps \d+ "
                  rf"hashfull \d+ tbhits \d+ time \d+(?: pv {UCI_MOVE}(?: {UCI_MOVE})*)?")
STOCKFISH = shutil.which("stockfish") or ("/usr/games/stockfish" if Path("/usr/games/stockfish").exists() else None)


@pytest.fixture
def engine():
    e = EngineProcess()
    yield e
    e.close()


def bestmove(engine, board):
    """The engine's reply to ``go``: info lines well-formed, a legal move (python-chess says)."""
    _, lines = engine.bestmove()
    for ln in lines[:-1]:
        assert not ln.startswith("info string error"), ln
        assert INFO.fullmatch(ln), f"malformed info line {ln!r}"
    m = re.fullmatch(rf"bestmove ({UCI_MOVE})(?: ponder ({UCI_MOVE}))?", lines[-1])
    assert m, f"malformed bestmove {lines[-1]!r}"
    move = chess.Move.from_uci(m.group(1))
    assert move in board.legal_moves, f"{move} is illegal in {board.fen()}"
    return move


def test_cute_chess_standard_game_transcript(engine):
    """What mainline Cute Chess sends for a standard game (no UCI_Variant: its setVariant sends nothing for
    "standard"): uci, options, isready pings, ucinewgame, position startpos moves ..., go with both clocks,
    stop when the game is decided elsewhere, quit."""
    lines = engine.handshake("uci")
    assert "option name UCI_Variant type combo default chess var chess var xiangqi" in lines
    engine.send("setoption name Hash value 16")
    engine.send("isready")
    engine.read_until(lambda ln: ln == "readyok", LOAD_TIMEOUT)
    engine.send("ucinewgame")
    engine.send("isready")
    engine.read_until(lambda ln: ln == "readyok", LOAD_TIMEOUT)
    board = chess.Board()
    clock = 10000
    for _ in range(4):                              # the engine plays White; "the other engine" answers
        moves = " ".join(m.uci() for m in board.move_stack)
        engine.send(f"position startpos{' moves ' + moves if moves else ''}")
        t0 = engine.send(f"go wtime {clock} btime {clock} winc 100 binc 100")
        move = bestmove(engine, board)
        used = (time.perf_counter() - t0) * 1000
        assert used < clock / 2, f"{used:.0f} ms of a {clock} ms clock on one move"
        board.push(move)
        board.push(sorted(board.legal_moves, key=lambda m: m.uci())[0])
    # The game is decided elsewhere while the engine thinks: Cute Chess sends stop and expects a bestmove.
    engine.send(f"position startpos moves {' '.join(m.uci() for m in board.move_stack)}")
    engine.send("go wtime 300000 btime 300000 winc 0 binc 0")
    time.sleep(0.3)
    t0 = engine.send("stop")
    t, _ = engine.read_until(lambda ln: ln.startswith("bestmove"))
    assert t - t0 < 0.5
    engine.send("quit")
    assert "bye" not in engine.rest()
    assert engine.proc.wait(5) == 0


def test_position_fen_names_its_game_and_uci_variant_switches(engine):
    engine.handshake("uci")
    engine.send("isready")
    engine.read_until(lambda ln: ln == "readyok", LOAD_TIMEOUT)
    engine.send("position startpos moves e2e4")
    engine.send("go depth 3")
    bestmove(engine, chess.Board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"))
    # A 10-rank FEN is xiangqi, whatever UCI_Variant says; startpos still means chess afterwards.
    engine.send("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2")
    engine.send("go depth 2")
    _, lines = engine.bestmove()
    assert re.fullmatch(r"bestmove [a-i]\d[a-i]\d( ponder [a-i]\d[a-i]\d)?", lines[-1])
    engine.send("position startpos")
    engine.send("go depth 2")
    bestmove(engine, chess.Board())
    engine.send("setoption name UCI_Variant value xiangqi")
    engine.send("position startpos moves h2e2")        # now startpos is xiangqi's
    engine.send("isready")
    _, lines = engine.read_until(lambda ln: ln == "readyok", LOAD_TIMEOUT)
    assert not [ln for ln in lines if ln.startswith("info string error")], lines
    engine.send("setoption name UCI_Variant value chess")
    engine.send("position startpos moves h2e2")        # not a chess move
    _, lines = engine.read_until(lambda ln: ln.startswith("info string error"))
    assert "h2e2" in lines[-1]
    engine.send("setoption name UCI_Variant value shogi")
    _, lines = engine.read_until(lambda ln: ln.startswith("info string error"))
    assert "shogi" in lines[-1]


def test_go_perft_mate_stalemate_and_searchmoves(engine):
    engine.handshake("uci")
    engine.send("position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    engine.send("go perft 2")
    _, lines = engine.read_until(lambda ln: ln.startswith("Nodes searched"), LOAD_TIMEOUT)
    assert lines[-1] == "Nodes searched: 2039"
    assert sum(1 for ln in lines if re.fullmatch(r"[a-h][1-8][a-h][1-8]: \d+", ln)) == 48
    engine.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")       # back-rank mate in one
    engine.send("go mate 1")
    _, lines = engine.bestmove()
    assert lines[-1].startswith("bestmove d1d8")
    assert "score mate 1" in lines[-2]
    engine.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")              # stalemate: a draw, not a mate
    engine.send("go depth 3")
    _, lines = engine.bestmove()
    assert lines[-2:] == ["info depth 0 score cp 0", "bestmove (none)"]
    engine.send("position fen 8/P6k/8/8/8/8/8/K7 w - - 0 1")
    engine.send("go depth 4 searchmoves a7a8n a1b1")
    _, lines = engine.bestmove()
    assert lines[-1].split()[1] in ("a7a8n", "a1b1")


def test_ucci_refuses_a_chess_position(engine):
    engine.handshake("ucci")
    engine.send("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    _, lines = engine.read_until(lambda ln: ln.startswith("info string error"), LOAD_TIMEOUT)
    assert "chess" in lines[-1] and "xiangqi" in lines[-1]


def play_out(white, black, limit, max_plies=400):
    """A complete game between two python-chess engines; every move legal (python-chess raises otherwise)."""
    board = chess.Board()
    while not board.is_game_over(claim_draw=True) and board.ply() < max_plies:
        result = (white if board.turn == chess.WHITE else black).play(board, limit)
        assert result.move in board.legal_moves
        board.push(result.move)
    return board


def test_python_chess_simple_engine_plays_itself_with_no_options():
    with chess.engine.SimpleEngine.popen_uci([str(SHUAI)], timeout=LOAD_TIMEOUT) as shuai:
        assert shuai.id["name"].startswith("Shuai")
        board = play_out(shuai, shuai, chess.engine.Limit(time=0.02), max_plies=120)
        assert board.ply() >= 10
        info = shuai.analyse(chess.Board(), chess.engine.Limit(time=1), multipv=3)
        assert len(info) == 3
        first = [line["pv"][0] for line in info]
        assert len(set(first)) == 3 and all(m in chess.Board().legal_moves for m in first)
        assert all(isinstance(line["score"].white(), chess.engine.Cp) for line in info)
        mate = shuai.analyse(chess.Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"), chess.engine.Limit(depth=4))
        assert mate["score"].white() == chess.engine.Mate(1)


@pytest.mark.skipif(STOCKFISH is None, reason="stockfish is not installed (apt-get install stockfish)")
def test_python_chess_simple_engine_plays_stockfish():
    with chess.engine.SimpleEngine.popen_uci([str(SHUAI)], timeout=LOAD_TIMEOUT) as shuai, \
            chess.engine.SimpleEngine.popen_uci(STOCKFISH) as stockfish:
        stockfish.configure({"Skill Level": 0})
        board = play_out(shuai, stockfish, chess.engine.Limit(time=0.02), max_plies=300)
        assert board.ply() >= 10
