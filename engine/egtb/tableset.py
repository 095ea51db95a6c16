"""The engine's tables: every game's tables in one set of directories, opened from one setting (the
directories and the cache size, as the protocols' ``egtbpaths``/``EGTBPath`` and ``egtbcache`` give them), with
one list of errors.  A tool above the games: each game's tables come from its ``Game`` (``game.tablebases``);
the search asks for those of the position it searches (``TableSet.for_game(pos.game)``)."""
from __future__ import annotations

import threading
from typing import Optional

from ..files import clip
from ..game import GAMES, game_of_fen
from . import DEFAULT_CACHE_MB, default_directory
from .probe import ErrorLog, ProbeResult, split_paths
from .store import RULE_WORDS


class TableSet:
    def __init__(self, directory=None, memory_mb: float = DEFAULT_CACHE_MB):
        """``directory``: as ``Tablebases`` takes it (None: no tables); ``memory_mb``: each game's chunk cache.
        The tables of every game are opened at once when there are directories, so that a missing directory
        or a broken file is reported now; without, each game's (empty) tables when first asked for."""
        self.directories = split_paths(directory)
        self.memory_mb = memory_mb
        self.log = ErrorLog()
        self._lock = threading.Lock()
        self._tables = {}
        if self.directories:
            for game in GAMES:
                self.for_game(game)

    @classmethod
    def of(cls, game, tables) -> "TableSet":
        """A set of ``game``'s ``tables`` (a Tablebases) alone; every other game has none."""
        table_set = cls()
        table_set._tables[game] = tables
        return table_set

    def for_game(self, game):
        """The tables of ``game`` (a Game): its ``Tablebases``, opened on first use."""
        with self._lock:
            if game not in self._tables:
                try:
                    tables = game.tablebases(self.directories, memory_mb=self.memory_mb, errors=self.log)
                except Exception as e:      # a failure no check foresaw: one line and no tables, never a dead search
                    self.log.add(f"{game.name} tables unusable ({type(e).__name__}: {clip(e)})")
                    tables = game.tablebases(None, memory_mb=0, errors=self.log)
                self._tables[game] = tables
            return self._tables[game]

    def probe(self, pos) -> ProbeResult:
        """Result for the side to move of a Position of any game (or of a FEN string)."""
        if isinstance(pos, str):
            game = game_of_fen(pos)
            if game is None:
                raise ValueError(f"not a FEN of any game: {pos!r}")
            pos = game.position(pos)
        return self.for_game(pos.game).probe(pos)

    def describe(self) -> str:
        """What is open, for the protocols' note when the tables are (re)opened: the number of tables of each game
        and, for a game with a rule pass, the rule they were built under -- "endgame tables: 45 xiangqi
        (perpetual check and chase rule), 5 chess"; "" when no table is open."""
        with self._lock:
            games = list(self._tables.items())
        parts = []
        for game, tables in games:
            rules = tables.rules
            count = sum(rules.values())
            if not count:
                continue
            text = f"{count} {game.name}"
            if game.tables().RULE_PASS:
                text += " (" + ", ".join(RULE_WORDS[r] if len(rules) == 1 else f"{n} {RULE_WORDS[r]}"
                                         for r, n in sorted(rules.items())) + ")"
            parts.append(text)
        return "endgame tables: " + ", ".join(parts) if parts else ""

    @property
    def errors(self) -> list[str]:
        return self.log.errors

    def take_errors(self) -> list[str]:
        """Messages not returned before (each error is reported once)."""
        return self.log.take()


def open_tables(paths: str = "", memory_mb: float = None) -> Optional[TableSet]:
    """The tables a user asked for: ``paths`` as ``Tablebases`` takes them, or "" for the project's default
    directory (None when that does not exist: no tables, and nothing to complain about)."""
    if not paths:
        paths = default_directory()
        if not paths.is_dir():
            return None
    return TableSet(paths, memory_mb=DEFAULT_CACHE_MB if memory_mb is None else memory_mb)
