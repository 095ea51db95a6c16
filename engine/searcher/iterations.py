"""The iteration driver of the main thread: iterative deepening with aspiration windows, MultiPV's lines, the
lines reported (``SearchInfo``), a helper's result taken when it finished a depth first, the threads' vote at
the end.  ``Iterations`` is a part of the ``Searcher``; it drives the others (root, pool, clock)."""
from __future__ import annotations

import time
from dataclasses import replace

import numpy as np

from .. import alphabeta as ab
from ..scores import INFINITE, mate_in_moves
from . import aspiration
from .pool import vote
from .results import SearchInfo, SearchResult

NO_NODE_LIMIT = 1 << 62     # the node limit of a search without one


def _earlier_lines(lines: list, earlier: list, count: int) -> list:
    """MultiPV lines after ``lines`` up to ``count``, when a stop left them unsearched at this depth: the last
    iteration's, less the moves ``lines`` already start with and renumbered, so that no two lines share a first
    move (a GUI keeps the last report of each line number)."""
    taken = {line.pv[0] for line in lines if line.pv}
    rest = [line for line in earlier if line.pv and line.pv[0] not in taken][:count - len(lines)]
    return [replace(line, multipv=len(lines) + k + 1) for k, line in enumerate(rest)]


def _best_first(root, lines: list) -> list:
    """MultiPV's lines of one depth, best first and renumbered, the root's first moves (line k's move at index
    k - 1) put in the same order: each later line is searched alone with a full window, and the table and the
    histories it leaves may score it above an earlier one -- then it is the better move, and line 1, the move
    played, is the best of those searched (as Stockfish sorts its lines).  A stable sort: ties keep their order."""
    order = sorted(range(len(lines)), key=lambda i: -lines[i].score)
    if order == list(range(len(lines))):
        return lines
    moves = [int(root[i]) for i in range(len(lines))]
    for k, i in enumerate(order):
        root[k] = moves[i]
    return [replace(lines[i], multipv=k + 1) for k, i in enumerate(order)]


def _to_front(moves, n: int, move: int) -> None:
    """Move ``move`` to the front of the first ``n`` of ``moves``, the others keeping their order."""
    at = int(np.flatnonzero(moves[:n] == move)[0])
    moves[1:at + 1] = moves[:at].copy()
    moves[0] = move


class Iterations:
    def _iterate(self, pos, limits, on_info, banned) -> SearchResult:
        kernels = pos.game.kernels().alphabeta
        move_name = pos.game.move_name
        level = limits.level
        self._tables = (self.tablebases if level is None or level.tables else self._no_tables).for_game(pos.game)
        legal = pos.legal_moves()
        allowed = [m for m in legal if move_name(m) not in banned] or legal
        if not allowed:
            return SearchResult(None, None, None)
        if self.books and (level is None or level.book) and not (limits.ponder or limits.infinite):
            move = self._book_move(pos, allowed, move_name)
            if move is not None:
                return SearchResult(move_name(move), None, None, book=True)
        known = self._root_tables(pos, allowed, move_name)
        if isinstance(known, SearchResult):
            on_info(known.info)
            return known
        table_draw = known is not allowed              # the tables call the root a draw: report 0
        allowed = known
        self.age = (self.age + 1) & 255
        ctrl, ss, pv = self.ctrl, self.ss, self.pv
        ctrl[ab.C_AGE] = self.age
        kernels.seed_repetitions(pos.st, pos.hist, pos.keys, self.reps)
        root = self.moves[0]                            # the root's moves, reordered by each iteration
        root[:len(allowed)] = allowed
        ctrl[ab.C_ROOT_MOVES] = len(allowed)
        ctrl[ab.C_TB_DEPTH] = self.tb_depth
        nets = self._nets(pos)
        args = (pos.board, pos.st, pos.hist, pos.keys, self.tt, self._tables.arrays, ctrl, ss, pv, self.moves,
                self.order, self.history, self.reps, nets[0])
        max_depth = min(limits.depth or ab.MAX_PLY - 4, ab.MAX_PLY - 4)
        if len(allowed) == 1 and self.clock.timed(limits):
            max_depth = 1                               # the only move, on the clock: play it at once (timeman)
        if self._helpers:
            ctrl[ab.C_NODE_LIMIT] //= len(self._helpers) + 1     # `go nodes`: the threads' sum
        node_limit = int(ctrl[ab.C_NODE_LIMIT])
        if limits.floor_depth:
            ctrl[ab.C_NODE_LIMIT] = NO_NODE_LIMIT       # armed after the floor's iterations (a level's first)
        self._depths = [0] * (1 + len(self._helpers))
        self._finished = 0
        self._share_iterations = limits.multipv == 1
        completed = self._start_helpers(kernels, pos, allowed, max_depth, nets[1:])
        best, info, score = int(root[0]), None, 0
        shown = []                                      # the lines the last iteration reported (MultiPV)
        depth = 0
        while depth < max_depth:
            depth += 1
            if depth > limits.floor_depth:
                ctrl[ab.C_NODE_LIMIT] = node_limit
            self._begin(0, ctrl, depth)
            value, raised = aspiration._aspirated(kernels, args, depth, score)
            if self._end(0, ctrl, depth):               # a helper finished this depth first: take its result
                depth, best, score, line = max((c[-1] for c in completed if c and c[-1][0] >= depth),
                                               key=lambda c: c[0])
                _to_front(root, len(allowed), best)
                info = self._info(depth, 0 if table_draw else score, self._table_line(pos, line), move_name)
                on_info(info)
                if self.clock.done(info, limits, self._pondering, self.time_params):
                    break
                continue
            stopped = bool(ctrl[ab.C_STOP])
            if stopped and ctrl[ab.C_ROOT_DONE] == 0 and raised is None:
                break                                   # nothing finished at this depth: keep the last result
            if stopped and int(root[0]) == best:
                break
            best = int(root[0])                         # stopped: the best so far, or the move that failed high
            score = value if not stopped else int(ctrl[ab.C_BEST_SCORE]) if ctrl[ab.C_ROOT_DONE] else raised
            pv_moves = self._table_line(pos, self._root_line(best))
            info = self._info(depth, 0 if table_draw else score, pv_moves, move_name)
            count = min(limits.multipv, len(allowed))
            lines = [] if stopped else self._more_lines(kernels, args, depth, count, table_draw, pos, move_name)
            if lines:
                info, *lines = _best_first(root, [info] + lines)
                best, score = int(root[0]), info.score
            lines += _earlier_lines([info] + lines, shown, count)   # a stop left lines unsearched at this depth
            shown = [info] + lines
            on_info(info)
            for line in lines:
                on_info(line)
            if stopped or self.clock.done(info, limits, self._pondering, self.time_params):
                break
        self._stop_helpers()
        if info is None:                                # stopped before depth 1 completed
            best, info = self._first_iteration(kernels, args, best, move_name)
        elif completed and limits.multipv == 1 and not table_draw:
            depth, move, score, line = vote([(info.depth, best, info.score, None)] + [c[-1] for c in completed if c])
            if move != best:                            # a helper's line won: the GUI sees it before the move
                best = move
                info = self._info(depth, score, self._table_line(pos, line), move_name)
                on_info(info)
        ponder = info.pv[1] if len(info.pv) > 1 else None
        return SearchResult(move_name(best), ponder, info, lines=shown)

    def _first_iteration(self, kernels, args, best: int, move_name) -> tuple:
        """(move, info) of a search stopped before its first iteration completed: that iteration, searched now
        without limits (a few milliseconds: one ply and the captures after it), so that the move played is a
        searched one, not the first in the list.  Still stopped again (a second ``stop``): ``best`` unsearched."""
        ctrl = self.ctrl
        with self._lock:
            ctrl[ab.C_STOP] = 0
        ctrl[ab.C_NODE_LIMIT] = NO_NODE_LIMIT
        ctrl[ab.C_ROOT_FIRST] = 0
        ctrl[ab.C_SELDEPTH] = 0
        score = int(kernels.search(*args, 1, 0, -INFINITE, INFINITE))
        with self._lock:
            done = ctrl[ab.C_STOP] == 0
            ctrl[ab.C_STOP] = 1
        if not done:
            return best, self._info(0, 0, [best], move_name)
        best = int(self.moves[0][0])
        return best, self._info(1, score, self._root_line(best), move_name)

    def _more_lines(self, kernels, args, depth, count, table_draw, pos, move_name) -> list:
        """MultiPV: lines 2..count at ``depth``, each the best of the root moves the earlier lines left, searched
        with a full window (the root moves from index k on, ``C_ROOT_FIRST``).  Stops early when the search is
        stopped; an unfinished line is not reported."""
        ctrl = self.ctrl
        lines = []
        for k in range(1, count):
            ctrl[ab.C_ROOT_FIRST] = k
            ctrl[ab.C_SELDEPTH] = 0
            value = int(kernels.search(*args, depth, 0, -INFINITE, INFINITE))
            if ctrl[ab.C_STOP]:
                break
            line = self._table_line(pos, self._root_line(int(self.moves[0][k])))
            info = self._info(depth, 0 if table_draw else value, line, move_name)
            info.multipv = k + 1
            lines.append(info)
        ctrl[ab.C_ROOT_FIRST] = 0
        return lines

    def _root_line(self, best: int) -> list:
        """The PV the last root search left, if it starts with ``best`` (a stopped search may not have one)."""
        line = [int(m) for m in self.pv[0, :max(1, self.ss[0, ab.SS_PV_LEN])]]
        return line if line and line[0] == best else [best]

    def _info(self, depth, score, pv_moves, move_name) -> SearchInfo:
        from ..tt import tt_hashfull
        return SearchInfo(depth, int(self.ctrl[ab.C_SELDEPTH]), score, mate_in_moves(score),
                          self._nodes(), time.perf_counter() - self.clock.started, [move_name(m) for m in pv_moves],
                          int(tt_hashfull(self.tt, self.age)), int(self.ctrl[ab.C_TB_HITS]))
