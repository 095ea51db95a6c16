"""The xboard dialect (CECP v2) through the engine process, as XBoard drives it: the handshake, a game with the
clock, force mode and take-backs, setboard, depth and time limits, move now, ping ordering, pondering, analysis,
result claims, options and bad input.  Legality is judged by our rules for xiangqi and by python-chess for chess.
Assertions are about the protocol (formats, legality, ordering, timing), not about which move a search prefers.
"""
import re
import time

import chess
import pytest

from engine.match.engines import fen_with_letters
from engine.protocol import xboard
from engine.protocol.core import OPTIONS
from engine.searcher import SearchInfo
from engine.xiangqi.position import START_FEN, Position
from test_protocol import HANDSHAKE_LIMIT, LOAD_TIMEOUT, MATED_FEN, REPLY_TIMEOUT, SEARCH_TIMEOUT, EngineProcess

CHESS_MOVE = r"[a-h][1-8][a-h][1-8][qrbn]?"
# ply score time nodes seldepth nps tbhits <TAB> pv
THINKING = re.compile(r"(\d+) (-?\d+) (\d+) (\d+) (\d+) (\d+) (\d+)\t(.*)")
MATE_IN_ONE = "4k4/R8/9/9/9/9/9/9/9/R2K5 w - - 0 1"            # Red to move: a0a9 mates
# A xiangqi FEN as XBoard 4.9 sends it (its debug log): horse H, elephant E, no castling or en-passant fields.
XBOARD_FEN = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RHEAKAEHR b 0 1"
FOOLS_MATE_FEN = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2"    # Black: d8h4 mates


@pytest.fixture
def engine():
    e = EngineProcess()
    yield e
    e.close()


def handshake(engine) -> list[str]:
    """xboard, protover 2: ``feature done=0`` at once, ``feature done=1`` once the engine has loaded."""
    engine.send("xboard")
    engine.send("protover 2")
    t, lines = engine.read_until(lambda ln: ln.startswith("feature"), HANDSHAKE_LIMIT + REPLY_TIMEOUT)
    assert lines == ["feature done=0"]
    assert t - engine.started < HANDSHAKE_LIMIT, f"first feature line {t - engine.started:.2f} s after start"
    _, more = engine.read_until(lambda ln: ln == "feature done=1", LOAD_TIMEOUT)
    return lines + more


def sync(engine, n: int) -> list[str]:
    """``ping n``: every line the engine printed before ``pong n``."""
    engine.send(f"ping {n}")
    _, lines = engine.read_until(lambda ln: ln.startswith("pong"))
    assert lines[-1] == f"pong {n}"
    return lines[:-1]


def xiangqi_game(engine) -> None:
    handshake(engine)
    for line in ("new", "variant xiangqi", "random", "computer", "name MaxQi", "rating 2000 1800", "ics -",
                 "accepted setboard", "rejected setscore", "easy", "nopost"):
        engine.send(line)
    assert sync(engine, 1) == []        # all accepted in silence


def read_move(engine, timeout: float = SEARCH_TIMEOUT) -> tuple[float, list[str], str]:
    """(arrival time, lines up to it, the move) of the engine's next ``move``."""
    t, lines = engine.read_until(lambda ln: ln.startswith("move "), timeout)
    return t, lines, lines[-1].split()[1]


def after(fen, *moves):
    pos = Position(fen)
    for m in moves:
        pos.push(m)
    return pos


def assert_thinking(lines, pos=None, max_depth=None) -> list[re.Match]:
    """The thinking lines among ``lines``: well formed; their PVs legal from ``pos``; depths within the limit."""
    found = [THINKING.fullmatch(ln) for ln in lines if not ln.startswith(("move ", "pong"))]
    assert found and all(found), f"malformed thinking output: {lines}"
    for m in found:
        if max_depth is not None:
            assert 1 <= int(m.group(1)) <= max_depth, m.group(0)
        if pos is not None:
            walk = pos.copy()
            for move in m.group(8).split():
                assert move in walk.legal_move_names(), f"{move} illegal in PV {m.group(0)!r}"
                walk.push(move)
    return found


# -- pure functions ---------------------------------------------------------------------------------------------

def test_mate_scores_use_the_specs_100000_convention():
    def info(score, mate):
        return SearchInfo(depth=5, seldepth=5, score=score, mate=mate, nodes=1, time=0.1)
    assert xboard.xboard_score(info(37, None)) == 37
    assert xboard.xboard_score(info(0, 3)) == 100003          # mate in 3 moves
    assert xboard.xboard_score(info(0, -2)) == -100002        # mated in 2
    assert xboard.xboard_score(info(0, 0)) == -100000         # mated now


def test_option_features_come_from_the_options_table():
    assert xboard.option_feature("MultiPV", 1) == (f'feature option="MultiPV -spin 1 {OPTIONS["multipv"].min} '
                                                   f'{OPTIONS["multipv"].max}"')
    assert xboard.option_feature("EGTB", True) == 'feature option="EGTB -check 1"'
    assert xboard.option_feature("Clear Hash", None) == 'feature option="Clear Hash -button"'
    assert xboard.option_feature("EGTBPath", 'a"b') == 'feature option="EGTBPath -string ab"'
    assert set(xboard.NAMES.values()) <= set(OPTIONS)
    # the options xboard sets by commands of its own are not offered twice
    assert not {"hash_mb", "threads", "ponder", "variant"} & set(xboard.NAMES.values())


def test_level_base_and_variants():
    assert xboard.parse_base("5") == 300 and xboard.parse_base("0:30") == 30 and xboard.parse_base("1:05+x") == 65
    assert xboard.game_for("xiangqi").iccs and not xboard.game_for(xboard.XBOARD_STANDARD).iccs
    assert xboard.game_for("shogi") is None


# -- through the engine process ---------------------------------------------------------------------------------

def test_handshake_features_and_options(engine):
    lines = handshake(engine)
    features = " ".join(lines)
    for want in ('myname="Shuai"', 'variants="xiangqi,normal"', "setboard=1", "usermove=1", "ping=1", "san=0",
                 "sigint=0", "sigterm=0", "analyze=1", "memory=1", "smp=1", f'egt="{xboard.TABLE_FORMAT}"',
                 "colors=0"):
        assert want in features, want
    options = [re.fullmatch(r'feature option="(.+?) -(\w+).*"', ln) for ln in lines if "option=" in ln]
    assert [m.group(1) for m in options] == list(xboard.NAMES)
    assert lines[-1] == "feature done=1"
    for line in ("option MultiPV=2", "option Move Overhead=100", "option EGTB=0", "option Clear Hash",
                 "memory 32", "cores 2", "egtpath shuai /nonexistent/tables", "option EGTB=1", "option MultiPV=1"):
        engine.send(line)
    # each accepted in silence; a table directory that does not exist is reported, once, in xboard's words
    assert sync(engine, 2) == ["tellusererror tablebase directory /nonexistent/tables missing"]
    for bad, reply in (("option Nonsense=3", "Error (no such option 'Nonsense'): option Nonsense=3"),
                       ("option MultiPV=0", "Error (MultiPV 0 out of range (1..500)): option MultiPV=0"),
                       ("option MultiPV", "Error (option MultiPV needs a value (NAME=VALUE)): option MultiPV"),
                       ("memory lots", "Error (memory must be an integer, not 'lots'): memory lots"),
                       ("egtpath syzygy /x", "Error (unsupported table format; this engine reads 'shuai' "
                                             "tables): egtpath syzygy /x")):
        engine.send(bad)
        assert sync(engine, 3) == [reply]
    engine.send("quit")
    assert engine.rest() == []
    assert engine.proc.wait(5) == 0


def test_a_game_force_mode_take_backs_ping_and_bad_input(engine):
    xiangqi_game(engine)
    engine.send("level 0 0:10 0.1")
    engine.send("post")
    engine.send("time 1000")
    engine.send("otim 1000")
    # 'new' makes the engine Black: Red's move is answered; a ping sent meanwhile is answered after the move.
    t0 = engine.send("usermove h2e2")
    engine.send("ping 7")
    t, lines = engine.read_until(lambda ln: ln.startswith("pong"), SEARCH_TIMEOUT)
    assert lines[-1] == "pong 7"
    moves = [ln for ln in lines if ln.startswith("move ")]
    assert len(moves) == 1 and lines.index(moves[0]) == len(lines) - 2, lines
    reply = moves[0].split()[1]
    pos = after(START_FEN, "h2e2")
    assert reply in pos.legal_move_names()
    assert_thinking(lines[:-2], pos)
    assert t - t0 < 2.0, "a 10 s game's move took more than 2 s"
    assert not [ln for ln in lines if re.match(r"(1-0|0-1|1/2)", ln)], "a claim in an unfinished game"
    pos.push(reply)
    # Illegal and malformed moves: one line each, nothing changes.
    for bad in ("h2e2", "h0h9", "zz", "e2e10"):
        engine.send(f"usermove {bad}")
        assert sync(engine, 8) == [f"Illegal move: {bad}"], bad
    # Force mode from a new game: moves of both sides are taken and nothing is played.
    engine.send("new")
    engine.send("variant xiangqi")
    engine.send("force")
    engine.send("usermove h0g2")
    engine.send("h9g7")                  # a bare move (protocol 1) is a move too
    assert sync(engine, 9) == []
    # undo takes back one move (h9g7 can be played again), remove two (h0g2 again); each is refused before.
    engine.send("usermove h9g7")
    assert sync(engine, 10) == ["Illegal move: h9g7"]
    engine.send("undo")
    engine.send("usermove h9g7")
    assert sync(engine, 11) == []
    engine.send("remove")
    engine.send("usermove h0g2")
    assert sync(engine, 12) == []
    engine.send("usermove h0g2")
    assert sync(engine, 13) == ["Illegal move: h0g2"]
    pos = after(START_FEN, "h0g2")
    # 'go' plays the side to move (Black), and only that move: no claim in an unfinished game.
    engine.send("go")
    _, lines, move = read_move(engine)
    assert move in pos.legal_move_names()
    assert sync(engine, 14) == []
    # Bad input: one line each in the spec's words, the engine goes on.
    for bad, reply in (("frobnicate now", "Error (unknown command): frobnicate"),
                       ("variant shogi", "Error (unsupported variant; this engine plays xiangqi, normal): "
                                         "variant shogi"),
                       ("level 40 5", "Error (expected 'level MPS BASE INC'): level 40 5"),
                       ("sd deep", "Error (sd must be an integer, not 'deep'): sd deep"),
                       ("st 0", "Error (expected 'st SECONDS' (more than 0)): st 0"),
                       ("time soon", "Error (time must be a number, not 'soon'): time soon"),
                       ("ping", "Error (expected 'ping N'): ping"),
                       ("", "Error (empty command): ")):
        engine.send(bad)
        assert sync(engine, 15) == [reply], bad
    engine.send(b"\xff\xfe")
    assert sync(engine, 16) == ["Error (input line is not valid UTF-8; ignored): "]
    engine.send("undo")
    engine.send("undo")
    assert sync(engine, 17) == []
    engine.send("undo")                   # back at the start
    assert sync(engine, 18) == ["Error (command not legal now: no move to take back): undo"]
    engine.send("result 1/2-1/2 {aborted}")
    engine.send("usermove h2e2")           # after the result: taken, never answered
    assert engine.silent_for(0.5) == []
    engine.send("quit")
    assert engine.rest() == []
    assert engine.proc.wait(5) == 0


def test_setboard_depth_limit_move_now_and_time_controls(engine):
    xiangqi_game(engine)
    # setboard with XBoard's H/E letters, sd 3: thinking lines of depth 1-3 only, then a legal move.
    pos = after(START_FEN, "h2e2", "h9g7")
    engine.send(f"setboard {fen_with_letters(pos.fen(), 'HE')}")
    engine.send("sd 3")
    engine.send("post")
    engine.send("go")
    _, lines, move = read_move(engine)
    found = assert_thinking(lines[:-1], pos, max_depth=3)
    assert max(int(m.group(1)) for m in found) == 3
    assert move in pos.legal_move_names()
    # '?' moves at once, in a long game (10 minutes: a move would take many seconds).
    engine.send("new")
    engine.send("variant xiangqi")
    engine.send("level 0 10 0")
    engine.send("nopost")
    engine.send("go")
    assert engine.silent_for(0.8) == []
    t0 = engine.send("?")
    t, _, move = read_move(engine, REPLY_TIMEOUT)
    assert t - t0 < 0.5, f"the move came {t - t0:.2f} s after '?'"
    assert move in Position().legal_move_names()
    # st 1: about a second; a clock of 0.5 s ('time 50'): much less.
    engine.send("force")
    engine.send(f"setboard {XBOARD_FEN}")
    engine.send("st 1")
    t0 = engine.send("go")
    t, _, move = read_move(engine)
    assert 0.5 < t - t0 < 2.0, f"st 1 took {t - t0:.2f} s"
    assert move in after(START_FEN, "h2e2").legal_move_names()          # Black's move: the FEN's side
    engine.send("force")
    engine.send(f"setboard {XBOARD_FEN}")
    engine.send("level 40 0:30 0")
    engine.send("time 50")
    engine.send("otim 3000")
    t0 = engine.send("go")
    t, _, move = read_move(engine)
    assert t - t0 < 0.5, f"{t - t0:.2f} s on a clock of 0.5 s"
    assert move in after(START_FEN, "h2e2").legal_move_names()
    # An illegal position: one error line, moves and go refused until a new position.
    engine.send("setboard 9/9/9 w - - 0 1")
    engine.send("usermove h2e2")
    engine.send("go")
    assert sync(engine, 5) == ["tellusererror Illegal position (bad FEN '9/9/9 w - - 0 1': expected 8 (chess) "
                               "or 10 (xiangqi) ranks)", "Illegal move (illegal position): h2e2",
                               "Error (command not legal now: illegal position): go"]


def test_skill_level_and_the_book_through_options(engine):
    from engine.book import default_book, open_book
    from engine.game import XIANGQI
    xiangqi_game(engine)
    engine.send("option Own Book=1")
    engine.send("go")                                       # Red's first move: the book's (the first go of a
    read_move(engine)                                       # game loads its kernels)
    engine.send("new")
    engine.send("variant xiangqi")
    t0 = engine.send("go")                                  # at once
    t, lines, move = read_move(engine)
    assert t - t0 < 0.5 and lines == [f"move {move}"]
    assert move in dict(open_book(default_book(XIANGQI), XIANGQI).moves(Position()))
    book = dict(open_book(default_book(XIANGQI), XIANGQI).moves(after(START_FEN, move)))
    engine.send("force")
    engine.send("bk")                                       # the Book button: the moves with their shares
    lines = sync(engine, 3)
    shares = [re.fullmatch(r" (\S+) (\d+)%", ln) for ln in lines[:-1]]
    assert lines[-1] == "" and all(shares) and {m.group(1) for m in shares} == set(book), lines
    assert abs(sum(int(m.group(2)) for m in shares) - 100) <= len(shares)
    engine.send("option Own Book=0")
    engine.send("bk")
    assert sync(engine, 4) == [" the opening book is off (option Own Book)", ""]
    engine.send("option Skill Level=0")                     # skill 0: one ply, and a choice among six lines
    engine.send("force")
    engine.send(f"setboard {XBOARD_FEN}")
    engine.send("post")
    engine.send("go")
    _, lines, move = read_move(engine)
    assert {int(m.group(1)) for m in assert_thinking(lines[:-1], after(START_FEN, "h2e2"))} == {1}
    assert move in after(START_FEN, "h2e2").legal_move_names()
    engine.send("option Skill Level=21")
    assert sync(engine, 2) == ["Error (Skill Level 21 out of range (0..20)): option Skill Level=21"]


def test_claims_only_when_the_rules_end_the_game(engine):
    xiangqi_game(engine)
    engine.send("force")
    # The engine mates: its move, then the claim, in that order; the rules confirm.
    engine.send(f"setboard {MATE_IN_ONE}")
    engine.send("sd 4")
    engine.send("go")
    _, lines, move = read_move(engine)
    pos = after(MATE_IN_ONE, move)
    result, reason = pos.game.game_result(pos)          # checkmate, or no legal move (also a loss in xiangqi)
    assert result == "1-0"
    assert sync(engine, 1) == [f"1-0 {{Red wins by {reason}}}"]
    # Asked to move when mated: the claim, no move.
    engine.send(f"setboard {MATED_FEN}")
    engine.send("go")
    assert sync(engine, 2) == ["1-0 {Red wins by checkmate}"]
    # Standard chess: the same for a mate by Black.
    engine.send("new")
    engine.send("force")
    engine.send(f"setboard {FOOLS_MATE_FEN}")
    engine.send("sd 3")
    engine.send("go")
    _, lines, move = read_move(engine)
    board = chess.Board(FOOLS_MATE_FEN)
    board.push_uci(move)
    assert board.is_checkmate()
    assert sync(engine, 3) == ["0-1 {Black wins by checkmate}"]


def test_chess_through_new_and_usermove(engine):
    handshake(engine)
    board = chess.Board()
    engine.send("new")                   # standard chess; the engine plays Black
    engine.send("level 0 0:10 0.1")
    for _ in range(3):
        white = min(board.legal_moves, key=chess.Move.uci)          # any legal move
        board.push(white)
        engine.send(f"usermove {white.uci()}")
        _, lines, move = read_move(engine)
        assert re.fullmatch(CHESS_MOVE, move) and chess.Move.from_uci(move) in board.legal_moves, move
        board.push_uci(move)
    engine.send("usermove e1e8")
    assert sync(engine, 4) == ["Illegal move: e1e8"]


def hint(engine) -> str:
    """The reply the engine expects (``hint``)."""
    engine.send("hint")
    _, lines = engine.read_until(lambda ln: ln.startswith("Hint: "))
    return lines[-1].split()[1]


def answer(engine, pos, reply: str) -> str:
    """Plays ``reply`` (usermove) in ``pos``; the engine's answer must be legal.  Both are pushed onto ``pos``."""
    engine.send(f"usermove {reply}")
    _, _, move = read_move(engine)
    pos.push(reply)
    assert move in pos.legal_move_names(), f"{move} after {reply}"
    pos.push(move)
    return move


def test_an_illegal_move_leaves_the_search_running(engine):
    """A move the position does not allow, sent while the engine thinks on its move or analyses: one line, and
    the search goes on -- the engine still moves, the analysis still answers."""
    xiangqi_game(engine)
    engine.send("st 1")
    engine.send("force")
    engine.send("usermove h2e2")
    engine.send("go")                            # the engine plays Black, a second a move
    engine.silent_for(0.3)
    engine.send("usermove h2e2")                 # Red's move again, while Black thinks
    _, lines, move = read_move(engine)
    assert lines == ["Illegal move: h2e2", f"move {move}"]
    pos = after(START_FEN, "h2e2", move)
    engine.send("force")
    engine.send("analyze")
    assert_thinking(engine.silent_for(0.5), pos)
    engine.send("usermove zz")
    engine.send(".")                             # the analysis's progress: asked for and given
    _, lines = engine.read_until(lambda ln: ln.startswith("stat01:"))
    # the analysis prints as it deepens: a thinking line may come out before the refusal is read
    others = [ln for ln in lines[:-1] if ln != "Illegal move: zz"]
    assert lines.count("Illegal move: zz") == 1 and all(THINKING.fullmatch(ln) for ln in others), lines
    engine.send("exit")
    sync(engine, 2)


def test_exclude_and_include_shape_the_analysis(engine):
    """exclude MOVE leaves a move out of the analysis (no line starts with it), exclude all stops it, include
    puts moves back; a new position starts with none excluded; a move that is not legal is refused."""
    xiangqi_game(engine)
    assert "exclude=1" in " ".join(ln for ln in engine.transcript if ln.startswith("< feature"))
    engine.send("force")
    engine.send("analyze")
    _, lines = engine.read_until(lambda ln: THINKING.fullmatch(ln) is not None)
    best = THINKING.fullmatch(lines[-1]).group(8).split()[0]
    engine.send(f"exclude {best}")
    sync(engine, 2)                              # the restarted analysis's lines come after the pong
    first = [THINKING.fullmatch(ln).group(8).split()[0] for ln in engine.silent_for(0.8)]
    assert first and best not in first, first
    engine.send("exclude all")
    sync(engine, 3)
    assert engine.silent_for(0.5) == []          # nothing left to analyse
    engine.send(f"include {best}")
    sync(engine, 4)
    first = {THINKING.fullmatch(ln).group(8).split()[0] for ln in engine.silent_for(0.8)}
    assert first == {best}, first                # the only move put back
    for bad, reply in (("exclude zz", "Illegal move: zz"), ("exclude h2e2 h7e7", "Error (expected 'exclude MOVE' "
                                                            "or 'exclude all'): exclude h2e2 h7e7")):
        engine.send(bad)
        assert [ln for ln in sync(engine, 5) if not THINKING.fullmatch(ln)] == [reply]
    engine.send("usermove h2e2")                 # another position: nothing excluded there
    sync(engine, 6)
    assert engine.silent_for(0.5)
    engine.send("exit")
    sync(engine, 7)


def test_pondering_continues_on_the_expected_reply_and_restarts_on_another(engine):
    xiangqi_game(engine)
    engine.send("hard")
    engine.send("post")
    engine.send("level 0 0:20 0.1")
    pos = Position()
    answer(engine, pos, "h2e2")
    expected = hint(engine)
    assert expected in pos.legal_move_names()
    # Pondering: thinking lines on the expected reply (it comes first in their PV); a ping is answered at once.
    _, lines = engine.read_until(lambda ln: THINKING.fullmatch(ln) is not None)
    assert THINKING.fullmatch(lines[-1]).group(8).split()[0] == expected
    t0 = engine.send("ping 2")
    t, lines = engine.read_until(lambda ln: ln.startswith("pong"))
    assert lines[-1] == "pong 2" and t - t0 < 0.5
    assert not [ln for ln in lines if ln.startswith("move")], "a move while pondering"
    # The expected reply: the search goes on; another reply: the ponder search is dropped, a new one answers.
    engine.send("time 2000")
    answer(engine, pos, expected)
    expected = hint(engine)
    answer(engine, pos, next(m for m in pos.legal_move_names() if m != expected))
    # easy: the ponder search is dropped, and none follows the next move.
    engine.send("easy")
    engine.send("nopost")
    answer(engine, pos, pos.legal_move_names()[0])
    engine.send("post")
    assert engine.silent_for(0.7) == [], "pondering after easy"


def test_no_pondering_on_a_reply_that_ends_the_game(engine):
    """A reply the engine expects and that ends the game by rule (here the 60-move draw: Black's only move
    reaches move 119, any reply 120) is not pondered on, so that when it comes the answer is the claim alone,
    never a move after the end (as a ponder hit went on to one)."""
    xiangqi_game(engine)
    for line in ("force", "setboard 3k5/9/9/9/9/9/9/9/9/4K3R b - - 118 80", "hard", "post", "st 1", "go"):
        engine.send(line)
    _, _, move = read_move(engine)
    assert move == "d9d8"                        # the only legal move (d9e9 would face the red general)
    expected = hint(engine)
    engine.send(f"usermove {expected}")
    lines = sync(engine, 2) + engine.silent_for(1.2)
    assert [ln for ln in lines if not THINKING.fullmatch(ln)] == ["1/2-1/2 {Draw by 60-move}"], lines


def test_analyze_mode(engine):
    xiangqi_game(engine)
    engine.send("force")
    engine.send("usermove h2e2")
    engine.send("analyze")                       # thinking output even under nopost
    pos = after(START_FEN, "h2e2")
    time.sleep(1.0)
    engine.send(".")
    _, lines = engine.read_until(lambda ln: ln.startswith("stat01:"))
    assert_thinking(lines[:-1], pos)
    m = re.fullmatch(r"stat01: (\d+) (\d+) (\d+) (\d+) (\d+)(?: (\S+))?", lines[-1])
    assert m and int(m.group(1)) >= 50 and int(m.group(5)) == len(pos.legal_moves()), lines[-1]
    assert 0 <= int(m.group(4)) <= int(m.group(5))
    t0 = engine.send("ping 2")
    t, _ = engine.read_until(lambda ln: ln == "pong 2")
    assert t - t0 < 0.5, "ping while analysing must be answered at once"
    # A move restarts the analysis on the new position (every line after the pong that follows it); undo goes
    # back to the old one; exit ends it.
    for change, expect in (("usermove h9g7", after(START_FEN, "h2e2", "h9g7")), ("undo", pos)):
        engine.send(change)
        sync(engine, 3)
        time.sleep(0.5)
        engine.send(".")
        _, lines = engine.read_until(lambda ln: ln.startswith("stat01:"))
        assert_thinking(lines[:-1], expect)
    engine.send("exit")
    sync(engine, 4)
    assert engine.silent_for(0.5) == [], "thinking output after exit"
    assert not [ln for ln in engine.transcript if ln.startswith("< move")], "a move in analyze mode"
