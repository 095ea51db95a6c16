"""Endgame tables, written once for every game: distance to mate in plies, both sides to move, for xiangqi
(with the Asian perpetual-check rule; files ``<MATERIAL>.xtb``) and chess (``<MATERIAL>.ctb``).

The table core (these modules import no game package):

* :mod:`.codes`    the value codes stored per position (draw, don't care, distance to mate, rule results)
* :mod:`.material` material signatures: names, canonical orientation, keys, the index layout (``spec``)
* :mod:`.index`    the index kernels (``decode``, ``encode_board``), compiled per game
* :mod:`.store`    the file format (header, chunk table, run-length + zstandard chunks with checksums), read
                   as hostile (every size checked before it sizes anything, values within the header's bounds)
* :mod:`.manifest` the SHA-256 digests of a directory's tables (``MANIFEST.sha256``), written by every build
* :mod:`.cache`    the LRU chunk pool the numba search reads directly
* :mod:`.probe`    ``Tablebases`` (files, cache, errors, ``probe``/``rank_moves``/``best_move``), the chunk read
                   ``tb_read``, ``tb_score``, and the probe kernels compiled per game (``tb_probe``)
* :mod:`.tableset` every game's tables from one setting: what the engine opens

Each game's own parts live in ``engine.<game>.tables`` (index and material letters, probe kernel; its generator
in ``engine.<game>.tables.build``; ``Game.tables()`` hands them out).  The builders, which no search kernel
reaches, live apart in :mod:`.build`: dependency order (``Builder``), what every retrograde generator shares
(``build.levels``), the perpetual-check pass (``build.rule``; the game supplies the step), builds on Ray
(``build.cluster``, ``build.sliced``), a directory checked whole (``build.verify``, ``shuai tb verify``), the
verdicts a rule changed (``build.verdicts``) and the ``shuai tb`` commands (``build.cli``).

Nothing heavy is imported here; the submodules import numba.
"""
import os
from pathlib import Path

DEFAULT_CACHE_MB = 64       # the chunk cache (egtbcache / EGTBCache)
DEFAULT_PROBE_DEPTH = 2     # egtbply: the disk is read only at nodes with at least this many plies left
MAX_CACHE_MB = 4096


def default_directory(root: Path = Path(__file__).resolve().parents[2]) -> Path:
    """Where tables are built and looked for unless told otherwise, whatever directory a GUI starts the engine
    from: the project's ``tablebases/`` beside the ``engine`` package in a source checkout (``root``), else --
    an installed package (``pip install``, then ``shuai setup``) -- the user's data directory:
    ``%LOCALAPPDATA%\\shuai\\tablebases`` on Windows, ``$XDG_DATA_HOME/shuai/tablebases`` (by default
    ``~/.local/share/shuai/tablebases``) elsewhere."""
    if (root / "pyproject.toml").is_file():
        return root / "tablebases"
    if os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"]) / "shuai" / "tablebases"
    data = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(data) / "shuai" / "tablebases"


def warm(game, directory=None) -> None:
    """Compile (or load from numba's cache) the probe code ``game``'s tables run from Python (for ``shuai
    warmup``; the search's probe kernel is compiled with the game's search)."""
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        tbs = game.tablebases(directory or d, memory_mb=1)
        pos = game.position()
        tbs.rank_moves(pos)                            # the Python-side probe (root moves, PV display)
        tbs.probe(pos).score(1)                        # the score of a root the tables know
        # What rank_moves runs only inside a table (none here): unwarmed, the first won ending of a game
        # compiled them mid-search, seconds on a fresh cache, and lost on time at 2 s + 0.02 s.
        tbs.locate(tbs.arrays, pos.board, pos.side)
        tbs.attack(pos, pos.legal_moves()[0])
