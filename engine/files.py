"""Reading files the engine did not write itself: tables, books, networks, PGN, EPD, openings (issue 29).

One rule for all of them, so that no file, however made, can hang, crash or exhaust the engine:

- open without blocking (a FIFO or a device named like a file must not hang the engine, not even ``quit``) and
  require a regular file (not a directory, FIFO, socket or device such as ``/proc/self/mem``);
- check the size against what the format allows before reading, and never read more than that;
- turn every failure (I/O, decoding) into one :class:`UnreadableFile` line that names the file, which each
  subsystem wraps in its own error (``TableError``, ...).

Text is decoded leniently (``errors="replace"``): a stray byte is the parser's to report, on its line.
"""
from __future__ import annotations

import os
import stat

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
