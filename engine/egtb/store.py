"""Table files: one file ``<MATERIAL><suffix>`` per canonical material, stored in independently readable chunks,
don't-care entries coded into the runs around them, every part checksummed.  The format is the same for every
game; each game's tables have their own suffix and magic (``engine.<game>.tables``: ``.xtb`` b"SHUAIXTB" for
xiangqi, ``.ctb`` b"SHUAICTB" for chess), so that one directory holds both.

Layout (little endian)::

    header (HEADER_SIZE bytes)
      magic        8s   the game's magic
      version      u16  FORMAT_VERSION
      value_bytes  u8   1 or 2: width of a value code (see engine.egtb.codes: 0 draw, 2 + d plies, ...)
      flags        u8   bit 0: perpetual-check pass applied
      material     24s  ASCII name, NUL padded (e.g. b"KRvKAA")
      size         u64  entries (both sides to move)
      npos         u64  entries per side to move
      chunk        u32  entries per chunk (the last chunk may be shorter)
      nchunks      u32
      max_dist     u16  longest distance to mate in the table (plies)
      reserved     u16
      table_crc    u32  CRC-32 of the chunk table
      header_crc   u32  CRC-32 of the header bytes before this field
    chunk table (nchunks x 16 bytes): offset u64 (from the file start), length u32, crc32 u32 (of the stored bytes)
    chunks

A chunk is one method byte followed by a zstandard frame.  Before coding, every don't-care (illegal) entry
takes the value of the entry before it, so illegal positions lengthen runs instead of breaking them.  Method 0
(``RAW``) stores the values themselves (``value_bytes`` each): zstandard codes the runs as matches.  Method 1
(``RLE``) stores ``u32 nruns, values[nruns], lengths[nruns] (u16)``; the writer tries it for chunks of few runs
and keeps it when it is smaller.  (Measured on KRNvKB and KCPvKAA at 8192 entries: an explicit run-length layer
under zstandard is 15-25 % *larger* on typical chunks, smaller on only 1-2 % of them -- zstandard already codes
runs -- hence the choice per chunk.)  Decoding is one ``np.frombuffer`` or ``np.repeat``.

Files are written to ``<name><suffix>.tmp<pid>`` and renamed into place, so an interrupted build (even ``kill -9``)
never leaves a broken table behind; the next build deletes the temporaries of dead processes.  Readers check
magic, version, header and table checksums and the file length when they open a file, and each chunk's checksum
when they read it; any failure raises :class:`TableError` with a message that names the file.
"""
from __future__ import annotations

import os
import struct
import threading
import zlib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from .codes import DIST0, ILLEGAL, RULE_BASE

FORMAT_VERSION = 1
HEADER = struct.Struct("<8sHBB24sQQIIHHII")
HEADER_SIZE = HEADER.size
CHUNK_ENTRY = struct.Struct("<QII")
DEFAULT_CHUNK = 8192
MAX_CHUNK = 32768
ZSTD_LEVEL = 15
RAW, RLE = 0, 1
FLAG_RULE = 1


class TableError(Exception):
    """A table file that cannot be used: missing, truncated, corrupt, or of another format."""


def table_path(directory, name: str, suffix: str) -> Path:
    return Path(directory) / f"{name}{suffix}"


def unpack_tables(directory, suffix: str, names: list, files) -> None:
    """Write table files handed over as bytes (``files``, in the order of ``names``; a Ray task's smaller
    tables) into ``directory``, where a builder reads them."""
    for name, data in zip(names, files):
        table_path(directory, name, suffix).write_bytes(data)


def max_distance(values: np.ndarray) -> int:
    """The longest distance to mate (plies) among value codes; 0 when there is none."""
    dist = values[(values >= DIST0) & (values < RULE_BASE)]
    return int(dist.max()) - DIST0 if dist.size else 0


def _fill_dont_care(values: np.ndarray) -> np.ndarray:
    """Give each illegal entry the value of the nearest legal entry before it (after it at the start)."""
    v = values.astype(np.uint16, copy=True)
    legal = v != ILLEGAL
    if not legal.any():
        v[:] = 0
        return v
    pos = np.where(legal, np.arange(v.size), 0)
    np.maximum.accumulate(pos, out=pos)
    first = int(np.argmax(legal))
    pos[:first] = first
    return v[pos]


def _rle_bytes(v: np.ndarray, value_bytes: int) -> bytes:
    change = np.flatnonzero(np.diff(v.astype(np.int32))) + 1
    starts = np.concatenate(([0], change))
    lengths = np.diff(np.concatenate((starts, [v.size])))
    dtype = np.uint8 if value_bytes == 1 else np.dtype("<u2")
    return (struct.pack("<I", len(starts)) + v[starts].astype(dtype).tobytes()
            + lengths.astype("<u2").tobytes())


def encode_chunk(values: np.ndarray, value_bytes: int, cctx) -> bytes:
    v = _fill_dont_care(values)
    dtype = np.uint8 if value_bytes == 1 else np.dtype("<u2")
    best = bytes([RAW]) + cctx.compress(v.astype(dtype).tobytes())
    runs = 1 + int(np.count_nonzero(np.diff(v.astype(np.int32))))
    if runs * 32 <= v.size:
        rle = bytes([RLE]) + cctx.compress(_rle_bytes(v, value_bytes))
        if len(rle) < len(best):
            best = rle
    return best


def decode_chunk(data: bytes, value_bytes: int, entries: int, dctx) -> np.ndarray:
    method = data[0]
    dtype = np.uint8 if value_bytes == 1 else np.dtype("<u2")
    if method == RAW:
        raw = dctx.decompress(data[1:], max_output_size=entries * value_bytes)
        out = np.frombuffer(raw, dtype).astype(np.uint16)
    elif method == RLE:
        raw = dctx.decompress(data[1:], max_output_size=4 + entries * (value_bytes + 2))
        (nruns,) = struct.unpack_from("<I", raw, 0)
        vals = np.frombuffer(raw, dtype, nruns, 4)
        lengths = np.frombuffer(raw, "<u2", nruns, 4 + nruns * value_bytes)
        out = np.repeat(vals.astype(np.uint16), lengths.astype(np.int64))
    else:
        raise ValueError(f"unknown chunk method {method}")
    if out.size != entries:
        raise ValueError(f"chunk decodes to {out.size} entries, expected {entries}")
    return out


def remove_stale_temporaries(directory, suffix: str) -> list[Path]:
    """Delete the ``<name><suffix>.tmp<pid>`` files left by builds that were killed (their process is gone); a
    running build's file is kept.  Returns what was deleted."""
    removed = []
    for tmp in Path(directory).glob(f"*{suffix}.tmp*"):
        pid = tmp.name.rpartition(".tmp")[2]
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


def widest_code(values: np.ndarray) -> int:
    """The largest value code among the legal entries (0 when there is none): a table whose codes all stay
    below 256 stores a byte an entry."""
    codes = values[values != ILLEGAL]
    return int(codes.max()) if codes.size else 0


def encode_chunks(values: np.ndarray, value_bytes: int, chunk: int = DEFAULT_CHUNK, threads: int = 2) -> list:
    """The stored chunks of ``values`` (cut every ``chunk`` entries; a chunk depends on its own entries alone,
    so the slices of a table, cut on chunk boundaries, are encoded apart)."""
    import zstandard
    if not 0 < chunk <= MAX_CHUNK:
        raise ValueError(f"chunk size must be 1..{MAX_CHUNK}")
    values = np.asarray(values, np.uint16)
    nchunks = -(-int(values.size) // chunk)
    local = threading.local()

    def job(i):                              # zstandard releases the GIL: chunks compress on all threads
        if not hasattr(local, "cctx"):
            local.cctx = zstandard.ZstdCompressor(level=ZSTD_LEVEL)
        return encode_chunk(values[i * chunk:(i + 1) * chunk], value_bytes, local.cctx)
    if threads > 1 and nchunks > 1:
        with ThreadPoolExecutor(threads) as ex:
            return list(ex.map(job, range(nchunks)))
    return [job(i) for i in range(nchunks)]


def table_parts(name: str, size: int, npos: int, chunk: int, value_bytes: int, max_dist: int, rule_applied: bool,
                blobs: list, magic: bytes) -> list:
    """The byte strings of a table file (header, chunk table, chunks) around its encoded chunks."""
    table = bytearray()
    offset = HEADER_SIZE + len(blobs) * CHUNK_ENTRY.size
    for b in blobs:
        table += CHUNK_ENTRY.pack(offset, len(b), zlib.crc32(b))
        offset += len(b)
    head = HEADER.pack(magic, FORMAT_VERSION, value_bytes, FLAG_RULE if rule_applied else 0,
                       name.encode("ascii"), size, npos, chunk, len(blobs), max_dist, 0, zlib.crc32(table), 0)
    head = head[:-4] + struct.pack("<I", zlib.crc32(head[:-4]))
    return [head, bytes(table), *blobs]


def write_table(path, name: str, values: np.ndarray, npos: int, magic: bytes, chunk: int = DEFAULT_CHUNK,
                rule_applied: bool = True, threads: int = 2) -> int:
    """Write ``values`` (uint16 codes) as a table file with the game's ``magic``, atomically; returns the file
    size in bytes."""
    values = np.asarray(values, np.uint16)
    value_bytes = 1 if widest_code(values) < 256 else 2
    parts = table_parts(name, int(values.size), npos, chunk, value_bytes, max_distance(values), rule_applied,
                        encode_chunks(values, value_bytes, chunk, threads), magic)
    write_atomically(path, parts)
    return sum(len(b) for b in parts)


def write_atomically(path, parts) -> None:
    """The byte strings ``parts`` into ``path`` through a temporary name (``<name>.tmp<pid>``, which
    ``remove_stale_temporaries`` clears after a crash) and a rename: a reader never sees half a file."""
    path = Path(path)
    tmp = path.with_name(f"{path.name}.tmp{os.getpid()}")
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        with open(tmp, "wb") as f:
            for b in parts:
                f.write(b)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


class TableFile:
    """An open table file: header and chunk table read and checked at once, chunks read on demand."""

    def __init__(self, path, magic: bytes):
        self.path = Path(path)
        self.magic = magic
        try:
            self._fd = os.open(self.path, os.O_RDONLY)
        except FileNotFoundError:
            raise TableError(f"{self.path}: missing") from None
        except OSError as e:
            raise TableError(f"{self.path}: cannot open ({e.strerror})") from None
        try:
            self._read_header()
        except TableError:
            self.close()
            raise
        self._dctx = None

    def _read_header(self):
        head = os.pread(self._fd, HEADER_SIZE, 0)
        if len(head) < HEADER_SIZE:
            raise TableError(f"{self.path}: truncated (header)")
        (magic, version, value_bytes, flags, name, size, npos, chunk, nchunks, max_dist, _, table_crc,
         head_crc) = HEADER.unpack(head)
        if magic != self.magic:
            raise TableError(f"{self.path}: bad magic (not a Shuai table)")
        if version != FORMAT_VERSION:
            raise TableError(f"{self.path}: format version {version}, expected {FORMAT_VERSION}")
        if zlib.crc32(head[:-4]) != head_crc:
            raise TableError(f"{self.path}: bad header checksum")
        if value_bytes not in (1, 2) or not 0 < chunk <= MAX_CHUNK or nchunks != -(-size // chunk):
            raise TableError(f"{self.path}: inconsistent header")
        self.name = name.rstrip(b"\0").decode("ascii")
        self.value_bytes, self.flags, self.size, self.npos = value_bytes, flags, size, npos
        self.chunk, self.nchunks, self.max_dist = chunk, nchunks, max_dist
        table = os.pread(self._fd, nchunks * CHUNK_ENTRY.size, HEADER_SIZE)
        if len(table) < nchunks * CHUNK_ENTRY.size:
            raise TableError(f"{self.path}: truncated (chunk table)")
        if zlib.crc32(table) != table_crc:
            raise TableError(f"{self.path}: bad checksum of the chunk table")
        entries = np.frombuffer(table, np.dtype([("off", "<u8"), ("len", "<u4"), ("crc", "<u4")]))
        self.offsets = entries["off"].astype(np.int64)
        self.lengths = entries["len"].astype(np.int64)
        self.crcs = entries["crc"].astype(np.int64)
        end = int(self.offsets[-1] + self.lengths[-1]) if nchunks else HEADER_SIZE
        if os.fstat(self._fd).st_size < end:
            raise TableError(f"{self.path}: truncated ({os.fstat(self._fd).st_size} bytes, expected {end})")

    def chunk_entries(self, i: int) -> int:
        return min(self.chunk, self.size - i * self.chunk)

    def read_chunk(self, i: int) -> np.ndarray:
        """Values of chunk ``i`` (uint16 codes); TableError on a read or checksum failure."""
        import zstandard
        if self._dctx is None:
            self._dctx = zstandard.ZstdDecompressor()
        off, length = int(self.offsets[i]), int(self.lengths[i])
        try:
            data = os.pread(self._fd, length, off)
        except OSError as e:
            raise TableError(f"{self.path}: read error in chunk {i} ({e.strerror})") from None
        if len(data) != length:
            raise TableError(f"{self.path}: truncated (chunk {i})")
        if zlib.crc32(data) != int(self.crcs[i]):
            raise TableError(f"{self.path}: bad checksum in chunk {i}")
        try:
            return decode_chunk(data, self.value_bytes, self.chunk_entries(i), self._dctx)
        except Exception as e:                                  # zstd or run-length errors
            raise TableError(f"{self.path}: corrupt chunk {i} ({e})") from None

    def read_all(self) -> np.ndarray:
        out = np.empty(self.size, np.uint16)
        for i in range(self.nchunks):
            out[i * self.chunk: i * self.chunk + self.chunk_entries(i)] = self.read_chunk(i)
        return out

    def close(self, _close=os.close):
        if getattr(self, "_fd", None) is not None:
            _close(self._fd)
            self._fd = None

    def __del__(self):
        self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
