"""``shuai play``: the board drawing, the game loop driven in-process, and whole games in a pseudo-terminal.

The engine searches to a small fixed depth everywhere (``--depth``), so that games are fast and reproducible.
"""
import io
import os
import re
import sys

import pytest

from conftest import run_scripted_session
from engine.play.xiangqi_view import board_width, render_board
from engine.play.terminal import Style, detect_style, text_width
from engine.xiangqi.position import Position, START_FEN

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
MATE_IN_ONE = "4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1"     # Red: b0b9 (车八进九) mates
PLAIN, UNI, UNI_COLOUR = Style(False, False), Style(True, False), Style(True, True)


def plain(text):
    return ANSI.sub("", text)


# -- the board --------------------------------------------------------------------------------------------------
def test_ascii_board():
    lines = render_board(Position().board, PLAIN)
    assert lines[0].rstrip() == "   1   2   3   4   5   6   7   8   9"
    assert lines[1] == "9  r---h---e---a---k---a---e---h---r   9"
    assert lines[2].rstrip() == "   |   |   |   | \\ | / |   |   |   |"
    assert lines[4].rstrip() == "   |   |   |   | / | \\ |   |   |   |"
    assert lines[10].strip() == "|   CHU  HE          HAN  JIE   |"
    assert lines[19] == "0  R---H---E---A---K---A---E---H---R   0"
    assert lines[20].rstrip() == "   a   b   c   d   e   f   g   h   i"
    assert lines[21].rstrip() == "   9   8   7   6   5   4   3   2   1"
    assert len(lines) == 22


def test_unicode_board_and_flip():
    lines = render_board(Position().board, UNI)
    assert lines[1] == "9  車──馬──象──士──將──士──象──馬──車  9"
    assert lines[2].rstrip() == "   │   │   │   │ ╲ │ ╱ │   │   │   │"
    assert lines[3] == "8  ├───┼───┼───┼───┼───┼───┼───┼───┤   8"
    assert lines[9] == "5  ├───┴───┴───┴───┴───┴───┴───┴───┤   5"
    assert "楚  河" in lines[10] and "漢  界" in lines[10]
    assert lines[19] == "0  俥──傌──相──仕──帥──仕──相──傌──俥  0"
    assert lines[21].split() == list("九八七六五四三二一")            # Red's file numbers under Red
    assert lines[0].split() == list("123456789")                     # Black's above Black
    flipped = render_board(Position().board, UNI, flipped=True)
    assert flipped[1] == "0  俥──傌──相──仕──帥──仕──相──傌──俥  0"
    assert flipped[20].split() == list("ihgfedcba")
    assert flipped[0].split() == list("一二三四五六七八九")
    for line in lines + flipped:
        assert text_width(line) == board_width()


def test_last_move_and_check_are_marked():
    pos = Position()
    pos.push("h2e2")
    move = (2 * 9 + 7) << 7 | (2 * 9 + 4)
    lines = render_board(pos.board, UNI, last_move=move)
    assert lines[15] == "2  ├───炮──┼───┼──[炮]─┼───┼──[┼]──┤   2"
    ascii_lines = render_board(pos.board, PLAIN, last_move=move)
    assert ascii_lines[15] == "2  +---C---+---+--[C]--+---+--[+]--+   2"
    coloured = render_board(pos.board, UNI_COLOUR, last_move=move, check_square=4)
    assert "48;5;222" in coloured[15] and "[" not in plain(coloured[15])   # a background, no brackets
    assert "48;5;210" in coloured[19]                                       # the general in check
    assert [plain(x) for x in coloured] == render_board(pos.board, UNI)


def test_style_detection(monkeypatch):
    class Stream(io.StringIO):
        def __init__(self, encoding, tty):
            super().__init__()
            self._enc, self._tty = encoding, tty

        @property
        def encoding(self):
            return self._enc

        def isatty(self):
            return self._tty

    assert detect_style(Stream("utf-8", True), env={"TERM": "xterm"}) == Style(True, True)
    assert detect_style(Stream("utf-8", True), env={"TERM": "xterm", "NO_COLOR": ""}) == Style(True, False)
    assert detect_style(Stream("utf-8", False), env={}) == Style(True, False)          # a pipe
    assert detect_style(Stream("ascii", True), env={}) == Style(False, True)           # cannot show 帥
    assert detect_style(Stream("latin-1", True), env={}, force_ascii=False).unicode is False
    assert detect_style(Stream("utf-8", True), env={}, force_ascii=True).unicode is False
    assert detect_style(Stream("utf-8", False), env={}, color=True).color is True


# -- the game loop, in-process ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def thinker_factory():
    from engine.play.thinking import Thinker
    shared = {}

    def make(out, style):
        if "t" not in shared:
            shared["t"] = Thinker(out, style, hash_mb=4)
        t = shared["t"]
        t.out, t.style, t.live = out, style, False
        t.new_game()
        return t
    return make


def test_the_terminal_game_evaluates_with_each_games_own_network(thinker_factory):
    """``make play`` plays as the engine does by default: xiangqi by its network, chess (no network yet) by its
    hand-written evaluation."""
    t = thinker_factory(io.StringIO(), UNI)
    assert t.searcher.networks["xiangqi"].hidden == 128 and "chess" not in t.searcher.networks


def run_session(thinker_factory, lines, side=0, fen=None, style=UNI, depth=2):
    from engine.play.session import Session
    from engine.searcher import Limits
    return run_scripted_session(Session, thinker_factory, lines, style=style, user_side=side,
                                limits=Limits(depth=depth), start_fen=fen)


def test_user_mates(thinker_factory):
    session, out = run_session(thinker_factory, ["车八进九", "h0h1", "quit"], fen=MATE_IN_ONE)
    assert "You play 车八进九 (b0b9, R8+9)" in out
    assert "Game over: Red wins by checkmate (1-0)  红胜" in out
    assert "You win!" in out
    assert "the game is over" in out                              # no moves after the end
    assert session.game.ended == ("1-0", "checkmate")


def test_engine_mates(thinker_factory):
    session, out = run_session(thinker_factory, [], side=1, fen=MATE_IN_ONE)
    assert "Shuai plays 车八进九 (b0b9, R8+9)" in out
    assert "Red wins by checkmate (1-0)" in out and "Shuai wins." in out


def test_bad_input_then_undo(thinker_factory):
    session, out = run_session(thinker_factory, ["garbage", "h2e3", "前车进一", "h2e2", "undo", "fen",
                                                 "undo", "quit"])
    assert "cannot read 'garbage'" in out
    assert "h2e3 is not a legal move here" in out
    assert "前车进一 is not a legal move here" in out
    assert "Taken back: 炮二平五, " in out
    assert f"\n{START_FEN}\n" in out
    assert "nothing to take back" in out
    assert session.game.played == []


def test_undo_when_playing_black(thinker_factory):
    # the engine opens; undo takes back our move and its reply, never its opening move
    session, out = run_session(thinker_factory, ["h9g7", "undo", "undo", "quit"], side=1)
    assert "Taken back: 马8进7, " in out and "nothing to take back" in out
    assert len(session.game.played) == 1 and session.game.played[0].side == 0


def test_save_and_load_round_trip(thinker_factory, tmp_path):
    pgn = tmp_path / "game.pgn"
    session, out = run_session(thinker_factory, ["炮二平五", "H2+3", f"save {pgn}", "fen", "quit"])
    moves = [p.iccs for p in session.game.played]
    fen_after = session.game.pos.fen()
    assert len(moves) == 4 and moves[0] == "h2e2" and moves[2] == "h0g2"
    text = pgn.read_text()
    assert text.startswith('[Game "Chinese Chess"]') and '[Format "ICCS"]' in text
    assert "1. H2-E2 " in text and "2. H0-G2 " in text and text.rstrip().endswith("*")
    session, out = run_session(thinker_factory, [f"load {pgn}", "fen", "quit"])
    assert f"Loaded 4 moves from {pgn}; Red to move." in out
    assert [p.iccs for p in session.game.played] == moves and session.game.pos.fen() == fen_after
    from engine.match.xiangqi_pgn import parse_pgn
    assert parse_pgn(text)[0].moves == moves


def test_save_from_a_fen_and_a_finished_game(thinker_factory, tmp_path):
    pgn = tmp_path / "mate.pgn"
    run_session(thinker_factory, ["b0b9", f"save {pgn}", "quit"], fen=MATE_IN_ONE)
    text = pgn.read_text()
    assert f'[FEN "{MATE_IN_ONE}"]' in text and '[Result "1-0"]' in text
    assert "1. B0-B9 {Red wins by checkmate} 1-0" in text
    session, out = run_session(thinker_factory, [f"load {pgn}", "quit"])
    assert "Red wins by checkmate (1-0)" in out and session.game.ended == ("1-0", "checkmate")


def test_load_fen_and_bad_loads(thinker_factory, tmp_path):
    bad = tmp_path / "bad.pgn"
    bad.write_text('[Game "Chinese Chess"]\n\n1. H2-E3 *\n')
    session, out = run_session(thinker_factory, [
        "load", "load not/a/fen", f"load {bad}", "save", f"save {tmp_path}/no/such/dir/x.pgn",
        f"load {MATE_IN_ONE}", "fen", "quit"])
    assert "load needs a PGN file or a FEN" in out
    assert "no such file, and not a FEN either" in out
    assert "cannot load" in out and "move 1 (h2e3) cannot be played" in out
    assert "save needs a file name" in out and "cannot save to" in out
    assert "Loaded the position; Red to move." in out and f"\n{MATE_IN_ONE}\n" in out


def test_resign_new_and_draw_offers(thinker_factory):
    session, out = run_session(thinker_factory, ["resign", "resign", "new", "h2e2", "quit"])
    assert "Game over: Black wins by resignation (0-1)" in out and "Shuai wins." in out
    assert "New game." in out and "You play 炮二平五" in out
    winning = "4k4/9/9/9/9/9/9/9/9/RR1K5 w - - 0 1"                 # two chariots against a bare general
    session, out = run_session(thinker_factory, ["draw", "quit"], fen=winning)
    assert "Shuai accepts the draw." in out and "Draw (agreed by both players) (1/2-1/2)" in out
    losing = "rr2k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1"
    session, out = run_session(thinker_factory, ["draw", "hint", "quit"], fen=losing)
    assert "Shuai declines the draw" in out and "Hint: " in out and session.game.ended is None


def test_undo_resumes_a_resigned_game_and_loads_keep_the_recorded_result(thinker_factory, tmp_path):
    pgn = tmp_path / "resigned.pgn"
    session, out = run_session(thinker_factory, ["h2e2", "resign", f"save {pgn}", "undo", "quit"])
    assert "Game resumed." in out and session.game.ended is None and len(session.game.played) == 2
    assert '[Result "0-1"]' in pgn.read_text() and "{Black wins by resignation} 0-1" in pgn.read_text()
    session, out = run_session(thinker_factory, [f"load {pgn}", "quit"])
    assert "(the file says 0-1: Black wins by resignation)" in out


def test_level_command_and_full_strength_hints(thinker_factory):
    session, out = run_session(thinker_factory, ["level", "level 5", "level 21", "level x", "h2e2", "hint", "quit"])
    assert "Shuai plays at level 20 of 20 (full strength)." in out
    assert "Shuai plays at level 5 of 20." in out and session.level == 5
    assert out.count("level must be a number from 0 (weakest) to 20 (full strength)") == 2
    assert "Shuai plays " in out and "Hint: " in out and "W/D/L" in out        # the hint is searched, not booked
    board = out.split("Shuai plays at level 5")[1]
    assert "Shuai thinks to depth 2, level 5" in board                          # the panel says the level


def test_check_is_announced(thinker_factory):
    session, out = run_session(thinker_factory, ["a8a9", "quit"], fen=MATE_IN_ONE)
    assert "You play 车九进一 (a8a9, R9+1), check!" in out


def test_ascii_session_uses_wxf(thinker_factory):
    session, out = run_session(thinker_factory, ["C2=5", "moves", "help", "quit"], style=PLAIN)
    assert "You play C2=5 (h2e2)" in out and "Shuai plays " in out
    assert "r---h---e" in out and "CHU  HE" in out
    assert out.isascii() or all(ord(c) < 128 for c in out.replace("Chinese", ""))
    assert "legal moves:" in out


# -- whole games in a pseudo-terminal ---------------------------------------------------------------------------
pexpect = pytest.importorskip("pexpect")


def spawn(*args, env_extra=None):
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR",)}
    env.update({"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color", "PYTHONIOENCODING": "utf-8"})
    env.update(env_extra or {})
    return pexpect.spawn(sys.executable, ["-m", "engine.play", *args], env=env, encoding="utf-8",
                         dimensions=(50, 110), timeout=90, cwd=os.path.dirname(os.path.dirname(__file__)))


def test_pty_game_with_undo_bad_input_save_load_and_resign(tmp_path):
    pgn = tmp_path / "pty.pgn"
    child = spawn("--depth", "2", "--no-color")
    child.expect("red> ")
    assert "楚  河" in child.before and "9  車──馬──象──士──將──士──象──馬──車  9" in child.before
    child.sendline("炮二平五")
    child.expect(r"You play 炮二平五 \(h2e2, C2=5\)")
    child.expect(r"Shuai plays (\S+) \(([a-i]\d[a-i]\d), ")
    reply = child.match.group(2)
    child.expect("red> ")
    child.sendline("h2e3")
    child.expect("not a legal move here")
    child.expect("red> ")
    child.sendline("xyzzy")
    child.expect("cannot read 'xyzzy'")
    child.expect("red> ")
    child.sendline("undo")
    child.expect("Taken back: 炮二平五, ")
    child.expect("red> ")
    child.sendline("fen")
    child.expect(re.escape(START_FEN))
    child.expect("red> ")
    child.sendline("h2e2")
    child.expect(r"Shuai plays (\S+) \(([a-i]\d[a-i]\d), ")
    reply = child.match.group(2)         # not necessarily the first reply: the tables remember the first search
    child.expect("red> ")
    child.sendline(f"save {pgn}")
    child.expect("Saved 2 moves to ")
    child.expect("red> ")
    child.sendline("new")
    child.expect("New game.")
    child.expect("red> ")
    child.sendline(f"load {pgn}")
    child.expect("Loaded 2 moves from ")
    child.expect("red> ")
    child.sendline("fen")
    pos = Position()
    pos.push("h2e2")
    pos.push(reply)
    child.expect(re.escape(pos.fen()))
    child.expect("red> ")
    child.sendline("resign")
    child.expect(re.escape("Game over: Black wins by resignation (0-1)"))
    child.expect("game over> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "H2-E2" in pgn.read_text()


def test_pty_engine_mates_as_red_and_thinking_line():
    child = spawn("--side", "black", "--time", "0.5", "--no-book", "--fen", MATE_IN_ONE)
    child.expect(r"Shuai plays 车八进九 \(b0b9, R8\+9\)")
    child.expect(re.escape("Red wins by checkmate (1-0)"))
    child.expect("Shuai wins.")
    child.expect("game over> ")
    child.sendline(f"load {START_FEN}")
    child.expect("Shuai is thinking")                 # the live status line: spinner, time, depth, score
    child.expect(r"Shuai is thinking +\d+\.\ds  depth \d+  eval [+-]\d+\.\d\d  \S+")
    child.expect("Shuai plays ")
    child.expect("black> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_pty_level_and_the_default_book():
    child = spawn("--side", "black", "--depth", "2", "--level", "3", "--no-color")
    child.expect(r"Shuai thinks to depth 2, level 3\.")
    child.expect(r"Shuai plays (\S+) \(([a-i]\d[a-i]\d), \S+\)   from the book")
    child.expect("black> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_pty_colours_and_ascii_modes():
    child = spawn("--depth", "1", "--fen", MATE_IN_ONE)
    child.expect("red> ")
    assert "\x1b[1;38;5;160;48;5;230m俥" in child.before       # a red chariot: red on a cream disc
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child = spawn("--depth", "1", "--ascii", "--fen", MATE_IN_ONE)
    child.expect("red> ")
    assert "R" in child.before and "CHU  HE" in child.before and "楚" not in child.before
    child.sendline("R8+9")
    child.expect(re.escape("You play R8+9 (b0b9)"))
    child.expect("Red wins by checkmate")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child = spawn("--depth", "1", env_extra={"NO_COLOR": "1"})
    child.expect("red> ")
    assert "\x1b[38;5" not in child.before and "\x1b[1;38;5" not in child.before
    child.sendintr()                                        # Ctrl-C at the prompt leaves cleanly
    child.expect(pexpect.EOF)


def test_pty_bad_fen_is_one_line_and_exit_2():
    child = spawn("--fen", "nonsense w")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
    assert child.before.strip() == "error: expected 10 ranks separated by '/', found 1"


def test_piped_input_plain_output_and_light_import():
    import subprocess
    out = subprocess.run([sys.executable, "-m", "engine.play", "--depth", "1"], input="h2e2\nfen\n",
                         capture_output=True, text=True, timeout=120, encoding="utf-8")
    assert out.returncode == 0, out.stderr
    assert "\x1b" not in out.stdout                        # not a terminal: no colours, no status line
    assert "You play 炮二平五" in out.stdout and "Shuai plays" in out.stdout
    assert out.stdout.rstrip().endswith("bye.")              # end of input ends the game politely
    probe = ("import sys, engine.play.cli; "
             "print(sorted(m for m in ('numba', 'numpy', 'engine.searcher') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "[]"


def test_pty_ctrl_c_while_thinking_makes_the_engine_move_now():
    import time
    child = spawn("--time", "30", "--no-color", "--no-book")
    child.expect("red> ")
    child.sendline("h2e2")
    child.expect(r"Shuai is thinking +\d+\.\ds  depth")    # it has finished at least one iteration
    start = time.monotonic()
    child.sendintr()
    child.expect("Shuai plays ")
    assert time.monotonic() - start < 10
    child.expect("red> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_ctrl_c_works_even_when_the_parent_left_sigint_ignored():
    """Python raises KeyboardInterrupt only if SIGINT was not ignored when it started; a parent (nohup, a
    background job, a test runner's worker) may leave it ignored, and Ctrl-C at the prompt then did nothing."""
    import signal
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR",)}
    env.update({"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color", "PYTHONIOENCODING": "utf-8"})
    child = pexpect.spawn(sys.executable, ["-m", "engine.play", "--depth", "1", "--no-color"], env=env,
                          encoding="utf-8", dimensions=(50, 110), timeout=90,
                          cwd=os.path.dirname(os.path.dirname(__file__)),
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    child.expect("red> ")
    child.sendintr()
    child.expect(pexpect.EOF, timeout=20)
