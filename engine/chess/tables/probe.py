"""Chess's probe kernels: :mod:`engine.egtb.probe`'s ``tb_locate``/``tb_probe`` compiled with the chess board,
material keys and ``encode_board``; materials where no side can mate (K v K, K + N v K, K + B v K) are a draw
without a table.  What the chess search kernels import.

The kernels know nothing of castling rights or en-passant squares: the caller (``chess.kernels.probe_tables``)
asks only about positions with neither.  The Python side (``engine.chess.tables.Tablebases``) answers a position
with a usable en-passant square from the table and the en-passant captures, and one with castling rights
``unknown``.
"""
import numpy as np

from ...egtb.probe import PROBE
from ...template import instantiate
from ..constants import NAME, NSQ  # noqa: F401  (NSQ: for the template)
from .index import KEY_W, encode_board, parse_material  # noqa: F401  (for the template)

DRAWN_KEYS = np.array(sorted({parse_material(n).key() for n in ("KvK", "KNvK", "KBvK", "KvKN", "KvKB")}), np.int64)

_probe = instantiate(PROBE, globals(), f"{NAME}_tables")
tb_locate = _probe.tb_locate
tb_probe = _probe.tb_probe
