"""``shuai match --game chess``: the chess referee (python-chess's rules), openings, PGN, matches between scripted
fake chess engines (this file run as a script is one: UCI or xboard, python-chess inside), a short match of
Shuai against itself over UCI, and one game against Fairy-Max (xboard) where it is installed."""
import sys

import chess


# ---------------------------------------------------------------------------------------------------------
# A scripted chess engine: ``python tests/test_chess_match.py --proto uci|xboard [--prefer m1,m2,...]
# [--fault none|illegal|san] [--at PLY] [--name NAME]``.  It plays the first legal move of --prefer, else a
# deterministic legal move; --fault illegal sends an illegal move once the game has PLY plies; --fault san sends
# its moves in SAN (xboard allows that).  A game it is asked to play as anything but chess (UCI_Variant,
# xboard's variant command) gets nothing but illegal moves from it.
# ---------------------------------------------------------------------------------------------------------

def fake_engine(argv):
    import argparse
    ap = argparse.ArgumentParser()
    ap.add_argument("--proto", choices=["uci", "xboard"], required=True)
    ap.add_argument("--prefer", default="")
    ap.add_argument("--fault", default="none", choices=["none", "illegal", "san"])
    ap.add_argument("--at", type=int, default=0)
    ap.add_argument("--name", default=None)
    args = ap.parse_args(argv)
    prefer = [m for m in args.prefer.split(",") if m]
    name = args.name or f"Fake-chess-{args.proto}-{args.fault}"
    state = {"board": chess.Board(), "start_ply": 0, "wrong_game": False}

    def out(line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def set_board(fen):
        state["board"] = chess.Board(fen)
        state["start_ply"] = state["board"].ply()

    def choose():
        board = state["board"]
        legal = sorted(m.uci() for m in board.legal_moves)
        if not legal:
            return None
        if state["wrong_game"] or (args.fault == "illegal" and board.ply() - state["start_ply"] >= args.at):
            return next(m for m in ("a1a8", "h1h8", "a8a1") if m not in legal)
        move = next((m for m in prefer if m in legal), legal[(board.ply() * 7 + 3) % len(legal)])
        return board.san(chess.Move.from_uci(move)) if args.fault == "san" else move

    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "quit":
            break
        if args.proto == "uci":
            if cmd == "uci":
                out(f"id name {name}")
                out("option name UCI_Variant type combo default xiangqi var xiangqi var chess")
                out("uciok")
            elif cmd == "isready":
                out("readyok")
            elif cmd == "setoption" and "UCI_Variant" in words:
                state["wrong_game"] = words[-1] != "chess"
            elif cmd == "position":
                moves = words[words.index("moves") + 1:] if "moves" in words else []
                head = words[1:words.index("moves")] if "moves" in words else words[1:]
                set_board(chess.STARTING_FEN if head[0] == "startpos" else " ".join(head[1:]))
                for m in moves:
                    state["board"].push_uci(m)
            elif cmd == "go":
                move = choose()
                out(f"info depth 1 score cp 0 nodes 1 pv {move}")
                out(f"bestmove {move or '(none)'}")
        else:
            if cmd in ("uci", "ucci"):                 # as xboard engines answer a protocol probe
                out(f"Error (unknown command): {cmd}")
            elif cmd == "protover":
                out(f'feature ping=1 setboard=1 usermove=1 variants="normal,suicide" myname="{name}" done=1')
            elif cmd == "ping":
                out(f"pong {words[1]}")
            elif cmd == "variant":
                state["wrong_game"] = True
            elif cmd == "new":
                set_board(chess.STARTING_FEN)
            elif cmd == "setboard":
                set_board(" ".join(words[1:]))
            elif cmd == "usermove":
                state["board"].push_uci(words[1])
            elif cmd == "go":
                move = choose()
                board = state["board"]
                board.push(board.parse_san(move) if args.fault == "san" else chess.Move.from_uci(move))
                out(f"move {move}")


if __name__ == "__main__":
    fake_engine(sys.argv[1:])
    sys.exit(0)

# ---------------------------------------------------------------------------------------------------------
# The tests
# ---------------------------------------------------------------------------------------------------------
import os  # noqa: E402
import shutil  # noqa: E402
from pathlib import Path  # noqa: E402

import chess.pgn  # noqa: E402
import pytest  # noqa: E402
from click.testing import CliRunner  # noqa: E402

from engine.match.chess_pgn import format_record, read_game  # noqa: E402
from engine.match.chess_rules import game_result, parse_engine_move, path_from_start  # noqa: E402
from engine.match.engines import EngineSpec, TimeControl  # noqa: E402
from engine.match.openings import load_openings, openings_game, parse_opening  # noqa: E402
from engine.match.runner import Match, MatchConfig, summary  # noqa: E402

from engine.game import XIANGQI  # noqa: E402
ROOT = Path(__file__).resolve().parent.parent
XIANGQI_OPENINGS = Path(XIANGQI.openings)
SHUAI = ROOT / ".venv" / "bin" / "shuai"
FAKE = [sys.executable, str(Path(__file__).resolve())]
FOOLS_MATE = "f2f3,e7e5,g2g4,d8h4"
FAIRYMAX = shutil.which("fairymax") or ("/usr/games/fairymax" if os.path.exists("/usr/games/fairymax") else None)


def board_after(fen, moves):
    board = chess.Board(fen)
    for m in moves:
        board.push_uci(m)
    return board


# -- the referee --------------------------------------------------------------------------------------------
def test_rules():
    assert game_result(chess.Board()) is None
    assert game_result(board_after(chess.STARTING_FEN, FOOLS_MATE.split(","))) == ("0-1", "checkmate")
    assert game_result(chess.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")) == ("1/2-1/2", "stalemate")
    assert game_result(chess.Board("7k/8/6K1/8/8/8/8/2B5 b - - 0 1")) == ("1/2-1/2", "insufficient material")
    assert game_result(chess.Board("7k/8/6K1/8/8/8/8/2R5 b - - 0 1")) is None
    fifty = "7k/8/6K1/8/8/8/8/2R5 w - - 99 80"
    assert game_result(chess.Board(fifty)) is None                 # a claim only once it has happened
    assert game_result(board_after(fifty, ["c1c2"])) == ("1/2-1/2", "50-move")
    assert game_result(board_after("7k/8/6K1/8/8/8/8/R7 w - - 99 80", ["a1a8"])) == ("1-0", "checkmate")
    shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"]
    board = board_after(chess.STARTING_FEN, shuffle + shuffle[:3])
    assert game_result(board) is None                  # Black could repeat now, but it has not happened
    board.push_uci(shuffle[3])
    assert game_result(board) == ("1/2-1/2", "repetition")


def test_engine_moves():
    board = chess.Board("r4b1k/4P3/8/8/8/8/8/R3K2R w KQ - 0 1")
    for text, uci in [("e7e8q", "e7e8q"), ("E7-E8=Q", "e7e8q"), ("exf8=N", "e7f8n"), ("O-O", "e1g1"),
                      ("e1h1", "e1g1"), ("Kd2", "e1d2"), ("e1c1", "e1c1")]:
        assert parse_engine_move(board, text).uci() == uci
    for bad in ("e7e8", "e2e4", "xyzzy", "--", "0000", "Ke3"):
        with pytest.raises(ValueError):
            parse_engine_move(board, bad)


def test_openings_and_paths(tmp_path):
    book = tmp_path / "chess.epd"
    after_e4_e5 = board_after(chess.STARTING_FEN, ["e2e4", "e7e5"]).epd()
    castled = board_after(chess.STARTING_FEN, "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1 f8c5".split()).fen()
    book.write_text(f"# chess\n{after_e4_e5} bm Nf3; id \"open game\";\n{castled}\nstartpos moves d2d4 d7d5\n")
    assert openings_game(str(book)) == "chess"
    ops = load_openings(str(book))
    assert [o.fen for o in ops[:2]] == [after_e4_e5 + " 0 1", castled]
    assert ops[2].fen == chess.STARTING_FEN and ops[2].moves == ("d2d4", "d7d5")
    for op in ops[:2]:                                   # what an xboard engine without setboard is sent
        path = path_from_start(op.fen)
        assert board_after(chess.STARTING_FEN, path).board_fen() == chess.Board(op.fen).board_fen()
    with pytest.raises(ValueError, match="a xiangqi position in a chess match"):
        parse_opening("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", "chess")
    with pytest.raises(ValueError, match="illegal move 'e2e5'"):
        parse_opening("startpos moves e2e5", "chess")
    assert openings_game(str(XIANGQI_OPENINGS)) == "xiangqi"
    # A file of 'startpos moves ...' lines names its game by the moves only one game can play (it fell back to
    # xiangqi, and chess moves were 'illegal'); bare 'startpos' tells nothing.
    for lines, game in (("startpos\nstartpos moves e2e4 e7e5\n", "chess"), ("startpos moves h2e2\n", "xiangqi"),
                        ("startpos\n", None)):
        book.write_text(lines)
        assert openings_game(str(book)) == game, lines


def test_pgn_round_trip():
    fen = board_after(chess.STARTING_FEN, ["e2e4"]).fen()             # Black to move
    text = format_record({"Event": "e", "Round": "3", "White": "A \"q\"", "Black": "B", "TimeControl": "1/0.1",
                        "Termination": "checkmate"}, fen, ["e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"],
                       "White wins by checkmate", "1-0")
    assert "1... e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# { White wins by checkmate } 1-0" in text
    assert f'[FEN "{fen}"]' in text and '[SetUp "1"]' in text and '[Termination "checkmate"]' in text
    back = read_game(text)
    assert back.fen == fen and back.moves[-1] == "h5f7" and back.result == "1-0"
    assert back.tags["White"] == 'A "q"' and back.comment == "White wins by checkmate"


@pytest.mark.parametrize("text", ["1. Ke3 ) !\n", "[Event \"x\"]\n\n1. Ke3 ) !\n"])
def test_text_python_chess_trips_on_is_a_value_error(text):
    """Hostile text that raised an IndexError inside python-chess's reader (``shuai play``'s ``load`` and ``book
    build`` ended with a traceback): one ValueError, as for any bad PGN."""
    from engine.match.chess_pgn import read_games
    for read in (read_game, read_games):
        with pytest.raises(ValueError):
            read(text)


# -- matches ------------------------------------------------------------------------------------------------
def fake(proto, *extra):
    return EngineSpec(cmd=FAKE + ["--proto", proto, *extra], proto=proto)


def run_match(tmp_path, specs, tc="0.5", games=2, **kw):
    lines = []
    kw.setdefault("max_plies", 40)
    kw.setdefault("concurrency", 2)
    cfg = MatchConfig(specs=specs, tc=TimeControl.parse(tc), games=games, pgn_path=str(tmp_path / "games.pgn"),
                      game="chess", **kw)
    res = Match(cfg, out=lines.append).run()
    return res, read_pgn(tmp_path / "games.pgn"), lines


def read_pgn(path):
    """Every game of a PGN file, each checked move by move: all moves legal, PlyCount right."""
    games = []
    with open(path, encoding="utf-8") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            assert not game.errors, game.errors
            board = game.board()
            for move in game.mainline_moves():
                assert move in board.legal_moves
                board.push(move)
            assert int(game.headers["PlyCount"]) == board.ply() - game.board().ply()
            games.append((game, board))
    return games


def test_fakes_fools_mate_uci_against_xboard_with_san(tmp_path):
    res, games, lines = run_match(tmp_path, [fake("uci", "--prefer", FOOLS_MATE),
                                             fake("xboard", "--prefer", FOOLS_MATE, "--fault", "san")])
    assert lines[2] == "Match (chess): 2 games, 0.5s/move, concurrency 2"
    assert sorted((rec.red, rec.result, rec.reason, rec.plies) for _, rec in res.records) == [
        ("Fake-chess-uci-none", "0-1", "checkmate", 4), ("Fake-chess-xboard-san", "0-1", "checkmate", 4)]
    assert res.pair[(0, 1)].wins == 1 and res.pair[(0, 1)].losses == 1
    for game, board in games:
        assert board.is_checkmate() and game.headers["Result"] == "0-1"
        assert game.headers["Termination"] == "checkmate" and game.headers["TimeControl"] == "1/0.5"
        assert game.headers["White"] in ("Fake-chess-uci-none", "Fake-chess-xboard-san")
        assert "FEN" not in game.headers and game.end().comment == "checkmate"
        assert game.board().variation_san(game.mainline_moves()) == "1. f3 e5 2. g4 Qh4#"
    assert "Score of Fake-chess-uci-none vs Fake-chess-xboard-san: 1 - 1 - 0" in summary(res)


def test_fakes_illegal_move_loses_and_openings_with_setboard(tmp_path):
    fen = board_after(chess.STARTING_FEN, ["d2d4", "d7d5", "c2c4"]).fen()
    res, games, _ = run_match(tmp_path, [fake("xboard"), fake("uci", "--fault", "illegal", "--at", "3")],
                              openings=[parse_opening(fen, "chess")], max_plies=10)
    assert [(rec.reason, rec.loser_side is not None) for _, rec in res.records] == [("illegal move", True)] * 2
    assert res.total[1].losses == 2
    for game, board in games:
        assert game.headers["FEN"] == fen and game.headers["Termination"] == "illegal move"
        assert "played an illegal move: a1a8" in game.end().comment


def test_cli_chess_sprt_with_fakes(tmp_path):
    from engine.match.cli import match
    pgn = tmp_path / "cli.pgn"
    a = " ".join(FAKE) + " --proto uci"
    b = " ".join(FAKE) + " --proto xboard --fault illegal"
    r = CliRunner().invoke(match, ["--game", "chess", "--engine", f"proto=uci {a}", "--engine", b,
                                   "--games", "40", "--tc", "0.5", "--concurrency", "1", "--pgn", str(pgn),
                                   "--sprt", "elo0=0", "elo1=5"])
    assert r.exit_code == 0, r.output
    assert "Engine 2: Fake-chess-xboard-illegal (xboard: " in r.output          # found by probing: no UCCI
    assert "SPRT: LLR 3.43 crossed upper bound: H1 accepted; stopping" in r.output     # 13 pairs of wins
    assert "Score of Fake-chess-uci-none vs Fake-chess-xboard-illegal: 26 - 0 - 0" in r.output
    assert "Resume with --resume 26,0,0/0,0,0,0,0,13" in r.output
    assert len(read_pgn(pgn)) == 26
    xiangqi_book = str(XIANGQI_OPENINGS)
    bad = CliRunner().invoke(match, ["--game", "chess", "--engine", a, "--engine", b, "--tc", "1",
                                     "--openings", xiangqi_book])
    assert bad.exit_code == 2 and "holds xiangqi positions, not chess" in bad.output


def test_cli_chess_openings_imply_chess(tmp_path):
    from engine.match.cli import match
    book = tmp_path / "book.epd"
    book.write_text(board_after(chess.STARTING_FEN, ["g1f3", "d7d5"]).fen() + "\n")
    pgn = tmp_path / "book.pgn"
    a = " ".join(FAKE) + " --proto uci"
    r = CliRunner().invoke(match, ["--engine", f"proto=uci {a}", "--engine", f"proto=xboard {' '.join(FAKE)} "
                                   "--proto xboard", "--tc", "0.5", "--max-plies", "6", "--openings", str(book),
                                   "--pgn", str(pgn)])
    assert r.exit_code == 0, r.output
    assert "Match (chess): 2 games" in r.output and "Endings: max plies 2" in r.output
    games = read_pgn(pgn)
    assert [g.headers["FEN"] for g, _ in games] == [chess.Board(book.read_text()).fen()] * 2
    assert all(board.ply() - g.board().ply() == 6 for g, board in games)


@pytest.mark.skipif(not SHUAI.exists(), reason="no .venv/bin/shuai")
def test_shuai_against_itself_over_uci(tmp_path):
    from engine.match.cli import match
    pgn = tmp_path / "shuai.pgn"
    r = CliRunner().invoke(match, ["--game", "chess", "--engine", f"name=A {SHUAI}", "--engine", f"name=B {SHUAI}",
                                   "--games", "2", "--tc", "0.1", "--margin", "400", "--max-plies", "40",
                                   "--concurrency", "2", "--pgn", str(pgn)])
    assert r.exit_code == 0, r.output
    assert "Engine 1: A (uci: " in r.output and "Finished: 2 games" in r.output
    games = read_pgn(pgn)
    assert len(games) == 2
    assert {(g.headers["White"], g.headers["Black"]) for g, _ in games} == {("A", "B"), ("B", "A")}
    for game, board in games:
        assert game.headers["Result"] in ("1-0", "0-1", "1/2-1/2")
        assert game.headers["Round"] in ("1", "2") and game.headers["Date"].count(".") == 2
        assert game.headers["Event"] == "shuai match" and game.headers["TimeControl"] == "1/0.1"
        termination, result = game.headers["Termination"], game.headers["Result"]
        if termination == "max plies":
            assert board.ply() == 40 and result == "1/2-1/2"
        elif termination == "time forfeit":      # possible on a loaded machine: the side to move lost
            assert result == ("0-1" if board.turn == chess.WHITE else "1-0") and "lost on time" in game.end().comment
        else:                                    # a game the rules ended: they agree with python-chess
            assert termination in ("checkmate", "stalemate", "insufficient material", "50-move", "repetition")
            assert board.outcome(claim_draw=True).result() == result


@pytest.mark.skipif(FAIRYMAX is None or not SHUAI.exists(), reason="Fairy-Max or .venv/bin/shuai not installed")
def test_shuai_against_fairymax_from_an_opening(tmp_path):
    """Fairy-Max speaks xboard without setboard: the opening reaches it as moves from the start."""
    fen = board_after(chess.STARTING_FEN, ["e2e4", "c7c5", "g1f3"]).fen()
    res, games, lines = run_match(tmp_path, [EngineSpec.parse(str(SHUAI)),
                                             EngineSpec.parse(f"proto=xboard {FAIRYMAX}")],
                                  tc="3+0.05", games=1, max_plies=16, openings=[parse_opening(fen, "chess")],
                                  margin=0.3)
    assert lines[1].startswith("Engine 2: Fairy-Max") and "(xboard: " in lines[1]
    (job, rec), = res.records
    assert rec.reason not in ("illegal move", "engine error", "engine hung", "engine crashed"), rec.detail
    (game, board), = games
    assert game.headers["FEN"] == fen and game.headers["White"].startswith("Shuai")
    assert rec.reason != "max plies" or board.ply() - game.board().ply() == 16
