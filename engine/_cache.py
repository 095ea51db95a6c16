"""Where numba keeps its compiled kernels.

numba's own cache check looks only at the file that defines a kernel, but our kernels bake in tables and
call kernels from other files: after an edit to ``board.py`` a cached ``movegen`` kernel would still hold the
old tables.  So the cache directory is named after a hash of every source file of the package: any edit
starts a fresh cache, an unchanged tree always hits it.  (Only files that import numba are hashed.)  This must run before numba is imported.
"""
import hashlib
import os
import shutil
import sys
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent


def source_digest() -> str:
    """Hash of every source file that imports numba (the only ones whose edits can stale the cache)."""
    h = hashlib.blake2b(digest_size=8)
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        text = path.read_bytes()
        if (b"import numba" in text or b"from numba" in text) and path.name != "_cache.py":
            h.update(str(path.relative_to(PACKAGE_DIR)).encode())
            h.update(text)
    return h.hexdigest()


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
    cache_dir = cache_root() / source_digest()
    os.environ["NUMBA_CACHE_DIR"] = str(cache_dir)
    if "numba" in sys.modules:                       # imported already (by a test runner, say): tell it directly
        sys.modules["numba"].config.CACHE_DIR = str(cache_dir)
    return cache_dir


def prune_stale(current: Path) -> None:
    """Remove caches of older source trees (called by ``shuai warmup``)."""
    for entry in current.parent.iterdir():
        if entry.is_dir() and entry != current:
            shutil.rmtree(entry, ignore_errors=True)


CACHE_DIR = configure()
