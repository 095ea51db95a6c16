"""The games Shuai plays, each described by one ``Game`` (in the spirit of python-chess's variant classes).

A game is a package under ``engine/`` with

* ``constants``  plain facts: name, start FEN, board size, piece codes, the position arrays' layout
* ``position``   ``Position``: FEN in and out, moves by name, legal move lists (the Python edge)
* ``notation``   ``move_name`` / ``parse_move`` for the protocol's coordinate moves
* ``rules``      ``game_result(pos)``: the referee for matches and terminal play
* ``kernels``    the numba kernels the shared search needs (``alphabeta.GAME_INTERFACE``), and the search
                 and perft compiled for them (``engine.kernel``)
* ``tables``     the game's parts of the endgame tables (``engine.egtb``): material names, file suffix and
                 magic, ``Tablebases``, the sets ``shuai tb build`` knows, whether a table may be built in
                 slices; ``tables.generate`` its generator

Everything is imported on first use: describing a game loads no compiled code, and a process that plays one
game never loads (or compiles) another's kernels.
"""
from __future__ import annotations

import importlib
from functools import lru_cache


class Game:
    def __init__(self, name: str, start_fen: str, package: str, ranks: int, side_names: tuple,
                 stalemate_draws: bool):
        self.name = name
        self.start_fen = start_fen
        self.package = package
        self.ranks = ranks                  # rows in a FEN: what tells the games' FENs apart
        self.side_names = side_names        # ("red", "black") / ("white", "black")
        self.stalemate_draws = stalemate_draws  # no legal move outside check: a draw (chess), or a loss

    def _module(self, name: str):
        return importlib.import_module(f"{self.package}.{name}")

    @property
    def Position(self):
        """The game's Position class."""
        return self._module("position").Position

    def position(self, fen: str | None = None):
        return self.Position(fen)

    def kernels(self):
        """The game's kernels module: the game interface, ``search`` (``search.pvs`` ...) and ``perft``
        (``perft.perft``), each loaded or compiled on first use."""
        return self._module("kernels")

    def move_name(self, move: int) -> str:
        return self._module("notation").move_name(move)

    def game_result(self, pos):
        """(result, reason) if the game is over in ``pos`` (see the game's ``rules``), else None."""
        return self._module("rules").game_result(pos)

    def tables(self):
        """The game's endgame-table parts (``engine.<game>.tables``)."""
        return self._module("tables")

    def table_generator(self):
        """The game's table generator (``engine.<game>.tables.generate``: ``generate_table`` ...)."""
        return self._module("tables.generate")

    def tablebases(self, directory, **options):
        """The game's tables in ``directory`` (``engine.egtb.probe.Tablebases``: ``memory_mb``, ``errors``)."""
        return self.tables().Tablebases(directory, **options)

    def __repr__(self) -> str:
        return f"Game({self.name!r})"


GAME_PACKAGES = {"xiangqi": "engine.xiangqi", "chess": "engine.chess"}


@lru_cache(maxsize=None)
def game_named(name: str) -> Game:
    """The Game called ``name`` (KeyError for an unknown one)."""
    constants = importlib.import_module(f"{GAME_PACKAGES[name]}.constants")
    return Game(constants.NAME, constants.START_FEN, GAME_PACKAGES[name], constants.RANKS, constants.SIDE_NAMES,
                constants.STALEMATE_DRAWS)


def game_of_fen(fen: str):
    """The game whose board a FEN describes, told by its number of ranks (10: xiangqi, 8: chess); None if
    neither."""
    fields = fen.split()
    ranks = fields[0].count("/") + 1 if fields else 0
    return next((g for g in GAMES if g.ranks == ranks), None)


XIANGQI = game_named("xiangqi")
CHESS = game_named("chess")
GAMES = (XIANGQI, CHESS)
