"""Table files: one file ``<MATERIAL><suffix>`` per canonical material, stored in independently readable chunks,
don't-care entries coded into the runs around them, every part checksummed.  The format is the same for every
game; each game's tables have their own suffix and magic (``engine.<game>.tables``: ``.xtb`` b"SHUAIXTB" for
xiangqi, ``.ctb`` b"SHUAICTB" for chess), so that one directory holds both.

Layout (little endian)::

    header (HEADER_SIZE bytes)
      magic        8s   the game's magic
      version      u16  FORMAT_VERSION
      value_bytes  u8   1 or 2: width of a value code (see engine.egtb.codes: 0 draw, 2 + d plies, ...)
      flags        u8   bit 0: the rule pass applied (perpetual check); bit 1: with perpetual chase as well
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

Files are written through ``engine.files.write_atomically`` (an exclusively created temporary
``<name><suffix>.tmp<pid>.<random>``, then a rename), so an interrupted build (even ``kill -9``) never leaves a
broken table behind and no planted symlink redirects a write; the next build deletes the temporaries of dead
processes.  Every table written is recorded in the directory's manifest of SHA-256 digests
(:mod:`engine.egtb.manifest`).

Reading follows ``engine.files`` (opened without blocking, a regular file required).  Every number a file
gives is checked before it sizes anything: when a file is opened, magic, version, header and chunk-table
checksums, a header consistent with itself, the chunk table and every chunk inside the file and no longer than
its entries can need, and the digest its directory's manifest lists; when a chunk is read, its checksum, the
size its zstandard frame declares and the run lengths before anything is allocated, and its value codes
within the header's bounds (a distance to mate no longer than ``max_dist``, rule results only in a table the
rule pass made).  Any failure raises :class:`TableError`, one line that names the file.
"""
from __future__ import annotations

import os
import struct
import threading
import zlib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from ..files import UnreadableFile, clip, open_regular, write_atomically
from ..files import remove_stale_temporaries as remove_stale_files
from . import manifest
from .codes import DIST0, ILLEGAL, MAX_DIST, RULE_BASE
from .material import MaterialError

FORMAT_VERSION = 1
HEADER = struct.Struct("<8sHBB24sQQIIHHII")
HEADER_SIZE = HEADER.size
CHUNK_ENTRY = struct.Struct("<QII")
DEFAULT_CHUNK = 8192
MAX_CHUNK = 32768
ZSTD_LEVEL = 15
RAW, RLE = 0, 1
FLAG_RULE = 1
FLAG_CHASE = 2                  # only with FLAG_RULE
#: The rule a table is built under (``shuai tb build --rule``) and the header flags that record it: none (plain
#: retrograde values), perpetual check alone, perpetual check and chase (the Asian rule, the default).
RULE_FLAGS = {"none": 0, "check": FLAG_RULE, "chase": FLAG_RULE | FLAG_CHASE}
RULE_WORDS = {"none": "no rule", "check": "perpetual check rule", "chase": "perpetual check and chase rule"}
DEFAULT_RULE = "chase"
FRAME_SLACK = 1024              # bytes: zstandard's worst case adds size/256 + a frame header to what it codes


class TableError(Exception):
    """A table file that cannot be used: missing, truncated, corrupt, or of another format."""


def table_path(directory, name: str, suffix: str) -> Path:
    return Path(directory) / f"{name}{suffix}"


def unpack_tables(directory, tables, names: list, files) -> None:
    """Write table files handed over as bytes (``files``, in the order of ``names``; a Ray task's smaller
    tables) into ``directory``, where a builder reads them.  ``tables``: the game's table parts (``SUFFIX``,
    ``MAGIC``, ``parse_material``).  Bytes from another machine are not trusted: each file is checked whole
    (``check_table``) before it takes its name."""
    for name, data in zip(names, files):
        material = tables.parse_material(name)
        write_atomically(table_path(directory, name, tables.SUFFIX), [data],
                         check=lambda tmp, m=material: check_table(tmp, tables.MAGIC, m))


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


def stored_limit(entries: int, value_bytes: int) -> int:
    """The most bytes a stored chunk of ``entries`` values can take (its method byte and a zstandard frame of
    the larger layout, run-length: ``4 + entries * (value_bytes + 2)``)."""
    largest = 4 + entries * (value_bytes + 2)
    return 1 + largest + largest // 256 + FRAME_SLACK


def _decompress(payload: bytes, limit: int, dctx) -> bytes:
    """A zstandard frame's content, refused (ValueError) beyond ``limit`` bytes before anything is allocated:
    the content size a frame declares is checked first, since zstandard allocates it whatever
    ``max_output_size`` says; a frame that declares none is cut off at the limit."""
    import zstandard
    declared = zstandard.frame_content_size(payload)
    if declared > limit:
        raise ValueError(f"its frame declares {declared:,} bytes, at most {limit:,} expected")
    return dctx.decompress(payload, max_output_size=limit)


def decode_chunk(data: bytes, value_bytes: int, entries: int, dctx) -> np.ndarray:
    """The ``entries`` value codes of a stored chunk; ValueError when it does not decode to exactly that many
    (every size is checked before it sizes an allocation)."""
    if not data:
        raise ValueError("empty chunk")
    method = data[0]
    dtype = np.uint8 if value_bytes == 1 else np.dtype("<u2")
    if method == RAW:
        raw = _decompress(data[1:], entries * value_bytes, dctx)
        if len(raw) != entries * value_bytes:
            raise ValueError(f"chunk decodes to {len(raw) // value_bytes} entries, expected {entries}")
        out = np.frombuffer(raw, dtype).astype(np.uint16)
    elif method == RLE:
        raw = _decompress(data[1:], 4 + entries * (value_bytes + 2), dctx)
        (nruns,) = struct.unpack_from("<I", raw, 0) if len(raw) >= 4 else (-1,)
        if not 0 < nruns <= entries or len(raw) != 4 + nruns * (value_bytes + 2):
            raise ValueError(f"run-length chunk of {len(raw)} bytes does not hold {nruns} runs")
        vals = np.frombuffer(raw, dtype, nruns, 4)
        lengths = np.frombuffer(raw, "<u2", nruns, 4 + nruns * value_bytes).astype(np.int64)
        total = int(lengths.sum())
        if total != entries:
            raise ValueError(f"chunk decodes to {total} entries, expected {entries}")
        out = np.repeat(vals.astype(np.uint16), lengths)
    else:
        raise ValueError(f"unknown chunk method {method}")
    return out


def check_codes(values: np.ndarray, max_dist: int, rule: bool) -> None:
    """ValueError unless every code is one a table with this header can hold: a draw, a don't-care, a mate in
    at most ``max_dist`` plies, or (``rule``: the perpetual-check pass was run) a rule-decided result."""
    top = DIST0 + max_dist
    if not values.size or int(values.max()) <= top:         # the common case: one pass
        return
    lowest = int(values[values > top].min())
    if not (rule and lowest >= RULE_BASE):               # above the mates, only rule results may follow
        raise ValueError(f"value code {lowest} beyond the header's bounds (longest mate {max_dist} plies"
                         f"{'' if rule else ', no rule results'})")


def remove_stale_temporaries(directory, suffix: str) -> list[Path]:
    """Delete the temporaries of table files (``*<suffix>``) and of the manifest left by builds that were killed
    (their process is gone); a running build's are kept.  Returns what was deleted."""
    return (remove_stale_files(directory, f"*{suffix}")
            + remove_stale_files(directory, manifest.MANIFEST_NAME))


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


def table_parts(name: str, size: int, npos: int, chunk: int, value_bytes: int, max_dist: int, rule: str,
                blobs: list, magic: bytes) -> list:
    """The byte strings of a table file (header, chunk table, chunks) around its encoded chunks."""
    table = bytearray()
    offset = HEADER_SIZE + len(blobs) * CHUNK_ENTRY.size
    for b in blobs:
        table += CHUNK_ENTRY.pack(offset, len(b), zlib.crc32(b))
        offset += len(b)
    head = HEADER.pack(magic, FORMAT_VERSION, value_bytes, RULE_FLAGS[rule],
                       name.encode("ascii"), size, npos, chunk, len(blobs), max_dist, 0, zlib.crc32(table), 0)
    head = head[:-4] + struct.pack("<I", zlib.crc32(head[:-4]))
    return [head, bytes(table), *blobs]


def write_table(path, name: str, values: np.ndarray, npos: int, magic: bytes, chunk: int = DEFAULT_CHUNK,
                rule: str = DEFAULT_RULE, threads: int = 2) -> int:
    """Write ``values`` (uint16 codes) as a table file with the game's ``magic`` (``save_table``); returns the
    file size in bytes."""
    values = np.asarray(values, np.uint16)
    value_bytes = 1 if widest_code(values) < 256 else 2
    parts = table_parts(name, int(values.size), npos, chunk, value_bytes, max_distance(values), rule,
                        encode_chunks(values, value_bytes, chunk, threads), magic)
    save_table(path, parts)
    return sum(len(b) for b in parts)


def save_table(path, parts: list, check=None) -> None:
    """The byte strings ``parts`` of a table file into ``path``, atomically (``check(temporary path)`` first, if
    given: see ``engine.files.write_atomically``), and their digest into the directory's manifest."""
    write_atomically(path, parts, check)
    path = Path(path)
    manifest.record(path.parent, {path.name: manifest.bytes_digest(parts)})


def check_table(path, magic: bytes, material) -> None:
    """TableError unless ``path`` is a whole, sound table of ``material``: its header, chunk table, every
    chunk's checksum and decoding and every value within the header's bounds (``TableFile.verify``)."""
    with TableFile(path, magic) as f:
        f.check_material(material)
        f.verify()


class TableFile:
    """An open table file: header and chunk table read and checked at once, chunks read on demand."""

    def __init__(self, path, magic: bytes):
        """TableError (one line naming the file) unless ``path`` is a regular file that opens as a table of
        ``magic`` and, when its directory has a manifest that lists it, has the digest listed there."""
        self.path = Path(path)
        self.label = clip(self.path, 200)           # what messages call it (a hostile name escaped, bounded)
        self.magic = magic
        self._dctx = None
        try:
            self._fd = open_regular(self.path)
        except UnreadableFile as e:
            raise TableError(str(e)) from None
        try:
            self._read_header()
            self._check_digest()
        except TableError:
            self.close()
            raise
        except Exception as e:          # (I/O errors above all) whatever a file does, it is this one line
            self.close()
            raise TableError(f"{self.label}: unreadable ({getattr(e, 'strerror', None) or clip(e)})") from None

    def _read_header(self):
        file_size = os.fstat(self._fd).st_size
        if file_size < HEADER_SIZE:
            raise TableError(f"{self.label}: truncated (header)")
        head = os.pread(self._fd, HEADER_SIZE, 0)
        if len(head) < HEADER_SIZE:
            raise TableError(f"{self.label}: truncated (header)")
        (magic, version, value_bytes, flags, name, size, npos, chunk, nchunks, max_dist, _, table_crc,
         head_crc) = HEADER.unpack(head)
        if magic != self.magic:
            raise TableError(f"{self.label}: bad magic (not a Shuai table)")
        if version != FORMAT_VERSION:
            raise TableError(f"{self.label}: format version {version}, expected {FORMAT_VERSION}")
        if zlib.crc32(head[:-4]) != head_crc:
            raise TableError(f"{self.label}: bad header checksum")
        if (value_bytes not in (1, 2) or not 0 < chunk <= MAX_CHUNK or nchunks != -(-size // chunk)
                or size != 2 * npos or flags not in RULE_FLAGS.values() or max_dist > MAX_DIST):
            raise TableError(f"{self.label}: inconsistent header")
        name = name.rstrip(b"\0")
        if not (name.isascii() and name.isalnum()):
            raise TableError(f"{self.label}: bad material name in the header ({ascii(name)})")   # <= 24 bytes
        self.name = name.decode("ascii")
        self.value_bytes, self.flags, self.size, self.npos = value_bytes, flags, size, npos
        self.chunk, self.nchunks, self.max_dist = chunk, nchunks, max_dist
        table_end = HEADER_SIZE + nchunks * CHUNK_ENTRY.size
        if table_end > file_size:                          # before reading it: the header may claim 2**32 chunks
            raise TableError(f"{self.label}: truncated (chunk table: {file_size} bytes, expected {table_end}+)")
        table = os.pread(self._fd, table_end - HEADER_SIZE, HEADER_SIZE)
        if len(table) < table_end - HEADER_SIZE:
            raise TableError(f"{self.label}: truncated (chunk table)")
        if zlib.crc32(table) != table_crc:
            raise TableError(f"{self.label}: bad checksum of the chunk table")
        entries = np.frombuffer(table, np.dtype([("off", "<u8"), ("len", "<u4"), ("crc", "<u4")]))
        self.offsets = entries["off"].astype(np.int64)       # (an offset beyond 2**63 turns negative: refused)
        self.lengths = entries["len"].astype(np.int64)
        self.crcs = entries["crc"].astype(np.int64)
        ends = self.offsets + self.lengths
        if nchunks and int(ends.max()) > file_size:
            raise TableError(f"{self.label}: truncated ({file_size} bytes, expected {int(ends.max())})")
        if nchunks and (int(self.offsets.min()) < table_end or int(self.lengths.min()) < 1
                        or int(self.lengths.max()) > stored_limit(chunk, value_bytes)):
            raise TableError(f"{self.label}: inconsistent chunk table")

    def _check_digest(self):
        try:
            expected = manifest.expected_digest(self.path)
        except manifest.ManifestError as e:        # a guard that cannot be read guards nothing: refuse, do not skip
            raise TableError(f"{e} (the tables of its directory are refused)") from None
        if expected is not None and not manifest.digest_matches(self._fd, expected):
            raise TableError(f"{self.label}: its SHA-256 differs from the one {manifest.MANIFEST_NAME} lists "
                             "(tampered with or replaced; refused)")

    def contents(self) -> bytes:
        """The whole file, read through the descriptor checked when it was opened."""
        size, parts, offset = os.fstat(self._fd).st_size, [], 0
        while offset < size:
            block = os.pread(self._fd, min(size - offset, 1 << 30), offset)
            if not block:
                raise TableError(f"{self.label}: truncated while read")
            parts.append(block)
            offset += len(block)
        return b"".join(parts)

    def digest(self) -> str:
        """The SHA-256 (hex) of the whole file."""
        return manifest.fd_digest(self._fd)

    @property
    def rule(self) -> str:
        """The rule this table was built under (the header's flags): "none", "check" or "chase"."""
        return next(r for r, f in RULE_FLAGS.items() if f == self.flags)

    @property
    def rule_applied(self) -> bool:
        """Was the game's rule pass run when this table was built (the header's FLAG_RULE)?"""
        return bool(self.flags & FLAG_RULE)

    def check_material(self, material) -> None:
        """TableError unless the header describes ``material`` (its name and size)."""
        if self.name != material.name or self.size != material.size:
            raise TableError(f"{self.label}: header does not match its material")

    def material(self, parse_material):
        """The material of this file (by the game's ``parse_material``): its header's, which must be canonical,
        the file's own name, and of the header's size (TableError)."""
        try:
            material = parse_material(self.name)
        except MaterialError as e:
            raise TableError(f"{self.label}: {clip(e)}") from None
        if not material.is_canonical() or self.path.stem != material.name:
            raise TableError(f"{self.label}: header does not match its material")
        self.check_material(material)
        return material

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
            raise TableError(f"{self.label}: read error in chunk {i} ({e.strerror})") from None
        if len(data) != length:
            raise TableError(f"{self.label}: truncated (chunk {i})")
        if zlib.crc32(data) != int(self.crcs[i]):
            raise TableError(f"{self.label}: bad checksum in chunk {i}")
        try:
            values = decode_chunk(data, self.value_bytes, self.chunk_entries(i), self._dctx)
            check_codes(values, self.max_dist, bool(self.flags & FLAG_RULE))
            return values
        except Exception as e:                                  # zstd, run-length and bound errors alike
            raise TableError(f"{self.label}: corrupt chunk {i} ({clip(e, 120)})") from None

    def verify(self) -> None:
        """Read every chunk (checksum, decoding, value bounds): TableError at the first that fails."""
        for i in range(self.nchunks):
            self.read_chunk(i)

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
