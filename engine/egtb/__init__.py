"""Endgame tablebases for xiangqi (distance to mate in plies, both sides to move, Asian perpetual-check rule) and
chess (the ``chess_*`` modules: ``chess_index``, ``chess_generate``, ``chess_probe``, ``chess_build``; same file
format and cache, files ``<MATERIAL>.ctb``).

* :mod:`.codes`    the value codes stored per position (draw, don't care, distance to mate, rule results)
* :mod:`.index`    material signatures and the index function (general pairs with mirror symmetry,
                   combinatorial numbers for identical pieces, advisors/elephants/pawns on their own squares)
* :mod:`.generate` retrograde analysis by ply (captures from smaller tables) and the perpetual-check pass
* :mod:`.store`    the file format (header, chunk table, run-length + zstandard chunks with checksums)
* :mod:`.cache`    the LRU chunk pool the numba search reads directly
* :mod:`.probe`    ``Tablebases`` (files, cache, errors, ``probe``/``best_move``) and the ``@njit`` ``tb_probe``
* :mod:`.build`    dependency order, the default set; :mod:`.cli` the ``shuai tb`` commands

Nothing heavy is imported here; the submodules import numba.
"""
from pathlib import Path

DEFAULT_CACHE_MB = 64       # the chunk cache (egtbcache / EGTBCache)
DEFAULT_PROBE_DEPTH = 2     # egtbply: the disk is read only at nodes with at least this many plies left
MAX_CACHE_MB = 4096


def default_directory() -> Path:
    """Where tables are built and looked for unless told otherwise: the project's ``tablebases/`` beside the
    ``engine`` package in a source checkout (so a GUI that starts the engine from any directory finds them),
    else ``./tablebases``."""
    root = Path(__file__).resolve().parents[2]
    if (root / "pyproject.toml").is_file():
        return root / "tablebases"
    return Path("tablebases")


def warm(directory=None) -> None:
    """Compile (or load from numba's cache) the kernels a search uses to probe (for ``shuai warmup``)."""
    import tempfile
    from ..xiangqi.position import Position
    from .probe import Tablebases, tb_probe, tb_score
    with tempfile.TemporaryDirectory() as d:
        tbs = Tablebases(directory or d, memory_mb=1)
        pos = Position("4k4/9/9/9/9/9/9/9/3R5/5K3 w - - 0 1")
        code = tb_probe(tbs.arrays, pos.board, pos.side, True)
        tb_score(code, 1)
        tbs.rank_moves(pos)                            # the Python-side probe (root moves, PV display)


def warm_chess(directory=None) -> None:
    """The chess tables' Python-side probe (the search's is compiled with the chess search)."""
    import tempfile
    from ..chess.position import Position
    from .chess_probe import ChessTablebases
    with tempfile.TemporaryDirectory() as d:
        tbs = ChessTablebases(directory or d, memory_mb=1)
        tbs.rank_moves(Position("8/8/8/4k3/8/8/8/R3K3 w - - 0 1"))
