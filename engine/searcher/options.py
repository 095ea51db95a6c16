"""The searcher's settings between searches: the hash table, the threads, the tunable parameters, the networks,
and the work arrays shaped for the game searched (``_use_game``).  ``Options`` is a part of the ``Searcher``:
it owns the parameters and the networks; the tables' and books' settings are the root's (``Root``)."""
from __future__ import annotations

from typing import Optional

from .. import alphabeta as ab
from .. import search_params


class Options:
    def _init_options(self) -> None:
        self.param_values: dict = {}            # the search's tunable parameters set by name (set_params) ...
        self.params = search_params.array()     # ... and all of them for this search (_use_game): the kernels'
        self.time_params = search_params.time_values()      # ... and the time manager's
        self.networks: dict = {}                # game name -> its evaluation network (set_network), if any

    def set_hash(self, mb: int) -> None:
        from .. import tt
        self.wait()
        self.tt = tt.new_table(mb)

    def set_params(self, values: Optional[dict] = None) -> None:
        """Search with these tunable parameters (``engine.search_params``: {name: value}, checked there); the
        others at their defaults, the game's where it has its own (``Game.search_params``).  None or {}: all
        at their defaults."""
        self.wait()
        self.param_values = dict(values or {})

    def set_network(self, game, network=None) -> None:
        """Evaluate ``game``'s positions with ``network`` (an ``engine.nnue.network.Network``; None: with the
        game's hand-written evaluation).  The table is cleared: its static evaluations are the other one's."""
        from .. import tt
        self.wait()
        if network is None:
            self.networks.pop(game.name, None)
        else:
            self.networks[game.name] = network
        self._thread_nets = []
        self.tt = tt.cleared(self.tt)

    def set_threads(self, n: int) -> None:
        """Search with ``n`` threads (from 1; the Threads option bounds it)."""
        self.wait()
        self.threads = max(1, int(n))

    def _use_game(self, game) -> None:
        """Work arrays shaped for ``game`` (made anew only when the game changes), one set per thread, and the
        search parameters: the game's defaults, then those set by name."""
        kernels = game.kernels()
        values = {**game.search_params, **self.param_values}
        self.params = search_params.array(values)
        self.time_params = search_params.time_values(values)
        if game is not self.game:
            (ctrl, self.ss, self.pv, self.moves, self.order, self.history,
             self.reps) = ab.new_work_arrays(kernels.MAX_MOVES, kernels.HISTORY_SIZE)
            self.ctrl[:] = ctrl                 # the same array: stop() may hold it
            self._helpers = []
            self.game = game
        del self._helpers[self.threads - 1:]
        while len(self._helpers) < self.threads - 1:
            self._helpers.append(ab.new_work_arrays(kernels.MAX_MOVES, kernels.HISTORY_SIZE))

    def hash_entry(self, pos):
        """What the transposition table holds for a position: (move name or None, score, depth, bound) with
        bound one of "exact", "lower", "upper"; None if it holds nothing."""
        from ..tt import BOUND_EXACT, BOUND_LOWER, score_from_tt, tt_probe
        move_name = pos.game.move_name
        key, lock = pos.keys[pos.ply]
        found, move, score, depth, flag, _ = tt_probe(self.tt, key, lock)
        if not found:
            return None
        bound = {BOUND_EXACT: "exact", BOUND_LOWER: "lower"}.get(int(flag), "upper")
        return move_name(int(move)) if move else None, int(score_from_tt(score, 0)), int(depth), bound

    def new_game(self) -> None:
        """Forget everything learnt (transposition table, history)."""
        from .. import tt
        self.wait()
        self.tt = tt.cleared(self.tt)
        if self.game is not None:
            self.history[:] = 0
            self.ss[:] = 0
        self._helpers = []                      # made afresh by the next search
