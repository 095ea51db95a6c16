"""The games Shuai plays, each described by one ``Game`` (in the spirit of python-chess's variant classes).

A game is a package under ``engine/`` with

* ``constants``  plain facts: name, start FEN, board size, piece codes, the position arrays' layout
* ``position``   ``Position``: FEN in and out, moves by name, legal move lists (the Python edge)
* ``notation``   ``move_name`` / ``parse_move`` for the protocol's coordinate moves
* ``rules``      ``game_result(pos)``: the referee for matches and terminal play
* ``kernels``    the numba kernels the shared search needs (``alphabeta.GAME_INTERFACE``), and the search
                 and perft compiled for them (``engine.template``)
* ``evaluate``   the evaluation, with its parameter layout (``LAYOUT``) and how the tuner writes its blocks
* ``warm``       ``warm(pos)``: the kernels the Python edge calls, loaded before a game (``engine.warmup``)
* ``tuning``     what the evaluation tuner needs to know of it (engine.tune);  ``bench``  ``shuai bench``'s positions
* ``wdl.json`` the win/draw/loss model's values fitted to the game's self-play (``engine.wdl``)
* ``tables``     the game's parts of the endgame tables (``engine.egtb``): material names, file suffix and
                 magic, ``Tablebases``, the sets ``shuai tb build`` knows, whether a table may be built in
                 slices; ``tables.build`` its generator

and names, in its ``constants``, the parts the shared front ends use for it (``SESSION``, ``REFEREE``, ``PGN``,
``OPENINGS``), so that play/, match/ and tune/ ask the game instead of testing its name.

Everything is imported on first use: describing a game loads no compiled code, and a process that plays one
game never loads (or compiles) another's kernels.
"""
from __future__ import annotations

import importlib
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parents[1]      # where the package lies (its data files: Game.package_file)


def _load(path: str):
    """The object a ``module:name`` path names (the module itself without ``:name``)."""
    module, _, name = path.partition(":")
    loaded = importlib.import_module(module)
    return getattr(loaded, name) if name else loaded


class Game:
    def __init__(self, package: str, constants):
        c = constants
        self.name = c.NAME
        self.start_fen = c.START_FEN
        self.package = package
        self.ranks = c.RANKS                # rows in a FEN: what tells the games' FENs apart
        self.files = c.FILES
        self.squares = c.NSQ                # square = rank * files + file; rank 0 is the first side's back rank
        self.kinds = c.KINDS                 # piece kinds 1..kinds; code = colour * black_bit + kind
        self.black_bit = c.BLACK_BIT
        self.king = c.KING                  # the king's (general's) kind
        self.net_king_buckets = c.NET_KING_BUCKETS  # square, as its own side sees it -> the network's king bucket
        self.net_buckets = max(c.NET_KING_BUCKETS) + 1     # a network has one block of inputs or this many
        self.side_names = c.SIDE_NAMES      # ("red", "black") / ("white", "black"): the first moves first
        self.stalemate_draws = c.STALEMATE_DRAWS    # no legal move outside check: a draw (chess), or a loss
        self.move_limit = c.MOVE_LIMIT_PLIES        # plies without a capture (chess: nor a pawn move): a draw
        self.search_params = dict(c.SEARCH_PARAMS)  # engine.search_params whose default differs in this game
        # Talking to other engines (engine.match.engines)
        self.uci_variant = c.UCI_VARIANT    # UCI_Variant's value for this game
        self.xboard_variant = c.XBOARD_VARIANT      # the xboard variant name ("normal": standard chess)
        self.ucci = c.UCCI                  # UCCI plays this game
        self.iccs = c.ICCS                  # moves are ICCS coordinates (ranks 0-9), which some engines number 1-10
        self._parts = {"session": c.SESSION, "referee": c.REFEREE, "pgn": c.PGN}
        self.openings = str(self.package_file(c.OPENINGS))     # the default openings (match, tuner self-play)

    def _module(self, name: str):
        return importlib.import_module(f"{self.package}.{name}")

    @property
    def Position(self):
        """The game's Position class."""
        return self._module("position").Position

    def position(self, fen: str | None = None):
        return self.Position(fen)

    def kernels(self):
        """The game's kernels module: the game interface, ``alphabeta`` (``alphabeta.search``, the driver's entry
        to ``pvs`` ...) and ``perft`` (``perft.count``), each loaded or compiled on first use."""
        return self._module("kernels")

    def move_name(self, move: int) -> str:
        return self._module("notation").move_name(move)

    def game_result(self, pos):
        """(result, reason) if the game is over in ``pos`` (see the game's ``rules``), else None."""
        return self._module("rules").game_result(pos)

    def evaluation(self):
        """The game's evaluation module: ``evaluate``, ``evaluate_trace``, the parameter ``LAYOUT`` and how its
        board blocks are written (``TABLE_SIZE``, ``TABLE_ROW``, ``table_values``, ``PARAMS_HEADER``)."""
        return self._module("evaluate")

    @property
    def default_network(self) -> Optional[str]:
        """The game's own evaluation network (``EvalFile``'s default; engine.nnue), in its package; None for a
        game that has none yet (it evaluates with its hand-written evaluation)."""
        path = self.package_file("network.nnue")
        return str(path) if path.is_file() else None

    def package_file(self, name: str) -> Path:
        """The game's data file ``name`` in its package (shipped with it: pyproject's package-data)."""
        return ROOT / Path(*self.package.split(".")) / name

    def tuning(self):
        """What the evaluation tuner needs to know of the game (engine.tune): its start, regularisation, scale
        and self-play settings (the game's ``tuning`` module)."""
        return self._module("tuning")

    def bench(self):
        """The positions of ``shuai bench`` and their depth (the game's ``bench`` module: ``FENS``, ``DEPTH``)."""
        return self._module("bench")

    @cached_property
    def _wdl_model(self):
        from .wdl import WdlModel
        return WdlModel.from_file(self.package_file("wdl.json"))

    def wdl(self):
        """The game's win/draw/loss model (``engine.wdl.WdlModel``), as fitted to its self-play: read once (every
        ``info`` line with ``UCI_ShowWDL`` asks for it)."""
        return self._wdl_model

    def warm(self, pos) -> None:
        """Load (or compile) the game's kernels that the Python edge calls, beyond the search's."""
        self._module("warm").warm(pos)

    # -- the front ends' parts ----------------------------------------------------------------------------------
    @property
    def Session(self):
        """The terminal game's session class (engine.play)."""
        return _load(self._parts["session"])

    @property
    def Referee(self):
        """The match referee's class (engine.match.referee): ``Referee(fen, moves)`` keeps the game and its rules;
        ``Referee.opening`` checks an opening, ``Referee.path_from_start`` finds the moves to one."""
        return _load(self._parts["referee"])

    def referee(self, fen: str, moves=()):
        return self.Referee(fen, moves)

    def pgn(self):
        """The match's PGN module: ``format_record(tags, fen, moves, comment, result)``."""
        return _load(self._parts["pgn"])

    def tables(self):
        """The game's endgame-table parts (``engine.<game>.tables``)."""
        return self._module("tables")

    def table_generator(self):
        """The game's table generator (``engine.<game>.tables.build.generate``: ``generate_table`` ...)."""
        return self._module("tables.build.generate")

    def tablebases(self, directory, **options):
        """The game's tables in ``directory`` (``engine.egtb.probe.Tablebases``: ``memory_mb``, ``errors``)."""
        return self.tables().Tablebases(directory, **options)

    def __repr__(self) -> str:
        return f"Game({self.name!r})"


GAME_PACKAGES = {"xiangqi": "engine.xiangqi", "chess": "engine.chess"}


@lru_cache(maxsize=None)
def game_named(name: str) -> Game:
    """The Game called ``name`` (KeyError for an unknown one)."""
    return Game(GAME_PACKAGES[name], importlib.import_module(f"{GAME_PACKAGES[name]}.constants"))


def game_of_fen(fen: str):
    """The game whose board a FEN describes, told by its number of ranks (10: xiangqi, 8: chess); None if
    neither."""
    fields = fen.split()
    ranks = fields[0].count("/") + 1 if fields else 0
    return next((g for g in GAMES if g.ranks == ranks), None)


def position_of_fen(fen: str, game=None):
    """The position of ``fen`` in the game its ranks tell (or ``game``, when they tell none); ValueError with
    one line saying what is wrong: a bad FEN, or one of another game than ``game``."""
    found = game_of_fen(fen) or game
    if found is None:
        raise ValueError(f"bad FEN {fen[:80]!r}: expected {fen_ranks()} ranks")
    if game is not None and found is not game:
        raise ValueError(f"the FEN is a {found.name} position, not {game.name}")
    try:
        return found.position(fen)
    except ValueError as e:         # the game's FenError
        raise ValueError(f"bad FEN {fen[:80]!r}: {e}") from None


def fen_ranks() -> str:
    """What a FEN's number of ranks may be, for an error line: ``8 (chess) or 10 (xiangqi)``."""
    return " or ".join(f"{g.ranks} ({g.name})" for g in sorted(GAMES, key=lambda g: g.ranks))


XIANGQI = game_named("xiangqi")
CHESS = game_named("chess")
GAMES = (XIANGQI, CHESS)
DEFAULT = XIANGQI           # the game a command plays unless told (or a FEN tells) otherwise
