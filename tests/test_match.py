"""The match runner: rules adjudication, Elo/SPRT arithmetic, PGN round trip, and short matches against
scripted fake engines (tests/fakes/fake_engine.py) that misbehave in every way a real engine can."""
import math
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from engine.match.adjudication import MATE_CP, Adjudicator, DrawRule, ResignRule, score_of_info, score_of_thinking
from engine.match.engines import (Clocks, EngineSpec, GameSetup, TimeControl, fen_with_letters, from_iccs,
                                  start_engine, to_iccs)
from engine.match.openings import load_openings, parse_opening, path_from_start
from engine.match.xiangqi_pgn import PgnGame, format_game, parse_pgn
from engine.match.runner import EnginePool, Match, MatchConfig, schedule, summary
from engine.match.stats import PAIR_KINDS, Sprt, elo_estimate, elo_from_score, los, pair_kind, pentanomial, unpaired
from engine.xiangqi.position import Position, START_FEN
from engine.xiangqi.rules import game_result

from engine.game import XIANGQI  # noqa: E402
DATA = Path(__file__).parent / "data"
XIANGQI_OPENINGS = Path(XIANGQI.openings)          # the game's own openings, shipped with the package
FAKE = [sys.executable, str(Path(__file__).parent / "fakes" / "fake_engine.py")]


# ---------------------------------------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------------------------------------

def test_game_goes_on_from_the_start():
    assert game_result(Position()) is None


def test_checkmate():
    # Black general e9 checked along rank 9 by the rook a9; the rook b8 covers rank 8.
    assert game_result(Position("R3k4/1R7/9/9/9/9/9/9/9/3K5 b - - 0 1")) == ("1-0", "checkmate")


def test_checkmate_beats_the_60_move_rule():
    assert game_result(Position("R3k4/1R7/9/9/9/9/9/9/9/3K5 b - - 150 90")) == ("1-0", "checkmate")


def test_stalemate_is_a_loss():
    # Black general e9, not in check: d9 and f9 covered by the rooks, e8 by the soldier on e7.
    pos = Position("4k4/9/4P4/9/9/9/9/9/3R1R3/4K4 b - - 0 1")
    assert not pos.in_check()
    assert game_result(pos) == ("1-0", "stalemate")
    red_stalemated = Position("3rkr3/9/9/9/9/9/9/4p4/9/4K4 w - - 0 1")
    assert game_result(red_stalemated) == ("0-1", "stalemate")


def test_sixty_move_rule():
    fen = "3k5/9/9/9/9/9/9/9/4A4/R3K4 b - - {} 80"
    assert game_result(Position(fen.format(119))) is None
    assert game_result(Position(fen.format(120))) == ("1/2-1/2", "60-move")
    pos = Position(fen.format(119))
    pos.push("d9d8")
    assert game_result(pos) == ("1/2-1/2", "60-move")


def test_material_draw():
    assert game_result(Position("3ak4/4a4/4b4/9/9/9/9/4B4/4A4/3AK4 w - - 0 1")) == ("1/2-1/2", "material")
    assert game_result(Position("3ak4/4a4/4b4/9/3P5/9/9/4B4/4A4/3AK4 w - - 0 1")) is None   # a pawn can mate


def test_threefold_repetition():
    pos = Position()
    shuffle = "h2e2 h9g7 e2h2 g7h9".split()
    for m in shuffle:
        pos.push(m)
    assert game_result(pos) is None                  # start position twice
    for m in shuffle[:-1]:
        pos.push(m)
        assert game_result(pos) is None
    pos.push(shuffle[-1])
    assert game_result(pos) == ("1/2-1/2", "repetition")   # three times


# ---------------------------------------------------------------------------------------------------------
# Elo, LOS, SPRT — numbers worked by hand
# ---------------------------------------------------------------------------------------------------------

def test_elo_and_error_bar():
    # +10 =5 -5: s = 12.5/20 = 0.625; Elo = -400 log10(1/0.625 - 1) = -400 log10(0.6) = 88.74
    # var = (10·0.375² + 5·0.125² + 5·0.625²)/20 = 3.4375/20 = 0.171875; se = sqrt(var/20) = 0.092702
    # s ± 1.96 se = 0.44331 .. 0.80669 -> Elo -39.56 .. +248.17 -> ± 143.87
    e = elo_estimate(10, 5, 5)
    assert e.score == 0.625
    assert e.elo == pytest.approx(88.74, abs=0.01)
    assert e.error == pytest.approx(143.87, abs=0.02)
    assert e.draw_ratio == 0.25
    assert elo_estimate(30, 40, 30).elo == pytest.approx(0.0)
    assert elo_from_score(0.75) == pytest.approx(190.85, abs=0.01)       # 400 log10(3)
    assert math.isinf(elo_estimate(3, 0, 0).elo) and math.isnan(elo_estimate(3, 0, 0).error)


def test_los():
    assert los(10, 5) == pytest.approx(0.5 * (1 + math.erf(5 / math.sqrt(30))))
    assert los(4, 4) == 0.5 and los(0, 0) == 0.5


def test_sprt():
    sprt = Sprt.parse("elo0=0 elo1=5")
    assert (sprt.alpha, sprt.beta) == (0.05, 0.05)
    assert sprt.upper == pytest.approx(math.log(19)) and sprt.lower == pytest.approx(-math.log(19))   # ±2.944
    # s0 = 0.5, s1 = 1/(1+10^(-5/400)) = 0.507195; LLR = 20 · 0.007195 · (1.25 - 1.007195) / (2 · 0.171875)
    # Half a game added to each class: W, D, L = 10.5, 5.5, 5.5 (N 21.5), s = 13.25/21.5 = 0.61628,
    # var = 3.70931/21.5 = 0.172526, s1 = 0.507195: LLR = 21.5 * 0.007195 * 0.225365 / 0.345052 = 0.10103.
    assert sprt.llr(10, 5, 5) == pytest.approx(0.10103, abs=1e-4)
    assert sprt.decision(10, 5, 5) is None
    assert sprt.decision(700, 200, 500) == "H1"
    assert sprt.decision(500, 200, 700) == "H0"
    # One or two games decide nothing (the variance of such a record is no estimate at all) ...
    assert abs(sprt.llr(1, 0, 0)) < 0.1 and abs(sprt.llr(0, 0, 1)) < 0.1 and sprt.decision(2, 0, 0) is None
    # ... but a long one-sided record does: 21 straight wins stay below 2.944, 22 cross it.
    assert sprt.decision(21, 0, 0) is None and sprt.llr(22, 0, 0) == pytest.approx(3.07, abs=0.01)
    assert sprt.decision(22, 0, 0) == "H1"
    assert Sprt.parse("elo0=-1,elo1=4,alpha=0.1,beta=0.2").beta == 0.2
    for bad in ("elo0=5 elo1=0", "elo0=0 elo1=5 alpha=0.5 beta=0.9", "elo0=0 elo1=inf", "elo0=nan elo1=5",
                "elo0=0 elo1=5 alpha=0.5 beta=0.5"):
        with pytest.raises(ValueError):              # alpha + beta >= 1 would decide at the first game
            Sprt.parse(bad)


def test_pentanomial_sprt():
    sprt = Sprt.parse("elo0=0 elo1=5")
    # Pairs scoring 0, 1/4, 1/2, 3/4, 1: 5, 10, 20, 15, 10, each a tenth of a pair more: N = 60.5,
    # s = (2.525 + 10.05 + 11.325 + 10.1) / 60.5 = 0.561983, var = 5.142562 / 60.5 = 0.085001:
    # LLR = 60.5 * 0.007195 * (1.123967 - 1.007195) / 0.170002 = 0.29900.
    assert sprt.llr_pairs((5, 10, 20, 15, 10)) == pytest.approx(0.29900, abs=1e-4)
    # Independent games give the trinomial's LLR: 20,000 games at W, D, L = 0.4, 0.3, 0.3 make 10,000 pairs
    # scoring 0 ... 1 with the chances 0.09, 0.18, 0.33, 0.24, 0.16.
    assert sprt.llr_pairs((900, 1800, 3300, 2400, 1600)) == pytest.approx(sprt.llr(8000, 6000, 6000), abs=0.01)
    # Colours that decide the game (each engine wins with the favoured side) make pairs of a win and a loss,
    # which say far more than the same games taken alone: 400 such pairs and 100 pairs of a win and a draw.
    assert sprt.llr(500, 100, 400) == pytest.approx(1.50, abs=0.01)
    assert sprt.llr_pairs((0, 0, 400, 100, 0)) == pytest.approx(16.50, abs=0.01)
    # 12 pairs of wins stay below 2.944, 13 cross it (as 22 won games do, taken alone).
    assert sprt.llr_pairs((0, 0, 0, 0, 12)) < sprt.upper < sprt.llr_pairs((0, 0, 0, 0, 13))
    # A record: its pairs as pairs, the rest alone (20 wins of an earlier sitting and 3 pairs of wins since).
    assert sprt.llr_record(26, 0, 0, (0, 0, 0, 0, 0, 3)) == pytest.approx(
        sprt.llr(20, 0, 0) + sprt.llr_pairs((0, 0, 0, 0, 3)))
    assert [PAIR_KINDS[pair_kind(a, b)] for a, b in ((1, 0), (0, 1), (0.5, 0.5), (0.5, 1), (0, 0.5))] == \
        ["WL", "WL", "DD", "WD", "LD"]
    assert pentanomial((1, 2, 3, 4, 5, 6)) == [1, 2, 7, 5, 6]
    assert unpaired(10, 5, 7, (1, 1, 1, 1, 1, 1)) == (10 - 4, 5 - 4, 7 - 4)
    with pytest.raises(ValueError, match="more games"):
        unpaired(1, 5, 5, (0, 0, 0, 0, 0, 1))


# ---------------------------------------------------------------------------------------------------------
# Parsing: engines, time controls, move dialects, openings, schedule
# ---------------------------------------------------------------------------------------------------------

def test_engine_spec_parse():
    s = EngineSpec.parse("proto=xboard name=Max /usr/games/maxqi 20")
    assert (s.cmd, s.proto, s.name) == (["/usr/games/maxqi", "20"], "xboard", "Max")
    s = EngineSpec.parse("\"cmd=python3 -m engine\" option.Hash=64 ranks=1")
    assert s.cmd == ["python3", "-m", "engine"] and s.options == {"Hash": "64"} and s.ranks == 1
    assert EngineSpec.parse("/usr/games/fairy-stockfish").proto == "auto"
    with pytest.raises(ValueError):
        EngineSpec.parse("proto=winboard x")


def test_time_control_and_dialects():
    assert TimeControl.parse("0.2").movetime == 0.2
    tc = TimeControl.parse("10+0.1")
    assert (tc.base, tc.inc, tc.fixed) == (10.0, 0.1, False)
    for bad in ("fast", "0", "-5", "10+-1", "nan", "inf", "1e300", "1e20+0", "10+nan"):
        with pytest.raises(ValueError, match="bad time control"):    # huge ones would overflow a deadline
            TimeControl.parse(bad)
    assert to_iccs("h3e3", 1) == "h2e2" and to_iccs("b10c8", 1) == "b9c7" and to_iccs("H2-E2", 0) == "h2e2"
    assert from_iccs("b9c7", 1) == "b10c8" and to_iccs("resign", 0) is None


def test_openings_and_paths(tmp_path):
    book = load_openings(str(XIANGQI_OPENINGS))
    assert len(book) == 200
    op = book[0]
    path = path_from_start(op.fen)
    pos = Position()
    for m in path:
        pos.push(m)
    assert pos.fen() == op.fen
    f = tmp_path / "book.epd"
    f.write_text("# comment\nstartpos moves h2e2 h9g7\n" + op.fen.rsplit(" ", 2)[0] + " ; id \"x\"\n")
    two = load_openings(str(f))
    assert two[0] == parse_opening("startpos moves h2e2 h9g7") and two[0].moves == ("h2e2", "h9g7")
    assert two[1].fen.split()[:2] == op.fen.split()[:2]


def test_schedule_swaps_colours_per_opening():
    jobs = schedule(3, 4, [parse_opening("startpos"), parse_opening("startpos moves h2e2")])
    assert len(jobs) == 12
    pair01 = [(j.red, j.black, j.opening_index) for j in jobs if {j.red, j.black} == {0, 1}]
    assert pair01 == [(0, 1, 0), (1, 0, 0), (0, 1, 1), (1, 0, 1)]


def test_schedule_resumed_goes_on_with_the_next_openings():
    book = [parse_opening("startpos"), parse_opening("startpos moves h2e2"), parse_opening("startpos moves b2e2")]
    jobs = schedule(2, 3, book, first=3)
    assert [(j.number, j.red, j.black, j.opening_index) for j in jobs] == [(4, 1, 0, 1), (5, 0, 1, 2), (6, 1, 0, 2)]


# ---------------------------------------------------------------------------------------------------------
# PGN
# ---------------------------------------------------------------------------------------------------------

def test_pgn_round_trip():
    fen = load_openings(str(XIANGQI_OPENINGS))[0].fen          # black to move
    pos = Position(fen)
    moves = []
    for _ in range(25):
        m = sorted(pos.legal_move_names())[len(moves) * 5 % len(pos.legal_move_names())]
        pos.push(m)
        moves.append(m)
    game = PgnGame({"Event": "test", "Red": "A \"quoted\"", "Black": "B", "FEN": fen}, moves,
                   "max plies", "1/2-1/2")
    text = format_game(game) + format_game(PgnGame({"Red": "C", "Black": "D"}, ["h2e2", "h9g7"], "", "1-0"))
    assert text.startswith('[Game "Chinese Chess"]\n')
    assert '[Format "ICCS"]' in text and f'[FEN "{fen}"]' in text
    assert "2. ... " in text and moves[0].upper()[:2] + "-" in text
    back = parse_pgn(text)
    assert len(back) == 2
    g = back[0]
    assert g.moves == moves and g.result == "1/2-1/2" and g.comment == "max plies"
    assert g.tags["Red"] == 'A "quoted"'
    replay = Position(g.fen)
    for m in g.moves:
        replay.push(m)
    assert replay.fen() == pos.fen()
    assert back[1].moves == ["h2e2", "h9g7"] and back[1].fen == START_FEN and "FEN" not in back[1].tags


# ---------------------------------------------------------------------------------------------------------
# Matches against fake engines
# ---------------------------------------------------------------------------------------------------------

def fake(proto, fault="none", at=0, *extra, auto=False):
    cmd = FAKE + ["--proto", proto, "--fault", fault, "--at", str(at), *extra]
    return EngineSpec(cmd=cmd, proto="auto" if auto else proto)


def run_match(tmp_path, specs, tc="0.1", games=2, **kw):
    lines = []
    kw.setdefault("max_plies", 16)
    kw.setdefault("hang_timeout", 0.3)
    cfg = MatchConfig(specs=specs, tc=TimeControl.parse(tc), games=games, pgn_path=str(tmp_path / "games.pgn"),
                      **kw)
    res = Match(cfg, out=lines.append).run()
    pgn = parse_pgn((tmp_path / "games.pgn").read_text())
    return res, pgn, lines


def _check_all_lost_by(res, pgn, loser, reason, games=2):
    assert len(res.records) == games and len(pgn) == games
    for job, rec in res.records:
        assert rec.reason == reason, rec.detail
        lost_side = 0 if job.red == loser else 1
        assert rec.result == ("0-1" if lost_side == 0 else "1-0")
    assert res.total[loser].losses == games
    for g in pgn:
        assert g.tags["Termination"] == reason
        replay = Position(g.fen)
        for m in g.moves:
            replay.push(m)


def test_line_hook_sees_the_lines_of_a_search():
    """Engine.line_hook (``shuai bench mates`` collects info lines with it) is given every line read_move()
    reads, in order, the move line included; the move is read as without it."""
    eng = start_engine(fake("uci"))
    seen = []
    try:
        tc = TimeControl(movetime=0.05)
        eng.new_game(GameSetup(), tc)
        eng.line_hook = seen.append
        t0 = eng.go(START_FEN, ["h2e2"], Clocks(tc, 0.05, 0.05, False))
        got = eng.read_move(t0 + 10)
    finally:
        eng.quit()
    assert got is not None
    move = got[1]
    pos = Position()
    pos.push("h2e2")
    assert move in pos.legal_move_names()
    assert seen == [f"info depth 1 score cp 0 nodes 1 pv {move}", f"bestmove {move}"]


def test_illegal_move_loses(tmp_path):
    res, pgn, _ = run_match(tmp_path, [fake("ucci"), fake("uci", "illegal", 4)])
    _check_all_lost_by(res, pgn, 1, "illegal move")
    assert all("illegal move" in g.comment for g in pgn)


def test_hang_loses_and_engine_is_restarted(tmp_path):
    res, pgn, _ = run_match(tmp_path, [fake("xboard", "hang", 3), fake("ucci")], concurrency=1)
    _check_all_lost_by(res, pgn, 0, "engine hung")
    # The hung engine was killed after game 1; game 2 needed a fresh process and got one.
    assert all(rec.plies >= 3 for _, rec in res.records)


def test_crash_loses_and_match_goes_on(tmp_path):
    res, pgn, _ = run_match(tmp_path, [fake("uci"), fake("uci", "crash", 2)], games=4, concurrency=1)
    _check_all_lost_by(res, pgn, 1, "engine crashed", games=4)


def test_an_engine_that_leaves_a_child_is_killed_with_it(tmp_path):
    """An engine started through a wrapper that leaves a child (here a 'sleep' holding the engine's stdout)
    crashes: the runner kills the engine's whole process group, so the match goes on at once (it stood until
    the child ended: 20 s a game) and no process is left behind."""
    import shlex
    import time
    marker = f"20.{time.monotonic_ns() % 10 ** 6:06d}"         # a sleep nobody else runs, 20 s at most
    crashing = " ".join(shlex.quote(a) for a in FAKE + ["--proto", "uci", "--fault", "crash", "--at", "2"])
    spec = EngineSpec(cmd=["sh", "-c", f"sleep {marker} & exec {crashing}"], proto="uci")
    t0 = time.monotonic()
    res, pgn, _ = run_match(tmp_path, [spec, fake("uci")], concurrency=1)
    assert time.monotonic() - t0 < 15
    _check_all_lost_by(res, pgn, 0, "engine crashed")
    time.sleep(0.2)
    left = subprocess.run(["pgrep", "-f", f"sleep {marker}"], capture_output=True, text=True).stdout.split()
    assert left == [], left


def test_slow_move_is_a_time_forfeit(tmp_path):
    res, pgn, _ = run_match(tmp_path, [fake("ucci", "slow", 2), fake("xboard")], hang_timeout=2.0)
    _check_all_lost_by(res, pgn, 0, "time forfeit")


def test_resignation_and_garbage(tmp_path):
    res, pgn, _ = run_match(tmp_path, [fake("xboard", "resign", 5), fake("ucci", "garbage", 5)], games=2)
    # Game 1: the UCCI fake (black) is first to move at ply >= 5 and sends "bestmove xyzzy";
    # game 2: the xboard fake (black) is first and resigns.
    assert sorted(rec.reason for _, rec in res.records) == ["illegal move", "resignation"]
    assert res.total[0].wins == 1 and res.total[1].wins == 1


def test_adjudication_rules_and_scores():
    draw = DrawRule.parse("movenumber=3 movecount=2 score=10")
    judge = Adjudicator(draw, None)
    # Four plies in a row within 10 cp, and at least 3 full moves: the verdict comes at ply 6, not before;
    # a score outside the band (or no score) starts the run again.
    assert [judge.add(ply % 2, s, ply) for ply, s in enumerate((0, 30, 5, -10, 0, 10), 1)][:5] == [None] * 5
    assert judge.level == 4 and judge.add(0, None, 7) is None and judge.level == 0
    judge = Adjudicator(draw, None)
    verdicts = [judge.add(ply % 2, 0, ply) for ply in range(1, 7)]
    assert verdicts[:5] == [None] * 5 and verdicts[5][:2] == ("draw", None)
    # Resigning: the side to score -700 or less for 2 moves of its own loses; two-sided, only when the
    # opponent has scored +700 or more for as long.
    one = Adjudicator(None, ResignRule.parse("movecount=2 score=700"))
    assert one.add(0, -800, 1) is None and one.add(1, 0, 2) is None and one.add(0, -700, 3)[:2] == ("loss", 0)
    two = Adjudicator(None, ResignRule.parse("movecount=2,score=700,twosided=true"))
    steps = [two.add(side, s, ply) for ply, (side, s) in enumerate(((0, -800), (1, 900), (0, -800), (1, 600),
                                                                     (0, -900), (1, 800), (0, -900), (1, 800)), 1)]
    assert steps[:7] == [None] * 7 and steps[7][:2] == ("loss", 0)          # Black's 600 broke its run
    assert str(ResignRule.parse("score=700 movecount=2 twosided=TRUE")) == "movecount=2 score=700 twosided=true"
    for bad in ("movecount=2", "movecount=0 score=700", "movecount=2 score=700 twosided=maybe",
                "movecount=2 score=700 score=800", "count=2 score=700"):
        with pytest.raises(ValueError):
            ResignRule.parse(bad)
    with pytest.raises(ValueError):
        DrawRule.parse("movenumber=-1 movecount=2 score=10")
    # The scores engines write: UCI, UCCI's bare number, bounds skipped; xboard thinking output.
    assert score_of_info("info depth 9 seldepth 12 score cp -35 nodes 100 pv h2e2".split()) == -35
    assert score_of_info("info depth 9 score mate 3 pv h2e2".split()) == MATE_CP - 3
    assert score_of_info("info depth 9 score mate -2 pv h2e2".split()) == -(MATE_CP - 2)
    assert score_of_info("info depth 9 score 120 nodes 5".split()) == 120
    assert score_of_info("info depth 9 score cp 80 lowerbound nodes 5".split()) is None
    assert score_of_info("info string score is high".split()) is None
    assert score_of_info("info depth 9 nodes 5".split()) is None
    assert score_of_thinking("12 -45 230 100345 h2e2 h9g7".split()) == -45
    assert score_of_thinking("12. 45 230 100345 h2e2".split()) == 45
    assert score_of_thinking("move h2e2".split()) is None and score_of_thinking("1 2 x 4".split()) is None


def test_adjudicated_draw_and_loss(tmp_path):
    res, pgn, _ = run_match(tmp_path, [fake("ucci"), fake("xboard")], games=2,
                            draw=DrawRule.parse("movenumber=3 movecount=2 score=0"))
    assert [(rec.result, rec.reason, rec.plies) for _, rec in res.records] == [("1/2-1/2", "adjudication", 6)] * 2
    assert "adjudicated a draw: both scores within 0 cp for 2 moves" in res.records[0][1].detail
    (tmp_path / "resign").mkdir()
    res, pgn, lines = run_match(tmp_path / "resign", [fake("uci", "none", 0, "--score", "-800"),
                                                      fake("xboard", "none", 0, "--score", "800")], games=2,
                                resign=ResignRule.parse("movecount=2 score=700 twosided=true"))
    # The UCI fake scores -800, its opponent +800: it loses once each has done so twice, at ply 4.
    assert [(rec.reason, rec.plies) for _, rec in res.records] == [("adjudication", 4)] * 2
    assert res.total[0].losses == 2 and "Fake-uci-none scored -700 cp or less for 2 moves" in res.records[0][1].detail
    assert any("resign movecount=2 score=700 twosided=true" in l for l in lines)


def test_two_fakes_concurrently_with_autodetection(tmp_path):
    # A clock the instant fakes never come near: four processes at once on a machine busy with the rest of the
    # suite once ended a game before its 16 plies on 0.1 s a move (the test is about concurrency and detection).
    res, pgn, lines = run_match(tmp_path, [fake("ucci", auto=True), fake("xboard", auto=True)], concurrency=2,
                                tc="30+0")
    assert [l for l in lines if l.startswith("Engine ")] == [
        f"Engine 1: Fake-ucci-none (ucci: {' '.join(fake('ucci').cmd)})",
        f"Engine 2: Fake-xboard-none (xboard: {' '.join(fake('xboard').cmd)})"]
    assert len(res.records) == 2 and {rec.red for _, rec in res.records} == {"Fake-ucci-none", "Fake-xboard-none"}
    assert [(rec.reason, rec.plies) for _, rec in res.records] == [("max plies", 16)] * 2, \
        [rec.detail for _, rec in res.records]
    assert res.pair[(0, 1)].draws == 2
    assert "Score of Fake-ucci-none vs Fake-xboard-none: 0 - 0 - 2" in summary(res)


def test_fen_letters_for_engines_that_read_only_h_and_e(tmp_path):
    """Sjaak II reads only H/E in setboard FENs and answers N/B with an error: the runner sees the error and
    sends H/E from then on, so the games are played, not lost as hangs (issue 15)."""
    fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1"
    assert fen_with_letters(fen, "HE") == "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR b - - 0 1"
    assert fen_with_letters(fen, "NB") == fen
    book = load_openings(str(XIANGQI_OPENINGS))[:2]
    res, pgn, _ = run_match(tmp_path, [fake("uci"), fake("xboard", "none", 0, "--he-only")], tc="3+0.05",
                            openings=book, games=4, max_plies=6, concurrency=1)
    assert [rec.reason for _, rec in res.records] == ["max plies"] * 4
    assert [g.fen for g in pgn] == [book[0].fen, book[0].fen, book[1].fen, book[1].fen]


def test_refused_move_fails_at_once_with_the_engines_words(tmp_path):
    """An engine that answers the GUI's move with "Illegal move" will not move: that is its loss at once, with
    its words in the PGN -- not a wait for the clock (the hang timeout here is longer than the game)."""
    res, pgn, _ = run_match(tmp_path, [fake("ucci"), fake("xboard", "refuse", 3)], tc="30+0", hang_timeout=60)
    _check_all_lost_by(res, pgn, 1, "engine error")
    assert all("Illegal move: " in g.comment for g in pgn)


def test_openings_without_setboard_and_sudden_death(tmp_path):
    book = load_openings(str(XIANGQI_OPENINGS))[:1]
    res, pgn, _ = run_match(tmp_path, [fake("uci"), fake("xboard", "none", 0, "--no-setboard")],
                            tc="3+0.05", openings=book, max_plies=10)
    assert all(rec.reason == "max plies" for _, rec in res.records)     # no illegal moves: the path was sent
    assert all(g.fen == book[0].fen and len(g.moves) == 10 for g in pgn)


def test_round_robin_three_engines(tmp_path):
    res, pgn, lines = run_match(tmp_path, [fake("ucci"), fake("uci"), fake("xboard", "illegal", 2)],
                                games=2, max_plies=6)
    assert len(res.records) == 6
    assert res.total[2].losses == 4 and (res.total[0].wins, res.total[0].draws) == (2, 2)
    assert "Pairings" in summary(res)


def test_sprt_stops_the_match(tmp_path):
    sprt = Sprt.parse("elo0=0 elo1=5")
    res, pgn, lines = run_match(tmp_path, [fake("ucci"), fake("ucci", "illegal", 0)], games=40, concurrency=1,
                                sprt=sprt)
    # 13 opening pairs of wins (the LLR of 12 is 2.93, below the bound; a 25th game alone adds 0.05).
    assert res.sprt_decision == "H1" and len(res.records) == 26 and len(pgn) == 26 and res.pairs[-1] == 13
    assert any(l.startswith("SPRT: LLR 3.43") for l in lines)
    text = summary(res, sprt)
    assert "H1 accepted" in text and "Resume with --resume 26,0,0/0,0,0,0,0,13" in text
    assert "Opening pairs: 13, scoring 0, 1/2, 1, 1 1/2, 2: 0, 0, 0, 0, 13; games outside a pair: 0" in text
    # The same two processes played all 26 games; their resident memory is followed for leaks.
    assert sorted((i, games) for (i, _), (_, _, games) in res.memory.items()) == [(0, 26), (1, 26)]
    assert all(5 < first < 500 and 5 < last < 500 for first, last, _ in res.memory.values())
    assert re.search(r"Memory of Fake-ucci-none \(resident\): \d+ MB after its first game, \d+ MB after 26 games",
                     text)


def test_a_resumed_sprt_already_decided_plays_nothing(tmp_path):
    """The summary's own 'Resume with' line of a decided test: its LLR is past the bound before any game, so the
    runner says so and plays none (it played one more game before stopping)."""
    sprt, lines = Sprt.parse("elo0=0 elo1=5"), []
    cfg = MatchConfig(specs=[fake("ucci"), fake("ucci", "illegal", 0)], tc=TimeControl.parse("0.1"), games=40,
                      concurrency=1, sprt=sprt, resume=(26, 0, 0), resume_pairs=(0, 0, 0, 0, 0, 13))
    res = Match(cfg, out=lines.append).run()
    assert res.sprt_decision == "H1" and res.records == [] and any("nothing to play" in l for l in lines)


def test_resumed_sprt_counts_the_earlier_games(tmp_path):
    # 20 wins carried over from an earlier sitting, without pairs (LLR 2.56, taken alone): five pairs more
    # decide (four give 2.93), where 13 fresh pairs were needed above.
    sprt = Sprt.parse("elo0=0 elo1=5")
    res, pgn, lines = run_match(tmp_path, [fake("ucci"), fake("ucci", "illegal", 0)], games=40, concurrency=1,
                                sprt=sprt, resume=(20, 0, 0))
    assert res.sprt_decision == "H1" and len(res.records) == 10 and len(pgn) == 10
    assert any("LLR 2.93 [" in l for l in lines) and any(l.startswith("SPRT: LLR 3.12") for l in lines)
    assert res.llr == pytest.approx(sprt.llr(20, 0, 0) + sprt.llr_pairs((0, 0, 0, 0, 5)))
    text = summary(res, sprt)
    assert "Score of Fake-ucci-none vs Fake-ucci-illegal: 30 - 0 - 0" in text
    assert "Resume with --resume 30,0,0/0,0,0,0,0,5" in text and "games outside a pair: 20" in text
    assert [int(g.tags["Round"]) for g in pgn] == list(range(21, 31))     # numbered on from the earlier sitting
    # Resumed with its pairs it goes on as one record: 22 games in 11 pairs, 3 alone (LLR 2.58); the next game's
    # partner, the 25th, was in the earlier sitting, so it counts alone (2.63); the pair after it decides (3.08).
    (tmp_path / "again").mkdir()
    res, pgn, lines = run_match(tmp_path / "again", [fake("ucci"), fake("ucci", "illegal", 0)], games=40,
                                concurrency=1, sprt=sprt, resume=(25, 0, 0), resume_pairs=(0, 0, 0, 0, 0, 11))
    assert res.sprt_decision == "H1" and [int(g.tags["Round"]) for g in pgn] == [26, 27, 28]
    assert any("LLR 2.63 [" in l for l in lines) and any(l.startswith("SPRT: LLR 3.08") for l in lines)
    assert res.pairs == [0, 0, 0, 0, 0, 12] and "games outside a pair: 4" in summary(res, sprt)
    with pytest.raises(ValueError, match="resume"):
        run_match(tmp_path, [fake("ucci"), fake("ucci"), fake("ucci")], resume=(1, 0, 0))
    with pytest.raises(ValueError, match="more games"):
        run_match(tmp_path, [fake("ucci"), fake("ucci")], resume=(1, 0, 0), resume_pairs=(0, 0, 0, 0, 0, 1))


def test_cli_match(tmp_path):
    from engine.match.cli import match
    a = " ".join(FAKE) + " --proto ucci"
    b = " ".join(FAKE) + " --proto uci --fault illegal --at 2"
    pgn = tmp_path / "cli.pgn"
    r = CliRunner().invoke(match, ["--engine", f"proto=ucci {a}", "--engine", f"proto=uci {b}", "--games", "2",
                                   "--tc", "0.1", "--concurrency", "2", "--pgn", str(pgn), "--max-plies", "8",
                                   "--sprt", "elo0=0", "elo1=5"])
    assert r.exit_code == 0, r.output
    assert "Score of Fake-ucci-none vs Fake-uci-illegal: 2 - 0 - 0" in r.output
    assert "Elo difference" in r.output and "SPRT (elo0=0 elo1=5 alpha=0.05 beta=0.05)" in r.output
    assert len(parse_pgn(pgn.read_text())) == 2
    bad = CliRunner().invoke(match, ["--engine", a, "--engine", b, "--tc", "fast"])
    assert bad.exit_code == 2 and "bad time control" in bad.output
    for resume, why in (("3,1", "expected W,D,L"), ("3,1,0/1,2", "expected W,D,L"),
                        ("3,1,0/0,0,0,0,0,2", "more games of a result"),
                        ("1,,1,1", "expected W,D,L"), (",,1,1,1", "expected W,D,L"), ("\uff11,1,1", "expected")):
        bad = CliRunner().invoke(match, ["--engine", a, "--engine", b, "--tc", "1", "--resume", resume])
        assert bad.exit_code == 2 and f"bad --resume '{resume}'" in bad.output and why in bad.output


def test_cli_import_is_light():
    out = subprocess.run([sys.executable, "-c", "import sys, engine.match.cli; "
                          "print(any(m.startswith(('numba', 'numpy')) for m in sys.modules))"],
                         capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "False"


def test_two_engines_of_one_name_are_numbered(tmp_path):
    res, pgn, lines = run_match(tmp_path, [fake("ucci"), fake("ucci")], max_plies=4)
    assert res.names == ["Fake-ucci-none #1", "Fake-ucci-none #2"]
    assert {g.tags["Red"] for g in pgn} == {"Fake-ucci-none #1", "Fake-ucci-none #2"}


def test_time_odds_give_each_engine_its_own_clock(tmp_path):
    """``tc=`` in an engine's spec is its own time control (time odds, as cutechess-cli's per-engine tc): it is
    the clock that engine is told and judged by, the opponent's increment is told as the opponent's, and the
    PGN and the summary say both."""
    spec = EngineSpec.parse(" ".join(FAKE + ["--proto", "uci", "tc=3+0.05"]))
    assert spec.tc == TimeControl(base=3.0, inc=0.05)
    with pytest.raises(ValueError, match="bad time control"):
        EngineSpec.parse("tc=fast /bin/true")
    log = tmp_path / "traffic.log"
    res, pgn, lines = run_match(tmp_path, [spec, fake("ucci")], tc="1+0.02", log_path=str(log), max_plies=6)
    assert any("time odds 3+0.05 vs 1+0.02" in line for line in lines)
    assert all(rec.reason == "max plies" for _, rec in res.records)
    for (job, _), g in zip(res.records, pgn):
        red_tc, black_tc = ("3+0.05", "1+0.02") if job.red == 0 else ("1+0.02", "3+0.05")
        assert (g.tags["RedTimeControl"], g.tags["BlackTimeControl"]) == (red_tc, black_tc)
    traffic = log.read_text()
    # each engine's lines name the game it plays (concurrent games write one log, with the same labels)
    assert set(re.findall(r" #(\d+) > go ", traffic)) == {str(job.number) for job, _ in res.records}
    uci_go = re.findall(r"go wtime (\d+) btime (\d+) winc (\d+) binc (\d+)", traffic)
    ucci_go = re.findall(r"go time (\S+) increment (\S+) opptime (\S+) oppincrement (\S+)", traffic)
    assert uci_go and ucci_go
    for wtime, btime, winc, binc in uci_go:                  # the UCI engine has the long clock, each its own
        assert {int(winc), int(binc)} == {50, 20}
        assert max(int(wtime), int(btime)) > 2000 and min(int(wtime), int(btime)) < 1500
    for time_, inc, opptime, oppinc in ucci_go:
        assert float(inc) in (0.02, 20) and float(oppinc) in (0.05, 50)
    # Both engines given the same tc=: that is the clock played, announced and written (not --tc's).
    (tmp_path / "same").mkdir()
    same = [EngineSpec.parse(" ".join(FAKE + ["--proto", p, "tc=3+0.05"])) for p in ("uci", "ucci")]
    res, pgn, lines = run_match(tmp_path / "same", same, tc="1+0.02", max_plies=4)
    assert any("3+0.05" in line and "odds" not in line for line in lines if line.startswith("Match"))
    assert {g.tags["TimeControl"] for g in pgn} == {"3+0.05"} and "RedTimeControl" not in pgn[0].tags


def test_a_pool_keeps_its_engines_between_matches_and_sends_only_the_options_that_changed(tmp_path):
    """SPSA's matches (engine.tune.spsa) share an EnginePool: the second and third match play with the engines
    the first started, the third sends the one option whose value changed (then isready), and nothing else."""
    pool = EnginePool()
    log = tmp_path / "traffic.log"
    pids = []
    try:
        for run, value in enumerate(("1", "1", "2")):
            specs = [fake("uci"), fake("uci")]
            specs[0].options, specs[1].options = {"Hash": value}, {"Hash": "1"}
            (tmp_path / str(run)).mkdir()
            res, _, _ = run_match(tmp_path / str(run), specs, pool=pool, log_path=str(log), concurrency=1)
            assert [rec.reason for _, rec in res.records] == ["max plies"] * 2
            pids.append(sorted(e.p.proc.pid for free in pool._free.values() for e in free))
            assert all(e.p.alive() for free in pool._free.values() for e in free)
        assert len(pids[0]) == 2 and pids[0] == pids[1] == pids[2]
        sent = re.findall(r" > (uci|setoption name Hash value \d)$", log.read_text(), re.M)
        assert sent == ["uci", "setoption name Hash value 1"] * 2 + ["setoption name Hash value 2"], sent
    finally:
        pool.close()
    assert not any(pool._free.values())
