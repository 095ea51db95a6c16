"""Xiangqi's probe kernels: :mod:`engine.egtb.probe`'s ``tb_locate``/``tb_probe`` compiled with xiangqi's board,
material keys and ``encode_board``.  What the search kernels import."""
import numpy as np

from ...egtb.probe import PROBE
from ...template import instantiate
from ..board import NSQ  # noqa: F401  (for the template)
from ..constants import NAME
from .index import KEY_W, encode_board  # noqa: F401  (for the template)

DRAWN_KEYS = np.zeros(0, np.int64)                  # no material is a draw without a table in xiangqi

_probe = instantiate(PROBE, globals(), f"{NAME}_tables")
tb_locate = _probe.tb_locate
tb_probe = _probe.tb_probe
tb_probe_st = _probe.tb_probe_st
