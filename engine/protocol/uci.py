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
and ``perft N``.  Options: Hash, Threads (any value accepted, one thread used), Ponder, MultiPV (K lines per
iteration, the best first; ``bestmove`` is line 1's), UCI_Variant (``chess`` or ``xiangqi``; others are refused),
Clear Hash, and the (xiangqi) endgame tables:
EGTBPath (directories separated by ``;`` or ``:``; empty: the project's ``tablebases/``), EGTBCache (MB of
decompressed chunks), EGTBProbeDepth (UCCI's egtbply: the disk is read only with at least this many plies of
search left).  ``info`` carries ``tbhits`` when the tables answered.
"""
from __future__ import annotations


from .. import __version__
from ..egtb import DEFAULT_CACHE_MB, DEFAULT_PROBE_DEPTH, MAX_CACHE_MB
from .core import (DEFAULT_HASH_MB, MAX_DEPTH, MAX_HASH_MB, CommandError, Dialect, GoRequest, parse_bool, parse_int,
                   parse_seconds, sanitize)
from .core import parse_go as parse_core_go

MAX_THREADS = 1024
MAX_MULTIPV = 500
VARIANTS = ("chess", "xiangqi")
# Spin options whose values are all accepted though only 1 is honoured for now: option -> (name as advertised,
# maximum, what happens instead of a larger value)
ONE_FOR_NOW = {"threads": ("Threads", MAX_THREADS, "searching with 1 thread")}

OPTION_LINES = [
    f"option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}",
    f"option name Threads type spin default 1 min 1 max {MAX_THREADS}",
    "option name Ponder type check default false",
    f"option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}",
    "option name EGTBPath type string default <empty>",
    f"option name EGTBCache type spin default {DEFAULT_CACHE_MB} min 1 max {MAX_CACHE_MB}",
    f"option name EGTBProbeDepth type spin default {DEFAULT_PROBE_DEPTH} min 0 max 64",
    "option name Clear Hash type button",
]

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
    return req


def option_lines(variant: str) -> list[str]:
    """The options, ``UCI_Variant`` defaulting to ``variant``."""
    return OPTION_LINES[:4] + [f"option name UCI_Variant type combo default {variant} "
                               + " ".join(f"var {v}" for v in VARIANTS)] + OPTION_LINES[4:]


class UciDialect(Dialect):
    name = "uci"

    def __init__(self, core, variant: str = "chess"):
        super().__init__(core)
        self.default_variant = variant
        core.choose_games(VARIANTS, variant)
        self.options = {"hash": DEFAULT_HASH_MB, "threads": 1, "ponder": False, "multipv": 1,
                        "uci_variant": variant, "egtbpath": "", "egtbcache": DEFAULT_CACHE_MB,
                        "egtbprobedepth": DEFAULT_PROBE_DEPTH}
        self.debug = False
        self.commands.update({"uci": self.cmd_uci, "ucinewgame": self.cmd_ucinewgame, "debug": self.cmd_debug})

    # -- commands -------------------------------------------------------------------------------------------
    def cmd_uci(self, args):
        self.out.lines([f"id name Shuai {__version__}", "id author the Shuai authors",
                        *option_lines(self.default_variant), "uciok"])
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
        text = " ".join(args[cut + 1:])
        if not name:
            raise CommandError("setoption: missing option name")
        if name != "clear hash" and not has_value:
            raise CommandError(f"setoption name {sanitize(name, 30)}: missing 'value'")
        if name == "hash":
            mb = parse_int(text, "Hash", 1, MAX_HASH_MB)
            self.options["hash"] = mb
            self.core.set_hash(mb)
        elif name in ONE_FOR_NOW:
            label, most, instead = ONE_FOR_NOW[name]
            n = parse_int(text, label, 1, most)
            self.options[name] = n
            if n > 1:
                self.out.line(f"info string {label} {n}: {instead} for now")
        elif name == "multipv":
            self.options["multipv"] = parse_int(text, "MultiPV", 1, MAX_MULTIPV)
        elif name == "ponder":
            self.options["ponder"] = parse_bool(text, "Ponder")
        elif name == "uci_variant":
            v = text.lower()
            if v not in VARIANTS:
                raise CommandError(f"UCI_Variant {sanitize(text, 30)!r} is not supported ({' or '.join(VARIANTS)})")
            self.options["uci_variant"] = v
            self.core.set_variant(v)
        elif name == "egtbpath":
            self.options["egtbpath"] = "" if text == "<empty>" else text
            self.core.set_tables(paths=self.options["egtbpath"])
        elif name == "egtbcache":
            self.options["egtbcache"] = parse_int(text, "EGTBCache", 1, MAX_CACHE_MB)
            self.core.set_tables(cache_mb=self.options["egtbcache"])
        elif name == "egtbprobedepth":
            self.options["egtbprobedepth"] = parse_int(text, "EGTBProbeDepth", 0, 64)
            self.core.set_tables(probe_depth=self.options["egtbprobedepth"])
        elif name == "clear hash":
            self.core.new_game()
        else:
            raise CommandError(f"no such option {sanitize(name, 40)!r}")

    def cmd_go(self, args):
        red = self.core.position().side == 0
        req = parse_go(args, red)
        if req.perft is not None:
            self.core.perft(req.perft)
            return
        if req.searchmoves is not None:
            legal = set(self.core.position().legal_move_names())
            bad = [m for m in req.searchmoves if m not in legal]
            if bad:
                raise CommandError(f"searchmoves: not legal here: {sanitize(' '.join(bad))}")
        self.start_search(dict(req.limits, multipv=self.options["multipv"]), searchmoves=req.searchmoves)

    # -- replies --------------------------------------------------------------------------------------------
    def no_move_reply(self, search=None):
        drawn = search is not None and search.drawn
        return [f"info depth 0 score {'cp 0' if drawn else 'mate 0'}", "bestmove (none)"]

    def format_info(self, info):
        score = f"mate {info.mate}" if info.mate is not None else f"cp {info.score}"
        line = (f"info depth {info.depth} seldepth {max(info.seldepth, info.depth)} multipv {info.multipv} "
                f"score {score} "
                f"nodes {info.nodes} nps {info.nps} hashfull {info.hashfull} tbhits {info.tbhits} "
                f"time {int(info.time * 1000)}")
        if info.pv:
            line += " pv " + " ".join(info.pv)
        return [line]

    def format_result(self, search, result):
        if result is None or result.best is None:
            return self.no_move_reply(search)
        line = f"bestmove {result.best}"
        info = result.info if result.info is not None else search.last_info
        ponder = result.ponder
        if ponder is None and info is not None and len(info.pv) >= 2 and info.pv[0] == result.best:
            ponder = info.pv[1]
        if ponder:
            line += f" ponder {ponder}"
        return [line]
