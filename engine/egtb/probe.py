"""Probing the tables: the Python object that owns files and cache, and the numba functions the search calls.

Design (search integration)
---------------------------
The search runs in ``@njit(nogil=True)`` kernels, which can neither read files nor call zstandard.  So the
decompressed chunks live in a numba-visible pool (:mod:`engine.egtb.cache`): ``uint16[nslots, width]`` plus a
``chunk id -> slot`` array.  :class:`Tablebases` owns the files, the pool and the error list; its
``arrays`` is the pair of numpy arrays ``(meta, pool)`` (layout in :mod:`engine.egtb.cache`) that the search
passes to

    tb_probe(tb, board, side, allow_disk) -> code      (UNKNOWN = -1, else a value code, see engine.egtb.codes)

``code`` is the stored value for the side to move: ``code_wdl(code)`` gives 1 / 0 / -1, ``code_plies(code)`` the
distance to mate in plies (-1 when the result comes from the perpetual-check rule), and
``tb_score(code, ply)`` a search score on the scale of ``engine.tt`` (mate in n plies from the root =
``MATE_SCORE - n``; rule results below every mate and above any evaluation, see ``RULE_SCORE``).

The disk is read only near the root, where nodes are few: at nodes with at least ``egtbply`` plies of search
left; deeper in the tree only chunks already in memory are used.  The depth is counted from the leaves, as
Stockfish's SyzygyProbeDepth is: the search passes ``allow_disk = depth_left >= egtbply``.

* chunk in the pool: the value is returned at once (measured 0.23-0.46 us a probe, one small work array);
* chunk absent, ``allow_disk`` false: ``UNKNOWN`` (counted as a miss), the search goes on as without tables;
* chunk absent, ``allow_disk`` true: the kernel enters a ``numba.objmode`` block that takes the GIL, reads
  and decompresses the chunk into the least recently used slot and returns its value.  Checked: objmode works
  with ``cache=True`` and ``nogil=True`` (the compiled code is cached and reloaded like any other kernel); one
  objmode round trip costs ~4 us; a chunk read, checked and decompressed from the kernel costs ~45-55 us in all
  (scripts/bench_egtb.py).  The search thread is the only writer while it runs; a reader that raced with an
  eviction notices it (``slot_chunk`` is checked after the read) and treats the probe as a miss.

Errors: a missing directory, or a file that is truncated, corrupt (bad magic, bad checksum) or unreadable is
reported once (``take_errors()`` returns each message a single time, for ``info string error: ...``) and the
table is left out: its probes are ``UNKNOWN``.
"""
from __future__ import annotations

import itertools
import os
import threading
import warnings
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import numpy as np
from numba import njit, objmode
from numba.core.errors import NumbaWarning

from ..scores import MATE_SCORE, TB_RULE_ORDER_CAP as RULE_ORDER_CAP, TB_RULE_SCORE as RULE_SCORE
from ..xiangqi.board import NSQ, BLACK_BIT
from .cache import (ChunkPool, CTR_CLOCK, CTR_HITS, CTR_MISSES, CTR_LOADS, CTR_EVICTIONS, CTR_ID, CTR_MAXPIECES,
                    CTR_SEARCH_LOADS, INFO_BASE, INFO_CHUNK, INFO_LEN, INFO_NCHUNKS, INFO_OK, SEC_FLIP, SEC_INFO,
                    SEC_KEYS, SEC_SLOT_CHUNK, SEC_SLOT_OF, SEC_SPECS, SEC_STAMPS, SEC_TNUM)
from .codes import DIST0, DRAW, ILLEGAL, RULE_BASE, UNKNOWN     # also imported from here (xiangqi.kernels)
from .index import GROUP_KINDS, MAX_SLOTS, SPEC_LEN, Material, MaterialError, encode_board
from .store import MAGIC, SUFFIX, TableError, TableFile

warnings.filterwarnings("ignore", message="Code running in object mode", category=NumbaWarning)

# Rule-decided results score RULE_SCORE - order - ply (``engine.scores``): below every mate, so they are never
# reported as "mate N", above any evaluation, just under the search's own repetition verdicts.

TB_META, TB_POOL = 0, 1           # ``Tablebases.arrays`` = (meta, pool), see engine.egtb.cache


def _key_weights():
    w = np.zeros(16, np.int64)
    wf = np.zeros(16, np.int64)
    for colour in (0, 1):
        for i, kind in enumerate(GROUP_KINDS):
            # Red's digits are the high six of twelve base-8 digits (see index.material_key_of_counts).
            w[colour * BLACK_BIT + kind] = 8 ** ((11 - i) if colour == 0 else (5 - i))
            wf[colour * BLACK_BIT + kind] = 8 ** ((5 - i) if colour == 0 else (11 - i))
    return w, wf


KEY_W, _ = _key_weights()


# ----------------------------------------------------------------------------------------------------------------
# Kernels
# ----------------------------------------------------------------------------------------------------------------

@njit(cache=True, nogil=True, inline="always")
def tb_locate(tb, board, side):
    """(table number, index) of a position, or (-1, 0) when no table holds its material."""
    meta = tb[TB_META]
    most = meta[CTR_MAXPIECES]
    if most == 0:                                    # no tables at all
        return -1, 0
    key = 0
    n = 0
    for sq in range(NSQ):
        p = board[sq]
        if p != 0:
            key += KEY_W[p]
            n += 1
            if n > most:                             # more pieces than any table has: stop counting
                return -1, 0
    keys = meta[SEC_KEYS]
    nkeys = meta[SEC_TNUM] - keys
    lo = 0
    hi = nkeys
    while lo < hi:                                   # binary search for the material key
        mid = (lo + hi) >> 1
        if meta[keys + mid] < key:
            lo = mid + 1
        else:
            hi = mid
    j = lo
    if j >= nkeys or meta[keys + j] != key:
        return -1, 0
    t = meta[meta[SEC_TNUM] + j]
    spec = meta[SEC_SPECS] + t * SPEC_LEN
    psq = np.empty(MAX_SLOTS, np.int64)
    idx = encode_board(board, side, meta[spec:spec + SPEC_LEN], meta[meta[SEC_FLIP] + j] != 0, psq)
    if idx < 0:
        return -1, 0
    return t, idx


def _kernel_load(tb_id, g):
    """Called from the kernels' objmode block: load chunk ``g`` of the registered Tablebases; its slot or -1."""
    tbs = _REGISTRY.get(int(tb_id))
    if tbs is None:
        return -1
    tbs.pool.ctr[CTR_SEARCH_LOADS] += 1
    return tbs._ensure(int(g))


@njit(cache=True, nogil=True)
def _load_sync(ctr, g):
    with objmode(s="int64"):
        s = _kernel_load(ctr[CTR_ID], g)
    return s


@njit(cache=True, nogil=True)
def tb_probe(tb, board, side, allow_disk):
    """Value code of the position for the side to move, or UNKNOWN.  ``allow_disk``: a chunk not in memory
    may be read now; otherwise only the pool is used."""
    t, idx = tb_locate(tb, board, side)
    if t < 0:
        return UNKNOWN
    return tb_read(tb, t, idx, allow_disk)


@njit(cache=True, nogil=True, inline="always")
def tb_read(tb, t, idx, allow_disk):
    """Value code of entry ``idx`` of table ``t`` (located by the game's ``*_locate``), or UNKNOWN."""
    meta = tb[TB_META]
    info = meta[SEC_INFO] + t * INFO_LEN
    if meta[info + INFO_OK] == 0:
        return UNKNOWN
    width = meta[info + INFO_CHUNK]
    g = meta[info + INFO_BASE] + idx // width
    s = meta[meta[SEC_SLOT_OF] + g]
    if s < 0:
        meta[CTR_MISSES] += 1
        if not allow_disk:
            return UNKNOWN
        s = _load_sync(meta, g)
        if s < 0:
            return UNKNOWN
    v = tb[TB_POOL][s, idx % width]
    if meta[meta[SEC_SLOT_CHUNK] + s] != g:          # evicted while we read
        return UNKNOWN
    meta[CTR_CLOCK] += 1
    meta[meta[SEC_STAMPS] + s] = meta[CTR_CLOCK]
    meta[CTR_HITS] += 1
    return np.int64(v)


@njit(cache=True, inline="always")
def code_wdl(code):
    """1: the side to move wins, -1: it loses, 0: draw (also for UNKNOWN / ILLEGAL)."""
    if code >= RULE_BASE:
        return 1 if (code - RULE_BASE) % 2 == 1 else -1
    if code >= DIST0:
        return 1 if (code - DIST0) % 2 == 1 else -1
    return 0


@njit(cache=True, inline="always")
def code_plies(code):
    """Distance to mate in plies; -1 for draws, unknown, and results decided by the perpetual-check rule."""
    if DIST0 <= code < RULE_BASE:
        return code - DIST0
    return -1


@njit(cache=True, inline="always")
def tb_score(code, ply):
    """Search score of a (known) code at distance ``ply`` from the root: mates as the search scores them
    (``MATE_SCORE - plies from the root``), rule-decided results below every mate
    (``RULE_SCORE - order - ply``, order capped), draws 0."""
    if code >= RULE_BASE:
        o = min((code - RULE_BASE) // 2, RULE_ORDER_CAP)
        if (code - RULE_BASE) % 2 == 1:
            return RULE_SCORE - o - ply
        return -(RULE_SCORE - o - ply)
    if code >= DIST0:
        d = code - DIST0
        if d % 2 == 1:
            return MATE_SCORE - ply - d
        return -(MATE_SCORE - ply - d)
    return 0


# ----------------------------------------------------------------------------------------------------------------
# Python side
# ----------------------------------------------------------------------------------------------------------------

_REGISTRY: "weakref.WeakValueDictionary[int, Tablebases]" = weakref.WeakValueDictionary()
_IDS = itertools.count(1)


@dataclass
class ProbeResult:
    kind: str                       # "win", "loss", "draw" or "unknown"
    plies: Optional[int] = None     # distance to mate in plies (win/loss), None otherwise
    code: int = UNKNOWN
    rule: bool = False              # decided by the perpetual-check rule (no distance to mate)

    def __str__(self):
        if self.kind in ("win", "loss"):
            return f"{self.kind} {self.plies}" if self.plies is not None else f"{self.kind} (perpetual check rule)"
        return self.kind

    @classmethod
    def from_code(cls, code: int) -> "ProbeResult":
        code = int(code)
        if code < 0 or code == ILLEGAL:
            return cls("unknown", None, code)
        if code == DRAW:
            return cls("draw", None, code)
        if code >= RULE_BASE:
            return cls("win" if (code - RULE_BASE) % 2 else "loss", None, code, True)
        d = code - DIST0
        return cls("win" if d % 2 else "loss", d, code)


@dataclass
class TableEntry:
    name: str
    file: Optional[TableFile]
    base: int
    ok: bool


class Tablebases:
    """All tables of a directory.  Files are opened (headers and chunk tables checked) at construction;
    chunks are read lazily into the cache.  Thread-safe for the Python methods (one lock)."""

    games = ("xiangqi",)            # the games whose positions these tables know
    suffix = SUFFIX                 # the game's table files (chess: ``chess_probe.ChessTablebases``)
    magic = MAGIC
    material_error = MaterialError

    @staticmethod
    def parse_material(name: str):
        return Material.parse(name)

    def __init__(self, directory="tablebases", memory_mb: float = 64, errors: Optional[list] = None):
        """``directory``: a directory, a list of them, or a string of several separated by ``;`` (or the
        system's path separator); where two hold the same table, the first wins.  None: no tables.
        ``errors``: a list to report errors into (shared with the object that opened this one)."""
        self.directories = split_paths(directory)
        self.directory = self.directories[0] if self.directories else None
        self._memory_mb = memory_mb
        self._companions = {}
        self._errors: list[str] = errors if errors is not None else []
        self._reported = 0
        self._lock = threading.RLock()
        self.tables: list[TableEntry] = []
        self._bases: list[int] = []
        files = []
        seen = set()
        for d in self.directories:              # none: every probe is UNKNOWN (the search's default)
            if not d.is_dir():
                self._error(f"tablebase directory {d} missing")
                continue
            for path in sorted(d.glob(f"*{self.suffix}")):
                if path.stem in seen:
                    continue
                try:
                    files.append(TableFile(path, self.magic))
                    seen.add(path.stem)
                except TableError as e:
                    self._error(str(e))
        keys, tables, flips = [], [], []
        specs, info = [], []
        base = 0
        width = 1
        max_pieces = 0
        for f in files:
            try:
                mat = self.parse_material(f.name)
            except self.material_error as e:
                self._error(f"{f.path}: {e}")
                continue
            if not mat.is_canonical() or mat.size != f.size or f.path.stem != mat.name:
                self._error(f"{f.path}: header does not match its material")
                continue
            t = len(self.tables)
            self.tables.append(TableEntry(mat.name, f, base, True))
            self._bases.append(base)
            specs.append(mat.spec())
            info.append((base, f.chunk, 1, f.nchunks))
            keys.append(mat.key(False))
            tables.append(t)
            flips.append(0)
            if mat.key(True) != mat.key(False):
                keys.append(mat.key(True))
                tables.append(t)
                flips.append(1)
            base += f.nchunks
            width = max(width, f.chunk)
            max_pieces = max(max_pieces, mat.pieces)
        order = np.argsort(np.array(keys, np.int64), kind="stable")
        self.memory_limit = int(memory_mb * 1024 * 1024)
        self.pool = ChunkPool(base, width, self.memory_limit, np.array(keys, np.int64)[order],
                              np.array(tables, np.int64)[order], np.array(flips, np.int64)[order],
                              np.array(info, np.int64), np.array(specs, np.int64))
        self._info = self.pool.info
        self.id = next(_IDS)
        self.pool.ctr[CTR_ID] = self.id
        self.pool.ctr[CTR_MAXPIECES] = max_pieces
        _REGISTRY[self.id] = self
        self.arrays = self.pool.arrays

    # -- errors ------------------------------------------------------------------------------------------------
    def _error(self, msg: str) -> None:
        if msg not in self._errors:
            self._errors.append(msg)

    @property
    def errors(self) -> list[str]:
        return list(self._errors)

    def take_errors(self) -> list[str]:
        """Messages not returned before (each error is reported once)."""
        with self._lock:
            new = self._errors[self._reported:]
            self._reported = len(self._errors)
            return new

    # -- information -------------------------------------------------------------------------------------------
    @property
    def names(self) -> list[str]:
        return [t.name for t in self.tables if t.ok]

    @property
    def max_pieces(self) -> int:
        return int(self.pool.ctr[CTR_MAXPIECES])

    def stats(self) -> dict:
        c = self.pool.ctr
        return {"tables": len(self.names), "hits": int(c[CTR_HITS]), "misses": int(c[CTR_MISSES]),
                "loads": int(c[CTR_LOADS]), "search_loads": int(c[CTR_SEARCH_LOADS]),
                "evictions": int(c[CTR_EVICTIONS]), "resident_chunks": self.pool.resident,
                "cache_bytes": self.pool.memory_bytes, "limit_bytes": self.memory_limit}

    # -- chunks ------------------------------------------------------------------------------------------------
    def _table_of_chunk(self, g: int) -> int:
        import bisect
        return bisect.bisect_right(self._bases, g) - 1

    def _ensure(self, g: int) -> int:
        """Slot of global chunk ``g``, reading it from disk if needed; -1 if its table is broken."""
        with self._lock:
            s = self.pool.lookup(g)
            if s >= 0:
                return s
            t = self._table_of_chunk(g)
            entry = self.tables[t]
            if not entry.ok:
                return -1
            try:
                values = entry.file.read_chunk(g - entry.base)
            except TableError as e:
                self._disable(t, str(e))
                return -1
            return self.pool.store(g, values)

    def _disable(self, t: int, msg: str) -> None:
        entry = self.tables[t]
        entry.ok = False
        self._info[t, INFO_OK] = 0
        self.pool.drop_range(entry.base, int(self._info[t, INFO_NCHUNKS]))
        self._error(msg)

    # -- other games -------------------------------------------------------------------------------------------
    def for_game(self, name: str):
        """The tables of game ``name``: this object for its own game; for chess, the chess tables (``*.ctb``) of
        the same directories, opened on first use with the same cache size and reporting errors into this
        object's list; None for a game without tables."""
        if name in self.games:
            return self
        if name == "chess":
            if name not in self._companions:
                from .chess_probe import ChessTablebases
                self._companions[name] = ChessTablebases(self.directories, memory_mb=self._memory_mb,
                                                         errors=self._errors)
            return self._companions[name]
        return None

    # -- probing from Python ------------------------------------------------------------------------------------
    def probe_code(self, board, side, disk: bool = True) -> int:
        """Value code for the side to move, or UNKNOWN.  ``disk`` False: only chunks already in the cache."""
        t, idx = tb_locate(self.arrays, board, side)
        return self._read(t, idx, disk)

    def _read(self, t: int, idx: int, disk: bool = True) -> int:
        """Value code of entry ``idx`` of table ``t`` (UNKNOWN for t < 0, a broken table, or a chunk that may
        not be read now)."""
        if t < 0 or not self.tables[t].ok:
            return UNKNOWN
        width = int(self._info[t, INFO_CHUNK])
        g = self.tables[t].base + int(idx) // width
        with self._lock:
            s = self._ensure(g) if disk else self.pool.lookup(g)
            if s < 0:
                return UNKNOWN
            return int(self.pool.pool[s, int(idx) % width])

    def probe(self, pos) -> ProbeResult:
        """Result for the side to move of a Position (or of a FEN string)."""
        if isinstance(pos, str):
            from ..game import game_of_fen
            game = game_of_fen(pos)
            if game is not None and game.name not in self.games and self.for_game(game.name) is not None:
                return self.for_game(game.name).probe(pos)
            from ..xiangqi.position import Position
            pos = Position(pos)
        elif getattr(getattr(pos, "game", None), "name", None) not in (None,) + tuple(self.games):
            other = self.for_game(pos.game.name)
            return other.probe(pos) if other is not None else ProbeResult("unknown")
        return ProbeResult.from_code(self.probe_code(pos.board, pos.side))

    def best_move(self, pos) -> Optional[str]:
        """The move the tables recommend: fastest mate when winning, slowest when losing, a drawing move when
        drawn (rule-decided results after real mates).  None if the position is not in the tables or has no
        legal move.  Captures are looked up in the smaller tables."""
        from ..xiangqi.notation import move_name
        ranked = self.rank_moves(pos)
        return move_name(ranked[0][1]) if ranked else None

    def rank_moves(self, pos, disk: bool = True):
        """[(score, move, ProbeResult of the position after it)], best first; [] if the position is unknown.
        ``disk`` False: only what the cache holds (a child not there is "unknown")."""
        from ..xiangqi.movegen import gives_check
        here = self.probe_code(pos.board, pos.side, disk)
        if here < 0:
            return []
        out = []
        for m in pos.legal_moves():
            check = bool(gives_check(pos.board, pos.st, np.int32(m)))
            pos.push(m)
            code = self.probe_code(pos.board, pos.side, disk)
            pos.pop()
            out.append((_move_score(code, check), m, ProbeResult.from_code(code)))
        out.sort(key=lambda x: -x[0])
        return out


def _move_score(child: int, check: bool) -> int:
    """How good a move is for the mover, from the code of the position after it (opponent to move)."""
    if child < 0 or child == ILLEGAL:
        return -1                                    # unknown: below any known draw
    if child >= RULE_BASE:
        o = (child - RULE_BASE) // 2
        if (child - RULE_BASE) % 2 == 0:             # the opponent loses by the rule
            return 500_000 - 4 * o - (1 if check else 0)
        return -500_000 + o
    if child >= DIST0:
        d = child - DIST0
        if d % 2 == 0:                               # the opponent is mated in d: we mate in d + 1
            return 1_000_000 - d
        return -1_000_000 + d
    return 0


def open_tables(paths: str = "", memory_mb: float = None) -> Optional[Tablebases]:
    """The tables a user asked for: ``paths`` as ``Tablebases`` takes them, or "" for the project's default
    directory (None when that does not exist: no tables, and nothing to complain about)."""
    from . import DEFAULT_CACHE_MB, default_directory
    if not paths:
        paths = default_directory()
        if not paths.is_dir():
            return None
    return Tablebases(paths, memory_mb=DEFAULT_CACHE_MB if memory_mb is None else memory_mb)


def split_paths(directory) -> list[Path]:
    """Directories from None, a path, a list of paths, or a ``;``/path-separator separated string."""
    if directory is None:
        return []
    if isinstance(directory, (list, tuple)):
        return [Path(d) for d in directory]
    if isinstance(directory, Path):
        return [directory]
    parts = str(directory).replace(os.pathsep, ";").split(";")
    return [Path(p.strip()) for p in parts if p.strip()]


def no_tablebases() -> Tablebases:
    """An object with no tables (every probe UNKNOWN): what the search holds when tables are off."""
    return Tablebases(None, memory_mb=0)


def arrays_type():
    """numba type of ``Tablebases.arrays`` (for explicit kernel signatures, see engine.alphabeta)."""
    from numba import typeof
    return typeof(no_tablebases().arrays)


@njit(cache=True, nogil=True)
def tb_probe_st(tb, board, st, allow_disk):
    """``tb_probe`` in the search's terms: (found, wdl, plies) for the side to move ``st[ST_SIDE]``;
    ``plies`` is the distance to mate (-1 for draws and rule-decided results)."""
    code = tb_probe(tb, board, st[0], allow_disk)
    if code < 0 or code == ILLEGAL:
        return False, 0, -1
    return True, code_wdl(code), code_plies(code)
