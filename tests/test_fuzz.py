"""Hostile input (issue 15): nothing a GUI or a user types may raise anything but the parser's own error.

Property tests (hypothesis, derandomized so that every run tries the same cases) for the FEN, move, ``go`` and
``setoption`` parsers, and a seeded fuzz of the running engine in each dialect: a few thousand lines of
commands with garbage arguments, huge and malformed numbers, and raw bytes.  Afterwards the engine must still
answer ``isready`` and play a legal move, every ``go`` must have had exactly one ``bestmove``/``nobestmove``,
and nothing may have reached the loop's catch-all or stderr.
"""
import random
import string
from types import SimpleNamespace

import pytest
from hypothesis import given, settings, strategies as st

from engine.protocol import ucci, uci
from engine.protocol.core import (MAX_DEPTH, MAX_MOVESTOGO, MAX_NODES, MAX_SECONDS, CommandError, split_position_args)
from engine.xiangqi.constants import START_FEN
from engine.xiangqi.position import FenError, IllegalMoveError, Position
from engine.xiangqi.wxf import MoveNames, MoveParseError

from test_protocol import EngineProcess, assert_legal_reply, started

PROPERTY = settings(derandomize=True, deadline=None, max_examples=300)

HUGE = "99999999999999999999"
NUMBERS = ["0", "1", "2", "3", "7", "16", "250", "-1", "-7", HUGE, "-" + HUGE, "1e999", "-1e999", "nan", "inf",
           "1.5", "0x10", "1_0", "abc", "", "١٢"]
TOKENS = ["startpos", "fen", "moves", "name", "value", "true", "false", "on", "ponder", "infinite", "depth",
          "nodes", "time", "increment", "movestogo", "opptime", "oppincrement", "oppmovestogo", "wtime",
          "btime", "winc", "binc", "movetime", "mate", "searchmoves", "draw", "perft", "h2e2", "h0g2", "b7e7",
          "e9e8", "a0a9", "z9z9", "w", "b", "r", "-", START_FEN, "rnbakabnr/9/9", "炮二平五", "C2=5", "马8进7"]
UCCI_OPTIONS = ["usemillisec", "batch", "debug", "ponder", "usebook", "useegtb", "bookfiles", "egtbpaths",
                "egtbcache", "egtbply", "hashsize", "threads", "idle", "pruning", "knowledge", "randomness",
                "newgame", "promotion", "nonsense"]
UCI_OPTIONS = ["Hash", "Threads", "Ponder", "MultiPV", "UCI_Variant", "EGTBPath", "EGTBCache", "EGTBProbeDepth",
               "Clear Hash", "Nonsense"]

words = st.one_of(st.sampled_from(NUMBERS + TOKENS), st.text(max_size=12))
argument_lists = st.lists(words, max_size=12)


# -- parsers ------------------------------------------------------------------------------------------------------

def fen_mutations():
    """The start FEN with a few characters replaced, inserted or deleted: mostly near-valid FENs."""
    alphabet = "rnbakcpRNBAKCPHEhe0123456789/ wb-"
    edit = st.tuples(st.integers(0, len(START_FEN)), st.sampled_from(["replace", "insert", "delete"]),
                     st.sampled_from(alphabet))

    def apply(edits):
        fen = START_FEN
        for at, kind, c in edits:
            at = min(at, len(fen))
            fen = (fen[:at] + c + fen[at + 1:] if kind == "replace" else
                   fen[:at] + c + fen[at:] if kind == "insert" else fen[:at] + fen[at + 1:])
        return fen
    return st.lists(edit, min_size=1, max_size=4).map(apply)


@PROPERTY
@given(st.one_of(fen_mutations(), st.text(max_size=120)))
def test_fen_parser_raises_only_fen_errors(fen):
    try:
        pos = Position(fen)
    except FenError:
        return
    again = Position(pos.fen())                     # a FEN that loads writes itself back loadably
    assert again.fen() == pos.fen()
    assert isinstance(pos.legal_moves(), list)


@PROPERTY
@given(st.one_of(st.text(max_size=12), st.sampled_from(TOKENS),
                 st.from_regex(r"[a-k][0-9]{1,2}[a-k][0-9]{1,2}", fullmatch=True)))
def test_move_parsers_raise_only_their_errors(text):
    pos = Position()
    try:
        move = pos.parse_move(text)                 # ICCS / UCI coordinates
    except IllegalMoveError:
        pass
    else:
        assert move in pos.legal_moves()
    try:
        move = MoveNames.of(pos).parse(text)        # coordinates, Chinese, WXF (the terminal's notations)
    except MoveParseError:
        pass
    else:
        assert move in pos.legal_moves()


@PROPERTY
@given(argument_lists, st.booleans())
def test_go_parsers_raise_only_command_errors_and_keep_limits_in_range(args, flag):
    for parse in (ucci.parse_go, uci.parse_go):
        try:
            req = parse(args, flag)
        except CommandError:
            continue
        lim = req.limits
        for key in ("time_left", "increment", "movetime"):
            assert 0.0 <= lim.get(key, 0.0) <= MAX_SECONDS
        assert 1 <= lim.get("nodes", 1) <= MAX_NODES
        assert 0 <= lim.get("depth", 0) <= MAX_DEPTH and 1 <= lim.get("mate", 1) <= MAX_DEPTH
        assert lim.get("movestogo") is None or 1 <= lim["movestogo"] <= MAX_MOVESTOGO


@PROPERTY
@given(argument_lists)
def test_position_arguments_raise_only_command_errors(args):
    try:
        fen, moves = split_position_args(args)
    except CommandError:
        return
    assert isinstance(fen, str) and all(isinstance(m, str) for m in moves)


class _RecordingCore(SimpleNamespace):
    """What ``setoption`` may call on the engine: recorded, never carried out."""

    def __init__(self):
        super().__init__(out=SimpleNamespace(line=lambda text: None, lines=lambda lines: None), calls=[])

    def __getattr__(self, name):
        return lambda *a, **kw: self.calls.append((name, a, kw))


@PROPERTY
@given(st.sampled_from(UCCI_OPTIONS + UCI_OPTIONS), argument_lists, st.booleans())
def test_setoption_raises_only_command_errors(option, rest, uci_form):
    for dialect in (ucci.UcciDialect(_RecordingCore()), uci.UciDialect(_RecordingCore())):
        args = ["name", *option.split(), "value", *rest] if uci_form else [option, *rest]
        try:
            dialect.cmd_setoption(args)
        except CommandError:
            pass


# -- the running engine -------------------------------------------------------------------------------------------

FUZZ_LINES = 1500


def garbage_line(rng: random.Random, dialect: str) -> bytes:
    """One hostile input line: a command with random arguments, random printable text, or random bytes."""
    roll = rng.random()
    if roll < 0.1:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(40))).replace(b"\n", b" ")
    if roll < 0.2:
        return "".join(rng.choice(string.printable.replace("\n", "")) for _ in range(rng.randrange(60))).encode()
    commands = ["isready", "position", "go", "stop", "ponderhit", "setoption", "d", "display", "nonsense",
                "banmoves", "probe"] if dialect == "ucci" else \
        ["isready", "position", "go", "stop", "ponderhit", "setoption", "d", "ucinewgame", "nonsense"]
    cmd = rng.choice(commands)
    if cmd == "setoption":
        name = rng.choice(UCCI_OPTIONS if dialect == "ucci" else UCI_OPTIONS)
        args = ["name", name, "value"] if rng.random() < 0.5 else [name]
        args += [rng.choice(NUMBERS + ["true", "false", "none", "large"])]
    else:
        args = [rng.choice(NUMBERS + TOKENS) for _ in range(rng.randrange(6))]
        if cmd == "position" and rng.random() < 0.5:
            args = ["startpos", "moves", *rng.sample(["h2e2", "h9g7", "b0c2", "b7e7", "z0z0"], 2)]
    if cmd == "go" and "perft" in [a.lower() for a in args]:
        args = ["perft", rng.choice(["0", "1", "2", "x"])]         # deeper perfts are legitimately slow
    line = " ".join([cmd.upper() if rng.random() < 0.05 else cmd, *args])
    return line.encode()


@pytest.mark.parametrize("dialect", ["ucci", "uci"])
def test_fuzzed_engine_survives_and_answers(dialect):
    engine = EngineProcess()
    try:
        started(engine, dialect)
        rng = random.Random(15 + len(dialect))
        goes = stops = 0            # searches started; UCCI stops (answered 'nobestmove' when nothing runs)
        for i in range(FUZZ_LINES):
            line = garbage_line(rng, dialect)
            engine.send(line)
            marker = f"'sync{i}'"                   # an unknown command: its error line ends this line's replies
            engine.send(marker[1:-1])
            _, lines = engine.read_until(lambda ln: marker in ln, 30.0)
            words = line.decode("utf-8", "replace").lower().split()
            # The go's own refusal; a table path set earlier may be reported when a go applies it (or sooner,
            # when no search was running), and searchmoves not legal here are left out (UCI), neither of which
            # stops the search.
            errors = [ln for ln in lines[:-1] if ln.startswith("info string error:") and "tablebase" not in ln
                      and "left out" not in ln]
            if words[:1] == ["go"] and "perft" not in words and not errors:
                goes += 1
            stops += words[:1] == ["stop"]
            bad = [ln for ln in lines if "internal error" in ln or "Traceback" in ln]
            assert not bad, (line, bad)
        engine.send("stop")
        engine.send("position startpos moves h2e2")     # ends any search first (its bestmove comes before readyok)
        engine.send("isready")
        engine.read_until(lambda ln: ln == "readyok")
        engine.send("go depth 3")
        _, lines = engine.bestmove()
        pos = Position()
        pos.push("h2e2")
        assert_legal_reply(lines[-1], pos)
        engine.send("isready")
        engine.read_until(lambda ln: ln == "readyok")
        replies = len([t for t in engine.transcript if t.startswith(("< bestmove", "< nobestmove"))])
        if dialect == "uci":
            assert replies == goes + 1              # exactly one bestmove a go, the last one's included
        else:
            assert goes + 1 <= replies <= goes + 1 + stops + 1
        assert engine.proc.poll() is None
        assert not b"".join(engine.stderr), b"".join(engine.stderr).decode(errors="replace")[-2000:]
    finally:
        engine.close()

