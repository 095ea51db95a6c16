"""The manifest of a table directory: the SHA-256 digest of every table file ``shuai tb build`` wrote there.

Checksums inside a table (CRC-32) detect damage, not tampering: a file rewritten with wrong values and fresh
CRCs reads as well as the real one.  So a built set carries one more file, ``MANIFEST.sha256``, in the format
of ``sha256sum`` (one line a file: 64 hex digits, two spaces, the file name; sorted by name), which
``sha256sum -c MANIFEST.sha256`` checks too.  ``tb build`` updates it atomically with every table it writes;
``shuai tb verify`` checks a directory against it; the engine refuses a listed table whose digest differs
(``engine.egtb.store.TableFile``).  A table the manifest does not list, or a directory without one (an older
set, a user's own), is read as before: the manifest guards distributed sets, it does not forbid others.

What it proves: that each listed file is the one the builder wrote (or the one its distributor listed).  It is
not a signature: whoever can rewrite the tables can rewrite the manifest too -- compare the manifest's own
digest with the one its source publishes when that matters.

Cost: hashing reads the whole file (about 1.4 GB/s here), once per file per process: a digest checked is
remembered with the file's identity (device, inode, size, modification and change times), so reopening the
tables (a changed option) hashes nothing again.
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import re
import threading
from pathlib import Path
from typing import Optional

from ..files import UnreadableFile, atomic_writer, clip, read_text

MANIFEST_NAME = "MANIFEST.sha256"
MAX_MANIFEST = 4 << 20              # bytes: about 50,000 lines, far more tables than any set has
HASH_BLOCK = 1 << 20                # bytes read at a time while hashing
LINE = re.compile(r"([0-9a-fA-F]{64}) [ *]([^/\\\0]+)")     # sha256sum's text (" ") and binary ("*") modes


class ManifestError(Exception):
    """A manifest that cannot be read or parsed (one line naming it)."""


def manifest_path(directory) -> Path:
    return Path(directory) / MANIFEST_NAME


def parse(text: str, label: str = MANIFEST_NAME) -> dict[str, str]:
    """file name -> digest (lower-case hex) of a manifest's text; ManifestError on a line not of its format."""
    digests = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        match = LINE.fullmatch(line)
        if match is None or match[2] in digests:
            why = "a file listed twice" if match else "not '<sha256>  <file name>'"
            raise ManifestError(f"{label} line {number}: {why} ({clip(line)})")
        digests[match[2]] = match[1].lower()
    return digests


def format_manifest(digests: dict[str, str]) -> str:
    return "".join(f"{digests[name]}  {name}\n" for name in sorted(digests))


_read_cache: dict = {}              # directory -> (the manifest's identity, its digests)
_verified: set = set()              # (file identity, digest) pairs found equal
_lock = threading.Lock()


def _identity(st: os.stat_result) -> tuple:
    """What changes when a file is replaced or rewritten (the change time cannot be set back by a user)."""
    return st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns


def read_manifest(directory) -> Optional[dict[str, str]]:
    """The digests listed in ``directory``'s manifest; None when it has none; ManifestError when it has one that
    cannot be read or parsed.  Parsed once while the file stays the same."""
    path = manifest_path(directory)
    try:
        st = path.lstat()
    except FileNotFoundError:
        return None
    except OSError as e:
        raise ManifestError(f"{clip(path, 200)}: cannot read ({e.strerror})") from None
    key = str(Path(directory).resolve())
    with _lock:
        cached = _read_cache.get(key)
    if cached is not None and cached[0] == _identity(st):
        return cached[1]
    try:
        digests = parse(read_text(path, MAX_MANIFEST), clip(path, 200))
    except UnreadableFile as e:
        raise ManifestError(str(e)) from None
    with _lock:
        _read_cache[key] = (_identity(st), digests)
    return digests


def expected_digest(path) -> Optional[str]:
    """The digest ``path``'s directory manifest lists for it; None when it lists none (or there is none)."""
    path = Path(path)
    digests = read_manifest(path.parent)
    return None if digests is None else digests.get(path.name)


def fd_digest(fd: int) -> str:
    """The SHA-256 (hex) of the whole file open as ``fd``, read in blocks from its start."""
    sha = hashlib.sha256()
    offset = 0
    while True:
        block = os.pread(fd, HASH_BLOCK, offset)
        if not block:
            return sha.hexdigest()
        sha.update(block)
        offset += len(block)


def digest_matches(fd: int, expected: str) -> bool:
    """Does the file open as ``fd`` have the digest ``expected``?  Remembered per file identity."""
    key = (_identity(os.fstat(fd)), expected)
    if key in _verified:
        return True
    if fd_digest(fd) != expected:
        return False
    _verified.add(key)
    return True


def bytes_digest(parts) -> str:
    sha = hashlib.sha256()
    for b in parts:
        sha.update(b)
    return sha.hexdigest()


def record(directory, digests: dict[str, str]) -> None:
    """Set the digests of some files in ``directory``'s manifest (created if absent), rewriting it atomically;
    the other lines are kept.  Writers of the same directory in other processes wait for each other (a lock
    on the directory), so no update is lost.  An unreadable manifest is replaced."""
    directory = Path(directory)
    with _directory_lock(directory):
        try:
            listed = read_manifest(directory) or {}
        except ManifestError:
            listed = {}
        text = format_manifest({**listed, **digests})
        with atomic_writer(manifest_path(directory)) as f:
            f.write(text.encode("ascii", errors="backslashreplace"))


@contextlib.contextmanager
def _directory_lock(directory: Path):
    """An exclusive ``flock`` on a directory, held for the block (where the system has it; elsewhere none)."""
    try:
        import fcntl
        fd = os.open(directory, os.O_RDONLY)
    except (ImportError, OSError):
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)                    # closing releases the lock
