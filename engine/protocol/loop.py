"""The engine a GUI talks to: read stdin line by line, answer on stdout, in UCCI, UCI or xboard.

Threads:

* the **reader** reads raw bytes from file descriptor 0 (``os.read``: no Python buffer lock, so an exit while
  it is blocked in a read is clean) and queues complete lines, then an EOF marker;
* the **command thread** (the caller of ``run``) takes lines from the queue in order and carries them out;
  it never blocks on a search, so ``stop``/``ponderhit``/``isready`` are answered at once;
* the **loader** imports the numba modules (``engine.searcher``, the first game's ``Position``,
  ``engine.perft``), calls every kernel once (from the on-disk cache, or compiled on a cold cache), runs a
  depth-1 search so the search kernels are loaded too, and builds the ``Searcher``; it hands all that over as
  one ``Engine``.  It is started *after* the first command has been answered, so ``ucci``/``uci`` is replied
  to from plain Python within milliseconds.  A command that needs the engine (``isready``, ``position``,
  ``go`` ...) waits for it; the commands behind it wait in the queue, in order;
* the **searcher**'s own thread runs each search and prints ``info``/``bestmove`` through the callbacks.

The dialect is fixed by the handshake: ``ucci`` -> UCCI 3.0 (xiangqi); ``uci`` -> UCI, which plays chess unless
``UCI_Variant`` (or ``shuai --variant``) says xiangqi or a FEN is a xiangqi position -- then in the dialect
Pikafish speaks; ``xboard`` -> CECP v2 (XBoard/WinBoard; chess and ``variant xiangqi``).  Lines before any
handshake are read as UCI commands (as Stockfish and Pikafish accept commands without ``uci``).

Every output line goes through ``Output``: in order, flushed at once, by a writer thread of its own, so that no
thread (the search's least) waits on a full pipe.  Every bad input line -- unknown command,
bad arguments, bad FEN, illegal move, empty line, bytes that are not UTF-8 -- gets exactly one error line in the
dialect's words (``Dialect.error_line``: ``info string error: ...``; xboard's ``Error (...): ...`` and
``Illegal move: ...``) and changes nothing.

Editing the protocol files never makes a cached kernel stale: ``engine._cache`` stamps each kernel with a hash
of the module that defines it and of the package modules that module imports, transitively
(``engine._numba_locator``), and no kernel module imports the protocol package.
"""
from __future__ import annotations

import os
import queue
import sys
import threading
import traceback
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Optional

from .core import OPTIONS, CommandError, EngineCore, LoadError, internal_error

if TYPE_CHECKING:
    from ..searcher import Searcher

EOF = object()
HANDSHAKES = ("ucci", "uci", "xboard")     # a first word that picks a dialect
MAX_LINE = 64 << 10         # bytes: longer lines are dropped (one error line); a position with
                            # thousands of moves fits


class Output:
    """Line-oriented, thread-safe output, written in order by a thread of its own (``shuai-stdout``): who says a
    line never waits for the reader of the pipe.  The search thread reports as it goes, and when it wrote itself,
    a reader slow to empty a full pipe held the search where it could not see its stop: the one move of 71,522
    that went 61 ms past its hard limit in a match here stood in the pipe's write, the search thread's stack
    showed.  While more than ``MAX_BEHIND`` lines wait to be written (those in the write among them), what is
    said ``droppable`` (a search's progress) is dropped, so that a reader gone slow does not pile up memory
    without end; every other line (answers, ``bestmove``) waits its turn.  A closed pipe (the GUI gone) is
    remembered in ``broken``, not raised."""

    MAX_BEHIND = 1000

    def __init__(self, stream=None):
        self._stream = stream if stream is not None else sys.stdout
        self._lock = threading.Lock()
        self._waiting: list[bytes] = []         # what the writer has yet to write, a batch of lines each
        self._behind = 0                        # lines said and not yet written
        self._more = threading.Condition(self._lock)
        self._writing = False                   # the writer holds a batch it has not finished writing
        self.dropped = 0                        # droppable lines not written (the reader was behind)
        self.broken = False
        threading.Thread(target=self._write_all, name="shuai-stdout", daemon=True).start()

    def lines(self, lines, droppable: bool = False) -> None:
        data = "".join(f"{ln}\n" for ln in lines).encode("utf-8", "replace")
        with self._lock:
            if self.broken or not data:
                return
            if droppable and self._behind > self.MAX_BEHIND:
                self.dropped += len(lines)
                return
            self._waiting.append(data)
            self._behind += data.count(b"\n")          # as the writer counts them off
            self._more.notify_all()

    def line(self, text: str) -> None:
        self.lines([text])

    def drain(self, timeout: float = 5.0) -> bool:
        """Wait until every line said so far is written (or the pipe is broken), at most ``timeout`` seconds
        (a reader that never reads again); whether it was."""
        with self._lock:
            return self._more.wait_for(lambda: self.broken or (not self._waiting and not self._writing), timeout)

    def _write_all(self) -> None:
        while True:
            with self._lock:
                self._more.wait_for(lambda: self._waiting)
                data, self._waiting = b"".join(self._waiting), []
                self._writing = True
            broken = not self._write(data)
            with self._lock:
                self._writing = False
                self._behind -= data.count(b"\n")
                self.broken = self.broken or broken
                self._more.notify_all()

    def _write(self, data: bytes) -> bool:
        try:
            buffer = getattr(self._stream, "buffer", None)
            if buffer is not None:                  # bytes: no locale encoding, no "\r\n" translation
                self._stream.flush()
                buffer.write(data)
                buffer.flush()
            else:
                self._stream.write(data.decode("utf-8"))
                self._stream.flush()
            return True
        except (OSError, ValueError):               # BrokenPipeError, closed file
            return False


class LineReader(threading.Thread):
    """Reads file descriptor ``fd`` and queues each line as bytes (without the newline), then ``EOF``.  A line
    longer than MAX_LINE is queued as ``None`` (one error line), as soon as it is that long -- a GUI gone
    wrong may never send its newline -- and the rest of it is skipped.  Each byte is looked at once: a flood of
    short lines or one endless line costs time in proportion to its size."""

    def __init__(self, fd: int, q: queue.Queue):
        super().__init__(name="shuai-stdin", daemon=True)
        self.fd = fd
        self.q = q

    def run(self) -> None:
        pieces: list[bytes] = []        # the line read so far (its chunks)
        size = 0
        too_long = False                # this line has been reported; skip to its end
        while True:
            try:
                chunk = os.read(self.fd, 65536)
            except InterruptedError:
                continue
            except OSError:
                chunk = b""
            if not chunk:
                if pieces and not too_long:
                    self.q.put(b"".join(pieces))
                self.q.put(EOF)
                return
            *ends, rest = chunk.split(b"\n")
            for end in ends:            # each completes a line
                if not too_long:
                    if size + len(end) > MAX_LINE:
                        self.q.put(None)
                    else:
                        self.q.put(b"".join(pieces) + end if pieces else end)
                pieces, size, too_long = [], 0, False
            if rest and not too_long:
                pieces.append(rest)
                size += len(rest)
                if size > MAX_LINE:
                    self.q.put(None)
                    pieces, size, too_long = [], 0, True


@dataclass
class Engine:
    """The compiled side, as the loader hands it over."""
    searcher: Searcher
    position_class: Callable            # Game -> its Position class, the game's kernels loaded
    Limits: type                        # engine.searcher's
    SearchResult: type
    run_perft: Callable                 # engine.perft.run_perft
    open_tables: Callable               # engine.egtb.probe.open_tables
    # The option values the searcher has now (hash size, table files): ``EngineCore`` applies its own when
    # they differ.
    applied: dict = field(default_factory=dict)


class Loader:
    """Loads the compiled side once, in a background thread: the kernels of ``game`` (the game the dialect
    expects first), then a searcher.  ``wait()`` returns the ``Engine``, or raises LoadError if loading failed
    (``error`` says why).  The other game's kernels are loaded when a position of it is first asked for."""

    def __init__(self, game=None):
        self.game = game                # set by the dialect before the loader starts (EngineCore.choose_games)
        self._games_lock = threading.Lock()
        self._warm_games: set = set()
        self.done = threading.Event()
        self.engine: Optional[Engine] = None        # set once loaded
        self.error: Optional[str] = None            # set if loading failed
        self._thread = None
        self._start_lock = threading.Lock()

    def start(self) -> None:
        with self._start_lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._load, name="shuai-loader", daemon=True)
                self._thread.start()

    @property
    def started(self) -> bool:
        return self._thread is not None

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def wait(self) -> Engine:
        self.start()
        self.done.wait()
        if self.engine is None:
            raise LoadError(f"engine failed to load: {self.error}")
        return self.engine

    def position_class(self, game):
        """The Position class of a game, its kernels loaded (or compiled) on first use."""
        with self._games_lock:
            if game not in self._warm_games:
                from ..warmup import warm_all
                warm_all(game)
                self._warm_games.add(game)
        return game.Position

    def _load(self) -> None:
        try:
            Position = self.position_class(self.game)
            from ..perft import run_perft
            from ..warmup import freeze_heap
            from ..searcher import Limits, SearchResult, Searcher
            hash_mb = OPTIONS["hash_mb"].default
            searcher = Searcher(hash_mb)
            pos = Position()
            # One tiny search, so that the search kernels are loaded (or compiled) now, not at the first 'go'.
            finished = threading.Event()
            searcher.start(pos, Limits(depth=1), lambda info: None, lambda result: finished.set())
            finished.wait(600)
            searcher.wait()
            searcher.new_game()
            from ..egtb.tableset import open_tables
            self.engine = Engine(searcher, self.position_class, Limits, SearchResult, run_perft, open_tables,
                                 applied={"hash_mb": hash_mb})
            freeze_heap()           # the searcher's objects too
        except BaseException as e:      # noqa: BLE001 -- reported to the GUI; the engine keeps answering
            self.error = f"{type(e).__name__}: {e}"
            traceback.print_exc(file=sys.stderr)
        finally:
            self.done.set()


def _dialect_for(first_word: str, core: EngineCore, variant: Optional[str], call_soon: Callable):
    """The dialect a first word asks for; it decides the game the loader prepares (UCCI: xiangqi; xboard: the
    standard chess of its 'new'; UCI: the ``variant`` the command line named, else the option's default, chess).
    ``call_soon(fn)``: run ``fn`` on the command thread after the lines read so far (xboard's pondering starts
    so, after the engine's move)."""
    if first_word == "ucci":
        from .ucci import UcciDialect
        return UcciDialect(core)
    if first_word == "xboard":
        from .xboard import XboardDialect
        return XboardDialect(core, call_soon)
    from .uci import UciDialect
    return UciDialect(core, variant)


def run(fd: int = 0, stream=None, variant: Optional[str] = None) -> int:
    """The protocol loop.  Reads ``fd`` (stdin), writes ``stream`` (stdout); returns the exit code.
    ``variant``: the game UCI's ``startpos`` means until ``UCI_Variant`` says otherwise (None: the option's
    default)."""
    out = Output(stream)
    q: queue.Queue = queue.Queue()
    LineReader(fd, q).start()
    loader = Loader()
    core = EngineCore(out, loader)
    dialect = None

    def complain(error: CommandError, text: str = "") -> None:
        """The one error line for a bad input line, in the dialect's words."""
        out.line(dialect.error_line(error, text) if dialect is not None else f"info string error: {error}")

    while not out.broken:
        try:
            item = q.get()
        except KeyboardInterrupt:       # Ctrl-C at a terminal: leave as on EOF
            break
        if item is EOF:
            break
        if item is None:
            complain(CommandError(f"input line longer than {MAX_LINE:,} bytes ignored"))
            continue
        if callable(item):              # work a dialect queued for this thread (call_soon)
            try:
                item()
            except Exception as e:      # noqa: BLE001 -- as for a command
                complain(internal_error(e))
                traceback.print_exc(file=sys.stderr)
            continue
        try:
            text = item.decode("utf-8")
        except UnicodeDecodeError:
            complain(CommandError("input line is not valid UTF-8; ignored"))
            continue
        words = text.split()
        first = words[0].lower() if words else ""
        if dialect is None or (not dialect.handshaken and first in HANDSHAKES and first != dialect.name):
            dialect = _dialect_for(first, core, variant, q.put)
        try:
            keep_going = dialect.handle(text)
        except CommandError as e:
            complain(e, text)
            keep_going = True
        except Exception as e:          # noqa: BLE001 -- a bug must not kill the engine
            complain(internal_error(e, text), text)
            traceback.print_exc(file=sys.stderr)
            keep_going = True
        loader.start()                   # no-op after the first time: begins once the first line is answered
        if not keep_going:
            break
    # quit, EOF or a closed stdout: stop any search (its bestmove is printed if anyone still listens)
    try:
        if loader.engine is not None:
            core.finish()
    except Exception:                   # noqa: BLE001
        traceback.print_exc(file=sys.stderr)
    if dialect is not None and getattr(dialect, "bye", False):
        out.line("bye")
    out.drain()
    if loader.alive:
        # Still importing/compiling: don't let interpreter shutdown race a thread inside numba's compiler.
        try:
            sys.stdout.flush()
        finally:
            os._exit(0)
    return 0
