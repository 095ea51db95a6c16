"""Engines as child processes: UCCI, UCI and xboard (CECP) adapters behind one small interface.

Every engine runs in its own process group with stdin/stdout pipes; a reader thread turns its output into a
queue of (arrival time, line), so the referee never blocks on a misbehaving engine: every wait has a deadline,
and a dead process shows up as :class:`EngineCrashed`, a silent one as :class:`EngineHung`.

Each adapter plays one game, xiangqi (the default) or chess, named when it is made; what it tells the engine
about the game is the game's (``engine.game.Game``: ``uci_variant``, ``xboard_variant``, ``ucci``, ``iccs``).
Xiangqi moves cross this
interface in ICCS coordinates (``h2e2``: files a-i, ranks 0-9 from Red's side); each adapter translates to its
engine's dialect (UCI engines that take a ``UCI_Variant`` option, i.e. Fairy-Stockfish, number ranks 1-10).
Chess moves are UCI's long algebraic coordinates both ways (``e2e4``, ``e7e8q``, castling ``e1g1``); what an
engine sends is passed on as it is, for the referee to read (xboard engines may send SAN).  Chess is spoken over
UCI (``UCI_Variant`` is set to ``chess`` where the engine offers it) and xboard (no ``variant`` command, the
engine's ``variants`` feature must list ``normal``); UCCI is xiangqi only.

An engine is described by an :class:`EngineSpec`, parsed from one command-line string (see ``EngineSpec.parse``).
"""
from __future__ import annotations

import atexit
import math
import os
import queue
import re
import shlex
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field

from ..game import DEFAULT, game_named
from ..protocol.core import MAX_SECONDS     # the longest time anything may take (deadlines stay in range)
from ..protocol.xboard import XBOARD_STANDARD   # xboard's standard chess: played without a variant command
from ..xiangqi.constants import START_FEN
from .adjudication import score_of_info, score_of_thinking

PROTOCOLS = ("ucci", "uci", "xboard")

# Replies of read_move() that are not moves.
RESIGN = "resign"


class EngineError(Exception):
    """The engine failed; ``reason`` is the word the referee writes into the game record."""
    reason = "engine error"


class EngineCrashed(EngineError):
    reason = "engine crashed"


class EngineHung(EngineError):
    reason = "engine hung"


class EngineRefused(EngineError):
    """The engine answered a command with an error (xboard ``Error``, ``tellusererror``, ``Illegal move``)."""
    reason = "engine error"


class WrongProtocol(EngineError):
    """A handshake probe failed: the engine does not speak the protocol tried."""
    reason = "wrong protocol"


# ----------------------------------------------------------------------------------------------------------
# Engine description
# ----------------------------------------------------------------------------------------------------------

_SPEC_KEYS = ("cmd", "proto", "name", "dir", "ranks", "ms", "tc")


@dataclass
class EngineSpec:
    """How to start and talk to one engine.

    ``EngineSpec.parse`` reads a string of shell words: ``key=value`` words with a known key set a field,
    ``option.NAME=VALUE`` sets an engine option (``setoption``/``option``), every other word is part of the
    command.  ``cmd=...`` gives the command explicitly (quote it if it has arguments).  Examples::

        /usr/games/fairy-stockfish
        proto=xboard /usr/games/maxqi
        "cmd=python3 -m engine" name=shuai option.Hash=64
        proto=uci ranks=1 /usr/games/fairy-stockfish        # UCI with ranks 1-10 (the pyffish dialect)

    Keys: ``proto`` = ucci | uci | xboard | auto (default: probe ucci, then uci, then xboard); ``name``
    (default: what the engine calls itself); ``dir`` (working directory); ``ranks`` = 0 | 1 (first rank
    number in move strings, xiangqi only; default 0, or 1 for UCI engines other than Shuai with a ``UCI_Variant``
    option); ``ms`` = 1 | 0
    (UCCI: clock values in milliseconds; default: 1 if the engine offers ``usemillisec`` (which is then set)
    or is Fairy-Stockfish, which reads UCCI times as milliseconds); ``tc`` (this engine's own time control, as
    ``--tc`` takes it: time odds, e.g. ``tc=30+0.3`` against a match's 10+0.1; default the match's).
    """
    cmd: list[str]
    proto: str = "auto"
    name: str | None = None
    dir: str | None = None
    ranks: int | None = None
    ms: bool | None = None
    tc: "TimeControl | None" = None
    options: dict[str, str] = field(default_factory=dict)
    detected: str | None = None          # protocol found by probing, remembered for restarts

    @classmethod
    def parse(cls, text: str) -> "EngineSpec":
        words = shlex.split(text)
        cmd: list[str] = []
        kw: dict = {}
        options: dict[str, str] = {}
        for w in words:
            key, eq, value = w.partition("=")
            if eq and key.startswith("option."):
                options[key[len("option."):]] = value
            elif eq and key in _SPEC_KEYS:
                if key == "cmd":
                    cmd.extend(shlex.split(value))
                elif key == "proto":
                    value = value.lower()
                    if value not in PROTOCOLS + ("auto",):
                        raise ValueError(f"unknown protocol {value!r} (ucci, uci, xboard or auto)")
                    kw["proto"] = value
                elif key == "ranks":
                    if value not in ("0", "1"):
                        raise ValueError("ranks= must be 0 or 1")
                    kw["ranks"] = int(value)
                elif key == "ms":
                    kw["ms"] = value.lower() in ("1", "true", "yes", "on")
                elif key == "tc":
                    kw["tc"] = TimeControl.parse(value)
                else:
                    kw[key] = value
            else:
                cmd.append(w)
        if not cmd:
            raise ValueError(f"engine {text!r}: no command")
        return cls(cmd=cmd, options=options, **kw)

    @property
    def label(self) -> str:
        """A short name before the engine has named itself: the program (the script, for interpreters)."""
        if self.name:
            return self.name
        prog = os.path.basename(self.cmd[0])
        if prog.startswith("python") and len(self.cmd) > 1:
            args = [a for a in self.cmd[1:] if not a.startswith("-")]
            if args:
                return os.path.basename(args[0])
        return prog


# ----------------------------------------------------------------------------------------------------------
# Process and pipes
# ----------------------------------------------------------------------------------------------------------

class EngineLog:
    """Optional transcript of all engine traffic (``--log FILE``), shared by all engines and threads.  A line:
    seconds since the match began, the engine's label (with ``#`` and the game's number once it plays one),
    ``>`` sent or ``<`` received, the text."""

    def __init__(self, path: str | None):
        self._f = open(path, "a", encoding="utf-8") if path else None
        self._lock = threading.Lock()
        self._t0 = time.monotonic()

    def write(self, who: str, direction: str, line: str) -> None:
        if self._f is None:
            return
        with self._lock:
            self._f.write(f"{time.monotonic() - self._t0:10.3f} {who} {direction} {line}\n")
            self._f.flush()

    def close(self) -> None:
        if self._f:
            self._f.close()


_NO_LOG = EngineLog(None)

_live: set = set()                 # every running EngineProcess, so that the runner can kill them all at exit
_live_lock = threading.Lock()


def kill_all() -> None:
    """Kill every engine process still running (they live in their own sessions, so a Ctrl-C in the terminal
    does not reach them)."""
    with _live_lock:
        procs = list(_live)
    for p in procs:
        p.kill()


atexit.register(kill_all)


class EngineProcess:
    """A child process with a reader thread; lines arrive as (monotonic time, text) on a queue."""

    def __init__(self, cmd, cwd=None, who="engine", log: EngineLog = _NO_LOG):
        self.who, self.log = who, log
        self.tag = who                  # the log's name for it: ``who``, then ``who #game`` (Engine.playing)
        try:
            self.proc = subprocess.Popen(cmd, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, text=True, bufsize=1, errors="replace",
                                         start_new_session=True)
        except OSError as e:
            raise EngineCrashed(f"cannot start {cmd[0]!r}: {e}") from None
        self.lines: queue.Queue = queue.Queue()
        self.eof = False
        with _live_lock:
            _live.add(self)
        self._reader = threading.Thread(target=self._read, daemon=True, name=f"read-{who}")
        self._reader.start()

    def _read(self):
        try:
            for line in self.proc.stdout:
                t = time.monotonic()
                line = line.rstrip("\r\n")
                self.log.write(self.tag, "<", line)
                self.lines.put((t, line))
        except (OSError, ValueError):
            pass
        self.lines.put((time.monotonic(), None))          # end of output: the process died or closed stdout

    def send(self, line: str) -> None:
        self.log.write(self.tag, ">", line)
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (OSError, ValueError):
            raise EngineCrashed(f"{self.who}: cannot write to the engine (it exited)") from None

    def readline(self, deadline: float):
        """(time, line) of the next line, or None if the deadline (monotonic) passes first.
        Raises EngineCrashed at end of output."""
        if self.eof:
            raise EngineCrashed(f"{self.who} exited")
        try:
            t, line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            return None
        if line is None:
            self.eof = True
            raise EngineCrashed(f"{self.who} exited")
        return t, line

    def alive(self) -> bool:
        return self.proc.poll() is None

    def resident_mb(self) -> float | None:
        """The process's resident memory in MB (Linux /proc), or None where it cannot be read."""
        try:
            with open(f"/proc/{self.proc.pid}/status", encoding="ascii", errors="replace") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1]) / 1024.0
        except (OSError, ValueError, IndexError):
            pass
        return None

    def kill(self) -> None:
        # The whole group (start_new_session made the engine its leader), also when the engine itself has exited
        # already: a child it left (a wrapper script's engine, a helper) would otherwise live on, holding the
        # pipe open, so that closing it below would wait on the reader thread -- the match stood still.
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):   # no member left
            if self.proc.poll() is None:
                try:
                    self.proc.kill()
                except OSError:
                    pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        for f in (self.proc.stdin, self.proc.stdout):
            try:
                f.close()
            except (OSError, ValueError):
                pass
        with _live_lock:
            _live.discard(self)

    def close(self, grace: float = 1.0) -> None:
        """Wait up to ``grace`` seconds for a process that was told to quit, then kill it (and its group)."""
        try:
            self.proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            pass
        self.kill()


# ----------------------------------------------------------------------------------------------------------
# Time control
# ----------------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class TimeControl:
    """Either a fixed time per move (``movetime``) or sudden death ``base`` + ``inc`` per move; seconds."""
    movetime: float | None = None
    base: float = 0.0
    inc: float = 0.0

    @classmethod
    def parse(cls, text: str) -> "TimeControl":
        t = text.strip()
        try:
            if "+" in t:
                base, inc = t.split("+", 1)
                tc = cls(base=float(base), inc=float(inc))
                if not (0 < tc.base <= MAX_SECONDS and 0 <= tc.inc <= MAX_SECONDS):   # NaN fails too
                    raise ValueError
                return tc
            tc = cls(movetime=float(t))
            if not 0 < tc.movetime <= MAX_SECONDS:
                raise ValueError
            return tc
        except ValueError:
            raise ValueError(f"bad time control {text!r}: seconds per move (0.2) or base+increment in "
                             f"seconds (10+0.1), each at most {MAX_SECONDS:g}") from None

    @property
    def fixed(self) -> bool:
        return self.movetime is not None

    @property
    def nominal(self) -> float:
        """The time a move is meant to take: the fixed time, or the increment."""
        return self.movetime if self.fixed else self.inc

    def __str__(self) -> str:
        if self.fixed:
            return f"{self.movetime:g}s/move"
        return f"{self.base:g}+{self.inc:g}"

    def pgn(self) -> str:
        """PGN TimeControl tag value."""
        return f"1/{self.movetime:g}" if self.fixed else f"{self.base:g}+{self.inc:g}"


@dataclass
class Clocks:
    """What an engine is told when asked to move: its own and its opponent's remaining time (seconds), and the
    time controls they run under (the same but for time odds)."""
    tc: TimeControl
    own: float
    opp: float
    red_to_move: bool
    opp_tc: TimeControl | None = None

    @property
    def opp_inc(self) -> float:
        return (self.opp_tc or self.tc).inc


# ----------------------------------------------------------------------------------------------------------
# Move dialects
# ----------------------------------------------------------------------------------------------------------

_MOVE_RE = re.compile(r"([a-i])(\d{1,2})-?([a-i])(\d{1,2})")


def to_iccs(text: str, ranks_from: int) -> str | None:
    """An engine's move string -> ICCS, or None if it is not a coordinate move at all."""
    m = _MOVE_RE.fullmatch(text.strip().lower())
    if not m:
        return None
    f1, r1, f2, r2 = m.groups()
    return f"{f1}{int(r1) - ranks_from}{f2}{int(r2) - ranks_from}"


def from_iccs(move: str, ranks_from: int) -> str:
    if ranks_from == 0:
        return move
    return f"{move[0]}{int(move[1]) + ranks_from}{move[2]}{int(move[3]) + ranks_from}"


# ----------------------------------------------------------------------------------------------------------
# Adapters
# ----------------------------------------------------------------------------------------------------------

# In a probe, an answer like this means "I do not speak that protocol" (xboard engines say "Error (unknown
# command): ucci", UCI engines "Unknown command: ucci"); informational lines never count.
_NOT_THIS = re.compile(r"error|unknown|illegal|invalid|not supported|^feature ", re.I)
_INFO_LINE = re.compile(r"^(info|id|option|#|tellics|telluser|copyprotection|registration)\b")


@dataclass
class GameSetup:
    """The position a game starts from, and (for engines that cannot set up a FEN) the moves reaching it from
    the start position; ``path`` is a callable returning that list, computed only when needed."""
    fen: str = START_FEN
    path: object = None


class Engine:
    """Base adapter.  Life cycle: start() → (new_game() → go()/read_move() …)* → quit()."""
    proto = "?"

    def __init__(self, spec: EngineSpec, log: EngineLog = _NO_LOG, handshake_timeout: float = 30.0,
                 probe_timeout: float = 5.0, game: str = DEFAULT.name):
        self.spec = spec
        self.game = game_named(game)                    # engine.game.Game: what is played
        self.log = log
        self.handshake_timeout = handshake_timeout      # for every answer at start-up and new game
        self.probe_timeout = probe_timeout              # for the first answer when guessing the protocol
        self.p: EngineProcess | None = None
        self.id_name: str | None = None
        self.options: dict[str, str] = {}        # name -> rest of the option line
        self.dead = False                        # must be restarted before the next game
        self.ranks_from = spec.ranks if spec.ranks is not None else 0
        # Optional hook, unused by matches: a callable given every line the engine writes while read_move()
        # waits for its move, raw and in order (`info` lines, the move line itself included), e.g. to collect
        # the scores and PVs of a search (``shuai bench mates``).  None: such lines are only skipped.
        self.line_hook = None
        # The exact score of the last search's latest info line that had one (engine.match.adjudication),
        # in centipawns from the engine's side; None until its search prints one.
        self.last_score: int | None = None

    # -- helpers --------------------------------------------------------------------------------------------
    def playing(self, number: int) -> None:
        """Game ``number`` is this engine's now: its log lines say ``label #number`` (concurrent games write
        one log, and both sides' engines of every game have the same labels)."""
        if self.p is not None:
            self.p.tag = f"{self.spec.label} #{number}"

    def rebind(self, spec: EngineSpec, log: EngineLog) -> None:
        """A started engine handed to another match (``runner.EnginePool``): that match's spec (its options are
        the pool's to send) and traffic log."""
        self.spec, self.log = spec, log
        if self.p is not None:
            self.p.log = log

    def _to_engine(self, move: str) -> str:
        """A move of the game record (ICCS / UCI) in the engine's dialect."""
        return from_iccs(move, self.ranks_from) if self.game.iccs else move

    def _from_engine(self, text: str) -> str:
        """The engine's move string for the referee: ICCS where it is a xiangqi coordinate move, else as sent."""
        if not self.game.iccs:
            return text
        move = to_iccs(text, self.ranks_from)
        return move if move is not None else text

    @property
    def name(self) -> str:
        return self.spec.name or self.id_name or os.path.basename(self.spec.cmd[0])

    def _spawn(self):
        self.p = EngineProcess(self.spec.cmd, cwd=self.spec.dir, who=self.spec.label, log=self.log)

    def send(self, line: str) -> None:
        try:
            self.p.send(line)
        except EngineError:
            self.dead = True
            raise

    def _readline(self, deadline: float):
        """The next (arrival time, line) before ``deadline``, or None then; a crash marks the engine dead."""
        try:
            return self.p.readline(deadline)
        except EngineCrashed:
            self.dead = True
            raise

    def _next_words(self, deadline: float):
        """(arrival time, line, its words) of the next line that is not blank, or None at the deadline.
        Every line read is first offered to ``self.line_hook``, if set."""
        while (got := self._readline(deadline)) is not None:
            if self.line_hook is not None:
                self.line_hook(got[1])
            words = got[1].split()
            if words:
                return got[0], got[1], words
        return None

    def _expect(self, predicate, timeout: float, what: str, probe: bool = False):
        """Read lines until predicate(line) is true; returns that line.  Each line is also offered to
        self._on_line.  In a probe, a line that smells of 'unknown command' raises WrongProtocol."""
        deadline = time.monotonic() + timeout
        while True:
            got = self._readline(deadline)
            if got is None:
                if probe:
                    raise WrongProtocol(f"{self.spec.label}: no {what} within {timeout:g} s")
                self.dead = True
                raise EngineHung(f"{self.spec.label}: no {what} within {timeout:g} s")
            line = got[1]
            if predicate(line):
                return line
            if probe and _NOT_THIS.search(line) and not _INFO_LINE.match(line):
                raise WrongProtocol(f"{self.spec.label}: {line!r}")
            self._on_line(line)

    def _on_line(self, line: str) -> None:
        pass

    # -- interface ------------------------------------------------------------------------------------------
    def start(self, probe: bool = False) -> None:
        raise NotImplementedError

    def new_game(self, setup: GameSetup, tc: TimeControl) -> None:
        raise NotImplementedError

    def go(self, fen: str, moves: list[str], clocks: Clocks) -> float:
        """Send the position and start the search; returns the monotonic time the search was started."""
        raise NotImplementedError

    def read_move(self, deadline: float):
        """(arrival time, ICCS move | RESIGN | raw text that is no move) or None when the deadline passes."""
        raise NotImplementedError

    def stop(self) -> None:
        raise NotImplementedError

    def move_played(self) -> None:
        """The referee accepted the engine's move."""

    def quit(self) -> None:
        if self.p is None:
            return
        if not self.dead:
            try:
                self.p.send("quit")
            except EngineError:
                pass
            self.p.close(grace=1.0)
        else:
            self.p.kill()
        self.dead = True

    def kill(self) -> None:
        if self.p is not None:
            self.p.kill()
        self.dead = True


class _UciLike(Engine):
    """What UCCI and UCI share: option lines, isready/readyok, position + go, bestmove, stop."""
    hello = ok = ""

    def start(self, probe: bool = False) -> None:
        self._spawn()
        self.send(self.hello)
        self._expect(lambda l: l.strip() == self.ok, self.probe_timeout if probe else self.handshake_timeout,
                     self.ok, probe)
        self._configure()
        self.sync()

    def _on_line(self, line: str) -> None:
        words = line.split()
        if len(words) >= 3 and words[0] == "id" and words[1] == "name":
            self.id_name = line.split(None, 2)[2].strip()
        elif words and words[0] == "option":
            m = re.match(r"option\s+(?:name\s+)?(.*?)\s+type\s+(.*)$", line)
            if m:
                self.options[m.group(1)] = m.group(2)

    def _configure(self) -> None:
        for k, v in self.spec.options.items():
            self.setoption(k, v)

    def sync(self, timeout: float | None = None) -> None:
        self.send("isready")
        self._expect(lambda l: l.strip() == "readyok", timeout or self.handshake_timeout, "readyok")

    def _position(self, fen: str, moves: list[str]) -> str:
        head = "position startpos" if fen == self.game.start_fen else f"position fen {fen}"
        if moves:
            head += " moves " + " ".join(self._to_engine(m) for m in moves)
        return head

    def new_game(self, setup: GameSetup, tc: TimeControl) -> None:
        self.sync()

    def go(self, fen, moves, clocks: Clocks) -> float:
        self.send(self._position(fen, moves))
        self.send(self._go_command(clocks))
        self.last_score = None
        return time.monotonic()

    def _go_command(self, clocks: Clocks) -> str:
        """The ``go`` line for these clocks, in the dialect's units and keywords."""
        raise NotImplementedError

    def analyse(self, fen: str, moves: list[str], depth: int | None = None, movetime: int | None = None,
                timeout: float = 300.0) -> tuple[int | None, str]:
        """A search of ``fen`` after ``moves`` to ``depth`` (``go depth``, UCI and UCCI alike) or for ``movetime``
        ms (``go movetime``, UCI): (the last exact score, side to move's view, mates as
        ``adjudication.MATE_CP``; the best move, or RESIGN).  A referee's judgement; EngineHung when no best move
        comes within ``timeout`` seconds."""
        self.sync()
        self.send(self._position(fen, moves))
        self.send(f"go depth {depth}" if depth else f"go movetime {movetime}")
        self.last_score = None
        got = self.read_move(time.monotonic() + timeout + (movetime or 0) / 1000)
        if got is None:
            raise EngineHung(f"{self.spec.label}: no bestmove within {timeout:g} s of go depth {depth}")
        return self.last_score, got[1]

    def read_move(self, deadline: float):
        while (got := self._next_words(deadline)) is not None:
            t, line, words = got
            if words[0] == "info":
                score = score_of_info(words)
                self.last_score = self.last_score if score is None else score
                continue
            if words[0] == "nobestmove":
                return t, RESIGN
            if words[0] == "bestmove":
                if len(words) < 2 or words[1] in ("(none)", "0000", "none"):
                    return t, RESIGN
                if "resign" in words[2:]:
                    return t, RESIGN
                return t, self._from_engine(words[1])
        return None

    def stop(self) -> None:
        self.send("stop")


class UcciEngine(_UciLike):
    proto = "ucci"
    hello, ok = "ucci", "ucciok"

    def start(self, probe: bool = False) -> None:
        if not self.game.ucci:
            raise WrongProtocol(f"{self.spec.label}: UCCI is a xiangqi protocol; {self.game.name} needs proto=uci or "
                                f"xboard")
        super().start(probe)

    def _configure(self) -> None:
        if "usemillisec" in self.options and self.spec.ms is not False:
            self.setoption("usemillisec", "true")
            self.millis = True
        elif self.spec.ms is not None:
            self.millis = self.spec.ms
        else:      # Fairy-Stockfish reads UCCI clock values as milliseconds and has no usemillisec option
            self.millis = "fairy-stockfish" in (self.id_name or "").lower()
        super()._configure()

    def setoption(self, name: str, value: str) -> None:
        self.send(f"setoption {name} {value}")

    def new_game(self, setup: GameSetup, tc: TimeControl) -> None:
        if "newgame" in self.options:                  # UCCI's optional new-game signal (a button option)
            self.send("setoption newgame")
        self.sync()

    def _t(self, seconds: float) -> str:
        if self.millis:
            return str(max(0, int(seconds * 1000)))
        return f"{max(0.0, seconds):.3f}".rstrip("0").rstrip(".") or "0"

    def _go_command(self, clocks: Clocks) -> str:
        tc = clocks.tc
        if tc.fixed:
            return f"go time {self._t(tc.movetime)} movestogo 1"
        return (f"go time {self._t(clocks.own)} increment {self._t(tc.inc)} "
                f"opptime {self._t(clocks.opp)} oppincrement {self._t(clocks.opp_inc)}")

    def quit(self) -> None:
        if self.p is not None and not self.dead:
            try:
                self.p.send("quit")
                self._expect(lambda l: l.strip() == "bye", 1.0, "bye")
            except EngineError:
                pass
            self.p.close(grace=1.0)
            self.dead = True
            return
        super().quit()


def _combo_values(option: str) -> list[str]:
    """The values of a UCI combo option from the rest of its line: ``combo default chess var chess var xiangqi``
    -> ["chess", "xiangqi"]."""
    words = option.split()
    return [words[i + 1].lower() for i, w in enumerate(words[:-1]) if w == "var"]


class UciEngine(_UciLike):
    proto = "uci"
    hello, ok = "uci", "uciok"

    def _configure(self) -> None:
        variant = self.options.get("UCI_Variant")
        if variant is not None and not self.game.iccs:
            if self.game.uci_variant in _combo_values(variant):     # an engine of many games: ask for this one
                self.setoption("UCI_Variant", self.game.uci_variant)
        elif variant is not None:           # a UCI engine with variants plays xiangqi only when told so
            self.setoption("UCI_Variant", self.game.uci_variant)
            if self.spec.ranks is None and not (self.id_name or "").startswith("Shuai"):
                self.ranks_from = 1          # Fairy-Stockfish's UCI dialect numbers ranks 1-10 (Shuai's: 0-9)
        super()._configure()

    def setoption(self, name: str, value: str) -> None:
        self.send(f"setoption name {name} value {value}")

    def new_game(self, setup: GameSetup, tc: TimeControl) -> None:
        self.send("ucinewgame")
        self.sync()

    def _go_command(self, clocks: Clocks) -> str:
        tc = clocks.tc
        if tc.fixed:
            return f"go movetime {max(1, int(tc.movetime * 1000))}"
        own, opp = (clocks.own, int(tc.inc * 1000)), (clocks.opp, int(clocks.opp_inc * 1000))
        (red, red_inc), (black, black_inc) = (own, opp) if clocks.red_to_move else (opp, own)
        return (f"go wtime {max(0, int(red * 1000))} btime {max(0, int(black * 1000))} "
                f"winc {red_inc} binc {black_inc}")


# An xboard engine's answer that refuses a command the game cannot go on without: a move ("Illegal move
# (...): MOVE"), or "Error (...): COMMAND" for a move, setboard or go, or "tellusererror" (Sjaak II's reply to a
# FEN it cannot read).  "Error (unknown command): easy" and the like are harmless and ignored.
_XBOARD_ERROR = re.compile(r"Illegal move\b|tellusererror\b|"
                           r"Error\b.*:\s*(usermove\b|setboard\b|go\b|[a-i]\d+[a-i]\d+)|"
                           r"Error\b.*\b(FEN|piece)\b", re.IGNORECASE)


def fen_with_letters(fen: str, horse_elephant: str) -> str:
    """``fen`` with its horses and elephants written as ``horse_elephant`` ("NB", or "HE" for engines such as
    Sjaak II that read only those); only the board field changes (a side field 'b' stays)."""
    board, _, rest = fen.partition(" ")
    table = str.maketrans({"N": horse_elephant[0], "B": horse_elephant[1],
                           "n": horse_elephant[0].lower(), "b": horse_elephant[1].lower()})
    return f"{board.translate(table)} {rest}" if rest else board.translate(table)


class XboardEngine(Engine):
    """CECP (WinBoard/xboard protocol 2, with a protocol-1 fallback).

    The engine is kept in force mode except while it searches: before each search it gets ``force``, the
    moves it has not seen yet, ``time``/``otim`` and ``go``.  Engines without ``setboard`` (MaxQi) get a
    non-initial start position as a sequence of moves from the initial position.  ``setboard`` FENs use N/B
    for horse and elephant; an engine that refuses them with an unknown-piece error (Sjaak II) is sent H/E
    from then on.  An error reply to any command fails at once (EngineRefused, the engine's words in the
    game record) instead of waiting for a move that will not come.
    """
    proto = "xboard"

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.features: dict[str, str] = {}
        self._ping = 0
        self._synced = 0          # how many game moves the engine already knows
        self._prefix = 0          # moves from the initial position sent to set the game's start position up
        self.fen_letters = "NB"   # horse and elephant in setboard FENs
        self._errors: list[str] = []

    def _on_line(self, line: str) -> None:
        if _XBOARD_ERROR.match(line.strip()):
            self._errors.append(line.strip())

    def _setboard(self, fen: str) -> None:
        """``setboard``, checked with a ping where the engine has one; retried once with H/E letters (xiangqi)."""
        for letters in dict.fromkeys((self.fen_letters, "HE") if self.game.iccs else ("NB",)):
            self._errors.clear()
            self.send(f"setboard {fen_with_letters(fen, letters)}")
            self.sync()
            if not self._errors:
                self.fen_letters = letters
                return
            if "piece" not in self._errors[0].lower():
                break
        raise EngineRefused(f"refused 'setboard {fen}': {self._errors[0]}")

    def start(self, probe: bool = False) -> None:
        self._spawn()
        self.send("xboard")
        self.send("protover 2")
        # Protocol 2 engines announce features; "done=0" asks for patience until "done=1" (up to the handshake
        # timeout), otherwise the GUI waits 2 s after the last line.  Silent engines are protocol 1.
        t0 = time.monotonic()
        patience = t0 + (self.probe_timeout if probe else self.handshake_timeout)
        quiet = 2.0
        last = t0
        while True:
            if self.features.get("done") == "0":
                limit = t0 + self.handshake_timeout
            else:
                limit = min(patience, last + quiet)
            try:
                got = self.p.readline(limit)
            except EngineCrashed:
                self.dead = True
                if probe:
                    raise WrongProtocol(f"{self.spec.label} exited during the xboard handshake") from None
                raise
            if got is None:
                if self.features.get("done") == "0":
                    self.dead = True
                    raise EngineHung(f"{self.spec.label}: no 'feature done=1' within {self.handshake_timeout:g} s")
                break
            last, line = got
            if line.startswith("feature "):
                for k, v in re.findall(r'(\w+)=("[^"]*"|\S+)', line[len("feature "):]):
                    v = v.strip('"')
                    self.features[k] = v
                    if k != "done":
                        self.send(f"accepted {k}")
                if self.features.get("done") == "1":
                    break
        self.id_name = self.features.get("myname")
        variants = self.features.get("variants")
        wanted = self.game.xboard_variant
        if variants is not None and wanted not in variants.split(","):
            raise WrongProtocol(f"{self.spec.label} does not list the {wanted} variant ({variants})")
        for k, v in self.spec.options.items():
            self.setoption(k, v)
        self.sync()

    def setoption(self, name: str, value: str) -> None:
        self.send(f"option {name}={value}")

    def sync(self, timeout: float | None = None) -> None:
        if self.features.get("ping") != "1":
            return
        self._ping += 1
        pong = f"pong {self._ping}"
        self.send(f"ping {self._ping}")
        self._expect(lambda l: l.strip() == pong, timeout or self.handshake_timeout, pong)

    def _move_cmd(self, move: str) -> str:
        m = self._to_engine(move)
        return f"usermove {m}" if self.features.get("usermove") == "1" else m

    def new_game(self, setup: GameSetup, tc: TimeControl) -> None:
        self.send("new")
        if "variants" in self.features and self.game.xboard_variant != XBOARD_STANDARD:
            self.send(f"variant {self.game.xboard_variant}")
        self.send("force")
        self._prefix = 0
        if setup.fen != self.game.start_fen:
            if self.features.get("setboard") == "1":
                self._setboard(setup.fen)
            else:
                path = setup.path() if setup.path else None
                if path is None:
                    raise EngineError(f"{self.name} cannot set up a position (no setboard) and no move "
                                      f"sequence from the start reaches {setup.fen}")
                for m in path:
                    self.send(self._move_cmd(m))
                self._prefix = len(path)
        if tc.fixed:
            if tc.movetime == int(tc.movetime):
                self.send(f"st {int(tc.movetime)}")
            else:       # xboard's st takes whole seconds; a one-move session with `time` sent before each move
                self.send(f"level 1 0:{max(1, math.ceil(tc.movetime)):02d} 0")
        else:
            minutes, seconds = divmod(int(round(tc.base)), 60)
            self.send(f"level 0 {minutes}:{seconds:02d} {tc.inc:g}")
        self.send("post")
        self.send("easy")
        self._synced = 0
        self.sync()

    def go(self, fen, moves, clocks: Clocks) -> float:
        self.send("force")
        for m in moves[self._synced:]:
            self.send(self._move_cmd(m))
        self._synced = len(moves)
        tc = clocks.tc
        own = tc.movetime if tc.fixed else clocks.own
        opp = tc.movetime if tc.fixed else clocks.opp
        self.send(f"time {max(0, int(own * 100))}")
        self.send(f"otim {max(0, int(opp * 100))}")
        self.send("go")
        self.last_score = None
        return time.monotonic()

    def move_played(self) -> None:
        self._synced += 1

    def read_move(self, deadline: float):
        while (got := self._next_words(deadline)) is not None:
            t, line, words = got
            score = score_of_thinking(words)
            if score is not None:
                self.last_score = score
                continue
            if words[0] == "move" and len(words) >= 2:
                return t, self._from_engine(words[1])
            if words[0] == "resign" or (words[0] in ("1-0", "0-1") and "resign" in line.lower()):
                return t, RESIGN
            if _XBOARD_ERROR.match(line.strip()):
                raise EngineRefused(f"answered {line.strip()!r}")
        return None

    def stop(self) -> None:
        self.send("?")


ADAPTERS = {"ucci": UcciEngine, "uci": UciEngine, "xboard": XboardEngine}


def start_engine(spec: EngineSpec, log: EngineLog = _NO_LOG, handshake_timeout: float = 30.0,
                 probe_timeout: float = 5.0, game: str = DEFAULT.name) -> Engine:
    """Start an engine for ``game`` ("xiangqi" or "chess") and complete its handshake.  With proto=auto, try
    UCCI (xiangqi only), UCI and xboard in turn (each in a fresh process) and remember the first that answers in
    ``spec.detected``."""
    proto = spec.proto if spec.proto != "auto" else spec.detected
    if proto:
        eng = ADAPTERS[proto](spec, log, handshake_timeout, game=game)
        try:
            eng.start()
        except EngineError:
            eng.kill()
            raise
        return eng
    errors = []
    for name in PROTOCOLS:
        if name == "ucci" and not game_named(game).ucci:
            continue
        eng = ADAPTERS[name](spec, log, handshake_timeout, probe_timeout, game=game)
        try:
            eng.start(probe=True)
        except WrongProtocol as e:
            errors.append(str(e))
            eng.kill()
            continue
        except EngineError:
            eng.kill()
            raise
        spec.detected = name
        return eng
    tried = ", ".join(p for p in PROTOCOLS if not (p == "ucci" and not game_named(game).ucci))
    raise EngineCrashed(f"{spec.label}: speaks none of {tried} ({'; '.join(errors)})")
