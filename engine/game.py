"""The games Shuai plays, each described by one ``Game`` (in the spirit of python-chess's variant classes).

A game is a package under ``engine/`` with

* ``constants``  plain facts: name, start FEN, board size, piece codes, the position arrays' layout
* ``position``   ``Position``: FEN in and out, moves by name, legal move lists (the Python edge)
* ``notation``   ``move_name`` / ``parse_move`` for the protocol's coordinate moves
* ``rules``      ``game_result(pos)``: the referee for matches and terminal play
* ``kernels``    the numba kernels the shared search needs (``alphabeta.GAME_INTERFACE``), and the search
                 and perft compiled for them (``engine.kernel``)

Everything is imported on first use: describing a game loads no compiled code, and a process that plays one
game never loads (or compiles) another's kernels.
"""
from __future__ import annotations

import importlib
from functools import lru_cache


class Game:
    def __init__(self, name: str, start_fen: str, package: str):
        self.name = name
        self.start_fen = start_fen
        self.package = package

    def _module(self, name: str):
        return importlib.import_module(f"{self.package}.{name}")

    @property
    def Position(self):
        """The game's Position class."""
        return self._module("position").Position

    def position(self, fen: str | None = None):
        return self.Position(fen or self.start_fen)

    def kernels(self):
        """The game's kernels module: the game interface, ``search`` (``search.pvs`` ...) and ``perft``
        (``perft.perft``), each loaded or compiled on first use."""
        return self._module("kernels")

    def move_name(self, move: int) -> str:
        return self._module("notation").move_name(move)

    def game_result(self, pos):
        """(result, reason) if the game is over in ``pos`` (see the game's ``rules``), else None."""
        return self._module("rules").game_result(pos)

    def __repr__(self) -> str:
        return f"Game({self.name!r})"


GAME_PACKAGES = {"xiangqi": "engine.xiangqi"}


@lru_cache(maxsize=None)
def game_named(name: str) -> Game:
    """The Game called ``name`` (KeyError for an unknown one)."""
    constants = importlib.import_module(f"{GAME_PACKAGES[name]}.constants")
    return Game(constants.NAME, constants.START_FEN, GAME_PACKAGES[name])


XIANGQI = game_named("xiangqi")
