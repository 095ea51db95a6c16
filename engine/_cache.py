"""Where numba keeps its compiled kernels, and when they are stale.

numba checks a cached kernel only against the file that defines it, yet our kernels bake in tables and call
kernels from other files: after an edit to ``board.py`` a cached ``movegen`` kernel would still hold the old
tables.  So numba is pointed at our own cache locator (``engine._numba_locator``) whose "source stamp" is a
hash of the defining module *and every module of this package it imports, transitively*.  A kernel is
recompiled exactly when something it depends on changed.

This module only sets environment variables, so importing the package stays instant (no numba import);
it must run before numba is imported.
"""
import os
import sys
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent


def cache_root() -> Path:
    if os.environ.get("SHUAI_CACHE_DIR"):
        return Path(os.environ["SHUAI_CACHE_DIR"])
    local = PACKAGE_DIR / ".numba-cache"
    try:
        local.mkdir(exist_ok=True)
        if os.access(local, os.W_OK):
            return local
    except OSError:
        pass
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "shuai"


def configure() -> Path:
    root = cache_root()
    os.environ["NUMBA_CACHE_DIR"] = str(root)
    os.environ["NUMBA_CACHE_LOCATOR_CLASSES"] = "engine._numba_locator.DependencyLocator"
    if "numba" in sys.modules:                     # imported already (by a test runner, say): tell it directly
        config = sys.modules["numba"].config
        config.CACHE_DIR = str(root)
        config.CACHE_LOCATOR_CLASSES = os.environ["NUMBA_CACHE_LOCATOR_CLASSES"]
    return root


CACHE_DIR = configure()
