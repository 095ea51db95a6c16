"""The network file and the reference arithmetic.

Architecture ("perspective SCReLU"): for each side ``v``, an accumulator ``acc_v = b1 + sum of w1[f]`` over the
active inputs ``f`` of the position as ``v`` sees it (:mod:`engine.nnue.features`: one block of inputs, or one
per king bucket of the game, picked by where ``v``'s king stands), ``hidden`` int16 values;
then ``a_v = clamp(acc_v, 0, QA)**2`` and the score for the side to move ``s``, in the engine's centipawns::

    score = (a_s . w2[:hidden] + a_(1-s) . w2[hidden:] + b2) // (QA * QA * QB)      (floor division)

File (little-endian)::

    magic b"SHUAINET", u32 format version, 16 bytes game name (NUL-padded), u32 inputs, u32 hidden, u32 QA,
    u32 QB, u32 length of the provenance, the provenance (JSON: data, commit, command, loss ...),
    w1 int16[inputs, hidden], b1 int16[hidden], w2 int16[2 * hidden], b2 int32, u32 CRC-32 of all before it

A file is checked whole before any of it is used: magic, version, the game (a network is one game's), the input
count (the game's one block, or one per king bucket of its map), the hidden size (``MIN_HIDDEN``..``MAX_HIDDEN``,
a multiple of 16), the quantization, the exact size and the checksum.  Anything else is one ``NetworkError``
line naming the file.
"""
from __future__ import annotations

import json
import struct
import zlib
from dataclasses import dataclass, field

import numpy as np

from ..files import UnreadableFile, atomic_writer, clip, read_bytes
from ..scores import EVAL_LIMIT
from .features import features_of, input_count, king_offsets, relative

MAGIC = b"SHUAINET"
FORMAT_VERSION = 1
HEADER = struct.Struct("<8sI16sIIIII")
QA = 255                        # the accumulator's unit: 1.0 after the clip is QA
QB = 64                         # the output weights' unit
OUTPUT_DIVISOR = QA * QA * QB
MIN_HIDDEN, MAX_HIDDEN = 16, 2048
MAX_PROVENANCE = 64 << 10
MAX_FILE = 64 << 20


class NetworkError(ValueError):
    """A network file that cannot be used; the message is one line that names it."""


@dataclass
class Network:
    """A quantized network for ``game`` (a ``Game``'s name): weights as the file holds them."""
    game: str
    w1: np.ndarray                  # int16 [inputs, hidden]
    b1: np.ndarray                  # int16 [hidden]
    w2: np.ndarray                  # int16 [2 * hidden]: the side to move's half first
    b2: int                         # at the scale OUTPUT_DIVISOR
    provenance: dict = field(default_factory=dict)
    king_buckets: tuple | None = None   # the game's king bucket map, for a network of a block of inputs a bucket
    _arrays: tuple = field(default=None, repr=False, compare=False)

    @property
    def hidden(self) -> int:
        return self.b1.shape[0]

    @property
    def buckets(self) -> int:
        """King buckets: 1, or as many as the game's map names."""
        return 1 if self.king_buckets is None else max(self.king_buckets) + 1

    @property
    def shape(self) -> str:
        """Its size in words, as the engine reports a network: "128 hidden", "128 hidden, 3 king buckets"."""
        return f"{self.hidden} hidden" + (f", {self.buckets} king buckets" if self.buckets > 1 else "")

    def king_offsets(self) -> np.ndarray:
        """The first input of the bucket of a king on each square, as its own side sees it (``features``)."""
        return king_offsets(self.king_buckets, self.w1.shape[0] // self.buckets)

    def arrays(self):
        """(w1 with a row of zeros appended -- the input "none" --, b1, w2, b2 as int64[1], ``king_offsets``): the
        weights as the kernels take them (``engine.nnue.kernels``); made once per network and shared by the
        threads."""
        if self._arrays is None:
            w1 = np.vstack([self.w1, np.zeros((1, self.hidden), np.int16)])
            self._arrays = (w1, self.b1, self.w2, np.array([self.b2], np.int64), self.king_offsets())
        return self._arrays

    def to_bytes(self) -> bytes:
        text = json.dumps(self.provenance, sort_keys=True).encode()
        body = (HEADER.pack(MAGIC, FORMAT_VERSION, self.game.encode(), self.w1.shape[0], self.hidden, QA, QB,
                            len(text)) + text
                + self.w1.astype("<i2").tobytes() + self.b1.astype("<i2").tobytes()
                + self.w2.astype("<i2").tobytes() + struct.pack("<i", self.b2))
        return body + struct.pack("<I", zlib.crc32(body))

    def save(self, path) -> None:
        with atomic_writer(path) as f:
            f.write(self.to_bytes())


def load(path, game) -> Network:
    """The network in ``path`` for ``game`` (a ``Game``), checked whole; NetworkError otherwise."""
    label = clip(path, 200)
    try:
        blob = read_bytes(path, MAX_FILE)
    except UnreadableFile as e:
        raise NetworkError(f"network file {e}") from None
    return parse(blob, game, label)


def parse(blob: bytes, game, label: str = "network") -> Network:
    if len(blob) < HEADER.size + 4:
        raise NetworkError(f"{label}: truncated (header)")
    magic, version, name, inputs, hidden, qa, qb, length = HEADER.unpack_from(blob)
    if magic != MAGIC:
        raise NetworkError(f"{label}: not a Shuai network (bad magic)")
    if version != FORMAT_VERSION:
        raise NetworkError(f"{label}: format version {version}, expected {FORMAT_VERSION}")
    name = name.rstrip(b"\0").decode("ascii", "replace")
    if name != game.name:
        raise NetworkError(f"{label}: a network for {clip(name, 20)!r}, not {game.name}")
    block = input_count(game.squares, game.kinds)
    expected = sorted({block, block * game.net_buckets})
    if inputs not in expected or not MIN_HIDDEN <= hidden <= MAX_HIDDEN or hidden % 16 or (qa, qb) != (QA, QB):
        raise NetworkError(f"{label}: architecture {inputs} inputs x {hidden} (QA {qa}, QB {qb}) is not this "
                           f"engine's ({' or '.join(map(str, expected))} inputs, {MIN_HIDDEN}-{MAX_HIDDEN} a "
                           f"multiple of 16, QA {QA}, QB {QB})")
    if length > MAX_PROVENANCE:
        raise NetworkError(f"{label}: provenance of {length} bytes (at most {MAX_PROVENANCE})")
    size = HEADER.size + length + 2 * (inputs * hidden + 3 * hidden) + 4 + 4
    if len(blob) != size:
        raise NetworkError(f"{label}: {len(blob)} bytes, expected {size} for this architecture")
    if zlib.crc32(blob[:-4]) != struct.unpack_from("<I", blob, size - 4)[0]:
        raise NetworkError(f"{label}: bad checksum")
    try:
        provenance = json.loads(blob[HEADER.size:HEADER.size + length])
        if not isinstance(provenance, dict):
            raise ValueError("not an object")
    except (ValueError, RecursionError) as e:          # RecursionError: nested deeper than the parser goes
        raise NetworkError(f"{label}: provenance is not a JSON object ({clip(e, 60)})") from None
    at = HEADER.size + length
    w1 = np.frombuffer(blob, "<i2", inputs * hidden, at).reshape(inputs, hidden)
    at += 2 * inputs * hidden
    b1 = np.frombuffer(blob, "<i2", hidden, at)
    w2 = np.frombuffer(blob, "<i2", 2 * hidden, at + 2 * hidden)
    (b2,) = struct.unpack_from("<i", blob, at + 6 * hidden)
    return Network(game.name, w1.astype(np.int16), b1.astype(np.int16), w2.astype(np.int16), b2, provenance,
                   game.net_king_buckets if inputs != block else None)


def reference_accumulator(net: Network, board: np.ndarray, viewer: int, game) -> np.ndarray:
    """The accumulator of ``viewer`` (int16 arithmetic, wrapping as the kernels' does)."""
    offset = 0
    if net.king_buckets is not None:
        king = np.flatnonzero(board[:game.squares] == viewer * game.black_bit + game.king)[0]
        offset = int(net.king_offsets()[relative(king, viewer, game.files, game.ranks)])
    active = features_of(board, viewer, game.files, game.ranks, game.kinds, offset)
    return (net.b1.astype(np.int64) + net.w1[active].astype(np.int64).sum(axis=0)).astype(np.int16)


def reference_evaluate(net: Network, board: np.ndarray, side: int, game) -> int:
    """The score for ``side`` to move, exactly as the kernels compute it."""
    acc = [reference_accumulator(net, board, v, game).astype(np.int64) for v in (side, 1 - side)]
    a = [np.clip(x, 0, QA) ** 2 for x in acc]
    w2 = net.w2.astype(np.int64)
    total = int(a[0] @ w2[:net.hidden] + a[1] @ w2[net.hidden:]) + net.b2
    return min(max(total // OUTPUT_DIVISOR, -EVAL_LIMIT), EVAL_LIMIT)
