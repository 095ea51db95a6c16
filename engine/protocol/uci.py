"""UCI, for standard chess and for xiangqi in the dialect Pikafish (and Fairy-Stockfish with ``UCI_Variant
xiangqi``) speak.

Which game: a FEN names its own by its number of ranks (8: chess, 10: xiangqi); ``startpos`` means the game of
``UCI_Variant`` (``chess`` or ``xiangqi``), whose default is chess -- or xiangqi when the engine was started as
``shuai --variant xiangqi``.  So mainline Cute Chess (which sends no ``UCI_Variant`` for standard chess),
python-chess (which sets it to ``chess``) and xiangqi GUIs (which set it to ``xiangqi``, or send FENs) all work
unconfigured.  Setting ``UCI_Variant`` to the other game resets the position to its start.

Chess moves are long algebraic (``e2e4``, ``e7e8q``, castling ``e1g1``).  Xiangqi moves are ``a0``-``i9``
coordinates, rank 0 = Red's back rank (the ICCS form UCCI uses); Red is "white" for ``wtime``/``winc``.  Replies follow Stockfish: ``info depth D seldepth S multipv K score cp|mate ... nodes
nps hashfull time pv``; with no legal move ``info depth 0 score mate 0`` (``score cp 0`` for a chess
stalemate) then ``bestmove (none)``; a ``stop``
with no search running is ignored.  ``go`` accepts ``searchmoves`` (the search is restricted to those moves)
and ``perft N``.  Options: Hash, Threads (Lazy SMP), Ponder, MultiPV (K lines per iteration, the best first;
``bestmove`` is line 1's), UCI_ShowWDL (``wdl W D L`` after every score: win, draw and loss per mille from
``engine.wdl``'s model of the game, at the position's ply), UCI_Variant (``chess`` or ``xiangqi``; others are
refused), Clear Hash; the playing level (``engine.levels``): Skill Level (0-20; 20 full strength), or
UCI_LimitStrength with UCI_Elo (mapped onto a skill; its range is the levels' table); the opening book
(``engine.book``): OwnBook (default off), BookFile (the engine's own format or, for chess, Polyglot; empty: the
game's default book; several separated by ``;``), Best Book Move (the heaviest move rather than one drawn by
weight) -- a book move is answered at once, ``info string book move M`` then ``bestmove``; and the endgame tables:
EGTBPath (directories separated by ``;`` or ``:``; empty: the project's ``tablebases/``), EGTBCache (MB of
decompressed chunks), EGTBProbeDepth (UCCI's egtbply: the disk is read only with at least this many plies of
search left).  ``info`` carries ``tbhits`` when the tables answered.  Their defaults and ranges are the engine's
(``core.OPTIONS``); this module only names them (``NAMES``) and formats them.
"""
from __future__ import annotations


from .. import __version__
from ..game import GAMES, game_named
from .core import (MAX_DEPTH, OPTIONS, CommandError, Dialect, GoRequest, expected_reply, parse_int, parse_seconds,
                   sanitize)
from .core import parse_go as parse_core_go

# The options as UCI names them, in the order they are advertised -> a key of core.OPTIONS.
NAMES = {"Hash": "hash_mb", "Threads": "threads", "Ponder": "ponder", "MultiPV": "multipv",
         "UCI_ShowWDL": "show_wdl", "Move Overhead": "move_overhead", "UCI_Variant": "variant",
         "EGTBPath": "table_paths", "EGTBCache": "table_cache_mb", "EGTBProbeDepth": "probe_depth",
         "Skill Level": "skill", "UCI_LimitStrength": "limit_strength", "UCI_Elo": "elo",
         "OwnBook": "own_book", "BookFile": "book_files", "Best Book Move": "book_best",
         "Clear Hash": "clear_hash", "SearchParams": "search_params", "Use NNUE": "use_nnue", "EvalFile": "eval_file"}
BY_LOWER = {name.lower(): name for name in NAMES}     # option names are case-insensitive


def option_line(name: str, default=None) -> str:
    """``option name <name> type <type> ...`` as UCI advertises it (``default``: instead of the option's)."""
    spec = OPTIONS[NAMES[name]]
    parts = spec.line_parts(default)
    return " ".join([f"option name {name} type {spec.type}"]
                    + [parts[p] for p in ("default", "range", "vars") if p in parts])


GO_KEYWORDS = {"wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "mate", "movetime",
               "infinite", "ponder", "searchmoves", "perft"}


def parse_go(args: list[str], red_to_move: bool) -> GoRequest:
    """The arguments of a UCI ``go`` -> GoRequest (times in seconds; the side to move's clock and increment, the
    opponent's are checked and not used); see ``core.parse_go``."""
    clock: dict[str, float] = {}

    def uci_keyword(kw, words, req):
        lim = req.limits
        if kw in ("wtime", "btime", "winc", "binc"):
            clock[kw] = parse_seconds(words.value(kw), kw, 0.001)
        elif kw == "mate":
            lim["mate"] = parse_int(words.value(kw), "mate", 1, MAX_DEPTH, cap=True)
        elif kw == "movetime":
            lim["movetime"] = parse_seconds(words.value(kw), "movetime", 0.001)
        elif kw == "searchmoves":
            req.searchmoves = words.take_while(lambda w: w not in GO_KEYWORDS)
        else:
            return False
        return True

    req = parse_core_go(args, uci_keyword)
    lim = req.limits
    if "depth" in lim:
        lim["depth"] = max(lim["depth"], 1)        # UCI has no "static evaluation only" depth 0
    own = "w" if red_to_move else "b"
    for key, field_name in ((f"{own}time", "time_left"), (f"{own}inc", "increment")):
        if key in clock:
            lim[field_name] = clock[key]
    if clock and "time_left" not in lim:
        lim["time_left"] = 0.0          # a clock was sent, but not ours: a timed move on an empty clock, not endless
    return req


class UciDialect(Dialect):
    name = "uci"

    def __init__(self, core, variant: str = None):
        super().__init__(core)
        self.default_variant = variant or OPTIONS["variant"].default    # UCI_Variant's default: see OPTIONS
        core.choose_games(GAMES, game_named(self.default_variant))
        self.debug = False
        self.commands.update({"uci": self.cmd_uci, "ucinewgame": self.cmd_ucinewgame, "debug": self.cmd_debug})

    # -- commands -------------------------------------------------------------------------------------------
    def cmd_uci(self, args):
        self.out.lines([f"id name Shuai {__version__}", "id author the Shuai authors",
                        *(option_line(name, self.default_variant if NAMES[name] == "variant" else None)
                          for name in NAMES), "uciok"])
        self.handshaken = True

    def cmd_debug(self, args):
        if len(args) != 1 or args[0].lower() not in ("on", "off"):
            raise CommandError("expected 'debug on' or 'debug off'")
        self.debug = args[0].lower() == "on"

    def cmd_ucinewgame(self, args):
        self.core.new_game()

    def cmd_setoption(self, args):
        if not args or args[0].lower() != "name":
            raise CommandError("expected 'setoption name <id> [value <x>]'")
        lowered = [a.lower() for a in args]
        cut = lowered.index("value") if "value" in lowered else len(args)
        name = " ".join(args[1:cut]).lower()
        has_value = cut < len(args)
        text = self.text_of(args, cut + 1)
        if not name:
            raise CommandError("setoption: missing option name")
        label = BY_LOWER.get(name)
        key = NAMES[label] if label is not None else None
        if not has_value and (key is None or OPTIONS[key].type != "button"):
            raise CommandError(f"setoption name {sanitize(name, 30)}: missing 'value'")
        if key is None:
            raise CommandError(f"no such option {sanitize(name, 40)!r}")
        value = OPTIONS[key].parse(text, label)
        self.core.set_option(key, value)

    def cmd_go(self, args):
        red = self.core.position().side == 0
        req = parse_go(args, red)
        if req.perft is not None:
            self.core.perft(req.perft)
            return
        if req.searchmoves is not None:
            # A move that is not legal here is left out with one error line, and the go still searches (the
            # others, or every move if none is left): a GUI waits for its bestmove whatever the go said.
            legal = set(self.core.position().legal_move_names())
            bad = [m for m in req.searchmoves if m not in legal]
            if bad:
                self.out.line(self.format_error(f"searchmoves: not legal here, left out: {sanitize(' '.join(bad))}"))
                req.searchmoves = [m for m in req.searchmoves if m in legal] or None
        self.start_search(dict(req.limits, multipv=self.core.values["multipv"]), searchmoves=req.searchmoves)

    # -- replies --------------------------------------------------------------------------------------------
    def no_move_reply(self, search=None):
        drawn = search is not None and search.drawn
        return [f"info depth 0 score {'cp 0' if drawn else 'mate 0'}", "bestmove (none)"]

    def format_info(self, info):
        score = f"mate {info.mate}" if info.mate is not None else f"cp {info.score}"
        if self.core.values["show_wdl"]:
            from ..wdl import position_wdl          # numpy: not before the handshake
            score += " wdl {} {} {}".format(*position_wdl(self.core.position(), info.score))
        line = (f"info depth {info.depth} seldepth {max(info.seldepth, info.depth)} multipv {info.multipv} "
                f"score {score} "
                f"nodes {info.nodes} nps {info.nps} hashfull {info.hashfull} tbhits {info.tbhits} "
                f"time {int(info.time * 1000)}")
        if info.pv:
            line += " pv " + " ".join(info.pv)
        return [line]

    def format_progress(self, progress):
        line = (f"info nodes {progress.nodes} nps {progress.nps} hashfull {progress.hashfull} "
                f"time {int(progress.time * 1000)}")
        if progress.currmove:
            line += f" currmove {progress.currmove} currmovenumber {progress.currmovenumber}"
        return [line]

    def format_result(self, search, result):
        if result is None or result.best is None:
            return self.no_move_reply(search)
        line = f"bestmove {result.best}"
        ponder = expected_reply(search, result)
        if ponder:
            line += f" ponder {ponder}"
        return [line]
