"""Lazy SMP: the helper threads (see the package doc), their staggered depths (``helper_skips``), the iterations
the threads share (``_begin``/``_end``: a depth one thread finished ends the others'), and the threads' vote
(``vote``).  ``Pool`` is a part of the ``Searcher``: it owns the helpers' work arrays, threads and networks and
the depths they are on; it shares the searcher's lock, table, tables and main ``ctrl``."""
from __future__ import annotations

import threading

from .. import alphabeta as ab
from . import aspiration

OVERTAKEN = 2               # a stop flag value: another thread finished this thread's iteration first (_begin)
VOTE_MARGIN = 20            # centipawns: the weakest thread's vote still counts (see ``vote``)


def helper_skips(index: int, depth: int) -> bool:
    """Does helper ``index`` (from 1) skip this iteration?  Helpers search in blocks of ``size`` depths, every
    other block, starting at different phases, so that at any time the threads are spread over the depths
    around the main thread's and fill the table ahead of it."""
    size = 1 + (index - 1).bit_length() // 2             # helpers 1-2: single depths, 3-8: pairs, ...
    phase = (index - 1) % (2 * size)
    return ((depth + phase) // size) % 2 == 0


def vote(candidates: list) -> tuple:
    """The threads' choice: ``candidates`` are each thread's last completed iteration, (depth, move, score,
    PV), the main thread's first.  A mate found for us wins (the nearest); otherwise each candidate votes for
    its move with depth times its score above the worst (plus VOTE_MARGIN), and the move with the most votes is
    played, with the line of the deepest (then best) thread that chose it.  Only iterations at most one short
    of the deepest vote: a thread overtaken at every depth since (``_end``) keeps a stale shallow result whose
    score says little next to a deep one."""
    from ..scores import MATE_BOUND
    mates = [c for c in candidates if c[2] > MATE_BOUND]
    if mates:
        return max(mates, key=lambda c: c[2])
    deepest = max(c[0] for c in candidates)
    candidates = [c for c in candidates if c[0] >= deepest - 1]
    lowest = min(c[2] for c in candidates)
    votes: dict = {}
    for depth, move, score, _ in candidates:
        votes[move] = votes.get(move, 0) + depth * (score - lowest + VOTE_MARGIN)
    winner = max(votes, key=lambda m: (votes[m], m == candidates[0][1]))
    return max((c for c in candidates if c[1] == winner), key=lambda c: (c[0], c[2]))


class Pool:
    def _init_pool(self) -> None:
        self._helpers: list = []            # each helper thread's work arrays (ab.new_work_arrays)
        self._helper_threads: list[threading.Thread] = []
        self._depths: list[int] = []        # each thread's iteration now (the main thread's first)
        self._finished = 0                  # the deepest iteration any thread has finished
        self._share_iterations = True       # does a finished iteration end the others' (not with MultiPV)
        self._thread_nets: list = []            # each thread's network and accumulators (engine.nnue.kernels)

    def _nets(self, pos) -> list:
        """The ``net`` argument of each thread's search of ``pos`` (the main thread's first): the game's network
        with that thread's accumulators, one row per ply of the game's history (kept between searches: a row
        still valid for its position is reused); or the empty net."""
        from ..nnue.kernels import empty_net, thread_net
        network = self.networks.get(pos.game.name)
        if network is None:
            return [empty_net()] * (1 + len(self._helpers))
        weights, rows = network.arrays(), pos.hist.shape[0]
        self._thread_nets = [n for n in self._thread_nets if n[0] is weights[0] and n[4].shape[0] == rows]
        del self._thread_nets[1 + len(self._helpers):]
        while len(self._thread_nets) < 1 + len(self._helpers):
            self._thread_nets.append(thread_net(weights, rows))
        return list(self._thread_nets)

    def _start_helpers(self, kernels, pos, allowed, max_depth, nets) -> list:
        """Start the helper threads on the root (see the package doc); returns the list each fills with its
        completed iterations, (depth, best move, score, PV)."""
        completed = []
        self._helper_threads = []
        for index, (work, net) in enumerate(zip(self._helpers, nets), 1):
            ctrl = work[0]
            ab.reset_ctrl(ctrl, self.params)
            ctrl[ab.C_NODE_LIMIT] = self.ctrl[ab.C_NODE_LIMIT]
            ctrl[ab.C_AGE] = self.age
            ctrl[ab.C_TB_DEPTH] = ab.MAX_PLY            # no disk reads (the chunk cache has one writer)
            ctrl[ab.C_ROOT_MOVES] = len(allowed)
            work[3][0, :len(allowed)] = allowed
            completed.append([])
            thread = threading.Thread(target=self._guarded, daemon=True,
                                      args=(self._help, index, work, net, kernels, pos.copy(), max_depth,
                                            completed[-1]))
            self._helper_threads.append(thread)
            thread.start()
        return completed

    def _help(self, index, work, net, kernels, pos, max_depth, completed) -> None:
        """A helper thread: iterative deepening of the root with its own arrays, on the shared table."""
        ctrl, ss, pv, moves, order, history, reps = work
        kernels.seed_repetitions(pos.st, pos.hist, pos.keys, reps)
        args = (pos.board, pos.st, pos.hist, pos.keys, self.tt, self._tables.arrays) + tuple(work) + (net,)
        score = 0
        for depth in range(1, max_depth + 1):
            if (helper_skips(index, depth) and depth < max_depth) or depth <= self._finished:
                continue                                # staggered (never the last: no thread idles at the
                                                        # end of `go depth`); or another thread has finished it
            self._begin(index, ctrl, depth)
            value, _ = aspiration._aspirated(kernels, args, depth, score)
            best = int(moves[0, 0])
            if self._end(index, ctrl, depth):
                continue
            if ctrl[ab.C_STOP]:
                break
            score = value
            completed.append((depth, best, score, [int(m) for m in pv[0, :max(1, ss[0, ab.SS_PV_LEN])]]))
            self._end(index, ctrl, depth, finished=True)

    def _begin(self, index: int, ctrl, depth: int) -> None:
        """Thread ``index`` starts an iteration: one that another thread has finished already ends at once."""
        with self._lock:
            self._depths[index] = depth
            if self._share_iterations and depth <= self._finished and ctrl[ab.C_STOP] == 0:
                ctrl[ab.C_STOP] = OVERTAKEN

    def _end(self, index: int, ctrl, depth: int, finished: bool = False) -> bool:
        """Thread ``index`` is back from an iteration.  True if another thread had finished it first (its stop
        flag is cleared: the thread goes on with the next depth).  Otherwise, if it ``finished`` the
        iteration (the main thread's finished unless stopped), every thread still on this depth or a shallower
        one is overtaken: its iteration ends and it moves on.  All under the lock, with ``stop`` and
        ``_begin``: a stop is never lost, an OVERTAKEN never comes late."""
        with self._lock:
            if ctrl[ab.C_STOP] == OVERTAKEN:
                ctrl[ab.C_STOP] = 0
                return True
            if (finished or index == 0) and ctrl[ab.C_STOP] == 0 and self._share_iterations:
                self._finished = max(self._finished, depth)
                for work, now in zip([self.ctrl] + [w[0] for w in self._helpers], self._depths):
                    if 0 < now <= depth and work[ab.C_STOP] == 0 and work is not ctrl:
                        work[ab.C_STOP] = OVERTAKEN
            return False

    def _stop_helpers(self) -> None:
        with self._lock:            # else a helper clearing an OVERTAKEN in _end could wipe this stop and run on
            for work in self._helpers:
                work[0][ab.C_STOP] = 1

    def _join_helpers(self) -> None:
        for thread in self._helper_threads:
            thread.join()
        self._helper_threads = []

    def _nodes(self) -> int:
        """Nodes searched so far by all the threads."""
        return int(self.ctrl[ab.C_NODES]) + sum(int(work[0][ab.C_NODES]) for work in self._helpers)
