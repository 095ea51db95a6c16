"""UCCI 3.0 (xqbase.com's Universal Chinese Chess Protocol, as ElephantEye speaks it).

Differences from UCI worth knowing:

* times in ``go`` are **seconds** unless the GUI sent ``setoption usemillisec true`` (every current GUI does,
  because we advertise the option); ``info time`` is always milliseconds;
* ``setoption <name> [<value>]`` without ``name``/``value`` (the UCI form is accepted too);
* ``banmoves m1 m2 ...`` forbids moves (perpetual check/chase the GUI has judged); as in ElephantEye the list
  holds until the next ``position`` command, which clears it.  Moves not legal in the position are reported
  (one error line) and the legal ones are still banned;
* ``go [ponder|draw] {depth D | nodes N | time T [movestogo M | increment I] [opptime ...]} | infinite``;
  ``go depth 0`` answers ``nobestmove`` (the spec's "static evaluation only" case);
* ``bestmove M [ponder P] [draw|resign]``; ``nobestmove`` when the side to move has no legal move, and for a
  ``stop`` that arrives while no search runs (as the spec recommends, so that a confused GUI never waits);
* ``go draw`` / ``ponderhit draw``: the opponent offers a draw.  We accept (append ``draw``) when the last
  completed iteration scores ``DRAW_ACCEPT_SCORE`` (0) or less for us, i.e. when we do not expect to do better
  than a draw by playing on, or when it sees us mated; we append ``resign`` (never both) only when it sees us
  mated (``mate < 0``);
* ``probe {fen F | startpos} [moves ...]`` answers the endgame tables' verdict for the side to move (``win N``,
  ``loss N`` with N plies to mate, ``draw`` or ``unknown``), then ``pophash [bestmove M] [lowerbound V depth D]
  [upperbound V depth D]`` with what the hash table holds (a bare ``pophash``: nothing, per the spec);
* endgame tables: ``useegtb``, ``egtbpaths`` (directories separated by ``;``; empty: the project's
  ``tablebases/``), ``egtbcache`` (MB of decompressed chunks), ``egtbply`` (the disk is read only at nodes with
  at least that many plies of search left; deeper only cached chunks are used);
* options: the engine's (``core.OPTIONS``: defaults, ranges, what applies them) under UCCI's names (``NAMES``;
  ``hashsize 0`` and ``threads 0`` mean "the engine decides", i.e. the default), and UCCI's own ``SETTINGS``;
* the playing level (``engine.levels``): ``pruning`` and ``knowledge`` (none/small/medium/large, default large:
  below large the search is that of a lower skill, and less knowledge drops the endgame tables, then the book)
  and ``randomness`` (none/tiny/small/medium/large/huge, default none: a choice among the best lines, with
  chances that fall with their scores); the book: ``usebook`` (default false), ``bookfiles`` (``;``-separated;
  empty: the default xiangqi book); a book move is answered at once, ``info string book move M`` then
  ``bestmove``;
* ``setoption batch true``: while a search runs, the next command is not read until its ``bestmove`` (not for
  ``go infinite``/``go ponder``, which could then never be stopped);
* ``quit`` -> ``bye``.
"""
from __future__ import annotations

from dataclasses import replace

from .. import __version__
from ..game import XIANGQI
from .core import (MAX_MOVESTOGO, OPTIONS, CommandError, Dialect, GoRequest, Option, expected_reply, parse_int,
                   parse_number, parse_seconds, sanitize)
from .core import parse_go as parse_core_go

DRAW_ACCEPT_SCORE = 0           # accept an offered draw when the last score (our view) is at most this

# UCCI's own settings, which only this dialect reads.
SETTINGS = {
    "usemillisec": Option("check", False),          # go's times in milliseconds rather than seconds
    "batch": Option("check", False),                # read nothing more while a search runs (see the module doc)
}

# The options as UCCI names them, in the order they are advertised -> a key of SETTINGS or of core.OPTIONS.
# Only options that change something are advertised.
NAMES = {"usemillisec": "usemillisec", "batch": "batch", "ponder": "ponder", "usebook": "own_book",
         "bookfiles": "book_files", "useegtb": "tables", "egtbpaths": "table_paths", "egtbcache": "table_cache_mb",
         "egtbply": "probe_depth", "hashsize": "hash_mb", "threads": "threads", "pruning": "pruning",
         "knowledge": "knowledge", "randomness": "randomness", "newgame": "clear_hash",
         "searchparams": "search_params", "usennue": "use_nnue", "evalfile": "eval_file"}
ZERO_IS_DEFAULT = {"hashsize", "threads"}          # UCCI's 0: "the engine decides", i.e. the default

# Options of the UCCI spec or of other UCCI engines that this engine does not have (debug output, idle, style,
# ...); some GUIs send them whatever the engine advertised, and the spec says setting an option the engine did
# not offer is not an error, so they are accepted and ignored.
TOLERATED = {"debug", "idle", "promotion", "usehash", "style", "selectivity", "loadbook", "evalapi", "repetition",
             "drawmoves"}


def option(name: str) -> Option:
    """The option UCCI calls ``name`` (a key of NAMES), with the range UCCI gives it."""
    key = NAMES[name]
    spec = SETTINGS.get(key) or OPTIONS[key]
    return replace(spec, min=0) if name in ZERO_IS_DEFAULT else spec


def option_line(name: str) -> str:
    """``option <name> type <type> ...`` as UCCI advertises it (a string option without its default)."""
    spec = option(name)
    parts = spec.line_parts()
    order = ("range", "vars") if spec.type == "string" else ("range", "vars", "default")
    return " ".join([f"option {name} type {spec.type}"] + [parts[p] for p in order if p in parts])


UCCI_TIMES = {"time": "time_left", "increment": "increment"}         # go keyword -> search.Limits field


def parse_go(args: list[str], millisec: bool) -> GoRequest:
    """The arguments of a UCCI ``go`` -> GoRequest (times in seconds); see ``core.parse_go``."""
    def ucci_keyword(kw, words, req):
        lim = req.limits
        if kw == "draw":
            req.draw = True
        elif kw in UCCI_TIMES:
            lim[UCCI_TIMES[kw]] = parse_seconds(words.value(kw), kw, 0.001 if millisec else 1.0)
        elif kw in ("opptime", "oppincrement"):             # the opponent's clock: checked, not used
            parse_number(words.value(kw), kw)
        elif kw == "oppmovestogo":
            # the opponent's moves to go: checked, not used by the time manager
            parse_int(words.value(kw), "oppmovestogo", 0, MAX_MOVESTOGO, cap=True)
        else:
            return False
        return True
    return parse_core_go(args, ucci_keyword)


def accepts_draw(info) -> bool:
    if info is None:
        return False
    if info.mate is not None:
        return info.mate < 0
    return info.score <= DRAW_ACCEPT_SCORE


class UcciDialect(Dialect):
    name = "ucci"

    def __init__(self, core):
        super().__init__(core)
        core.choose_games((XIANGQI,), XIANGQI)          # UCCI is xiangqi's protocol
        self.bye = False
        self.settings = {key: spec.default for key, spec in SETTINGS.items()}
        self.commands.update({"ucci": self.cmd_ucci, "banmoves": self.cmd_banmoves, "probe": self.cmd_probe})

    # -- commands -------------------------------------------------------------------------------------------
    def cmd_ucci(self, args):
        self.out.lines(["id name Shuai", f"id version {__version__}", "id copyright 2026 the Shuai authors",
                        "id author the Shuai authors", *map(option_line, NAMES), "ucciok"])
        self.handshaken = True

    def cmd_setoption(self, args):
        if not args:
            raise CommandError("setoption needs an option name")
        if args[0].lower() == "name":                   # the UCI form, which some GUIs send to UCCI engines too
            lowered = [a.lower() for a in args]
            cut = lowered.index("value") if "value" in lowered else len(args)
            name, rest = " ".join(args[1:cut]).lower(), args[cut + 1:]
        else:
            name, rest = args[0].lower(), args[1:]
        if name in TOLERATED:
            return
        if name not in NAMES:
            raise CommandError(f"unknown option {sanitize(name, 40)!r}")
        spec, key = option(name), NAMES[name]
        value = spec.parse(self.text_of(args, len(args) - len(rest)), name)
        if value == 0 and name in ZERO_IS_DEFAULT:
            value = spec.default
        if key in SETTINGS:
            self.settings[key] = value
        else:
            self.core.set_option(key, value)

    def cmd_banmoves(self, args):
        legal = set(self.core.position().legal_move_names())
        good, bad = [], []
        for t in args:
            m = t.lower().replace("-", "")
            (good if m in legal else bad).append(m if m in legal else t)
        self.core.banned = list(dict.fromkeys(good))
        if bad:
            raise CommandError(f"banmoves: not legal here: {sanitize(' '.join(bad))}; "
                               f"banned: {' '.join(self.core.banned) or 'none'}")

    def cmd_go(self, args):
        req = parse_go(args, self.settings["usemillisec"])
        if req.perft is not None:
            self.core.perft(req.perft)
            return
        if req.limits.get("depth") == 0:
            self.core.finish()
            self.out.line("nobestmove")
            return
        s = self.start_search(req.limits, banned=self.core.banned, draw=req.draw)
        if s is not None and self.settings["batch"] and not (s.ponder or s.infinite):
            self.core.wait_search()

    def cmd_stop(self, args):
        if not self.core.stop():
            self.out.line("nobestmove")

    def cmd_ponderhit(self, args):
        draw = False
        if args:
            if len(args) == 1 and args[0].lower() == "draw":
                draw = True
            else:
                raise CommandError(f"expected 'ponderhit' or 'ponderhit draw', not {sanitize(' '.join(args))!r}")
        self.core.ponderhit(draw)

    def cmd_probe(self, args):
        pos = self.core.build_position(args)          # the current position is not changed
        self.out.lines(self.core.probe(pos))

    def cmd_quit(self, args):
        if self.core.loaded:
            self.core.finish()
        self.bye = True
        return False

    # -- replies --------------------------------------------------------------------------------------------
    def no_move_reply(self, search=None):
        return ["nobestmove"]

    def format_info(self, info):
        line = f"info depth {info.depth} score {info.score}"
        if info.pv:
            line += " pv " + " ".join(info.pv)
        return [line, f"info time {int(info.time * 1000)} nodes {info.nodes}"]

    def format_progress(self, progress):
        line = f"info time {int(progress.time * 1000)} nodes {progress.nodes}"
        return [line + f" currmove {progress.currmove}" if progress.currmove else line]

    def format_result(self, search, result):
        if result is None or result.best is None:
            return ["nobestmove"]
        info = result.info if result.info is not None else search.last_info
        line = f"bestmove {result.best}"
        ponder = expected_reply(search, result)
        if ponder:
            line += f" ponder {ponder}"
        if search.ponder or search.infinite:
            # The answer to 'stop' of a ponder search (a ponder miss: its position never came) or an analysis:
            # no game move, so neither a draw accepted nor a resignation, which a GUI may take as the game's end.
            return [line]
        if search.draw_offered and accepts_draw(info):
            line += " draw"
        elif info is not None and info.mate is not None and info.mate < 0:
            line += " resign"
        return [line]
