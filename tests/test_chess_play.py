"""``shuai play --game chess``: the board drawing, move parsing (SAN and coordinates), the game loop driven
in-process, and whole games in a pseudo-terminal.

The engine searches to a small fixed depth everywhere (``--depth``), so that games are fast and reproducible.
"""
import io
import os
import re
import sys

import chess
import chess.pgn
import pytest

from conftest import run_scripted_session
from engine.play.chess_record import ChessMoveError, ChessRecord
from engine.play.chess_view import board_width, render_board
from engine.play.terminal import Style, text_width

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
PLAIN, UNI, UNI_COLOUR = Style(False, False), Style(True, False), Style(True, True)
# After 1. f3 e5 2. g4: Black mates with Qh4 (fool's mate).
FOOLS_MATE = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2"
# After 1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6??: White mates with Qxf7 (scholar's mate).
SCHOLARS_MATE = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"


def plain(text):
    return ANSI.sub("", text)


# -- the board --------------------------------------------------------------------------------------------------
def test_ascii_and_unicode_boards():
    lines = render_board(chess.Board(), PLAIN)
    assert lines[0] == "   a  b  c  d  e  f  g  h   "
    assert lines[1] == "8  r  n  b  q  k  b  n  r  8"
    assert lines[4] == "5  .  .  .  .  .  .  .  .  5"
    assert lines[8] == "1  R  N  B  Q  K  B  N  R  1"
    assert len(lines) == 10
    uni = render_board(chess.Board(), UNI)
    assert uni[1] == "8  ♜  ♞  ♝  ♛  ♚  ♝  ♞  ♜  8"
    assert uni[7] == "2  ♙  ♙  ♙  ♙  ♙  ♙  ♙  ♙  2"
    assert uni[8] == "1  ♖  ♘  ♗  ♕  ♔  ♗  ♘  ♖  1"
    flipped = render_board(chess.Board(), UNI, flipped=True)
    assert flipped[0].split() == list("hgfedcba")
    assert flipped[1] == "1  ♖  ♘  ♗  ♔  ♕  ♗  ♘  ♖  1"
    for line in lines + uni + flipped:
        assert text_width(line) == board_width() == 28


def test_last_move_and_check_are_marked():
    board = chess.Board()
    board.push_san("e4")
    lines = render_board(board, UNI, last_move=board.peek())
    assert lines[5] == "4  ·  ·  ·  · [♙] ·  ·  ·  4"
    assert lines[7] == "2  ♙  ♙  ♙  ♙ [·] ♙  ♙  ♙  2"
    coloured = render_board(board, UNI_COLOUR, last_move=board.peek(), check_square=chess.E1)
    assert "48;5;186m ♙ " in coloured[5]                          # the last move: a background, no brackets
    assert "48;5;210m ♔ " in coloured[8]                          # the king "in check"
    assert "[" not in plain("".join(coloured))


# -- the game record --------------------------------------------------------------------------------------------
def test_parse_san_and_coordinates():
    g = ChessRecord()
    assert g.parse("e4") == chess.Move.from_uci("e2e4")
    assert g.parse("g1f3") == g.parse("Nf3") == g.parse("nf3") == g.parse("G1-F3") == chess.Move.from_uci("g1f3")
    for text, message in [("xyzzy", "cannot read 'xyzzy' as a move"), ("Ke2", "Ke2 is not a legal move here"),
                          ("e2e5", "e2e5 is not a legal move here"), ("--", "cannot read '--'"),
                          ("O-O", "O-O is not a legal move here")]:
        with pytest.raises(ChessMoveError, match=re.escape(message)):
            g.parse(text)
    castle = ChessRecord("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert castle.parse("O-O") == castle.parse("0-0") == castle.parse("e1g1") == chess.Move.from_uci("e1g1")
    assert castle.name(castle.parse("O-O-O")).san == "O-O-O"
    promote = ChessRecord("8/4P2k/8/8/8/8/8/K7 w - - 0 1")
    assert promote.parse("e8=Q") == promote.parse("e7e8q") == chess.Move.from_uci("e7e8q")
    assert promote.name(promote.parse("e8=N")).uci == "e7e8n"
    knights = ChessRecord("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1")
    with pytest.raises(ChessMoveError, match="Nd2 is ambiguous: Nbd2 or Nfd2"):
        knights.parse("Nd2")


def test_game_ends_and_descriptions():
    g = ChessRecord(FOOLS_MATE)
    played = g.play(g.parse("Qh4"))
    assert (played.san, played.uci, played.side) == ("Qh4#", "d8h4", 1)
    assert g.check_end() == ("0-1", "checkmate") and g.king_in_check() == chess.E1
    assert ChessRecord.describe("0-1", "checkmate") == "Black wins by checkmate"
    assert ChessRecord.describe("1/2-1/2", "repetition") == "Draw (threefold repetition)"
    assert ChessRecord("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").check_end() == ("1/2-1/2", "stalemate")
    assert ChessRecord("7k/8/6K1/8/8/8/8/6B1 b - - 0 1").check_end() == ("1/2-1/2", "insufficient material")
    g = ChessRecord()
    for _ in range(2):
        for m in ("Nf3", "Nf6", "Ng1", "Ng8"):
            assert g.check_end() is None
            g.play(g.parse(m))
    assert g.check_end() == ("1/2-1/2", "repetition")              # the start position a third time
    assert g.take_back().san == "Ng8" and g.ended is None and g.fen().startswith("rnbqkb1r/")
    assert g.pos.fen() == g.fen()                                   # the engine's position follows the record


# -- the game loop, in-process ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def thinker_factory():
    from engine.play.thinking import Thinker
    shared = {}

    def make(out, style):
        if "t" not in shared:
            shared["t"] = Thinker(out, style, hash_mb=4, tablebases=False)
        t = shared["t"]
        t.out, t.style, t.live = out, style, False
        t.new_game()
        return t
    return make


def run_session(thinker_factory, lines, side=0, fen=None, style=UNI, depth=2):
    from engine.play.chess_session import ChessSession
    from engine.searcher import Limits
    return run_scripted_session(ChessSession, thinker_factory, lines, style=style, user_side=side,
                                limits=Limits(depth=depth), start_fen=fen)


def replay_is_legal(game):
    board = chess.Board(game.start_fen)
    for p in game.played:
        assert p.move in board.legal_moves
        assert board.san(p.move) == p.san
        board.push(p.move)
    assert board.fen() == game.fen()


def test_moves_in_san_and_coordinates_and_a_bad_one(thinker_factory):
    session, out = run_session(thinker_factory, ["e4", "Ke3", "garbage", "g1f3", "fen", "quit"])
    assert "Shuai — chess. You play White; Shuai thinks to depth 2." in out
    assert "You play e4 (e2e4)" in out and "You play Nf3 (g1f3)" in out
    assert "white> Ke3\n✗ Ke3 is not a legal move here\n  (type moves to list your legal moves)\nwhite> " in out
    assert "white> garbage\n✗ cannot read 'garbage' as a move: type SAN" in out
    assert len(re.findall(r"Shuai plays \S+ \([a-h][1-8][a-h][1-8]\)", out)) == 2
    g = session.game
    assert len(g.played) == 4 and [p.uci for p in g.played[::2]] == ["e2e4", "g1f3"]
    replay_is_legal(g)
    assert f"\n{g.fen()}\n" in out


def test_users_fools_mate(thinker_factory):
    session, out = run_session(thinker_factory, ["Qh4#", "e4", "quit"], side=1, fen=FOOLS_MATE)
    assert "You play Qh4# (d8h4)" in out
    assert "Game over: Black wins by checkmate (0-1)\nYou win! Well played." in out
    assert "the game is over" in out                              # no moves after the end
    assert session.game.ended == ("0-1", "checkmate")
    assert "2. ...       Qh4#" in out                              # the move list starts with Black's move


def test_engine_mates(thinker_factory):
    session, out = run_session(thinker_factory, [], side=1, fen=SCHOLARS_MATE)
    assert "Shuai plays Qxf7# (h5f7)" in out
    assert "Game over: White wins by checkmate (1-0)\nShuai wins." in out


def test_save_load_round_trip(thinker_factory, tmp_path):
    pgn = tmp_path / "game.pgn"
    session, out = run_session(thinker_factory, ["d4", "c2c4", f"save {pgn}", "quit"])
    moves = [p.uci for p in session.game.played]
    fen_after = session.game.fen()
    game = chess.pgn.read_game(io.StringIO(pgn.read_text()))
    assert [m.uci() for m in game.mainline_moves()] == moves and len(moves) == 4
    assert (game.headers["White"], game.headers["Black"], game.headers["Result"]) == ("You", "Shuai", "*")
    assert pgn.read_text().split("\n\n")[1].startswith("1. d4 ")
    session, out = run_session(thinker_factory, [f"load {pgn}", "fen", "quit"])
    assert f"Loaded 4 moves from {pgn}; White to move." in out
    assert [p.uci for p in session.game.played] == moves and session.game.fen() == fen_after


def test_finished_game_saved_and_loaded_with_its_result(thinker_factory, tmp_path):
    pgn = tmp_path / "mate.pgn"
    run_session(thinker_factory, ["Qh4", f"save {pgn}", "quit"], side=1, fen=FOOLS_MATE)
    text = pgn.read_text()
    assert f'[FEN "{FOOLS_MATE}"]' in text and '[SetUp "1"]' in text and '[Result "0-1"]' in text
    assert "2... Qh4# { Black wins by checkmate } 0-1" in text
    session, out = run_session(thinker_factory, [f"load {pgn}", "quit"], side=1)
    assert "Black wins by checkmate (0-1)" in out and session.game.ended == ("0-1", "checkmate")


def test_resign_undo_new_loads_and_ascii(thinker_factory, tmp_path):
    bad = tmp_path / "bad.pgn"
    bad.write_text('[Event "x"]\n\n1. e4 e5 2. Ke3 *\n')
    session, out = run_session(thinker_factory, [
        "resign", "undo", "load", f"load {bad}", "load not/a/fen", "load 8/8/8/8/8/8/8/8 w - - 0 1",
        f"load {SCHOLARS_MATE}", "hint", "moves", "e4", "new", "resign", "quit"], style=PLAIN)
    assert "Game over: Black wins by resignation (0-1)" in out and "Game resumed." in out
    assert "! load needs a PGN file or a FEN" in out
    assert f"! cannot load {bad}: illegal san: 'Ke3'" in out
    assert "! no such file, and not a FEN either: expected 8 ranks separated by '/', found 3" in out
    assert "! no such file, and not a FEN either: white has 0 kings, expected one" in out
    assert "Loaded the position; White to move." in out and "Hint: Qxf7# (h5f7)" in out
    legal = chess.Board(SCHOLARS_MATE).legal_moves.count()
    assert f"{legal} legal moves:" in out and "Qxf7# h5f7" in out
    assert "! e4 is not a legal move here" in out and "New game." in out     # the e-pawn is blocked
    assert session.game.ended == ("0-1", "resignation") and session.game.start_fen == SCHOLARS_MATE
    assert "K king  Q queen  R rook" in out and out.isascii()


# -- whole games in a pseudo-terminal ---------------------------------------------------------------------------
pexpect = pytest.importorskip("pexpect")


def spawn(*args):
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR",)}
    env.update({"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color", "PYTHONIOENCODING": "utf-8"})
    return pexpect.spawn(sys.executable, ["-m", "engine.play", *args], env=env, encoding="utf-8",
                         dimensions=(50, 110), timeout=90, cwd=os.path.dirname(os.path.dirname(__file__)))


def test_pty_game_san_coordinates_illegal_save_load(tmp_path):
    pgn = tmp_path / "pty.pgn"
    child = spawn("--game", "chess", "--depth", "2", "--no-color")
    child.expect("white> ")
    assert "8  ♜  ♞  ♝  ♛  ♚  ♝  ♞  ♜  8" in child.before and "1  ♖  ♘  ♗  ♕  ♔  ♗  ♘  ♖  1" in child.before
    child.sendline("e4")
    child.expect(r"You play e4 \(e2e4\)")
    child.expect(r"Shuai plays (\S+) \(([a-h][1-8][a-h][1-8][qrbn]?)\)")
    replies = [child.match.group(2)]
    child.expect("white> ")
    child.sendline("Ke3")                                   # illegal: one error line, and the game goes on
    child.expect("white> ")
    assert [l.strip() for l in child.before.strip().splitlines()] == [
        "Ke3", "✗ Ke3 is not a legal move here", "(type moves to list your legal moves)"]
    child.sendline("g1f3")
    child.expect(r"You play Nf3 \(g1f3\)")
    child.expect(r"Shuai plays (\S+) \(([a-h][1-8][a-h][1-8][qrbn]?)\)")
    replies.append(child.match.group(2))
    child.expect("white> ")
    child.sendline(f"save {pgn}")
    child.expect("Saved 4 moves to ")
    child.expect("white> ")
    child.sendline("new")
    child.expect("New game.")
    child.expect("white> ")
    child.sendline(f"load {pgn}")
    child.expect("Loaded 4 moves from ")
    child.expect("white> ")
    board = chess.Board()
    for m in ["e2e4", replies[0], "g1f3", replies[1]]:
        board.push_uci(m)                                   # every move legal
    child.sendline("fen")
    child.expect(re.escape(board.fen()))
    child.expect("white> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    game = chess.pgn.read_game(io.StringIO(pgn.read_text()))
    assert [m.uci() for m in game.mainline_moves()] == ["e2e4", replies[0], "g1f3", replies[1]]


def test_pty_fools_mate_with_a_chess_fen_alone():
    child = spawn("--side", "black", "--depth", "1", "--fen", FOOLS_MATE)       # 8 ranks: chess
    child.expect("black> ")
    assert "Shuai — chess. You play Black" in child.before
    child.sendline("Qh4#")
    child.expect(re.escape("You play Qh4# (d8h4)"))
    child.expect(re.escape("Game over: Black wins by checkmate (0-1)"))
    child.expect("You win! Well played.")
    child.expect("game over> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_pty_bad_arguments_are_one_line_and_exit_2():
    child = spawn("--game", "chess", "--fen", "nonsense w")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
    assert child.before.strip() == "error: expected 8 ranks separated by '/', found 1"
    child = spawn("--game", "chess", "--side", "red")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2 and child.before.strip() == "error: --side red is not a side in chess (white or black)"
