"""Reading files the engine did not write itself: tables, books, networks, PGN, EPD, openings (issue 29).

One rule for all of them, so that no file, however made, can hang, crash or exhaust the engine:

- open without blocking (a FIFO or a device named like a file must not hang the engine, not even ``quit``) and
  require a regular file (not a directory, FIFO, socket or device such as ``/proc/self/mem``);
- check the size against what the format allows before reading, and never read more than that;
- turn every failure (I/O, decoding) into one :class:`UnreadableFile` line that names the file, which each
  subsystem wraps in its own error (``TableError``, ...).

And one rule for writing (``atomic_writer``/``write_atomically``): a temporary created exclusively under a
random name beside the target, flushed to disk, then renamed into place -- never a predictable name that a
planted symlink could redirect, never half a file.

Text is decoded leniently (``errors="replace"``): a stray byte is the parser's to report, on its line.
"""
from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

MAX_TEXT = 16 << 20          # bytes: the largest PGN, EPD or openings file read (a few hundred thousand games)


class UnreadableFile(Exception):
    """A file that cannot be read safely; the message is one line that names it and says why."""


def clip(text, limit: int = 60) -> str:
    """``text`` fit to be echoed in a one-line error: at most ``limit`` characters, control characters escaped."""
    shown = repr(str(text)[:limit + 1])[1:-1]
    return shown if len(shown) <= limit else shown[:limit - 3] + "..."


def open_regular(path) -> int:
    """A read-only descriptor of ``path``, opened without blocking; UnreadableFile unless it is a regular file."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise UnreadableFile(f"{clip(path, 200)}: missing") from None
    except IsADirectoryError:
        raise UnreadableFile(f"{clip(path, 200)}: a directory, not a regular file") from None
    except (OSError, ValueError) as e:                  # ValueError: a NUL in the name
        raise UnreadableFile(f"{clip(path, 200)}: cannot open ({getattr(e, 'strerror', None) or e})") from None
    try:
        mode = os.fstat(fd).st_mode
    except OSError as e:
        os.close(fd)
        raise UnreadableFile(f"{clip(path, 200)}: cannot open ({e.strerror})") from None
    if not stat.S_ISREG(mode):
        os.close(fd)
        kind = "a directory" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode) else "a device or socket"
        raise UnreadableFile(f"{clip(path, 200)}: {kind}, not a regular file")
    return fd


def file_size(fd: int) -> int:
    return os.fstat(fd).st_size


def read_bytes(path, limit: int) -> bytes:
    """The whole of the regular file ``path``, refused (UnreadableFile) if it is longer than ``limit`` bytes."""
    fd = open_regular(path)
    try:
        size = file_size(fd)
        if size > limit:
            raise UnreadableFile(f"{clip(path, 200)}: too large ({size:,} bytes, at most {limit:,})")
        chunks, total = [], 0
        while total <= limit:                           # a file that grows while read stops at the limit
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:
            raise UnreadableFile(f"{clip(path, 200)}: too large (more than {limit:,} bytes)")
        return b"".join(chunks)
    except OSError as e:
        raise UnreadableFile(f"{clip(path, 200)}: read error ({e.strerror})") from None
    finally:
        os.close(fd)


def read_text(path, limit: int = MAX_TEXT) -> str:
    """The text of ``path`` (UTF-8, a byte-order mark dropped, bad bytes replaced), at most ``limit`` bytes."""
    return read_bytes(path, limit).decode("utf-8-sig", errors="replace")


# ----------------------------------------------------------------------------------------------------------------
# Writing: the one atomic write (tables, their manifest, self-play data)
# ----------------------------------------------------------------------------------------------------------------

class UnwritableFile(Exception):
    """A file that cannot be written (its directory missing and not creatable, read-only, full ...); the message
    is one line that names it and says why."""


def temporary_prefix(path) -> str:
    """The start of the temporary names ``atomic_writer`` gives ``path``: ``<name>.tmp<pid>.`` then a random
    part.  The pid lets ``remove_stale_temporaries`` tell a killed writer's file from a running one's."""
    return f"{os.path.basename(path)}.tmp{os.getpid()}."


@contextlib.contextmanager
def atomic_writer(path):
    """A binary file object whose bytes become ``path`` when the block ends without an exception: written to a
    temporary in the same directory, flushed to disk, then renamed over ``path``, so that a reader (or a crash,
    even ``kill -9``) never sees half a file.  The temporary is created exclusively under a random name
    (``tempfile.mkstemp``: ``O_CREAT | O_EXCL``, never through a symlink someone planted), so no predictable
    name can redirect the write.  A missing directory is created; any failure to write is one UnwritableFile
    line.  ``f.name`` is the temporary's path.  Only a regular file (or a symbolic link, which is replaced, not
    followed) is replaced: a device, a FIFO or a socket at ``path`` is left alone and refused, so that ``save
    /dev/null`` by root cannot turn the device into a file."""
    path = os.fspath(path)
    directory = os.path.dirname(path) or "."
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        mode = None                                 # nothing there (or nothing we may see): the write will say
    if mode is not None and not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
        what = "a directory" if stat.S_ISDIR(mode) else "not a regular file"
        raise UnwritableFile(f"{clip(path, 200)}: {what}; not replaced")
    try:
        os.makedirs(directory, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=temporary_prefix(path))
    except FileExistsError:
        raise UnwritableFile(f"{clip(path, 200)}: {clip(directory, 200)} is not a directory") from None
    except OSError as e:
        raise UnwritableFile(f"{clip(path, 200)}: cannot write in {clip(directory, 200)} "
                             f"({e.strerror or e})") from None
    try:
        os.fchmod(fd, _new_file_mode(path))         # mkstemp's 0600 would hide the file from other users
    except (OSError, AttributeError):               # (no fchmod on Windows, where modes mean little)
        pass
    try:
        with open(tmp, "wb", opener=lambda _path, _flags: fd) as f:       # the descriptor mkstemp made; f.name: tmp
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as e:
        raise UnwritableFile(f"{clip(path, 200)}: cannot write ({e.strerror or e})") from None
    finally:
        if os.path.lexists(tmp):
            os.unlink(tmp)


def _new_file_mode(path) -> int:
    """The permissions ``open(path, "w")`` would give: those of the file replaced, else 0666 less the umask
    (read from /proc where it can be: setting and restoring it would race with other threads)."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        pass
    umask = 0o022
    try:
        with open("/proc/self/status") as status:
            umask = next((int(line.split()[1], 8) for line in status if line.startswith("Umask:")), umask)
    except (OSError, ValueError):
        pass
    return 0o666 & ~umask


def write_atomically(path, parts, check=None) -> None:
    """The byte strings ``parts`` into ``path`` (``atomic_writer``).  ``check(temporary path)``, if given, runs
    on the complete temporary before the rename and may raise to keep ``path`` as it was."""
    with atomic_writer(path) as f:
        for b in parts:
            f.write(b)
        if check is not None:
            f.flush()
            check(f.name)


def remove_stale_temporaries(directory, pattern: str = "*") -> list:
    """Delete the temporaries (``<name>.tmp<pid>.<random>``, and the older ``<name>.tmp<pid>``) of files named
    like ``pattern`` in ``directory`` that writers killed mid-write left behind (their process is gone); a
    running writer's file is kept.  Returns the paths deleted."""
    removed = []
    for tmp in Path(directory).glob(f"{pattern}.tmp*"):
        pid = tmp.name.rpartition(".tmp")[2].partition(".")[0]
        if pid.isdigit() and _alive(int(pid)):
            continue
        try:
            tmp.unlink()
            removed.append(tmp)
        except OSError:
            pass
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)             # signal 0: only asks whether the process exists
    except ProcessLookupError:
        return False
    except PermissionError:         # it exists, owned by someone else
        pass
    return True
