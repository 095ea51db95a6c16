"""The xboard protocol (CECP version 2, as XBoard and WinBoard speak it), for xiangqi and standard chess.

Chosen by the first command, ``xboard``.  ``protover 2`` is answered at once from plain Python with ``feature
done=0`` and the features (``myname``, ``variants="xiangqi,normal"``, ``setboard``, ``usermove``, ``ping``,
``analyze``, ``memory``, ``smp``, ``egt``, ``colors=0``, the engine's own options as ``feature option=...``),
then ``feature done=1`` once the compiled engine has loaded (a second on a warm cache): the GUI waits for it
as long as it takes, instead of timing out.

Games and coordinates.  ``new`` is standard chess (the spec's "normal"), ``variant xiangqi`` xiangqi; each game
says its own name (``Game.xboard_variant``).  Moves cross in coordinates both ways, as XBoard writes them:
chess ``e2e4``, ``e7e8q``, castling ``e1g1``; xiangqi files ``a``-``i`` from Red's left and ranks ``0``-``9``
from Red's side ("on boards with exactly 10 ranks, counting of the ranks starts at 0"), the ICCS form UCCI uses:
``h2e2`` is the central cannon.  ``setboard`` takes either game's FEN (it names its game by its number of
ranks); xiangqi horses and elephants may be written ``N``/``B`` or ``H``/``E``.

The engine as the spec's state machine:

* ``new`` (chess start, the engine plays Black, depth limit off), ``variant``, ``setboard``, ``force`` (play
  neither side), ``go`` (play the side to move, now), ``usermove`` (or a bare move: checked, played, and
  answered when it is the engine's turn), ``undo`` / ``remove`` (one or two moves back), ``result`` (the game
  is over: nothing more is played);
* the clock: ``level MPS BASE INC`` (moves per session, base in minutes or ``min:sec``, increment in seconds;
  default ``level 40 5 0``, xboard's own), ``st`` (seconds per move), ``sd`` (a depth limit on top of the
  clock), ``time`` / ``otim`` (centiseconds: the engine's clock and the opponent's); ``?`` moves at once;
* ``ping N`` -> ``pong N`` after every earlier command has been carried out -- while the engine thinks on its
  move, after the move (the spec's rule); while it ponders or analyses, at once;
* ``post`` / ``nopost``: thinking output ``ply score time nodes seldepth nps tbhits<TAB>pv``, time in
  centiseconds, score in centipawns from the side to move's view, a mate in N moves ``100000 + N`` and being
  mated in N ``-100000 - N``;
* ``hard`` / ``easy``: pondering.  After its move the engine searches the position after the reply it
  expects; if that reply comes, the search goes on under the clock (as UCI's ``ponderhit``: the time
  pondered counts); any other move stops it and a new search starts;
* ``analyze`` (endless search of the position, thinking output whatever ``post`` says; moves, ``undo``,
  ``new``, ``setboard`` restart it), ``.`` (``stat01: time nodes ply mvleft mvtot mvname``), ``exit``; ``bk``
  lists the opening book's moves of the position with their shares;
  ``exclude MOVE`` / ``include MOVE`` (or ``all``; the feature ``exclude=1``) leave moves out of the analysis
  of the current position and put them back, as XBoard's engine output window asks (a change of position
  clears them; with every move excluded the analysis waits);
* ``memory N`` sets the hash table to N MB, ``cores N`` the search threads, ``egtpath shuai DIR`` the endgame
  tables' directories, ``option NAME=VALUE`` the other options (``NAMES``; their types, defaults and ranges
  are ``core.OPTIONS``'; ``Skill Level`` is the playing level of ``engine.levels``, ``Own Book``, ``Book
  File`` and ``Best Book Move`` the opening book's); ``hint`` answers the expected reply; ``random`` (XBoard
  sends it with every ``new``: a random mode there would vary every game, asked or not), ``computer``,
  ``name``, ``rating``, ``ics``, ``draw``, ``white``, ``black``, ``accepted``, ``rejected``, ``xboard`` are
  accepted and change nothing.

Results are claimed (``1-0 {Red wins by checkmate}``, ``1/2-1/2 {Draw by repetition}``) only when the game's
rules module (``Game.game_result``, the referee of ``shuai match`` and ``shuai play``) says the game is over:
after the engine's own move, or when it is asked to move in a finished game.  Errors are the spec's, one line
each: ``Error (unknown command): foo``, ``Error (<why>): <command>``, ``Illegal move: h2h3``; a FEN the
engine cannot play is ``tellusererror Illegal position (<why>)`` and moves are refused until the next
``new``, ``variant`` or ``setboard``.
"""
from __future__ import annotations

import re
import time
from functools import partial
from typing import Callable, Optional

from ..game import GAMES
from .core import (MAX_DEPTH, OPTIONS, CommandError, Dialect, LoadError, expected_reply, parse_int, parse_number,
                   parse_seconds, sanitize)

XBOARD_STANDARD = "normal"          # xboard's name for standard chess, the game of 'new'
MATE_BASE = 100000                  # thinking output: mate in N moves is MATE_BASE + N, mated in N -MATE_BASE - N
TABLE_FORMAT = "shuai"              # the egt feature: the name of our tables' format ('egtpath shuai DIR')
DEFAULT_LEVEL = (40, 300.0, 0.0)    # until 'level': 40 moves in 5 minutes, xboard's default
MAX_MOVES_PER_SESSION = 10 ** 6

# The engine's options that xboard sets through 'option NAME=VALUE' -> a key of core.OPTIONS.  Hash size,
# threads, pondering, the game and the tables' directory have commands of their own (memory, cores, hard/easy,
# variant, egtpath) and are not offered again.
NAMES = {"MultiPV": "multipv", "Move Overhead": "move_overhead", "EGTB": "tables", "EGTBPath": "table_paths",
         "EGTBCache": "table_cache_mb", "EGTBProbeDepth": "probe_depth", "Skill Level": "skill",
         "Own Book": "own_book", "Book File": "book_files", "Best Book Move": "book_best", "Clear Hash": "clear_hash",
         "SearchParams": "search_params", "Use NNUE": "use_nnue", "EvalFile": "eval_file"}
BY_LOWER = {name.lower(): name for name in NAMES}

# What the current search is for: its move is played (MOVE), it ponders on the expected reply (PONDER), it
# analyses (ANALYZE), or it was abandoned and ends without a word (DISCARD).
MOVE, PONDER, ANALYZE, DISCARD = "move", "ponder", "analyze", "discard"

# A line that is a move by itself (protocol 1, or a GUI that refused 'usermove'): coordinates, maybe a promotion.
BARE_MOVE = re.compile(r"[a-z]\d{1,2}[a-z]\d{1,2}[a-z]?", re.IGNORECASE)


class UnknownCommand(CommandError):
    """A command the engine does not have (``Error (unknown command): WORD``)."""


class IllegalMove(CommandError):
    """A move the position does not allow (``Illegal move [(why)]: MOVE``)."""

    def __init__(self, move: str, why: str = ""):
        super().__init__(why)
        self.move = move


def game_for(variant: str):
    """The game xboard calls ``variant``; None if we do not play it."""
    return next((g for g in GAMES if g.xboard_variant == variant), None)


def xboard_score(info) -> int:
    """A search's score as xboard shows it: centipawns, or 100000 + N for a mate in N, -100000 - N mated in N."""
    if info.mate is None:
        return info.score
    return MATE_BASE + info.mate if info.mate > 0 else -MATE_BASE + info.mate


def option_feature(name: str, value) -> str:
    """``feature option="NAME -TYPE ..."`` for option ``name`` of NAMES, showing ``value`` as its current one."""
    spec = OPTIONS[NAMES[name]]
    if spec.type == "spin":
        body = f"-spin {value} {spec.min} {spec.max}"
    elif spec.type == "check":
        body = f"-check {int(bool(value))}"
    elif spec.type == "string":
        body = f"-string {str(value).replace(chr(34), '')}"        # no double quote inside the feature's quotes
    elif spec.type == "combo":
        body = "-combo " + " /// ".join(("*" if v == value else "") + v for v in spec.vars)
    else:
        body = "-button"
    return f'feature option="{name} {body}"'


def parse_base(text: str) -> float:
    """``level``'s BASE: minutes, or ``min:sec``; characters after the number are ignored (the spec reserves
    them).  Seconds."""
    m = re.match(r"(\d+(?:\.\d*)?)(?::(\d+(?:\.\d*)?))?", text)
    if not m:
        raise CommandError(f"level: base time must be minutes or min:sec, not {sanitize(text, 20)!r}")
    return float(m.group(1)) * 60 + float(m.group(2) or 0)


def describe(game, result: str, reason: str) -> str:
    """A claim's comment: ``Red wins by checkmate``, ``Draw by repetition`` (the rules module's reason)."""
    if result == "1/2-1/2":
        return f"Draw by {reason}"
    winner = game.side_names[0 if result == "1-0" else 1]
    return f"{winner.capitalize()} wins by {reason}"


class XboardDialect(Dialect):
    name = "xboard"

    def __init__(self, core, call_soon: Callable[[Callable[[], None]], None]):
        super().__init__(core)
        core.choose_games(GAMES, game_for(XBOARD_STANDARD))
        self.call_soon = call_soon          # runs a function on the command thread, after the lines queued so far
        self.commands = {
            "xboard": self.cmd_ignore, "protover": self.cmd_protover, "accepted": self.cmd_ignore,
            "rejected": self.cmd_ignore, "new": self.cmd_new, "variant": self.cmd_variant, "force": self.cmd_force,
            "go": self.cmd_go, "usermove": self.cmd_usermove, "setboard": self.cmd_setboard,
            "level": self.cmd_level, "st": self.cmd_st, "sd": self.cmd_sd, "time": self.cmd_time,
            "otim": self.cmd_otim, "?": self.cmd_move_now, "ping": self.cmd_ping, "result": self.cmd_result,
            "undo": self.cmd_undo, "remove": self.cmd_remove, "post": self.cmd_post, "nopost": self.cmd_nopost,
            "hard": self.cmd_hard, "easy": self.cmd_easy, "analyze": self.cmd_analyze, "exit": self.cmd_exit,
            ".": self.cmd_status, "hint": self.cmd_hint, "memory": self.cmd_memory, "cores": self.cmd_cores,
            "egtpath": self.cmd_egtpath, "option": self.cmd_option, "quit": self.cmd_quit,
            "exclude": self.cmd_exclude, "include": self.cmd_include, "bk": self.cmd_bk,
            # accepted, and nothing to do: GNU Chess's random mode, the opponent's kind, name and rating, the
            # server, a draw offer (declined by silence), the obsolete colour commands (colors=0 asks for none)
            **dict.fromkeys(("random", "computer", "name", "rating", "ics", "draw", "white", "black"),
                            self.cmd_ignore),
        }
        self.force = False                  # force mode: play neither side
        self.engine_side = 1                # the side the engine plays when not in force mode ('new': Black)
        self.analyzing = False
        self.ponder = False                 # hard / easy
        self.post = False
        self.level = DEFAULT_LEVEL          # moves per session, base and increment (seconds)
        self.movetime: Optional[float] = None   # st: seconds per move (instead of the level)
        self.depth: Optional[int] = None        # sd
        self.own_clock: Optional[float] = None  # 'time', seconds (estimated on after our own move)
        self.kind: Optional[str] = None     # what the current search is for (MOVE, PONDER, ANALYZE, DISCARD)
        self.started = 0.0                  # when it started (perf_counter)
        self.pondered: Optional[str] = None     # the reply pushed onto the position for pondering
        self.expected: Optional[str] = None     # the reply the last search expects ('hint')
        self.epoch = 0                      # bumped whenever the game changes: a ponder queued earlier is void
        self.invalid: Optional[str] = None  # why the position cannot be played (a refused setboard)
        self.excluded: set = set()          # exclude / include: moves the analysis leaves out ...
        self.excluded_in: Optional[str] = None  # ... in the position of this FEN (any other starts with none)
        self.last_info = None               # the last thinking line and heartbeat ('.')
        self.last_progress = None

    # -- dispatch and errors ------------------------------------------------------------------------------------
    def handle(self, line: str) -> bool:
        self.line = line
        tokens = line.split()
        if not tokens:
            raise CommandError("empty command")
        fn = self.commands.get(tokens[0].lower())
        if fn is not None:
            return fn(tokens[1:]) is not False
        if len(tokens) == 1 and BARE_MOVE.fullmatch(tokens[0]):
            self.cmd_usermove(tokens)       # a move without 'usermove' (protocol 1)
            return True
        raise UnknownCommand(sanitize(tokens[0], 40))

    def format_error(self, message: str) -> str:
        return f"tellusererror {message}"          # a table file that cannot be read: the user should know

    def format_note(self, message: str) -> str:
        return ""                                   # no place for it: '#' lines are for feature debug=1

    def error_line(self, error: CommandError, text: str) -> str:
        if isinstance(error, IllegalMove):
            why = f" ({error})" if str(error) else ""
            return f"Illegal move{why}: {sanitize(error.move, 20)}"
        if isinstance(error, UnknownCommand):
            return f"Error (unknown command): {error}"
        return f"Error ({error}): {sanitize(text.strip())}"

    # -- handshake ----------------------------------------------------------------------------------------------
    def cmd_ignore(self, args):
        pass

    def cmd_protover(self, args):
        variants = ",".join(g.xboard_variant for g in GAMES)
        self.out.lines(["feature done=0",
                        f'feature myname="Shuai" variants="{variants}" setboard=1 usermove=1 ping=1 san=0 '
                        f'sigint=0 sigterm=0 analyze=1 memory=1 smp=1 egt="{TABLE_FORMAT}" colors=0 time=1 '
                        f'draw=1 playother=0 pause=0 nps=0 exclude=1 setscore=0 debug=0 reuse=1 name=0 ics=0',
                        *(option_feature(name, self.core.values[NAMES[name]]) for name in NAMES)])
        self.handshaken = True
        self.prepare()                      # the GUI waits for done=1 as long as loading takes; a LoadError is
        self.out.line("feature done=1")     # one line, and the GUI goes on (every search fails)

    # -- the game -----------------------------------------------------------------------------------------------
    def _abandon(self) -> None:
        """End whatever search runs without a word (its move is not played) and take back a pondered reply."""
        if self.core.loaded and self.core.searching():
            self.kind = DISCARD
            self.core.finish()
        self.kind = None
        if self.pondered is not None:
            self.core.position().pop()
            self.pondered = None
        self.epoch += 1

    def _start(self, kind: str, limits: dict, banned=()) -> None:
        """Search the current position for ``kind``'s sake (the caller has abandoned any earlier search)."""
        self.kind, self.started = kind, time.perf_counter()
        self.last_info = self.last_progress = None
        self.core.go(limits, banned=banned)

    def _board_position(self):
        """A copy of the position on the GUI's board: the current one, a pondered reply taken back (the search
        works on a copy of its own, so this may be read while it runs)."""
        pos = self.core.position().copy()
        if self.pondered is not None:
            pos.pop()
        return pos

    def _playable(self) -> None:
        if self.invalid is not None:
            raise CommandError(f"command not legal now: {self.invalid}")

    def _claim(self, pos) -> list[str]:
        """The claim of a result, if the rules say the game is over in ``pos``; else nothing."""
        over = pos.game.game_result(pos)
        if over is None:
            return []
        result, reason = over
        return [f"{result} {{{describe(pos.game, result, reason)}}}"]

    def _limits(self, **extra) -> dict:
        """The search limits of the engine's move from the clock commands (``extra``: ponder)."""
        limits = dict(extra)
        if self.depth is not None:
            limits["depth"] = self.depth
        if self.movetime is not None:
            limits["movetime"] = self.movetime
            return limits
        per_session, base, increment = self.level
        limits["time_left"] = base if self.own_clock is None else self.own_clock
        limits["increment"] = increment
        if per_session:
            made = self.core.position().fullmove_number() - 1      # moves the side to move has made
            limits["movestogo"] = per_session - made % per_session
        return limits

    def _think(self) -> None:
        """The engine's turn: claim the result if the game is over, else search for a move."""
        pos = self.core.position()
        claim = self._claim(pos)
        if claim:
            self.out.lines(claim)
            return
        self._start(MOVE, self._limits())

    def _analyze(self) -> None:
        """Analyse the current position, the excluded moves left out; with every move excluded, wait."""
        excluded = self._exclusions()
        legal = self.core.position().legal_move_names()
        if legal and excluded.issuperset(legal):
            self.kind = None
            return
        self._start(ANALYZE, {"infinite": True}, banned=sorted(excluded))

    def _exclusions(self) -> set:
        """The moves excluded in the current position: none once the position has changed."""
        fen = self.core.position().fen()
        if self.excluded_in != fen:
            self.excluded, self.excluded_in = set(), fen
        return self.excluded

    def _moved(self) -> None:
        """After a move from the GUI: analysis starts again; the engine answers when it is its turn."""
        if self.analyzing:
            self._analyze()
        elif not self.force and self.core.position().side == self.engine_side:
            self._think()

    def _reset(self, game) -> None:
        """The start position of ``game``."""
        self._abandon()
        if self.core.game is not game:
            self.core.set_option("variant", game.name)
        self.core.set_position(["startpos"])
        self.invalid = None
        self.expected = None

    def cmd_new(self, args):
        self._reset(game_for(XBOARD_STANDARD))
        self.force, self.engine_side, self.depth, self.own_clock = False, 1, None, None
        if self.analyzing:
            self._analyze()

    def cmd_variant(self, args):
        game = game_for(args[0].lower()) if len(args) == 1 else None
        if game is None:
            raise CommandError(f"unsupported variant; this engine plays {', '.join(g.xboard_variant for g in GAMES)}")
        self._reset(game)
        if self.analyzing:
            self._analyze()

    def cmd_setboard(self, args):
        self._abandon()
        tokens = ["fen", *args]
        try:
            pos = self.core.build_position(tokens)
        except LoadError:
            raise
        except CommandError as e:
            self.invalid = "illegal position"
            self.out.line(f"tellusererror Illegal position ({e})")
            return
        if self.core.game is not pos.game:
            self.core.set_option("variant", pos.game.name)
        self.core.set_position(tokens)
        self.invalid = None
        self.expected = None
        if self.analyzing:
            self._analyze()

    def cmd_force(self, args):
        self._abandon()
        self.force = True

    def cmd_go(self, args):
        self._abandon()
        self._playable()
        self.force = self.analyzing = False
        self.engine_side = self.core.position().side
        self._think()

    def cmd_usermove(self, args):
        if len(args) != 1:
            raise CommandError("expected 'usermove MOVE'")
        text = args[0]
        if self.invalid is not None:
            raise IllegalMove(text, self.invalid)
        if self.kind == PONDER and self.core.searching() and text.lower() == self.pondered:
            # The expected reply: the ponder search goes on as the search for our move, on the clock.
            self.kind, self.pondered, self.started = MOVE, None, time.perf_counter()
            self.epoch += 1
            self.core.ponderhit()
            return
        # Judged before anything is abandoned, on the board's position: a move refused changes nothing, and the
        # search running goes on.
        pos = self._board_position()
        try:
            move = pos.parse_move(text)
        except ValueError:                  # IllegalMoveError: not legal here, or not a move at all
            raise IllegalMove(text) from None
        self._abandon()
        self.core.position().push(move)
        self.expected = None
        self._moved()

    def cmd_undo(self, args):
        self._take_back(1)

    def cmd_remove(self, args):
        self._take_back(2)

    def _take_back(self, plies: int) -> None:
        self._abandon()
        self._playable()
        pos = self.core.position()
        if pos.ply < plies:
            raise CommandError("command not legal now: no move to take back")
        for _ in range(plies):
            pos.pop()
        self.expected = None
        if self.analyzing:
            self._analyze()

    def cmd_result(self, args):
        self._abandon()
        self.force = True                   # the game is over: nothing more to play or ponder

    # -- the clock ----------------------------------------------------------------------------------------------
    def cmd_level(self, args):
        if len(args) != 3:
            raise CommandError("expected 'level MPS BASE INC'")
        per_session = parse_int(args[0], "level: moves per session", 0, MAX_MOVES_PER_SESSION)
        increment = parse_number(args[2], "level: increment")
        if not 0 <= increment < float("inf"):
            raise CommandError("level: the increment must be a number of seconds >= 0")
        self.level = (per_session, parse_base(args[1]), increment)
        self.movetime = None

    def cmd_st(self, args):
        seconds = parse_number(args[0], "st") if len(args) == 1 else None
        if seconds is None or not 0 < seconds < float("inf"):
            raise CommandError("expected 'st SECONDS' (more than 0)")
        self.movetime = seconds

    def cmd_sd(self, args):
        if len(args) != 1:
            raise CommandError("expected 'sd DEPTH'")
        self.depth = parse_int(args[0], "sd", 1, MAX_DEPTH, cap=True)

    def _centiseconds(self, args, what: str) -> float:
        if len(args) != 1:
            raise CommandError(f"expected '{what} CENTISECONDS'")
        return parse_seconds(args[0], what, 0.01)          # a fallen flag's negative time is 0

    def cmd_time(self, args):
        self.own_clock = self._centiseconds(args, "time")

    def cmd_otim(self, args):
        self._centiseconds(args, "otim")            # checked; the time manager plans with its own clock only

    def cmd_move_now(self, args):
        if self.kind == MOVE and self.core.searching():
            self.core.stop()                        # the move follows from the search thread

    def cmd_ping(self, args):
        if len(args) != 1:
            raise CommandError("expected 'ping N'")
        if self.kind == MOVE and self.core.loaded:
            self.core.wait_search()                 # thinking on our move: the move first, then the pong
        if self.core.loaded and not self.core.searching():
            self.prepare()                          # as UCI's isready: memory, cores, egtpath take effect now
        self.out.line(f"pong {sanitize(args[0], 20)}")

    # -- thinking, pondering, analysis --------------------------------------------------------------------------
    def cmd_post(self, args):
        self.post = True

    def cmd_nopost(self, args):
        self.post = False

    def cmd_hard(self, args):
        self.ponder = True

    def cmd_easy(self, args):
        self.ponder = False
        if self.kind == PONDER:
            self._abandon()

    def _ponder_on(self, epoch: int, reply: str) -> None:
        """After our move (queued by ``format_result``): search the position after ``reply``, the answer we
        expect, until the GUI's move says whether it came."""
        if epoch != self.epoch or self.force or self.analyzing or not self.ponder or self.core.searching():
            return
        pos = self.core.position()
        if pos.side == self.engine_side or reply not in pos.legal_move_names():
            return
        pos.push(reply)
        if self._claim(pos):
            # The reply would end the game: a ponder hit would go on to a move after the end, so no ponder; the
            # reply, if it comes, takes the usual way to the claim.
            pos.pop()
            return
        self.pondered = reply
        self._start(PONDER, self._limits(ponder=True))

    def cmd_analyze(self, args):
        self._abandon()
        self._playable()
        self.analyzing = True
        self._analyze()

    def cmd_bk(self, args):
        """``bk`` (XBoard's Book button): the moves the engine's opening book has for the position on the
        board, with their shares -- lines that begin with a blank, then an empty one, as the spec asks."""
        from ..book import book_moves, open_books
        pos = self._board_position()
        v = self.core.values
        if not v["own_book"]:
            lines = [" the opening book is off (option Own Book)"]
        else:
            found = book_moves(open_books(v["book_files"], pos.game)[0], pos)
            total = sum(weight for _, weight in found)
            lines = [f" {move} {100 * weight / total:.0f}%" for move, weight in found] or [" no book move here"]
        self.out.lines(lines + [""])

    def cmd_exclude(self, args):
        self._exclude(args, True)

    def cmd_include(self, args):
        self._exclude(args, False)

    def _exclude(self, args, leave_out: bool) -> None:
        """``exclude MOVE`` / ``include MOVE`` (or ``all``): the moves the analysis of this position leaves
        out, as XBoard's engine output window asks; a running analysis starts again without them."""
        verb = "exclude" if leave_out else "include"
        if len(args) != 1:
            raise CommandError(f"expected '{verb} MOVE' or '{verb} all'")
        self._playable()
        pos = self.core.position()
        if args[0].lower() == "all":
            moves = pos.legal_move_names()
        else:
            try:
                moves = [pos.move_name(pos.parse_move(args[0]))]
            except ValueError:              # IllegalMoveError: not legal here, or not a move at all
                raise IllegalMove(args[0]) from None
        excluded = self._exclusions()
        if leave_out:
            excluded.update(moves)
        else:
            excluded.difference_update(moves)
        if self.analyzing:
            self._abandon()
            self._analyze()

    def cmd_exit(self, args):
        if self.analyzing:
            self._abandon()
            self.analyzing = False

    def cmd_status(self, args):
        """``.``: where the analysis stands -- the last figures the search reported."""
        if not (self.analyzing and self.core.searching()):
            return
        info, progress = self.last_info, self.last_progress
        nodes = max(info.nodes if info else 0, progress.nodes if progress else 0)
        total = len(self.core.position().legal_moves())
        done = progress.currmovenumber if progress and progress.currmove else 0
        line = (f"stat01: {int((time.perf_counter() - self.started) * 100)} {nodes} {info.depth if info else 0} "
                f"{max(total - done, 0)} {total}")
        self.out.line(line + (f" {progress.currmove}" if done else ""))

    def cmd_hint(self, args):
        if self.expected is not None:
            self.out.line(f"Hint: {self.expected}")

    # -- options ------------------------------------------------------------------------------------------------
    def _set_clamped(self, key: str, args, what: str) -> None:
        """``memory`` / ``cores``: what the GUI allows, within the option's range."""
        if len(args) != 1:
            raise CommandError(f"expected '{what} N'")
        spec = OPTIONS[key]
        self.core.set_option(key, min(max(parse_int(args[0], what, 0), spec.min), spec.max))

    def cmd_memory(self, args):
        self._set_clamped("hash_mb", args, "memory")

    def cmd_cores(self, args):
        self._set_clamped("threads", args, "cores")

    def cmd_egtpath(self, args):
        if len(args) < 2:
            raise CommandError("expected 'egtpath TYPE PATH'")
        if args[0].lower() != TABLE_FORMAT:
            raise CommandError(f"unsupported table format; this engine reads '{TABLE_FORMAT}' tables")
        self.core.set_option("table_paths", self.text_of(args, 1))

    def cmd_option(self, args):
        name, eq, text = self.text_of(args, 0).partition("=")
        label = BY_LOWER.get(name.strip().lower())
        if label is None:
            raise CommandError(f"no such option {sanitize(name.strip(), 40)!r}")
        spec = OPTIONS[NAMES[label]]
        if spec.type != "button" and not eq:
            raise CommandError(f"option {label} needs a value (NAME=VALUE)")
        self.core.set_option(NAMES[label], spec.parse(text.strip(), label))

    def cmd_quit(self, args):
        self._abandon()
        return False

    # -- replies ------------------------------------------------------------------------------------------------
    def no_move_reply(self, search=None):
        return []

    def format_info(self, info):
        self.last_info = info
        if self.kind == DISCARD or not (self.post or self.kind == ANALYZE):
            return []
        pv = ([self.pondered] if self.kind == PONDER and self.pondered else []) + info.pv
        return [f"{info.depth} {xboard_score(info)} {int(info.time * 100)} {info.nodes} "
                f"{max(info.seldepth, info.depth)} {info.nps} {info.tbhits}\t{' '.join(pv)}"]

    def format_progress(self, progress):
        self.last_progress = progress               # for '.'; xboard has no line for it
        return []

    def format_result(self, search, result):
        """The search has ended (search thread, the core's lock held): only a search for our move says
        anything -- the move, played on the game's position, and a claim if it ended the game; pondering on
        the expected reply is queued for the command thread."""
        if self.kind != MOVE:
            return []
        self.kind = None
        pos = self.core.position()
        if result is None or result.best is None:
            return self._claim(pos)
        if self.movetime is None and self.own_clock is not None:
            self.own_clock += self.level[2] - (time.perf_counter() - self.started)     # until the next 'time'
        reply = expected_reply(search, result)
        pos.push(result.best)
        claim = self._claim(pos)
        self.expected = None if claim else reply
        if self.ponder and reply and not claim:
            self.call_soon(partial(self._ponder_on, self.epoch, reply))     # queued before the GUI can answer
        return [f"move {result.best}", *claim]
