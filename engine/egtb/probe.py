"""Probing the tables, written once for every game: the Python object that owns files, cache and errors, and
the numba functions the search calls.

Design (search integration)
---------------------------
The search runs in ``@njit(nogil=True)`` kernels, which can neither read files nor call zstandard.  So the
decompressed chunks live in a numba-visible pool (:mod:`engine.egtb.cache`): ``uint16[nslots, width]`` plus a
``chunk id -> slot`` array.  :class:`Tablebases` owns the files, the pool and the error list; its
``arrays`` is the pair of numpy arrays ``(meta, pool)`` (layout in :mod:`engine.egtb.cache`) that the search
passes to its game's probe kernel (the :data:`PROBE` template, compiled per game in
``engine.<game>.tables.probe``)

    tb_probe(tb, board, side, allow_disk) -> code      (UNKNOWN = -1, else a value code, see engine.egtb.codes)

which finds the table by the board's material key, the entry by the game's ``encode_board``, and reads it
with :func:`tb_read`.  ``code`` is the stored value for the side to move:
``code_wdl(code)`` gives 1 / 0 / -1, ``code_plies(code)`` the distance to mate in plies (-1 when the result
comes from the perpetual-check rule), and ``tb_score(code, ply)`` a search score on the scale of
``engine.scores`` (mate in n plies from the root = ``MATE_SCORE - n``; rule results below every mate and above
any evaluation, see ``RULE_SCORE``).

The disk is read only near the root, where nodes are few: at nodes with at least ``egtbply`` plies of search
left; deeper in the tree only chunks already in memory are used.  The depth is counted from the leaves, as
Stockfish's SyzygyProbeDepth is: the search passes ``allow_disk = depth_left >= egtbply``.

* chunk in the pool: the value is returned at once (measured 0.23-0.46 us a probe, one small work array);
* chunk absent, ``allow_disk`` false: ``UNKNOWN`` (counted as a miss), the search goes on as without tables;
* chunk absent, ``allow_disk`` true: the kernel enters a ``numba.objmode`` block that takes the GIL, reads
  and decompresses the chunk into the least recently used slot and returns its value.  Checked: objmode works
  with ``cache=True`` and ``nogil=True`` (the compiled code is cached and reloaded like any other kernel); one
  objmode round trip costs ~4 us; a chunk read, checked and decompressed from the kernel costs ~45-55 us in all
  (``shuai bench egtb``).  The search thread is the only writer while it runs; a reader that raced with an
  eviction notices it (``slot_chunk`` is checked after the read) and treats the probe as a miss.

Errors: a missing directory, or a file that is truncated, corrupt (bad magic, bad checksum, values beyond its
header's bounds), unreadable (a directory, a FIFO, a device named like a table) or refused by its directory's
manifest is reported once (``take_errors()`` returns each message a single time, for ``info string error:
...``) and the table is left out: its probes are ``UNKNOWN``.  Every such failure is a ``TableError`` (see
``engine.egtb.store``), so nothing else reaches the search or the protocol.

A game's ``Tablebases`` subclass (``engine.<game>.tables``) names its files (suffix, magic), its materials, its
probe kernel and its positions and moves; the probing from Python (``probe``, ``rank_moves``, ``best_move``)
is this module's.
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

from ..template import Template
from ..scores import MATE_SCORE, NO_SCORE, TB_RULE_ORDER_CAP as RULE_ORDER_CAP, TB_RULE_SCORE as RULE_SCORE
from . import DEFAULT_CACHE_MB
from .cache import (ChunkPool, CTR_CLOCK, CTR_HITS, CTR_MISSES, CTR_LOADS, CTR_EVICTIONS, CTR_ID, CTR_LEN,
                    CTR_MAXPIECES, CTR_SEARCH_LOADS, INFO_BASE, INFO_CHUNK, INFO_LEN, INFO_NCHUNKS, INFO_OK, SEC_FLIP,
                    SEC_INFO, SEC_KEYS, SEC_SLOT_CHUNK, SEC_SLOT_OF, SEC_SPECS, SEC_STAMPS, SEC_TNUM)
from .codes import DIST0, DRAW, ILLEGAL, RULE_BASE, UNKNOWN
from .material import MAX_SLOTS, SPEC_LEN
from ..files import clip
from .store import TableError, TableFile

# How a move attacks, as a rule of repetition counts it (``Tablebases.attack``): the tables' move picker plays the
# least attacking of the moves that keep a rule win.
ATTACK_NONE, ATTACK_CHASE, ATTACK_CHECK = 0, 1, 2

warnings.filterwarnings("ignore", message="Code running in object mode", category=NumbaWarning)

# Rule-decided results score RULE_SCORE - order - ply (``engine.scores``): below every mate, so they are never
# reported as "mate N", above any evaluation, just under the search's own repetition verdicts.

TB_META, TB_POOL = 0, 1           # ``Tablebases.arrays`` = (meta, pool), see engine.egtb.cache
NO_TABLE, DRAWN = -1, -2          # ``board_key`` when no table holds the board / no side can ever mate


# ----------------------------------------------------------------------------------------------------------------
# Kernels
# ----------------------------------------------------------------------------------------------------------------

@njit(cache=True, nogil=True, inline="always")
def tb_find(meta, key):
    """The position of material ``key`` among the tables' sorted keys, or -1."""
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
    if lo >= nkeys or meta[keys + lo] != key:
        return -1
    return lo


def _kernel_load(tb_id, g):
    """Called from the kernels' objmode block: load chunk ``g`` of the registered Tablebases; its slot or -1."""
    tbs = _REGISTRY.get(int(tb_id))
    if tbs is None:
        return -1
    tbs.pool.ctr[CTR_SEARCH_LOADS] += 1
    return tbs.ensure(int(g))


@njit(cache=True, nogil=True)
def _load_sync(ctr, g):
    with objmode(s="int64"):
        s = _kernel_load(ctr[CTR_ID], g)
    return s


@njit(cache=True, nogil=True, inline="always")
def tb_read(tb, t, idx, allow_disk):
    """Value code of entry ``idx`` of table ``t`` (located by the game's ``tb_locate``), or UNKNOWN."""
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


@njit(cache=True, inline="always")
def tb_node_score(code, ply):
    """The search's score of a probed node: ``tb_score``, or NO_SCORE when the tables do not know it."""
    if code < 0 or code == ILLEGAL:
        return NO_SCORE
    return tb_score(code, ply)


# The probe kernels of a game, compiled with its board size ``NSQ``, its material-key weights ``KEY_W`` (piece
# code -> weight, see ``engine.egtb.material.key_weights``), the keys of its materials where no side can ever mate
# (``DRAWN_KEYS``: chess's K v K, K + N v K ...; none in xiangqi) and its ``encode_board`` (``engine.egtb.index``).
PROBE = Template(globals(), ("NSQ", "KEY_W", "DRAWN_KEYS", "encode_board"))


@PROBE.kernel(nogil=True, inline="always")
def board_key(board, most):
    """The material key of the board; NO_TABLE when it holds more than ``most`` pieces, DRAWN when no side can
    mate with its material."""
    key = 0
    n = 0
    for sq in range(NSQ):
        p = board[sq]
        if p != 0:
            key += KEY_W[p]
            n += 1
            if n > most:                             # more pieces than any table has: stop counting
                return NO_TABLE
    for k in range(DRAWN_KEYS.shape[0]):
        if key == DRAWN_KEYS[k]:
            return DRAWN
    return key


@PROBE.kernel(nogil=True, inline="always")
def tb_locate(tb, board, side):
    """(table number, index) of a position; (DRAWN, 0) for a material no side can mate with, (-1, 0) when no
    table holds it."""
    meta = tb[TB_META]
    most = meta[CTR_MAXPIECES]
    if most == 0:                                    # no tables at all
        return -1, 0
    key = board_key(board, most)
    if key < 0:
        return key, 0
    j = tb_find(meta, key)
    if j < 0:
        return -1, 0
    t = meta[meta[SEC_TNUM] + j]
    spec = meta[SEC_SPECS] + t * SPEC_LEN
    psq = np.empty(MAX_SLOTS, np.int64)
    idx = encode_board(board, side, meta[spec:spec + SPEC_LEN], meta[meta[SEC_FLIP] + j] != 0, psq)
    if idx < 0:
        return -1, 0
    return t, idx


@PROBE.kernel(nogil=True, inline="always")
def tb_probe(tb, board, side, allow_disk):
    """Value code of the position for the side to move, or UNKNOWN.  ``allow_disk``: a chunk not in memory
    may be read now; otherwise only the pool is used."""
    t, idx = tb_locate(tb, board, side)
    if t < 0:
        return np.int64(DRAW) if t == DRAWN else UNKNOWN
    return tb_read(tb, t, idx, allow_disk)


@PROBE.kernel(nogil=True)
def tb_probe_st(tb, board, st, allow_disk):
    """``tb_probe`` in the search's terms: (found, wdl, plies) for the side to move ``st[0]``; ``plies`` is the
    distance to mate (-1 for draws and rule-decided results)."""
    code = tb_probe(tb, board, st[0], allow_disk)
    if code < 0 or code == ILLEGAL:
        return False, 0, -1
    return True, code_wdl(code), code_plies(code)


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
    rule: bool = False              # decided by the rule (no distance to mate) ...
    built_under: str = "chase"      # ... of the table's file: "check" (perpetual check) or "chase" (and chase)

    def __str__(self):
        if self.kind in ("win", "loss"):
            if self.plies is not None:
                return f"{self.kind} {self.plies}"
            return f"{self.kind} ({'perpetual check' if self.built_under == 'check' else 'perpetual check or chase'} rule)"
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

    def score(self, ply: int) -> int:
        """The search's score of this (known) result ``ply`` plies from the root (``tb_score``)."""
        return int(tb_score(self.code, ply))


class ErrorLog:
    """Error messages, each kept once and reported once (the tables of several games may share one)."""

    def __init__(self):
        self.messages: list[str] = []
        self._reported = 0
        self._lock = threading.Lock()

    def add(self, msg: str) -> None:
        with self._lock:
            if msg not in self.messages:
                self.messages.append(msg)

    @property
    def errors(self) -> list[str]:
        return list(self.messages)

    def take(self) -> list[str]:
        """Messages not returned before."""
        with self._lock:
            new = self.messages[self._reported:]
            self._reported = len(self.messages)
            return new


@dataclass
class TableEntry:
    name: str
    file: Optional[TableFile]
    base: int
    ok: bool


def chunk_pool(mats, memory_bytes: int) -> ChunkPool:
    """The chunk cache of tables ``mats`` -- (Material, chunk width, chunk count) each, numbered in this order,
    their chunks one after the other -- in ``memory_bytes``: what the kernels know of every table (its material
    keys both ways round, index layout, first chunk) and the largest piece count."""
    keys, tables, flips, specs, info = [], [], [], [], []
    base = 0
    for t, (mat, width, nchunks) in enumerate(mats):
        for flip in sorted({False, mat.key(True) != mat.key(False)}):
            keys.append(mat.key(flip))
            tables.append(t)
            flips.append(int(flip))
        specs.append(mat.spec())
        info.append((base, width, 1, nchunks))
        base += nchunks
    order = np.argsort(np.array(keys, np.int64), kind="stable")
    pool = ChunkPool(base, max([1] + [m[1] for m in mats]), memory_bytes, np.array(keys, np.int64)[order],
                     np.array(tables, np.int64)[order], np.array(flips, np.int64)[order],
                     np.array(info, np.int64).reshape(-1, INFO_LEN), np.array(specs, np.int64))
    pool.ctr[CTR_MAXPIECES] = max([0] + [m[0].pieces for m in mats])
    return pool


class Tablebases:
    """All tables of one game in a directory (or several).  Files are opened (headers and chunk tables
    checked) at construction; chunks are read lazily into the cache.  Thread-safe for the Python methods (one
    lock).  This class itself holds no game's tables (``no_tablebases``); a game's subclass sets the hooks
    below."""

    suffix = None                   # the game's table files: ``<MATERIAL><suffix>`` ...
    magic = None                    # ... with this magic (engine.egtb.store)

    @staticmethod
    def parse_material(name: str):
        """The game's Material of a table name (raises MaterialError)."""
        raise NotImplementedError

    @staticmethod
    def locate(tb, board, side):
        """The game's ``tb_locate`` kernel: (table number, index), (DRAWN, 0) or (-1, 0)."""
        return -1, 0

    def __init__(self, directory="tablebases", memory_mb: float = DEFAULT_CACHE_MB,
                 errors: Optional["ErrorLog"] = None):
        """``directory``: a directory, a list of them, or a string of several separated by ``;`` (or the
        system's path separator); where two hold the same table, the first wins.  None: no tables.
        ``errors``: the ErrorLog to report into (shared with the other games' tables of the same set)."""
        self.directories = split_paths(directory)
        self.directory = self.directories[0] if self.directories else None
        self.log = errors if errors is not None else ErrorLog()
        self._lock = threading.RLock()
        self.tables: list[TableEntry] = []
        files = []
        seen = set()
        for d in self.directories:              # none: every probe is UNKNOWN (the search's default)
            for path in self._table_files(d):
                if path.stem in seen:
                    continue
                try:
                    files.append(TableFile(path, self.magic))
                    seen.add(path.stem)
                except TableError as e:
                    self.log.add(str(e))
        mats = []
        for f in files:
            try:
                mat = f.material(self.parse_material)
            except TableError as e:
                self.log.add(str(e))
                f.close()
                continue
            self.tables.append(TableEntry(mat.name, f, sum(m[2] for m in mats), True))
            mats.append((mat, f.chunk, f.nchunks))
        self._bases = [t.base for t in self.tables]
        if not files:               # no cache without a table: it would be a pool of one-entry chunks
            memory_mb = 0
        self.memory_limit = int(memory_mb * 1024 * 1024)
        self.pool = chunk_pool(mats, self.memory_limit)
        self._info = self.pool.info
        self.id = next(_IDS)
        self.pool.ctr[CTR_ID] = self.id
        _REGISTRY[self.id] = self
        self.arrays = self.pool.arrays

    @classmethod
    def unreadable(cls, material: str) -> "Tablebases":
        """Tables that know one table, ``material``, and can read none of its chunks: in the kernels, a probe of
        it that may read the disk enters their chunk read (``_load_sync``), which finds no Tablebases of its id
        and answers UNKNOWN; to Python they hold no table (``names`` is empty).  What the warm-up searches with
        (``engine.warmup.warm_disk_read``)."""
        tables = cls(None, memory_mb=0)
        mat = cls.parse_material(material)
        tables.pool = chunk_pool([(mat, mat.size, 1)], 0)        # one chunk: every index reads chunk 0
        tables.pool.ctr[CTR_ID] = -1
        tables._info = tables.pool.info
        tables.arrays = tables.pool.arrays
        return tables

    def _table_files(self, directory: Path) -> list[Path]:
        """The files named like this game's tables in ``directory`` (sorted); a missing or unreadable directory
        is one error line and no files."""
        try:
            if not directory.is_dir():
                self.log.add(f"tablebase directory {clip(directory, 200)} missing")
                return []
            return sorted(directory.glob(f"*{self.suffix}"))
        except OSError as e:                        # a name too long, a directory that cannot be listed ...
            self.log.add(f"tablebase directory {clip(directory, 200)} unreadable ({e.strerror or e})")
            return []

    # -- errors ------------------------------------------------------------------------------------------------
    @property
    def errors(self) -> list[str]:
        return self.log.errors

    def take_errors(self) -> list[str]:
        return self.log.take()

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

    def ensure(self, g: int) -> int:
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
        self.log.add(msg)

    # -- the game's positions (per game) ----------------------------------------------------------------------
    def position(self, fen: str):
        """The game's Position of a FEN."""
        raise NotImplementedError

    def move_name(self, move: int) -> str:
        raise NotImplementedError

    def attack(self, pos, move: int) -> int:
        """How ``move`` attacks, as the game's rule would count it: ``ATTACK_CHECK``, ``ATTACK_CHASE`` or
        ``ATTACK_NONE`` (ranks the moves into rule-decided results; none where the game's tables hold no
        such results)."""
        return ATTACK_NONE

    def position_code(self, pos, disk: bool = True) -> int:
        """Value code of a Position for the side to move, or UNKNOWN (a game whose positions carry more than
        the board and the side to move says what the tables know of them)."""
        return self.probe_code(pos.board, pos.side, disk)

    # -- probing from Python ------------------------------------------------------------------------------------
    def probe_code(self, board, side, disk: bool = True) -> int:
        """Value code for the side to move, or UNKNOWN.  ``disk`` False: only chunks already in the cache."""
        t, idx = self.locate(self.arrays, board, side)
        if t == DRAWN:
            return DRAW
        return self.read(int(t), int(idx), disk)

    def read(self, t: int, idx: int, disk: bool = True) -> int:
        """Value code of entry ``idx`` of table ``t`` (UNKNOWN for t < 0, a broken table, or a chunk that may
        not be read now)."""
        if t < 0 or not self.tables[t].ok:
            return UNKNOWN
        width = int(self._info[t, INFO_CHUNK])
        g = self.tables[t].base + int(idx) // width
        with self._lock:
            s = self.ensure(g) if disk else self.pool.lookup(g)
            if s < 0:
                return UNKNOWN
            return int(self.pool.pool[s, int(idx) % width])

    def probe(self, pos) -> ProbeResult:
        """Result for the side to move of a Position (or of a FEN string)."""
        if isinstance(pos, str):
            pos = self.position(pos)
        result = ProbeResult.from_code(self.position_code(pos))
        if result.rule:
            result.built_under = self.rule_of(pos)
        return result

    def rule_of(self, pos) -> str:
        """The rule the table holding ``pos`` was built under ("none", "check", "chase"; "" if none holds it)."""
        t, _ = self.locate(self.arrays, pos.board, pos.side)
        return self.tables[int(t)].file.rule if t >= 0 else ""

    @property
    def rules(self) -> dict:
        """How many of the open tables were built under each rule."""
        counts = {}
        for t in self.tables:
            if t.ok:
                counts[t.file.rule] = counts.get(t.file.rule, 0) + 1
        return counts

    def best_move(self, pos) -> Optional[str]:
        """The move the tables recommend: fastest mate when winning, slowest when losing, a drawing move when
        drawn (rule-decided results after real mates).  None if the position is not in the tables or has no
        legal move.  Captures are looked up in the smaller tables."""
        ranked = self.rank_moves(pos)
        return self.move_name(ranked[0][1]) if ranked else None

    def rank_moves(self, pos, disk: bool = True):
        """[(score, move, ProbeResult of the position after it)], best first; [] if the position is unknown.
        ``disk`` False: only what the cache holds (a child not there is "unknown")."""
        here = self.position_code(pos, disk)
        if here < 0:
            return []
        out = []
        for m in pos.legal_moves():
            attack = self.attack(pos, m)
            pos.push(m)
            code = self.position_code(pos, disk)
            pos.pop()
            out.append((move_score(code, attack), m, ProbeResult.from_code(code)))
        out.sort(key=lambda x: -x[0])
        return out


def move_score(child: int, attack: int = ATTACK_NONE) -> int:
    """How good a move is for the mover, from the code of the position after it (opponent to move) and how the
    move attacks.  Into a position the rule makes lost for the opponent: the lowest order first (the rule
    pass's rounds: each leads into lower orders or stays in its own round), then a move that attacks least --
    the winner's way to stay in a round never checks (a perpetual-check round) or attacks at all (a chase
    round), and the loser must be the only side attacking for ever."""
    if child < 0 or child == ILLEGAL:
        return -1                                    # unknown: below any known draw
    if child >= RULE_BASE:
        o = (child - RULE_BASE) // 2
        if (child - RULE_BASE) % 2 == 0:             # the opponent loses by the rule
            return 500_000 - 4 * o - attack
        return -500_000 + o
    if child >= DIST0:
        d = child - DIST0
        if d % 2 == 0:                               # the opponent is mated in d: we mate in d + 1
            return 1_000_000 - d
        return -1_000_000 + d
    return 0


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
    """An object with no tables (every probe UNKNOWN)."""
    return Tablebases(None, memory_mb=0)


def arrays_type():
    """numba type of ``Tablebases.arrays`` (for explicit kernel signatures, see engine.alphabeta)."""
    from numba import typeof
    return typeof(no_tablebases().arrays)
