"""Shuai (帥): a xiangqi engine in Python and numba.  The command line lives in ``engine.cli``."""
from . import _cache  # noqa: F401  (points numba's cache at a directory keyed by the source tree)

__version__ = "0.1.0"
