"""What UCCI and UCI share: the engine's options, its position, the search it runs, and the commands both
dialects have.

``OPTIONS`` is the one table of the engine's options: each one's type, default and range, and the
``EngineCore`` method that applies a new value (as a Stockfish option's callback does: ``Hash`` resizes the
table when it is set, or, while a search runs, before the next one starts).  The dialects only name and format
options for their protocol.  ``EngineCore`` owns the option values, the state (current position, banned moves,
the searcher) and the search life-cycle; ``Dialect`` is the base of the two protocol front ends (``ucci.py``,
``uci.py``), which parse commands and format replies.  Nothing here imports numba (or a module that does) at
module level: the loader thread (``loop.Loader``) does that after the handshake has been answered, and every
command that needs the engine waits for its handle (``loop.Engine``; ``LoadError`` if loading failed).

Search life-cycle (one ``_Search`` per ``go``):

* the search runs in the ``Searcher``'s thread; ``on_info`` prints ``info`` lines as iterations complete;
* ``on_done`` stores the result and prints ``bestmove`` -- after one error line if the search failed (an
  exception in the search: the searcher still hands over a move, see ``engine.searcher``; so does a ``go`` whose
  search could not even start).  Under ``go infinite`` and ``go ponder`` no ``bestmove`` may be printed before
  ``stop`` (or, for ponder, ``ponderhit``), even if the search ended by itself (depth reached, mate found, no
  legal move, failed: the error line comes with the move): the searcher holds ``on_done`` back until then
  (``Searcher._run``, the one place of that rule), as Stockfish's main thread waits for ``stop``/``ponderhit``;
* one rule for a command that arrives while a search runs and changes what is searched (``go``, and a valid
  ``position``): the running search is stopped first and its ``bestmove`` printed, so every ``go`` gets exactly
  one ``bestmove``/``nobestmove`` and there are never two searches at once.  An option that reaches the searcher,
  set meanwhile, is applied when that search has ended, before the next ``go``; a bad command changes nothing
  and leaves the search running.
"""
from __future__ import annotations

import re
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field
from typing import Callable, Optional

from .. import levels, search_params
from ..egtb import DEFAULT_CACHE_MB, DEFAULT_PROBE_DEPTH, MAX_CACHE_MB
from ..game import GAMES, fen_ranks, game_of_fen, game_named
from ..levels import ELO_MAX, ELO_MIN, GRADES, MAX_SKILL, RANDOMNESS
from ..timeman import MOVE_OVERHEAD


MAX_PERFT_DEPTH = 12


class CommandError(Exception):
    """A command that cannot be carried out; the loop prints one error line (``Dialect.error_line``: UCI and
    UCCI ``info string error: <message>``), nothing else."""


class LoadError(CommandError):
    """The engine could not be loaded: nothing can be searched (the dialects answer ``go`` with no move)."""


def sanitize(text: str, limit: int = 80) -> str:
    """Input echoed back in a message: printable, one line, bounded length."""
    text = "".join(c if c.isprintable() and c.isascii() else "?" for c in text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def internal_error(error: Exception, command: str = "") -> CommandError:
    """A bug met while carrying out ``command`` (a line from the GUI; "" for the engine's own work), as the one
    error line the GUI gets; the traceback goes to stderr (the caller's)."""
    on = f" on {sanitize(command.strip(), 40)!r}" if command else ""
    return CommandError(f"internal error{on}: {type(error).__name__}: {sanitize(str(error))}")


# A GUI may send any number of digits.  Search limits above these bounds are capped (a huge time or node count
# means "no limit from here", never an overflow in a timer or a compiled kernel); a negative depth or node count
# and option values out of their range are refused, since silently changing a setting would surprise its user.
MAX_SECONDS = 1e7           # about 116 days: more than any clock, well inside a timer's range
MAX_NODES = 10 ** 15        # fits the search's int64 counters with room to spare
MAX_DEPTH = 1000            # plies; the search stops at its own maximum ply long before
MAX_MOVESTOGO = 10 ** 6


def parse_int(text: str, what: str, lo: Optional[int] = None, hi: Optional[int] = None,
              cap: bool = False) -> int:
    """An integer from the GUI in ``lo..hi``; CommandError outside, except that with ``cap`` a value above
    ``hi`` (a search limit: "as much as you like") is taken as ``hi``."""
    try:
        value = int(text)
    except (TypeError, ValueError):
        raise CommandError(f"{what} must be an integer, not {sanitize(str(text))!r}") from None
    if cap and hi is not None and value > hi:
        return hi
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        bounds = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        raise CommandError(f"{what} {sanitize(str(value), 30)} out of range ({bounds})")
    return value


def parse_number(text: str, what: str) -> float:
    """A time or count that GUIs send as an integer (sometimes negative when a flag fell, sometimes with a
    decimal point); NaN is refused, infinities stay (callers clamp)."""
    try:
        value = float(text)
    except (TypeError, ValueError, OverflowError):
        raise CommandError(f"{what} must be a number, not {sanitize(str(text))!r}") from None
    if value != value:
        raise CommandError(f"{what} must be a number, not NaN")
    return value


def parse_seconds(text: str, what: str, unit: float = 1.0) -> float:
    """A time from the GUI in ``unit`` seconds (1 for UCCI, 0.001 for UCI and UCCI's ``usemillisec``), in
    seconds, clamped into 0..MAX_SECONDS: a fallen flag's negative time is 0, a huge one is plenty."""
    return min(max(parse_number(text, what) * unit, 0.0), MAX_SECONDS)


def parse_bool(text: str, what: str) -> bool:
    t = text.lower()
    if t in ("true", "on", "yes", "1"):
        return True
    if t in ("false", "off", "no", "0"):
        return False
    raise CommandError(f"{what} must be true or false, not {sanitize(text)!r}")


# -- options ------------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Option:
    """An engine option: its type (the word UCI and UCCI both use), default and range, and the name of the
    ``EngineCore`` method that applies a new value (None: the value is only read where it is used)."""
    type: str                           # "spin", "check", "string", "combo" or "button"
    default: object = None
    min: Optional[int] = None           # spin
    max: Optional[int] = None
    vars: tuple = ()                    # combo: the values
    apply: Optional[str] = None
    check: Optional[Callable] = None    # string: a function that reads the value, raising ValueError if bad

    def parse(self, text: str, label: str):
        """The value a GUI sent (``label``: the option's name in its protocol, for the error message)."""
        if self.type == "spin":
            return parse_int(text, label, self.min, self.max)
        if self.type == "check":
            return parse_bool(text, label)
        if self.type == "combo":
            if text.lower() not in self.vars:
                raise CommandError(f"{label} must be one of {', '.join(self.vars)}, not {sanitize(text, 20)!r}")
            return text.lower()
        if self.type == "string":
            text = "" if text == "<empty>" else text        # how GUIs send an empty string
            if self.check is not None:
                try:
                    self.check(text)
                except ValueError as e:
                    raise CommandError(f"{label}: {e}") from None
            return text
        return None                                         # a button has no value

    def line_parts(self, default=None) -> dict:
        """What an ``option`` line says of this option, part by part: ``default`` (``default`` given: instead
        of the option's), ``range`` (a spin's) and ``vars`` (a combo's); each dialect puts them in its order."""
        default = self.default if default is None else default
        if self.type == "button":
            return {}
        if self.type == "check":
            shown = str(default).lower()                    # "true" / "false"
        elif self.type == "string":
            shown = default or "<empty>"
        else:
            shown = default
        parts = {"default": f"default {shown}"}
        if self.type == "spin":
            parts["range"] = f"min {self.min} max {self.max}"
        if self.type == "combo":
            parts["vars"] = " ".join(f"var {v}" for v in self.vars)
        return parts


# Every option of the engine, in either protocol (each dialect names those it offers: ``uci.NAMES``,
# ``ucci.NAMES``).  The options that reach the searcher are applied by ``apply_options``: at once, or after the
# search that is running.
OPTIONS = {
    "hash_mb": Option("spin", 64, 1, 4096, apply="apply_options"),         # the transposition table, MB
    # Lazy SMP (engine.searcher).  Each thread has its own work arrays (8.5 MB for xiangqi): 256 take 2.2 GB
    # besides the hash table, the most this maximum promises
    "threads": Option("spin", 1, 1, 256, apply="apply_options"),
    "ponder": Option("check", False),                   # the GUI may send 'go ponder' (nothing to set up)
    "multipv": Option("spin", 1, 1, 500),               # lines reported per iteration
    "show_wdl": Option("check", False),                 # info lines carry win/draw/loss chances (engine.wdl)
    # kept from every move's time for I/O and the GUI, ms (read at go)
    "move_overhead": Option("spin", round(MOVE_OVERHEAD * 1000), 0, 5000),
    # The game 'startpos' means (UCI_Variant): UCI's own game unless the engine was started for another
    # (``shuai --variant``); a FEN names its own game.
    "variant": Option("combo", "chess", vars=tuple(sorted(g.name for g in GAMES)), apply="variant_changed"),
    "tables": Option("check", True, apply="apply_options"),                # probe the endgame tables
    "table_paths": Option("string", "", apply="apply_options"),            # "": the default directory
    "table_cache_mb": Option("spin", DEFAULT_CACHE_MB, 1, MAX_CACHE_MB, apply="apply_options"),
    # egtbply: the disk is read only at nodes with at least this many plies left to search (the bound is ours;
    # the search's own maximum ply is deeper)
    "probe_depth": Option("spin", DEFAULT_PROBE_DEPTH, 0, 64, apply="apply_options"),
    "clear_hash": Option("button", apply="new_game"),   # forget what the search has learnt
    # Playing levels (engine.levels: one Level from all of these, read at go).  UCI: Skill Level, or
    # UCI_LimitStrength with UCI_Elo; UCCI: pruning, knowledge, randomness (ElephantEye's grades); xboard: Skill
    # Level.  Each protocol offers its own; the others keep their full-strength defaults.
    "skill": Option("spin", MAX_SKILL, 0, MAX_SKILL),
    "limit_strength": Option("check", False),
    "elo": Option("spin", ELO_MAX, ELO_MIN, ELO_MAX),
    "pruning": Option("combo", "large", vars=GRADES),
    "knowledge": Option("combo", "large", vars=GRADES),
    "randomness": Option("combo", "none", vars=RANDOMNESS),
    # Opening books (engine.book): off unless asked; the files ("": the game's default book), ';'-separated;
    # the heaviest move or one drawn by weight
    "own_book": Option("check", False, apply="apply_options"),
    "book_files": Option("string", "", apply="apply_options"),
    "book_best": Option("check", False, apply="apply_options"),
    # The search's tunable parameters (engine.search_params), NAME=VALUE,... -- for tuners (make spsa) and
    # experiments; "" is the values the search was proved with
    "search_params": Option("string", "", apply="apply_options", check=search_params.parse),
    # The evaluation network (engine.nnue): on -- it won its SPRT against the hand-written evaluation (README) --
    # where the game has one; its file ("": the game's own, Game.default_network).  A file that cannot be used
    # is one error line and changes nothing: the evaluation in effect stays.
    "use_nnue": Option("check", True, apply="apply_options"),
    "eval_file": Option("string", "", apply="apply_options"),
}
HASH = OPTIONS["hash_mb"]       # also the terminal game's table size, and the limit of every --hash


def split_position_args(tokens: list[str], start_fen: str = GAMES[0].start_fen) -> tuple[str, list[str]]:
    """``startpos [moves ...]`` or ``fen <FEN> [moves ...]`` -> (fen, moves), ``startpos`` being ``start_fen``
    (the engine passes its current game's; the default, the first game's, serves scripts).  Keywords are
    case-insensitive."""
    if not tokens:
        raise CommandError("expected 'startpos' or 'fen <FEN>'")
    kw = tokens[0].lower()
    lowered = [t.lower() for t in tokens]
    cut = lowered.index("moves") if "moves" in lowered else len(tokens)
    if kw == "startpos":
        if cut != 1:
            raise CommandError(f"unexpected {sanitize(tokens[1])!r} after 'startpos' (expected 'moves')")
        fen = start_fen
    elif kw == "fen":
        if cut == 1:
            raise CommandError("'fen' must be followed by a FEN")
        fen = " ".join(tokens[1:cut])
    else:
        raise CommandError(f"expected 'startpos' or 'fen <FEN>', not {sanitize(tokens[0])!r}")
    return fen, tokens[cut + 1:]


@dataclass
class GoRequest:
    """What a ``go`` asked for, in either dialect."""
    limits: dict = field(default_factory=dict)     # keyword arguments of search.Limits
    perft: Optional[int] = None
    draw: bool = False                             # UCCI 'go draw': the opponent offers a draw
    searchmoves: Optional[list] = None             # UCI 'go searchmoves m1 m2 ...'


class Words:
    """A command's arguments read left to right: iterating gives each next keyword (lower-cased); ``value``
    takes the word after it, ``current`` is the keyword as sent."""

    def __init__(self, args: list[str], command: str):
        self.args = args
        self.command = command
        self.i = -1

    def __iter__(self):
        return self

    def __next__(self) -> str:
        self.i += 1
        if self.i >= len(self.args):
            raise StopIteration
        return self.args[self.i].lower()

    @property
    def current(self) -> str:
        return self.args[self.i]

    def value(self, what: str) -> str:
        if self.i + 1 >= len(self.args):
            raise CommandError(f"'{self.command} {what}' needs a value")
        self.i += 1
        return self.args[self.i]

    def take_while(self, pred) -> list[str]:
        """The following words (lower-cased) as long as ``pred(word)`` holds."""
        out = []
        while self.i + 1 < len(self.args) and pred(self.args[self.i + 1].lower()):
            self.i += 1
            out.append(self.args[self.i].lower())
        return out


def parse_go(args: list[str], dialect_keyword: Callable) -> GoRequest:
    """The arguments of ``go`` (any order, keywords case-insensitive) -> GoRequest.  The keywords both dialects
    share are read here; any other goes to ``dialect_keyword(keyword, words, request)``, which returns False if
    it does not know it either.  CommandError for an unknown keyword or a missing or malformed value; then
    nothing is searched."""
    req = GoRequest()
    lim = req.limits
    words = Words(args, "go")
    for kw in words:
        if kw in ("ponder", "infinite"):
            lim[kw] = True
        elif kw == "depth" and words.take_while(lambda w: w == "infinite")[:1]:
            lim["infinite"] = True                  # UCCI's grammar 'depth <depth> | infinite' read as one phrase
        elif kw == "depth":
            lim["depth"] = parse_int(words.value(kw), "depth", 0, MAX_DEPTH, cap=True)
        elif kw == "nodes":
            lim["nodes"] = parse_int(words.value(kw), "nodes", 1, MAX_NODES, cap=True)
        elif kw == "movestogo":
            mtg = parse_int(words.value(kw), "movestogo", 0, MAX_MOVESTOGO, cap=True)
            lim["movestogo"] = mtg if mtg > 0 else None
        elif kw == "perft":
            req.perft = parse_int(words.value(kw), "perft depth", 0, MAX_PERFT_DEPTH)
        elif not dialect_keyword(kw, words, req):
            raise CommandError(f"unknown 'go' parameter {sanitize(words.current, 30)!r}")
    return req


@dataclass
class _Search:
    """One ``go``: what to print when it ends."""
    id: int
    legal: list                     # legal moves at the root (a fallback if the searcher reports none)
    allowed: list                   # legal moves not banned
    ponder: bool                    # 'go ponder' not (yet) hit: no bestmove before ponderhit/stop (the
                                    # searcher holds it); after ponderhit the search is for a game move
    infinite: bool                  # 'go infinite': no bestmove before stop
    draw_offered: bool = False      # UCCI 'go draw' / 'ponderhit draw'
    drawn: bool = False             # no legal move, and the game calls that a draw (chess stalemate)
    last_info: object = None
    result: object = None
    printed: bool = False


def expected_reply(search: _Search, result) -> Optional[str]:
    """The opponent's reply a search expects after its best move (UCI/UCCI's ``ponder`` move, xboard's hint):
    the searcher's, else the second move of the last line that begins with the best move."""
    info = result.info if result.info is not None else search.last_info
    if result.ponder is not None:
        return result.ponder
    if info is not None and len(info.pv) >= 2 and info.pv[0] == result.best:
        return info.pv[1]
    return None


class EngineCore:
    """State shared by the dialects.  Every method runs on the command thread, except the searcher callbacks."""

    def __init__(self, out, loader):
        self.out = out
        self.loader = loader
        self._lock = threading.Lock()
        self._pos = None                 # current Position (created once the engine is loaded)
        self.banned: list[str] = []      # UCCI banmoves, until the next 'position'
        self._search: Optional[_Search] = None
        self._search_ids = 0
        self.values = {key: option.default for key, option in OPTIONS.items()}     # the options as set now
        self._pending_new_game = False
        # game -> (network or None, its description): each game's evaluation in effect, kept when a file fails
        self._evaluations: dict = {}
        # The games this protocol plays (set by the dialect: UCCI plays xiangqi only); a FEN names its own game
        # by its number of ranks, ``startpos`` means the game of the option "variant".
        self.games = GAMES
        # formatting hooks, set by the dialect
        self.format_info: Callable = lambda info: []
        self.format_progress: Callable = lambda progress: []
        self.format_result: Callable = lambda search, result: []
        self.format_error: Callable = lambda message: f"info string error: {message}"
        self.format_note: Callable = lambda message: f"info string {message}"

    # -- the engine (numba side) --------------------------------------------------------------------------------
    def engine(self):
        """The engine's handle (``loop.Engine``); waits for the loader.  LoadError if loading failed."""
        self.loader.start()
        return self.loader.wait()

    @property
    def loaded(self) -> bool:
        return self.loader.done.is_set()

    @property
    def game(self):
        """The game ``startpos`` means."""
        return game_named(self.values["variant"])

    def position(self):
        if self._pos is None:
            self._pos = self.engine().position_class(self.game)()
        return self._pos

    def choose_games(self, games: tuple, game) -> None:
        """The dialect's games and the one ``startpos`` means; the loader prepares that one first (unless it
        has begun already, under the dialect of an earlier line)."""
        self.games = games
        self.set_option("variant", game.name)
        if not self.loader.started:
            self.loader.game = game

    def variant_changed(self) -> None:
        """``startpos`` means another game from now on: a current position of another game becomes its start."""
        if self._pos is not None and self._pos.game is not self.game:
            if self.loaded:
                self.finish()
            self._pos = None
            self.banned = []

    def build_position(self, tokens: list[str]):
        """A new Position from ``startpos|fen ... [moves ...]`` tokens; CommandError says what is wrong."""
        fen, moves = split_position_args(tokens, self.game.start_fen)
        game = game_of_fen(fen)
        if game is None:
            raise CommandError(f"bad FEN {sanitize(fen)!r}: expected {fen_ranks()} ranks")
        if game not in self.games:
            raise CommandError(f"bad FEN {sanitize(fen)!r}: a {game.name} position; this protocol plays "
                               f"{' and '.join(g.name for g in self.games)} only")
        eng = self.engine()
        try:
            pos = eng.position_class(game)(fen)
        except ValueError as e:                         # FenError
            raise CommandError(f"bad FEN {sanitize(fen)!r}: {e}") from None
        for i, m in enumerate(moves, 1):
            try:
                pos.push(m)
            except ValueError as e:                     # IllegalMoveError
                raise CommandError(f"move {i} ({sanitize(m, 12)!r}): {e}; position unchanged") from None
            except IndexError as e:
                raise CommandError(f"move {i} ({sanitize(m, 12)!r}): {e}; position unchanged") from None
        return pos

    def set_position(self, tokens: list[str]) -> None:
        pos = self.build_position(tokens)             # raises before anything changes
        if self.loaded:
            self.finish()                             # the rule for a search still running: see the module doc
        self._pos = pos
        self.banned = []

    # -- options ------------------------------------------------------------------------------------------------
    def set_option(self, key: str, value=None) -> None:
        """Set option ``key`` of ``OPTIONS`` to ``value`` (parsed and checked by its ``Option.parse``), and
        apply it."""
        option = OPTIONS[key]
        if option.type != "button":
            self.values[key] = value
        if option.apply is not None:
            getattr(self, option.apply)()

    def new_game(self) -> None:
        self._pending_new_game = True
        self.apply_options()

    def apply_options(self) -> None:
        """Hand the options that reach the searcher (hash size, tables, a new game) to it now, unless it is
        busy (then before the next search)."""
        eng = self.loader.engine
        if eng is not None and not self.searching():
            self._apply_pending(eng)

    def _apply_pending(self, eng) -> None:
        v, applied = self.values, eng.applied
        if applied.get("hash_mb") != v["hash_mb"]:
            eng.searcher.set_hash(v["hash_mb"])
            applied["hash_mb"] = v["hash_mb"]
        if applied.get("threads", 1) != v["threads"]:
            eng.searcher.set_threads(v["threads"])
            applied["threads"] = v["threads"]
        if self._pending_new_game:
            eng.searcher.new_game()
            self._pending_new_game = False
        files = (v["tables"], v["table_paths"], v["table_cache_mb"])
        if files != applied.get("tables"):
            applied["tables"] = files
            tables = eng.open_tables(v["table_paths"], v["table_cache_mb"]) if v["tables"] else None
            eng.searcher.set_tablebases(tables)
            said = tables.describe() if tables is not None else ""
            self.out.lines(self.table_errors() + [line for line in [said and self.format_note(said)] if line])
        eng.searcher.tb_depth = v["probe_depth"]
        if applied.get("search_params", "") != v["search_params"]:
            eng.searcher.set_params(search_params.parse(v["search_params"]))
            applied["search_params"] = v["search_params"]
        books = (v["book_files"], v["book_best"], self.game.name) if v["own_book"] else None
        if books != applied.get("books"):
            applied["books"] = books
            self._open_books(eng)
        network = (v["eval_file"], self.game.name) if v["use_nnue"] else None
        if network != applied.get("network"):
            applied["network"] = network
            self._open_network(eng)

    def _open_network(self, eng) -> None:
        """The searcher's evaluation of each game this protocol plays, from the options: when ``use_nnue``, the
        network of ``eval_file`` for the game ``startpos`` means and the game's own for the others (a FEN may
        name another game); the hand-written evaluation otherwise, or for a game without a network.  A file that
        cannot be used is one error line, and the game keeps the evaluation it had (its own network if it had
        none yet, else the hand-written one).  A note names the evaluation of the game ``startpos`` means."""
        from ..nnue.network import NetworkError, load
        hand_written = (None, "the hand-written one")

        def network(path):
            net = load(path, game)
            described = f"network {sanitize(str(path), 200)} ({net.shape})"
            return net, f"the {described}", f"evaluation: {described}"

        for game in self.games:
            current, said = game is self.game, ""
            net, named = hand_written
            path = (self.values["eval_file"] if current else "") or game.default_network
            if self.values["use_nnue"] and path is None:
                said = f"evaluation: hand-written ({game.name} has no network yet)"
            elif self.values["use_nnue"]:
                try:
                    net, named, said = network(path)
                except NetworkError as e:
                    # The evaluation in effect stays; before the first, that is the game's own network (a file
                    # set before the first isready must not cost the default), else the hand-written one.
                    if game not in self._evaluations and game.default_network not in (None, path):
                        try:
                            self._evaluations[game] = network(game.default_network)[:2]
                        except NetworkError:
                            pass
                    net, named = self._evaluations.get(game, hand_written)
                    self.out.lines([self.format_error(f"{e}; the evaluation stays {named}")])
            self._evaluations[game] = net, named
            self.out.lines([line for line in [current and said and self.format_note(said)] if line])
            eng.searcher.set_network(game, net)

    def _open_books(self, eng) -> None:
        """The searcher's books from the options (for the game ``startpos`` means); each that cannot be used
        is one error line, and the engine plays on without it."""
        from ..book import open_books
        found, errors = open_books(self.values["book_files"], self.game) if self.values["own_book"] else ([], [])
        eng.searcher.set_books(found, self.values["book_best"])
        self.out.lines([self.format_error(e) for e in errors])

    def level(self):
        """The playing level the options ask for (``engine.levels``); None: full strength."""
        v = self.values
        return levels.from_options(v["skill"], v["limit_strength"], v["elo"], v["pruning"], v["knowledge"],
                                   v["randomness"])

    def table_errors(self) -> list[str]:
        """Error lines (``format_error``) for table problems not reported yet (each is reported once)."""
        eng = self.loader.engine
        if eng is None:
            return []
        return [self.format_error(msg) for msg in eng.searcher.tablebases.take_errors()]

    def probe(self, pos) -> list[str]:
        """UCCI ``probe``: the tables' verdict (``win N``, ``loss N``, ``draw``, ``unknown``; N = plies to mate; a
        result the rule decides names the rule its table was built under, ``loss (perpetual check or chase
        rule)``), then ``pophash`` with what the transposition table holds."""
        eng = self.engine()
        self.apply_options()
        result = eng.searcher.tablebases.probe(pos)
        lines = self.table_errors() + [str(result)]        # a rule result names its rule: "loss (perpetual ... rule)"
        entry = eng.searcher.hash_entry(pos)
        reply = "pophash"
        if entry is not None:
            move, score, depth, bound = entry
            if move:
                reply += f" bestmove {move}"
            if bound in ("exact", "lower"):
                reply += f" lowerbound {score} depth {depth}"
            if bound in ("exact", "upper"):
                reply += f" upperbound {score} depth {depth}"
        return lines + [reply]

    # -- search control -------------------------------------------------------------------------------------
    def searching(self) -> bool:
        """A ``go`` whose bestmove has not been printed yet."""
        s = self._search
        return s is not None and not s.printed

    def go(self, limits_kwargs: dict, banned=(), searchmoves=None, draw: bool = False) -> Optional[_Search]:
        """Start a search of the current position.  Returns its record (None if it could not start).  The
        move's time counts from now: the GUI's clock runs while options are applied (the first ``go`` may open
        the tables) and while a search still running is stopped."""
        arrived = time.perf_counter()
        self.finish()
        eng = self.engine()
        self._apply_pending(eng)
        pos = self.position()
        legal = pos.legal_move_names()
        ban = [m for m in dict.fromkeys(banned) if m in legal]
        if searchmoves is not None:
            ban += [m for m in legal if m not in searchmoves and m not in ban]
        allowed = [m for m in legal if m not in ban]
        if legal and not allowed:
            self.out.line("info string every legal move is banned or excluded; searching all of them")
            ban, allowed = [], list(legal)
        limits = eng.Limits(**limits_kwargs, overhead=self.values["move_overhead"] / 1000, level=self.level(),
                            started=arrived)
        with self._lock:
            self._search_ids += 1
            s = _Search(self._search_ids, legal, allowed, ponder=bool(limits.ponder),
                        infinite=bool(limits.infinite), draw_offered=draw,
                        drawn=not legal and pos.game.stalemate_draws and not pos.in_check())
            self._search = s
        try:
            eng.searcher.start(pos, limits, lambda info: self._on_info(s, info), lambda r: self._on_done(s, r),
                               banned=ban, on_progress=lambda p: self.out.lines(self.format_progress(p), droppable=True))
        except Exception as e:                          # noqa: BLE001 -- as a search that failed: a move all the same
            traceback.print_exc(file=sys.stderr)
            self._on_done(s, eng.SearchResult(None, None, None, error=e))
        return s

    def _on_info(self, s: _Search, info) -> None:
        s.last_info = info
        lines = self.format_info(info)
        if lines:
            self.out.lines(lines, droppable=True)

    def _on_done(self, s: _Search, result) -> None:
        """The search has ended (held by the searcher until stop/ponderhit under go infinite/ponder)."""
        with self._lock:
            s.result = result
            self._emit(s)

    def _emit(self, s: _Search) -> None:
        """Print the search's final lines once (caller holds ``_lock``)."""
        if s.printed:
            return
        s.printed = True
        result = s.result
        said = [self.format_error(result.failure)] if result is not None and result.failure else []
        if result is not None and result.book and result.best is not None:
            said += [line for line in [self.format_note(f"book move {result.best}")] if line]
        if (result is None or result.best is None) and s.allowed:
            # The searcher reported no move (stopped at once?) although moves exist: never tell a GUI "no move".
            info = result.info if result is not None else s.last_info
            result = self.loader.engine.SearchResult(s.allowed[0], None, info)
        self.out.lines(self.table_errors() + said + self.format_result(s, result))

    def stop(self) -> bool:
        """Ask the current search to end (its bestmove follows).  False if there was none to stop."""
        with self._lock:
            s = self._search
            if s is None or s.printed:
                return False
        self.loader.engine.searcher.stop()
        return True

    def ponderhit(self, draw: bool = False) -> bool:
        """The opponent played the move pondered on: the search goes on under the clock (``draw``: and offers
        a draw, UCCI).  False if no search runs."""
        with self._lock:
            s = self._search
            if s is None or s.printed:
                return False
            s.draw_offered = s.draw_offered or draw
            s.ponder = False
        self.loader.engine.searcher.ponderhit()
        return True

    def finish(self) -> None:
        """Stop any search and wait until its bestmove has been printed."""
        s = self._search
        if s is None:
            return
        if not s.printed:
            self.stop()
        self.loader.engine.searcher.wait()
        with self._lock:                               # a searcher that ended without calling on_done
            if not s.printed:
                self._emit(s)

    def wait_search(self) -> None:
        """Wait for the current search to end by itself (UCCI batch mode)."""
        if self._search is not None:
            self.loader.engine.searcher.wait()

    # -- perft and display ----------------------------------------------------------------------------------
    def perft(self, depth: int) -> None:
        """``go perft N``: ``move: count`` per root move, a blank line, ``Nodes searched: N``."""
        self.finish()
        eng = self.engine()
        lines: list[str] = []
        total = eng.run_perft(self.position().copy(), depth, divide=True, out=lines.append)
        moves = [ln for ln in lines if not ln.startswith("nodes ")]      # run_perft's own summary line
        self.out.lines(moves + ["", f"Nodes searched: {total}"])

    def display(self) -> list[str]:
        pos = self.position()
        lines = str(pos).splitlines()
        legal = pos.legal_move_names()
        lines += ["", f"Fen: {pos.fen()}", f"Key: {pos.key:016X}",
                  f"Side to move: {pos.game.side_names[pos.side]}{' (in check)' if pos.in_check() else ''}",
                  f"Legal moves ({len(legal)}): {' '.join(legal)}"]
        if self.banned:
            lines.append(f"Banned moves: {' '.join(self.banned)}")
        return lines


class Dialect:
    """A protocol front end: a table of commands.  ``handle`` returns False when the engine must exit."""

    name = "?"

    def __init__(self, core: EngineCore):
        self.core = core
        self.out = core.out
        self.handshaken = False
        self.line = ""                  # the command being handled, as sent (``text_of``)
        core.format_info = self.format_info
        core.format_progress = self.format_progress
        core.format_result = self.format_result
        core.format_error = self.format_error
        core.format_note = self.format_note
        self.commands: dict[str, Callable[[list[str]], Optional[bool]]] = {
            "isready": self.cmd_isready,
            "position": self.cmd_position,
            "go": self.cmd_go,
            "stop": self.cmd_stop,
            "ponderhit": self.cmd_ponderhit,
            "setoption": self.cmd_setoption,
            "quit": self.cmd_quit,
            "d": self.cmd_display,
            "display": self.cmd_display,
        }

    # -- dispatch -------------------------------------------------------------------------------------------
    def handle(self, line: str) -> bool:
        self.line = line
        tokens = line.split()
        if not tokens:
            raise CommandError("empty command")
        cmd = tokens[0].lower()
        fn = self.commands.get(cmd)
        if fn is None:
            raise CommandError(f"unknown command {sanitize(tokens[0], 40)!r}")
        return fn(tokens[1:]) is not False

    def text_of(self, args: list[str], start: int) -> str:
        """``" ".join(args[start:])`` as it was sent, the spacing inside kept (an option's value may be a path
        with two spaces or a tab in it); ``args`` are the current command's words after its name."""
        words = list(re.finditer(r"\S+", self.line))
        if [w.group() for w in words[1:]] != list(args):     # not the line being handled (a direct call)
            return " ".join(args[start:])
        return self.line[words[start + 1].start():words[-1].end()] if start < len(args) else ""

    def format_error(self, message: str) -> str:
        """A problem the engine reports by itself (a table file it cannot read)."""
        return f"info string error: {message}"

    def format_note(self, message: str) -> str:
        """A word to the GUI that asks nothing of it (a book move); "" for none."""
        return f"info string {message}"

    def error_line(self, error: CommandError, text: str) -> str:
        """The one line that answers a command that failed (``text``: the command as sent)."""
        return self.format_error(str(error))

    # -- shared commands ------------------------------------------------------------------------------------
    def prepare(self) -> None:
        """What a GUI's synchronisation (``isready``, xboard's ``ping`` and ``feature done=1``) waits for: the
        engine loaded, the current game's kernels too, and the options applied -- the hash table made, the tables
        opened -- so that no move's time pays for them.  Never raises: a GUI waiting for its answer must not
        hang, so a failure is one error line."""
        try:
            self.core.engine()
            self.core.position()            # the current game's kernels loaded (a new UCI_Variant's too)
            self.core.apply_options()
        except CommandError as e:
            self.out.line(self.format_error(str(e)))
        except Exception as e:              # noqa: BLE001 -- not even a bug may cost the answer
            traceback.print_exc(file=sys.stderr)
            self.out.line(self.format_error(str(internal_error(e))))

    def cmd_isready(self, args):
        self.prepare()
        self.out.line("readyok")

    def cmd_position(self, args):
        self.core.set_position(args)

    def cmd_display(self, args):
        self.out.lines(self.core.display())

    def cmd_quit(self, args):
        self.core.finish() if self.core.loaded else None
        return False

    def cmd_stop(self, args):
        self.core.stop()

    def cmd_ponderhit(self, args):
        self.core.ponderhit()

    def no_move_reply(self, search=None) -> list[str]:
        raise NotImplementedError

    def cmd_go(self, args):
        raise NotImplementedError

    def cmd_setoption(self, args):
        raise NotImplementedError

    def format_info(self, info) -> list[str]:
        raise NotImplementedError

    def format_progress(self, progress) -> list[str]:
        """The heartbeat of a long search (``searcher.Progress``), between iterations."""
        raise NotImplementedError

    def format_result(self, search: _Search, result) -> list[str]:
        raise NotImplementedError

    def start_search(self, limits: dict, **kw):
        """``core.go`` with the dialect's reply when the engine cannot search at all."""
        try:
            return self.core.go(limits, **kw)
        except LoadError as e:
            self.out.lines([f"info string error: {e}"] + self.no_move_reply())
            return None
