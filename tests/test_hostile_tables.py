"""Hostile table files (issue 29): files crafted to exhaust, hang or mislead the engine -- decompression bombs,
a FIFO, a directory or /proc/self/mem named like a table, a header claiming 2**32 chunks, a non-ASCII name,
wrong values under valid checksums -- and thousands of random mutations of real tables.  Whatever a file
holds, the reader raises ``TableError`` (one line naming the file) within a few milliseconds and a few
megabytes, ``tb probe`` prints one error line per bad file, and the engine (UCCI and UCI, xiangqi and chess)
reports each once, answers ``isready`` and plays legal moves.  Also: no planted symlink redirects a write of
``tb build``, the sliced build's raw file is private, workers' bytes are checked, and ``tb verify`` and the
manifest catch a table rewritten with fresh checksums."""
import itertools
import os
import random
import re
import stat
import struct
import subprocess
import sys
import tempfile
import time
import tracemalloc
import zlib
from pathlib import Path

import chess
import numpy as np
import pytest
import zstandard
from click.testing import CliRunner

from engine.egtb import manifest
from engine.egtb.build import Builder
from engine.egtb.cli import tb
from engine.egtb.codes import DIST0, RULE_BASE
from engine.egtb.store import (CHUNK_ENTRY, HEADER, HEADER_SIZE, RAW, RLE, TableError, TableFile, check_table,
                               encode_chunks, save_table, table_parts, table_path)
from engine.egtb.build.verify import verify_directory
from engine.files import UnwritableFile, write_atomically
from engine.game import CHESS, XIANGQI
from engine.xiangqi.position import Position
from engine.xiangqi.tables import MAGIC, SUFFIX, Tablebases, parse_material
from test_protocol import LOAD_TIMEOUT, EngineProcess, assert_legal_reply

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.filterwarnings("ignore:Code running in object mode")

KRVK_MATE_IN_1 = "4k4/9/9/9/9/9/9/9/3R5/5K3 w - - 0 1"        # win 1 (d1d9)
KRVKA_WIN = "3k5/4a4/9/9/9/9/9/9/2R6/5K3 w - - 0 1"           # win 5, KRvKA's chunk 0
KPVKA = "4k4/4a4/9/9/9/9/4P4/9/9/3K5 w - - 0 1"
CHESS_KRVK_MATE_IN_1 = "4k3/8/4K3/8/8/8/8/7R w - - 0 1"       # Rh8#
MB = 1 << 20
GB = 1 << 30
CHESS_MAGIC = CHESS.tables().MAGIC
# Peak memory, measured for the code under test alone: a pytest worker's (or its children's) lifetime peak
# (ru_maxrss) holds whatever earlier tests on that worker used (a Ray instance, a table build).
PEAK_OF_CHILD = ("import resource, subprocess, sys; code = subprocess.run(sys.argv[1:]).returncode; "
                 "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr); sys.exit(code)")


def rss_kb(field: str = "VmRSS") -> int:
    return int(re.search(rf"{field}:\s+(\d+)", Path("/proc/self/status").read_text())[1])


def reset_peak_rss() -> int:
    """Restart this process's peak resident size (VmHWM) from now; returns the resident size now (kB)."""
    Path("/proc/self/clear_refs").write_text("5")
    return rss_kb()


FIELDS = ("magic", "version", "value_bytes", "flags", "name", "size", "npos", "chunk", "nchunks", "max_dist",
          "reserved", "table_crc", "header_crc")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A real set (KRvKA and what it captures into: KRvK, KAvK, KvK) with its manifest."""
    d = tmp_path_factory.mktemp("built")
    Builder(XIANGQI, d).build(["KRvKA"])
    return d


# ------------------------------------------------------------------------------------------------------------
# Crafting
# ------------------------------------------------------------------------------------------------------------

def table_bytes(name, blobs, magic=MAGIC, size=None, chunk=8192, value_bytes=1, max_dist=4):
    """A table file around ``blobs`` (stored chunks), every checksum valid; ``size`` defaults to the xiangqi
    material's."""
    size = size if size is not None else parse_material(name).size
    return b"".join(table_parts(name, size, size // 2, chunk, value_bytes, max_dist, "chase", blobs, magic))


def with_header(data: bytes, **fields) -> bytes:
    """``data`` with header fields replaced and the header checksum made valid again."""
    values = dict(zip(FIELDS, HEADER.unpack_from(data)))
    values.update(fields)
    head = HEADER.pack(*(values[f] for f in FIELDS))
    head = head[:-4] + struct.pack("<I", zlib.crc32(head[:-4]))
    return head + data[HEADER_SIZE:]


def zstd_rle_frame(total: int, declare: bool, blocks: int = None) -> bytes:
    """A zstandard frame of ``total`` zero bytes written as RLE blocks (128 KiB each), its content size declared
    (8 bytes, single segment) or not; ``blocks`` cuts it after that many (a frame that lies about its size)."""
    if declare:
        head = struct.pack("<IBQ", 0xFD2FB528, 0xE0, total)
    else:
        head = struct.pack("<IBB", 0xFD2FB528, 0x00, (17 - 10) << 3)      # window 128 KiB, no content size
    out, left = [head], total
    while left and (blocks is None or len(out) <= blocks):
        n = min(left, 1 << 17)
        left -= n
        out.append(struct.pack("<I", (1 if not left else 0) | (1 << 1) | (n << 3))[:3] + b"\0")
    return b"".join(out)


def rle_bomb(nruns: int = 32768, run: int = 65535, value_bytes: int = 1) -> bytes:
    """A run-length chunk of ``nruns`` runs of ``run`` entries each (2**31 entries, 4 GB decoded, by default)."""
    payload = struct.pack("<I", nruns) + bytes(nruns * value_bytes) + np.full(nruns, run, "<u2").tobytes()
    return bytes([RLE]) + zstandard.ZstdCompressor().compress(payload)


def forged_krvk(max_dist: int) -> bytes:
    """KRvK with every entry 'the side to move mates in 1001 plies', encoded by the real writer (valid
    checksums); the header's longest mate says ``max_dist``."""
    values = np.full(parse_material("KRvK").size, DIST0 + 1001, np.uint16)
    return table_bytes("KRvK", encode_chunks(values, 2), value_bytes=2, max_dist=max_dist)


HOSTILE = {   # name: (make(path), what the error says)
    "rle bomb": (lambda p: p.write_bytes(table_bytes("KRvK", [rle_bomb()])), "frame declares 98,308 bytes"),
    "run lengths beyond the chunk": (lambda p: p.write_bytes(table_bytes("KRvK", [rle_bomb(8100)])),
                                     "decodes to 530833500 entries, expected 8100"),
    "zstd frame declaring 3.2 GB": (lambda p: p.write_bytes(table_bytes(
        "KRvK", [bytes([RAW]) + zstd_rle_frame(3_200_000_000, True, blocks=4)])), "declares 3,200,000,000 bytes"),
    "zstd frame of no declared size, too long": (lambda p: p.write_bytes(table_bytes(
        "KRvK", [bytes([RAW]) + zstd_rle_frame(1 << 20, False)])), "corrupt chunk 0"),
    "non-ASCII name": (lambda p: p.write_bytes(with_header(table_bytes("KRvK", [rle_bomb()]), name=b"KRvK\xff\xfe")),
                       "bad material name in the header (b'KRvK\\xff\\xfe')"),
    "directory": (lambda p: p.mkdir(), "a directory, not a regular file"),
    "FIFO": (lambda p: os.mkfifo(p), "a FIFO, not a regular file"),
    "/proc/self/mem": (lambda p: p.symlink_to("/proc/self/mem"), "truncated (header)"),
    "2**32-1 chunks": (lambda p: p.write_bytes(with_header(table_bytes("KRvK", []), chunk=32768,
                                                           nchunks=2**32 - 1, size=(2**32 - 1) * 32768,
                                                           npos=(2**32 - 1) * 16384)),
                       f"truncated (chunk table: {HEADER_SIZE} bytes, expected {HEADER_SIZE + (2**32 - 1) * 16}+)"),
    "huge distances, valid checksums": (lambda p: p.write_bytes(forged_krvk(4)),
                                        "value code 1003 beyond the header's bounds (longest mate 4 plies)"),
    "truncated": (lambda p: p.write_bytes(forged_krvk(4)[:HEADER_SIZE + 10]), "truncated"),
}


def rewrite(path: Path, data: bytes) -> None:
    """``path`` made to hold ``data`` as a new file: rewriting one in place (truncated) makes ext4 flush it to
    disk on close, 30 times slower."""
    path.unlink(missing_ok=True)
    path.write_bytes(data)


def read_everything(path, magic=MAGIC) -> np.ndarray:
    """Open ``path`` as a table and decode every chunk (TableError on any fault)."""
    with TableFile(path, magic) as f:
        return np.concatenate([f.read_chunk(i) for i in range(f.nchunks)] or [np.zeros(0, np.uint16)])


# ------------------------------------------------------------------------------------------------------------
# The reader
# ------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_hostile_file_is_one_table_error_in_milliseconds_and_megabytes(tmp_path, case):
    """Before: the 116-byte RLE bomb took 16.7 s and 4.2 GB before its size was checked, the zstandard frame
    39 s and 9.2 GB; the FIFO hung; the others raised UnicodeDecodeError, IsADirectoryError, OSError (EIO),
    MemoryError -- or, for the huge distances, were believed."""
    make, says = HOSTILE[case]
    path = tmp_path / "KRvK.xtb"
    make(path)
    tracemalloc.start()
    t0 = time.perf_counter()
    try:
        with pytest.raises(TableError) as e:
            read_everything(path)
        seconds = time.perf_counter() - t0
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    message = str(e.value)
    assert says in message and message.startswith(str(path)) and "\n" not in message, message
    assert seconds < 0.5 and peak < 8 * MB, (seconds, peak)
    tables = Tablebases(tmp_path)                       # the engine's view: one line, the table absent
    assert str(tables.probe(Position(KRVK_MATE_IN_1))) == "unknown"
    assert tables.take_errors() == [message]


def test_mutation_fuzz_of_real_tables_yields_table_errors_only(built, tmp_path):
    """3,000 mutations (seeded) of the real KRvK and KRvKA files, each read whole: random byte flips and
    truncations (every byte is under a checksum: always refused), and header, chunk-table and chunk edits with
    every checksum made valid again (they reach the decoder and the bounds).  Nothing but TableError escapes,
    no case takes long, nothing decoded lies outside its header's bounds; every 25th case also goes through
    ``Tablebases.probe`` with the rest of the set beside it."""
    rng = random.Random(29)
    rss_at_start = reset_peak_rss()
    originals = {n: table_path(built, n, SUFFIX).read_bytes() for n in ("KRvK", "KRvKA")}
    probe_dir = tmp_path / "set"
    probe_dir.mkdir()
    for n in ("KvK", "KAvK", "KRvK"):
        (probe_dir / f"{n}.xtb").write_bytes(table_path(built, n, SUFFIX).read_bytes())   # no manifest: unchecked
    outcomes = {kind: {"ok": 0, "error": 0} for kind in ("flip", "truncate", "header", "table", "chunk")}
    reached_decoder = 0
    slowest = 0.0
    for case in range(3000):
        name = rng.choice(sorted(originals))
        data = bytearray(originals[name])
        kind = rng.choice(sorted(outcomes))
        if kind == "flip":
            for _ in range(rng.randint(1, 4)):
                data[rng.randrange(len(data))] ^= rng.randint(1, 255)
        elif kind == "truncate":
            del data[rng.randrange(len(data)):]
        elif kind == "header":
            field = rng.choice(FIELDS[1:11])
            width = 24 if field == "name" else {"version": 2, "value_bytes": 1, "flags": 1, "size": 8, "npos": 8,
                                                 "chunk": 4, "nchunks": 4, "max_dist": 2, "reserved": 2}[field]
            value = rng.choice([0, 1, 2, (1 << 8 * width) - 1, rng.getrandbits(8 * width)])
            if field == "name":
                value = bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 24)))
            data = bytearray(with_header(bytes(data), **{field: value}))
        else:
            head = dict(zip(FIELDS, HEADER.unpack_from(data)))
            table = bytearray(data[HEADER_SIZE:HEADER_SIZE + head["nchunks"] * CHUNK_ENTRY.size])
            i = rng.randrange(head["nchunks"])
            off, length, crc = CHUNK_ENTRY.unpack_from(table, i * CHUNK_ENTRY.size)
            if kind == "table":
                off, length = rng.choice([(off + rng.randint(-8, 8), length), (off, length + rng.randint(-8, 8)),
                                          (rng.getrandbits(64), length), (off, rng.getrandbits(32))])
                off = off % (1 << 64)
                length = length % (1 << 32)
            else:                                          # the chunk's bytes, its checksum made valid
                blob = bytearray(data[off:off + length])
                for _ in range(rng.randint(1, 3)):
                    blob[rng.randrange(len(blob))] ^= rng.randint(1, 255)
                data[off:off + length] = blob
                crc = zlib.crc32(blob)
            CHUNK_ENTRY.pack_into(table, i * CHUNK_ENTRY.size, off, length, crc)
            data[HEADER_SIZE:HEADER_SIZE + len(table)] = table
            data = bytearray(with_header(bytes(data), table_crc=zlib.crc32(table)))
        path = tmp_path / f"{name}.xtb"
        rewrite(path, bytes(data))
        t0 = time.perf_counter()
        try:
            with TableFile(path, MAGIC) as f:
                values = np.concatenate([f.read_chunk(j) for j in range(f.nchunks)] or [np.zeros(0, np.uint16)])
                top = f.max_dist
            assert not ((values > DIST0 + top) & (values < RULE_BASE)).any()              # within bounds
            outcomes[kind]["ok"] += 1
        except TableError as e:
            outcomes[kind]["error"] += 1
            reached_decoder += "corrupt chunk" in str(e)
        slowest = max(slowest, time.perf_counter() - t0)
        if case % 25 == 0:
            rewrite(probe_dir / f"{name}.xtb", bytes(data))
            tables = Tablebases(probe_dir)
            for fen in (KRVK_MATE_IN_1, KRVKA_WIN):
                assert tables.probe(Position(fen)).kind in ("win", "loss", "draw", "unknown")
            assert all("\n" not in m for m in tables.take_errors())
            rewrite(probe_dir / f"{name}.xtb", originals[name])
    assert outcomes["flip"]["ok"] == 0 and outcomes["truncate"]["ok"] == 0, outcomes
    assert sum(o["error"] for o in outcomes.values()) > 1500 and reached_decoder > 100, (outcomes, reached_decoder)
    assert slowest < 1.0, slowest                      # (typically under 10 ms; the machine may be loaded)
    assert rss_kb("VmHWM") - rss_at_start < GB // 1024                   # (kB) no case ever near a bomb


# ------------------------------------------------------------------------------------------------------------
# A hostile directory through tb probe and the engine
# ------------------------------------------------------------------------------------------------------------

def hostile_directory(d: Path, built: Path) -> dict:
    """Good KvK and KAvK; KRvK rewritten with fresh checksums while the manifest lists the real digest;
    KRvKA and KPvKA bombs (found when a chunk is read); five files refused when opened; chess: a KRvK bomb,
    a KQvK FIFO.  Returns {file: the words its error line must hold}."""
    d.mkdir()
    for n in ("KvK", "KAvK"):
        (d / f"{n}.xtb").write_bytes(table_path(built, n, SUFFIX).read_bytes())
    (d / "KRvK.xtb").write_bytes(forged_krvk(1001))             # within its (forged) header's bounds
    manifest.record(d, {"KRvK.xtb": manifest.read_manifest(built)["KRvK.xtb"]})
    (d / "KRvKA.xtb").write_bytes(table_bytes("KRvKA", [rle_bomb()] * 5))
    (d / "KPvKA.xtb").write_bytes(table_bytes("KPvKA", [bytes([RAW]) + zstd_rle_frame(3_200_000_000, True, 4)] * 4))
    os.mkfifo(d / "KNvK.xtb")
    (d / "KCvK.xtb").mkdir()
    (d / "KPvK.xtb").symlink_to("/proc/self/mem")
    (d / "KNvKA.xtb").write_bytes(with_header(table_bytes("KRvK", []), chunk=32768, nchunks=2**32 - 1,
                                              size=(2**32 - 1) * 32768, npos=(2**32 - 1) * 16384))
    (d / "KCvKA.xtb").write_bytes(with_header(table_bytes("KCvKA", [rle_bomb()] * 5), name=b"KCvKA\xff"))
    chess_krvk = CHESS.tables().parse_material("KRvK").size
    (d / "KRvK.ctb").write_bytes(table_bytes("KRvK", [rle_bomb()] * -(-chess_krvk // 8192), CHESS_MAGIC, chess_krvk))
    os.mkfifo(d / "KQvK.ctb")
    return {"KRvK.xtb": "SHA-256 differs", "KNvK.xtb": "FIFO", "KCvK.xtb": "directory", "KPvK.xtb": "truncated",
            "KNvKA.xtb": "truncated (chunk table", "KCvKA.xtb": "bad material name", "KQvK.ctb": "FIFO"}


def files_named(lines) -> dict:
    """{table file: its error line} of error lines, each naming exactly one table file."""
    named = {}
    for line in lines:
        files = re.findall(r"\b\w+\.[xc]tb\b", line)
        assert len(files) == 1 and files[0] not in named, line
        named[files[0]] = line
    return named


def test_tb_probe_over_a_hostile_directory_prints_one_line_per_bad_file(built, tmp_path):
    d = tmp_path / "hostile"
    at_open = hostile_directory(d, built)
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, "-c", PEAK_OF_CHILD, sys.executable, "-m", "engine", "tb", "probe",
                        "--fen", KRVKA_WIN, "--dir", str(d)], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert time.perf_counter() - t0 < 30
    assert r.returncode == 2 and r.stdout == "unknown\n" and "Traceback" not in r.stderr, r.stderr
    *lines, peak_kb = r.stderr.splitlines()
    assert all(line.startswith("error: ") for line in lines), lines
    named = files_named(lines)
    xiangqi = {f: words for f, words in at_open.items() if f.endswith(".xtb")}
    assert set(named) == set(xiangqi) | {"KRvKA.xtb"}, lines
    assert all(words in named[f] for f, words in xiangqi.items()), lines
    assert "frame declares 98,308 bytes" in named["KRvKA.xtb"]
    assert int(peak_kb) < GB // 1024                                        # (kB) the child's peak


@pytest.mark.parametrize("dialect", ["ucci", "uci"])
def test_the_engine_reports_each_bad_table_once_and_plays_on(built, tmp_path, dialect):
    """The tables set on a hostile directory: ``isready`` answers at once, with one error line per file refused
    when opened (the tampered KRvK among them); a search over a bomb's table reports it once and plays a legal
    move; the mate in one the tampered KRvK would have hidden is played; in UCI the chess tables too; ``quit``
    ends the engine although a FIFO is named like a table."""
    d = tmp_path / "hostile"
    at_open = hostile_directory(d, built)
    engine = EngineProcess()
    try:
        engine.handshake(dialect)
        engine.ready()
        option, depth = (("setoption egtbpaths", "setoption egtbply 1") if dialect == "ucci" else
                         ("setoption name EGTBPath value", "setoption name EGTBProbeDepth value 1"))
        engine.send(f"{option} {d}")
        engine.send(depth)
        sent = engine.send("isready")
        t, lines = engine.read_until(lambda ln: ln == "readyok", LOAD_TIMEOUT)
        assert t - sent < 5.0
        assert all(line.startswith("info string error: ") for line in lines[:-2]), lines
        assert lines[-2].startswith("info string endgame tables: ") and " xiangqi (" in lines[-2], lines
        named = files_named(lines[:-2])
        assert set(named) == set(at_open) and all(words in named[f] for f, words in at_open.items()), lines

        engine.send(f"position fen {KRVKA_WIN}")
        engine.send("go depth 3")
        _, lines = engine.bestmove()
        errors = [ln for ln in lines if ln.startswith("info string error: ")]
        assert len(errors) == 1 and "KRvKA.xtb: corrupt chunk" in errors[0], lines
        assert_legal_reply(lines[-1], Position(KRVKA_WIN))

        engine.send(f"position fen {KRVK_MATE_IN_1}")
        engine.send("go depth 3")
        _, lines = engine.bestmove()
        pos = Position(KRVK_MATE_IN_1)
        pos.push(assert_legal_reply(lines[-1], pos))
        assert pos.legal_moves() == [], lines                  # mated: the tampered table was not believed
        assert not [ln for ln in lines if ln.startswith("info string error")], lines

        if dialect == "uci":
            engine.send(f"position fen {CHESS_KRVK_MATE_IN_1}")
            engine.send("go depth 3")
            _, lines = engine.bestmove()
            errors = [ln for ln in lines if ln.startswith("info string error: ")]
            assert len(errors) == 1 and "KRvK.ctb: corrupt chunk" in errors[0], lines
            board = chess.Board(CHESS_KRVK_MATE_IN_1)
            board.push_uci(lines[-1].split()[1])
            assert board.is_checkmate(), lines
        else:
            engine.send(f"probe fen {KPVKA}")
            _, lines = engine.read_until(lambda ln: ln.startswith("pophash"))
            assert re.search(r"KPvKA\.xtb: corrupt chunk \d \(its frame declares 3,200,000,000 bytes", lines[0]), lines
            assert lines[1] == "unknown", lines
        engine.send("quit")
        engine.proc.wait(5)
        assert b"Traceback" not in b"".join(engine.stderr)
    finally:
        engine.close()


# ------------------------------------------------------------------------------------------------------------
# Writing: planted symlinks, the private scratch file, workers' bytes
# ------------------------------------------------------------------------------------------------------------

def test_a_symlink_planted_at_any_temporary_name_never_redirects_a_write(built, tmp_path, monkeypatch):
    """Symlinks to a victim at the old predictable names (``<file>.tmp<pid>``) and at the first names the new
    writer will try (``<file>.tmp<pid>.<random>``: the random part made predictable here): the build goes
    round them, the victim and the links are untouched, and the tables are the real ones."""
    victim = tmp_path / "victim"
    victim.write_bytes(b"precious")
    d = tmp_path / "tables"
    d.mkdir()
    guesses = ["aaaaaaaa", "bbbbbbbb", "cccccccc"]
    monkeypatch.setattr(tempfile, "_get_candidate_names",
                        lambda: itertools.chain(guesses, tempfile._RandomNameSequence()))
    links = []
    for target in ("KvK.xtb", "KRvK.xtb", manifest.MANIFEST_NAME):
        for name in [f"{target}.tmp{os.getpid()}"] + [f"{target}.tmp{os.getpid()}.{g}" for g in guesses]:
            (d / name).symlink_to(victim)
            links.append(d / name)
    Builder(XIANGQI, d).build(["KRvK"])
    assert victim.read_bytes() == b"precious"
    assert all(link.is_symlink() and os.readlink(link) == str(victim) for link in links)
    for n in ("KvK", "KRvK"):
        assert table_path(d, n, SUFFIX).read_bytes() == table_path(built, n, SUFFIX).read_bytes()
    assert stat.S_IMODE((d / "KRvK.xtb").stat().st_mode) == 0o666 & ~_umask()     # as open() would make it


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_a_directory_that_cannot_be_written_is_one_error_line(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(UnwritableFile, match=r"^.*KRvK\.xtb: .*file is not a directory$"):
        write_atomically(blocker / "KRvK.xtb", [b"x"])
    r = CliRunner().invoke(tb, ["build", "KRvK", "-q", "--dir", str(blocker / "sub")])
    assert r.exit_code == 2 and r.output.count("\n") == 1 and r.output.startswith("error: "), r.output


def test_the_sliced_builds_raw_file_is_private_sized_and_never_a_planted_one(built, tmp_path, monkeypatch):
    """The smaller tables' raw file of a sliced build lives in ``<tmp>/shuai-<uid>`` (0700, this user's); a file
    of the wrong size at its name is rebuilt, not mapped; a scratch directory that is not this user's own
    (here a symlink) is passed over for a fresh private one; tampered smaller tables are refused."""
    from engine.egtb.build.sliced import _smaller_tables, scratch_directory
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    material = parse_material("KRvKA").canonical()[0]
    names = [s.name for s in material.subtables()]
    files = [table_path(built, n, SUFFIX).read_bytes() for n in names]
    expected = np.concatenate([read_everything(table_path(built, n, SUFFIX)) for n in names])
    scratch, own = scratch_directory()
    assert scratch == tmp_path / f"shuai-{os.getuid()}" and not own
    assert stat.S_IMODE(scratch.stat().st_mode) == 0o700
    (_, values, *_), path, own = _smaller_tables(XIANGQI, material, names, files)
    assert path.parent == scratch and not own and np.array_equal(values, expected)
    del values
    path.write_bytes(b"\x01\x00" * 10)                         # planted, of the wrong size
    (_, values, *_), path, _ = _smaller_tables(XIANGQI, material, names, files)
    assert np.array_equal(values, expected)
    del values
    scratch.rename(tmp_path / "elsewhere")
    scratch.symlink_to(tmp_path / "elsewhere")                # not a directory of ours: not used
    (_, values, *_), path, own = _smaller_tables(XIANGQI, material, names, files)
    assert own and path.parent.parent == tmp_path and path.parent.name.startswith("shuai-subs-")
    assert np.array_equal(values, expected)
    del values
    forged = [forged_krvk(4) if n == "KRvK" else f for n, f in zip(names, files)]
    with pytest.raises(TableError, match="value code 1003 beyond"):
        _smaller_tables(XIANGQI, material, names, forged)


def test_a_workers_table_is_checked_whole_before_it_is_written(built, tmp_path):
    """What the cluster driver does with a table a worker returns (``save_table`` with ``check_table``): a
    tampered one (fresh checksums) never takes the name, nor enters the manifest; a sound one does."""
    d = tmp_path / "driver"
    material = parse_material("KRvK")
    target = table_path(d, "KRvK", SUFFIX)
    check = lambda tmp: check_table(tmp, MAGIC, material)        # noqa: E731
    for bad, says in [(forged_krvk(4), "beyond the header's bounds"),
                      (table_bytes("KRvK", [rle_bomb()]), "frame declares"),
                      (table_bytes("KRvK", [rle_bomb()])[:-3], "truncated"),
                      (table_path(built, "KRvKA", SUFFIX).read_bytes(), "header does not match its material")]:
        with pytest.raises(TableError, match=re.escape(says)):
            save_table(target, [bad], check=check)
        assert not d.exists() or sorted(p.name for p in d.iterdir()) == []
    good = table_path(built, "KRvK", SUFFIX).read_bytes()
    save_table(target, [good], check=check)
    assert target.read_bytes() == good
    assert manifest.read_manifest(d) == {"KRvK.xtb": manifest.read_manifest(built)["KRvK.xtb"]}


# ------------------------------------------------------------------------------------------------------------
# The manifest and tb verify
# ------------------------------------------------------------------------------------------------------------

def test_tb_verify_passes_a_clean_set_and_reports_tampered_unlisted_and_missing_files(built, tmp_path):
    runner = CliRunner()
    r = runner.invoke(tb, ["verify", str(built)])
    assert r.exit_code == 0 and r.output == "4 tables good, 0 problems (2,920 bytes read)\n", r.output
    d = tmp_path / "set"
    d.mkdir()
    for p in built.iterdir():
        (d / p.name).write_bytes(p.read_bytes())
    (d / "KRvK.xtb").write_bytes(forged_krvk(1001))           # sound on its own: only its digest tells
    (d / "KAvK.xtb").unlink()
    (d / "KNvK.xtb").write_bytes(table_bytes("KNvK", [rle_bomb()]))
    r = runner.invoke(tb, ["verify", str(d)])
    assert r.exit_code == 1, r.output
    assert r.output.splitlines() == [
        f"{d / 'KNvK.xtb'}: corrupt chunk 0 (its frame declares 98,308 bytes, at most 24,304 expected)",
        f"{d / 'KRvK.xtb'}: its SHA-256 differs from the one MANIFEST.sha256 lists (tampered with or replaced; "
        "refused)",
        f"{d / 'KAvK.xtb'}: missing (listed in MANIFEST.sha256)",
        "2 tables good, 3 problems (2,518 bytes read)"], r.output
    tables = Tablebases(d)                                     # the engine refuses the tampered table: one line
    assert str(tables.probe(Position(KRVK_MATE_IN_1))) == "unknown"
    assert [e for e in tables.take_errors() if "KRvK.xtb" in e] == [
        f"{d / 'KRvK.xtb'}: its SHA-256 differs from the one MANIFEST.sha256 lists (tampered with or replaced; "
        "refused)"]
    (d / manifest.MANIFEST_NAME).unlink()                     # no manifest: the forged file is believed ...
    assert str(Tablebases(d).probe(Position(KRVK_MATE_IN_1))) == "win 1001"
    r = runner.invoke(tb, ["verify", str(d)])                   # ... and verify says what is unchecked
    assert r.exit_code == 1 and f"{d / 'MANIFEST.sha256'}: missing" in r.output, r.output
    (d / "KNvK.xtb").unlink()
    r = runner.invoke(tb, ["verify", "--add", str(d)])
    assert r.exit_code == 0 and "KRvK.xtb: added to the manifest" in r.output, r.output
    assert sorted(manifest.read_manifest(d)) == ["KRvK.xtb", "KRvKA.xtb", "KvK.xtb"]


def test_a_manifest_that_cannot_be_read_refuses_its_directory_in_one_line(built, tmp_path):
    d = tmp_path / "set"
    d.mkdir()
    for p in built.glob("*.xtb"):
        (d / p.name).write_bytes(p.read_bytes())
    (d / manifest.MANIFEST_NAME).write_text("not a digest  KRvK.xtb\n")
    tables = Tablebases(d)
    assert tables.names == [] and tables.take_errors() == [
        f"{d / manifest.MANIFEST_NAME} line 1: not '<sha256>  <file name>' (not a digest  KRvK.xtb) "
        "(the tables of its directory are refused)"]


def test_a_build_rebuilds_a_tampered_smaller_table_instead_of_reading_it(built, tmp_path):
    """Before, a KRvK with huge distances under valid checksums fed a KRvKA build (17 times slower, wrong
    values).  With the manifest the build sees the digest differ, rebuilds KRvK, and both files come out as
    the real ones."""
    d = tmp_path / "set"
    d.mkdir()
    for p in built.iterdir():
        (d / p.name).write_bytes(p.read_bytes())
    (d / "KRvK.xtb").write_bytes(forged_krvk(1001))
    (d / "KRvKA.xtb").unlink()
    said = []
    records = Builder(XIANGQI, d).build(["KRvKA"], log=said.append)
    assert [r.name for r in records if r.built] == ["KRvK", "KRvKA"]
    assert any(line.startswith("rebuilding KRvK.xtb: ") and "SHA-256 differs" in line for line in said), said
    for n in ("KRvK", "KRvKA"):
        assert table_path(d, n, SUFFIX).read_bytes() == table_path(built, n, SUFFIX).read_bytes()
    assert verify_directory(d).problems == []
