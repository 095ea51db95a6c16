"""The root step: what answers a position before (or instead of) a search -- the opening books, the endgame
tables at the root (and their line through a PV that enters them), a level's choice among the lines searched.
``Root`` is a part of the ``Searcher``: it owns the tables, the books and the generator of the random choices."""
from __future__ import annotations

import time
from dataclasses import replace
from typing import Optional

from .. import alphabeta as ab
from .. import levels
from ..egtb import DEFAULT_PROBE_DEPTH
from ..levels import Level
from .results import SearchResult

MAX_TB_PV = 64              # plies of a tablebase PV shown
TABLE_LINE_SECONDS = 0.05   # ... walked for at most this long between iterations (9 plies take 1 ms)


class Root:
    def _init_root(self) -> None:
        from ..egtb.tableset import TableSet
        self.tablebases = TableSet()                          # no tables
        self._tables = None                                   # the tables of the game searched now
        self.tb_depth = DEFAULT_PROBE_DEPTH
        self._no_tables = TableSet()            # the tables of a level that may not use them
        self.rng = levels.new_rng()             # a level's choice among lines, a book's among its moves
        self.books: list = []                   # opening books (engine.book), the first that knows a position
        self.book_best = False                  # play the book's heaviest move rather than draw one by weight

    def set_tablebases(self, tables=None, probe_depth: int = None) -> None:
        """Search with these tables (an ``egtb.tableset.TableSet``; None: none); ``probe_depth``: egtbply."""
        from ..egtb.tableset import TableSet
        self.wait()
        self.tablebases = tables if tables is not None else TableSet()
        if probe_depth is not None:
            self.tb_depth = int(probe_depth)

    def set_books(self, books, best: bool = False) -> None:
        """Play from these opening books (``engine.book.Book``s; empty: none) when they know the position --
        the heaviest move with ``best``, else one drawn by weight."""
        self.wait()
        self.books = list(books)
        self.book_best = best

    def seed(self, seed: Optional[int] = None) -> None:
        """Seed the random choices (a level's, a book's): ``levels.new_rng``."""
        self.rng = levels.new_rng(seed)

    def _book_move(self, pos, allowed, move_name) -> Optional[int]:
        """The books' move for ``pos`` among the ``allowed`` ones (None: the books do not know it)."""
        from ..book import book_moves, choose
        names = {move_name(m): m for m in allowed}
        chosen = choose([mw for mw in book_moves(self.books, pos) if mw[0] in names], self.rng, self.book_best)
        return names[chosen] if chosen is not None else None

    def _root_tables(self, pos, allowed, move_name):
        """A root the tables know: the SearchResult to play (won or lost), or the moves that keep a draw (a new
        list).  The ``allowed`` list itself when the tables do not know the position (or one of its successors)."""
        tables = self._tables
        if not tables.names:
            return allowed
        ranked = [r for r in tables.rank_moves(pos) if r[1] in allowed]
        if not ranked or any(r[2].kind == "unknown" for r in ranked):
            return allowed
        best_rank, best, after = ranked[0]
        if after.kind == "draw":
            return [m for rank, m, res in ranked if res.kind == "draw"]
        if after.plies is not None:
            # The tables count no move clock: a mate (ours or theirs) that the move limit's draw would come
            # before, unless a capture or a pawn move resets it on the way, is left to the search, which knows.
            child = pos.copy()
            child.push(move_name(best))
            if child.halfmove_clock + after.plies > pos.game.move_limit:
                return allowed
        score = -after.score(1)
        line = self._table_line(pos, [best], seconds=None)
        self.ctrl[ab.C_TB_HITS] = 1 + len(line)
        self.ctrl[ab.C_SELDEPTH] = len(line)
        info = self._info(len(line), score, line, move_name)
        return SearchResult(move_name(best), info.pv[1] if len(info.pv) > 1 else None, info)

    def _table_line(self, pos, pv_moves, seconds: Optional[float] = TABLE_LINE_SECONDS):
        """``pv_moves`` continued by the tables' best moves from where it ends, while they know the position
        (up to MAX_TB_PV plies): a PV that enters a table ends there in the search, but shows the way to mate.
        The walk runs in Python outside the kernels and may read chunks from the disk, so it is bounded: it ends
        when the search is stopped (the clock's hard limit included) and after ``seconds`` (None: no limit but
        the stop; a root in the tables, whose line is its answer).  A won ending at a low clock never loses on
        time to its display."""
        tables = self._tables
        line = list(pv_moves)
        if not tables.names:
            return line
        walk = pos.copy()
        for m in line:
            walk.push(m)
        deadline = None if seconds is None else time.perf_counter() + seconds
        while (len(line) < MAX_TB_PV and not self.ctrl[ab.C_STOP]
               and (deadline is None or time.perf_counter() < deadline)):
            ranked = tables.rank_moves(walk)
            if not ranked or ranked[0][2].plies is None:    # unknown, a draw, or a rule result: no mating line
                break
            line.append(ranked[0][1])
            walk.push(ranked[0][1])
        return line

    def _chosen(self, result: SearchResult, level: Level) -> SearchResult:
        """A level's move: one of the search's lines, drawn by ``levels.choose``."""
        index = levels.choose(result.lines, level.temperature, self.rng)
        line = result.lines[index]
        if index == 0 or not line.pv:
            return result
        return replace(result, best=line.pv[0], ponder=line.pv[1] if len(line.pv) > 1 else None, info=line)
