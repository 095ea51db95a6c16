"""Scored positions for training the network, in a compact binary file (issue 33).

A positions file is a header and a zstandard frame of fixed 40-byte records::

    header   magic b"SHUAIPOS", u32 format version, u32 record size, 16 bytes game name (NUL-padded),
             u32 length of the provenance, then the provenance: JSON (seed, games, nodes, commit ...)
    records  (a zstandard frame, with its checksum)
             occupied   16 bytes  bit s (little-endian bit order) set when square s holds a piece
             pieces     16 bytes  the piece codes of the occupied squares in square order, two to a byte (low
                                  nibble first): at most 32 pieces, as in both games' start positions
             side       u8        the side to move (0: Red / White)
             result     u8        the game's result for the first player: 0 loss, 1 draw, 2 win
             ply        u16       plies since the game's start (from the FEN's move number)
             score      i16       the search's score for the first player, in the engine's centipawns
             reserved   2 bytes   zero
    trailer  b"END." and u64 the number of records (a file cut short, even at a record's end, fails it)

The positions are the tuner's self-play positions (``engine.tune.selfplay``: quiet, scored by a fixed-node
search, reproducible from the seed), so ``make nnue-data`` is ``make tune-data`` written for the trainer.
Reading checks everything before anything is used: the header, the provenance's size, the decompressed size
(bounded, a whole number of records) and every record's fields -- the side, the result, the piece count against
the occupied squares, each code a piece of the game.  A file that fails is one ``DataError`` line naming it.
"""
from __future__ import annotations

import json
import struct
import subprocess
import zlib
from pathlib import Path

import numpy as np
import zstandard

from ..files import UnreadableFile, atomic_writer, clip, read_bytes
from ..game import GAMES, ROOT, game_named
from .selfplay import DataError, Settings, data_digest, play_games, read_positions

MAGIC = b"SHUAIPOS"
FORMAT_VERSION = 1
RECORD = np.dtype([("occupied", "u1", 16), ("pieces", "u1", 16), ("side", "u1"), ("result", "u1"),
                   ("ply", "<u2"), ("score", "<i2"), ("reserved", "u1", 2)])
HEADER = struct.Struct("<8sII16sI")
TRAILER = struct.Struct("<4sQ")
END = b"END."
MAX_PROVENANCE = 64 << 10           # bytes of JSON
MAX_POSITIONS = 50_000_000          # 2 GB of records in memory: far beyond what 2 cores make in a week
MAX_PIECES = 32
RESULT_CODES = {0.0: 0, 0.5: 1, 1.0: 2}


def encode_boards(boards: np.ndarray, squares: int) -> tuple[np.ndarray, np.ndarray]:
    """(occupied, pieces) fields of int8 boards [N, squares]."""
    n = boards.shape[0]
    filled = boards != 0
    occupied = np.zeros((n, 128), np.uint8)
    occupied[:, :squares] = filled
    counts = filled.sum(axis=1)
    if counts.max(initial=0) > MAX_PIECES:
        raise ValueError(f"a board with more than {MAX_PIECES} pieces")
    codes = np.zeros((n, MAX_PIECES), np.uint8)
    codes[np.arange(MAX_PIECES) < counts[:, None]] = boards[filled]        # row-major: square order per board
    return (np.packbits(occupied, axis=1, bitorder="little"),
            (codes[:, 0::2] | (codes[:, 1::2] << 4)).astype(np.uint8))


def decode_boards(records: np.ndarray, squares: int) -> np.ndarray:
    """int8 boards [N, squares] of checked records."""
    filled = np.unpackbits(records["occupied"], axis=1, bitorder="little")[:, :squares].astype(bool)
    codes = np.empty((len(records), MAX_PIECES), np.int8)
    codes[:, 0::2] = records["pieces"] & 15
    codes[:, 1::2] = records["pieces"] >> 4
    boards = np.zeros((len(records), squares), np.int8)
    boards[filled] = codes[np.arange(MAX_PIECES) < filled.sum(axis=1)[:, None]]
    return boards


def records_of(rows, game) -> np.ndarray:
    """Records of (FEN, result for the first player, score for the first player) rows."""
    records = np.zeros(len(rows), RECORD)
    if not rows:
        return records
    boards = np.zeros((len(rows), game.squares), np.int8)
    for i, (fen, points, score) in enumerate(rows):
        pos = game.position(fen)
        boards[i] = pos.board[:game.squares]
        fields = fen.split()
        records[i]["side"] = pos.side
        records[i]["ply"] = min(2 * (int(fields[-1]) - 1) + pos.side, 65535)
        records[i]["result"] = RESULT_CODES[points]
        records[i]["score"] = max(-32767, min(32767, score))
    records["occupied"], records["pieces"] = encode_boards(boards, game.squares)
    return records


def source_commit() -> str:
    """The commit the data were made with (what a network's provenance names), or "unknown" outside git."""
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              cwd=ROOT, timeout=10).stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def player(network_path, game) -> tuple[bytes, dict]:
    """The network file that plays the games (checked: NetworkError) as the searches take it, and as the
    positions' provenance names it: its file name and CRC-32."""
    from ..nnue.network import load
    blob = load(network_path, game).to_bytes()
    return blob, {"network": Path(network_path).name, "network_crc32": crc_of(blob)}


def crc_of(blob: bytes) -> str:
    """A network's name in data and provenance: the CRC-32 of its file less the last 4 bytes, in hex (the file
    ends with that CRC; the CRC-32 of any data followed by its own CRC is one constant, the same for every
    network)."""
    return f"{zlib.crc32(blob[:-4]):08x}"


def write_positions(path, game, chunks, provenance: dict) -> int:
    """Write the record arrays of the iterable ``chunks`` to ``path`` (atomically); the number written."""
    text = json.dumps(provenance, sort_keys=True).encode()
    name = game.name.encode()
    written = 0
    with atomic_writer(path) as raw:
        raw.write(HEADER.pack(MAGIC, FORMAT_VERSION, RECORD.itemsize, name, len(text)) + text)
        with zstandard.ZstdCompressor(level=10, write_checksum=True).stream_writer(raw, closefd=False) as out:
            for records in chunks:
                out.write(np.ascontiguousarray(records, RECORD).tobytes())
                written += len(records)
        raw.write(TRAILER.pack(END, written))
    return written


def generate(path, s: Settings, workers: int = 2, progress=None, provenance: dict | None = None,
             cluster: str | None = None) -> int:
    """Self-play positions (``engine.tune.selfplay.play_games``, the settings ``s``) into the positions file
    ``path``."""
    game = game_named(s.game)
    info = {"games": s.games, "nodes": s.nodes, "seed": s.seed, "random_plies": list(s.random_plies),
            "openings": s.openings.rsplit("/", 1)[-1], **(provenance or {})}

    def chunks():
        written = 0
        for played, rows in play_games(s, workers, cluster):
            records = records_of(rows, game)
            written += len(records)
            if progress:
                progress(played, written)
            yield records
    return write_positions(path, game, chunks(), info)


def convert(paths, out, game, chunk: int = 100_000) -> int:
    """Write the tuner's positions (``make tune-data``: gzip text of FEN;result;score lines, the files ``paths``)
    as the positions file ``out`` for the trainer, so that games already played need not be played again; the
    number written.  A line that is not a position of ``game`` with a result of 0, 0.5 or 1 is one
    ``DataError`` naming its file and line, and nothing is written."""
    def checked(rows, first, path):
        try:
            return records_of(rows, game)
        except (ValueError, KeyError):                  # find the row: a bad FEN, or a result not in RESULT_CODES
            for n, row in enumerate(rows, first):
                try:
                    records_of([row], game)
                except (ValueError, KeyError) as e:
                    raise DataError(f"{clip(path, 200)}:{n}: not a {game.name} position with a result of 0, 0.5 "
                                    f"or 1: {clip(e, 100)}") from None
            raise

    def chunks():
        for path in paths:
            rows, first = [], 1
            for n, row in enumerate(read_positions(path), 1):
                rows.append(row)
                if len(rows) == chunk:
                    yield checked(rows, first, path)
                    rows, first = [], n + 1
            yield checked(rows, first, path)
    sources = [{"file": str(path).rsplit("/", 1)[-1], "sha256": data_digest(path)} for path in paths]
    return write_positions(out, game, chunks(), {"commit": source_commit(), "converted_from": sources})


class Positions:
    """A positions file read and checked: ``game``, ``provenance`` (dict), ``records`` (RECORD array)."""

    def __init__(self, path):
        label = clip(path, 200)
        try:
            blob = read_bytes(path, HEADER.size + MAX_PROVENANCE + (MAX_POSITIONS * RECORD.itemsize) // 2)
        except UnreadableFile as e:
            raise DataError(f"positions file {e}") from None
        if len(blob) < HEADER.size:
            raise DataError(f"{label}: truncated (header)")
        magic, version, size, name, length = HEADER.unpack_from(blob)
        if magic != MAGIC:
            raise DataError(f"{label}: not a Shuai positions file (bad magic)")
        if version != FORMAT_VERSION or size != RECORD.itemsize:
            raise DataError(f"{label}: format version {version} with {size}-byte records; expected "
                            f"{FORMAT_VERSION} with {RECORD.itemsize}")
        name = name.rstrip(b"\0").decode("ascii", "replace")
        if name not in [g.name for g in GAMES]:
            raise DataError(f"{label}: unknown game {clip(name, 20)!r}")
        self.game = game_named(name)
        if length > MAX_PROVENANCE or HEADER.size + length > len(blob):
            raise DataError(f"{label}: provenance of {length} bytes (at most {MAX_PROVENANCE}, within the file)")
        try:
            self.provenance = json.loads(blob[HEADER.size:HEADER.size + length])
            if not isinstance(self.provenance, dict):
                raise ValueError("not an object")
        except ValueError as e:
            raise DataError(f"{label}: provenance is not a JSON object ({clip(e, 60)})") from None
        if len(blob) < HEADER.size + length + TRAILER.size:
            raise DataError(f"{label}: truncated (no trailer)")
        end, count = TRAILER.unpack_from(blob, len(blob) - TRAILER.size)
        if end != END:
            raise DataError(f"{label}: truncated (no trailer)")
        if count > MAX_POSITIONS:
            raise DataError(f"{label}: more than {MAX_POSITIONS:,} positions")
        try:
            reader = zstandard.ZstdDecompressor().stream_reader(blob[HEADER.size + length:-TRAILER.size])
            raw = reader.read(count * RECORD.itemsize + 1)
        except zstandard.ZstdError as e:
            raise DataError(f"{label}: corrupt records ({clip(e, 80)})") from None
        if len(raw) != count * RECORD.itemsize:
            raise DataError(f"{label}: corrupt records ({len(raw)} bytes where the trailer says {count} records)")
        self.records = np.frombuffer(raw, RECORD)
        self._check(label)

    def _check(self, label: str) -> None:
        r, game = self.records, self.game
        bad = (r["side"] > 1) | (r["result"] > 2) | r["reserved"].any(axis=1)
        bits = np.unpackbits(r["occupied"], axis=1, bitorder="little")
        bad |= bits[:, game.squares:].any(axis=1)
        counts = bits.sum(axis=1)
        bad |= counts > MAX_PIECES
        codes = np.empty((len(r), MAX_PIECES), np.int16)
        codes[:, 0::2] = r["pieces"] & 15
        codes[:, 1::2] = r["pieces"] >> 4
        used = np.arange(MAX_PIECES) < counts[:, None]
        kinds = codes & (game.black_bit - 1)
        valid = (kinds >= 1) & (kinds <= game.kinds) & (codes < 2 * game.black_bit)
        bad |= (used & ~valid).any(axis=1) | (~used & (codes != 0)).any(axis=1)
        if bad.any():
            raise DataError(f"{label}: record {int(np.argmax(bad))} is not a position of {game.name}")

    def __len__(self) -> int:
        return len(self.records)

    def boards(self) -> np.ndarray:
        return decode_boards(self.records, self.game.squares)
