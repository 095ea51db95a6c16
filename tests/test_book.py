"""Opening books (issue 30, engine/book/): the project's own format and Polyglot, built from games and probed,
used by the searcher and the protocols, and refused in one line when a file is wrong."""
import os
import struct
import time

import numpy as np
import pytest
from click.testing import CliRunner

from engine.book import BookError, book_moves, choose, default_book, open_book, open_books
from engine.book import native
from engine.game import CHESS, XIANGQI

from test_protocol import EngineProcess, REPLY_TIMEOUT, SEARCH_TIMEOUT, started

XIANGQI_PGN = """[Game "Chinese Chess"]
[Result "*"]
[Format "ICCS"]

1. H2-E2 H9-G7 2. H0-G2 *

[Game "Chinese Chess"]
[Result "*"]
[Format "ICCS"]

1. H2-E2 B9-C7 *

[Game "Chinese Chess"]
[Result "*"]
[Format "ICCS"]

1. B0-C2 H9-G7 *
"""

CHESS_PGN = """[Event "a"]
[Result "*"]

1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. O-O *

[Event "b"]
[Result "*"]

1. e4 c5 *

[Event "c"]
[Result "*"]

1. d4 d5 2. c4 dxc4 *
"""


def cli(*args):
    from engine.cli import main
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def probe_lines(*args):
    code, out = cli("book", "probe", *args)
    assert code == 0, out
    return [line.split()[:2] for line in out.splitlines() if line != "no book moves"]


# -- building and probing ---------------------------------------------------------------------------------------

def test_a_xiangqi_book_lists_the_moves_it_was_built_from(tmp_path):
    pgn, book = tmp_path / "games.pgn", tmp_path / "x.book"
    pgn.write_text(XIANGQI_PGN)
    code, out = cli("book", "build", "--pgn", str(pgn), "--out", str(book))
    assert code == 0 and "3 games" in out and "6 moves" in out, out
    assert probe_lines("--book", str(book)) == [["h2e2", "2"], ["b0c2", "1"]]
    assert sorted(probe_lines("--book", str(book), "--moves", "h2e2")) == [["b9c7", "1"], ["h9g7", "1"]]
    assert probe_lines("--book", str(book), "--moves", "h2e2 h9g7") == [["h0g2", "1"]]
    assert probe_lines("--book", str(book), "--moves", "b0c2") == [["h9g7", "1"]]
    assert probe_lines("--book", str(book), "--moves", "c3c4") == []
    code, out = cli("book", "build", "--pgn", str(pgn), "--min-games", "2", "--out", str(book))
    assert code == 0 and probe_lines("--book", str(book)) == [["h2e2", "2"]]


def test_a_book_is_written_through_no_predictable_name_and_only_over_a_regular_file(tmp_path):
    """A symbolic link planted at ``<out>.tmp`` (the old temporary's name) is not written through, and an --out
    that is a directory is one error line with status 2, not a traceback."""
    pgn, book, victim = tmp_path / "games.pgn", tmp_path / "x.book", tmp_path / "victim"
    pgn.write_text(XIANGQI_PGN)
    victim.write_text("precious")
    (tmp_path / "x.book.tmp").symlink_to(victim)
    code, out = cli("book", "build", "--pgn", str(pgn), "--out", str(book))
    assert code == 0 and victim.read_text() == "precious" and book.is_file(), out
    code, out = cli("book", "build", "--pgn", str(pgn), "--out", str(tmp_path))
    assert code == 2 and "error: cannot write" in out and "a directory" in out, out


def test_a_chess_book_is_polyglot_and_python_chess_reads_it(tmp_path):
    import chess
    import chess.polyglot
    pgn, book = tmp_path / "games.pgn", tmp_path / "c.bin"
    pgn.write_text(CHESS_PGN)
    code, out = cli("book", "build", "--game", "chess", "--pgn", str(pgn), "--out", str(book))
    assert code == 0, out
    assert probe_lines("--game", "chess", "--book", str(book)) == [["e2e4", "2"], ["d2d4", "1"]]
    castle = "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6"
    assert probe_lines("--game", "chess", "--book", str(book), "--moves", castle) == [["e1g1", "1"]]
    board = chess.Board()
    for move in castle.split():
        board.push_uci(move)
    with chess.polyglot.open_reader(book) as reader:       # python-chess reads what we wrote, castling included
        assert [e.move.uci() for e in reader.find_all(board)] == ["e1g1"]
        assert sum(1 for _ in reader) == 12            # 7 + 1 (1. e4 c5) + 4 distinct moves


def test_choose_draws_by_weight_or_takes_the_heaviest():
    import random
    rng = random.Random(1)
    moves = [("h2e2", 3), ("b0c2", 1), ("a3a4", 0)]
    picks = [choose(moves, rng) for _ in range(4000)]
    assert 0.7 < picks.count("h2e2") / 4000 < 0.8 and "a3a4" not in picks
    assert choose(moves, rng, best=True) == "h2e2"
    assert choose([], rng) is None and choose([("h2e2", 0)], rng) is None


def test_the_default_xiangqi_book_is_small_and_knows_the_start():
    path = default_book(XIANGQI)
    assert path is not None and path.stat().st_size <= 1 << 20
    book = open_book(path, XIANGQI)
    moves = book.moves(XIANGQI.position())
    assert len(moves) >= 3 and len(book.entries(XIANGQI.position())) == len(moves)    # every one legal
    assert default_book(CHESS) is None


# -- hostile and broken files -----------------------------------------------------------------------------------

def native_bytes(records, game=XIANGQI, count=None, start=None, magic=native.MAGIC):
    """A native book's bytes: ``records`` as (key, move, weight) in the order given."""
    rows = np.zeros(len(records), native.RECORD)
    for i, (key, move, weight) in enumerate(records):
        rows[i] = (key, move, weight, 0)
    start = native.start_key(game) if start is None else start
    head = native.HEADER.pack(magic, game.name.encode(), start, len(records) if count is None else count, 0)
    return head + rows.tobytes()


def start_record(move="h2e2", weight=1):
    pos = XIANGQI.position()
    return pos.key, pos.parse_move(move), weight


BROKEN = {
    "missing": (None, "missing"),
    "directory": ("dir", "a directory, not a regular file"),
    "fifo": ("fifo", "a FIFO, not a regular file"),
    "empty": (b"", "not a book of this engine"),
    "garbage": (os.urandom(1000), "not a book of this engine"),
    "truncated": (native_bytes([start_record()])[:40], "bytes for 1 records"),
    "count too large": (native_bytes([start_record()], count=10 ** 9), "bytes for 1,000,000,000 records"),
    "another game": (native_bytes([], game=CHESS), "a book of 'chess', not of xiangqi"),
    "other keys": (native_bytes([start_record()], start=12345), "made with other position keys"),
    "out of order": (native_bytes([(9, 1, 1), (3, 1, 1)]), "records out of order at record 2"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_broken_book_is_one_line_and_no_book(tmp_path, case):
    data, says = BROKEN[case]
    path = tmp_path / "bad.book"
    if data == "dir":
        path.mkdir()
    elif data == "fifo":
        os.mkfifo(path)
    elif data is not None:
        path.write_bytes(data)
    t0 = time.monotonic()
    books, errors = open_books(f"{path};{default_book(XIANGQI)}", XIANGQI)
    assert time.monotonic() - t0 < 1.0
    assert len(books) == 1 and books[0].path == str(default_book(XIANGQI))      # the good one is kept
    assert len(errors) == 1 and "\n" not in errors[0] and says in errors[0] and str(path) in errors[0], errors


def test_devices_and_huge_files_are_refused_before_reading(tmp_path):
    with pytest.raises(BookError, match="a device or socket"):
        open_book("/dev/zero", XIANGQI)
    big = tmp_path / "big.book"
    with open(big, "wb") as f:
        f.truncate((64 << 20) + 1)
    with pytest.raises(BookError, match="too large"):
        open_book(big, XIANGQI)


def test_illegal_and_impossible_moves_in_a_book_are_never_played(tmp_path):
    pos = XIANGQI.position()
    key = pos.key
    path = tmp_path / "hostile.book"
    from engine.xiangqi.notation import parse_move
    blocked = parse_move("a0a5")                                           # the chariot's own soldier is in the way
    path.write_bytes(native_bytes([(key, blocked, 50), (key, 0xFFFF, 60), (key, 0, 70),
                                   (key, pos.parse_move("c3c4"), 1)]))
    book = open_book(path, XIANGQI)
    assert book.moves(pos) == [("c3c4", 1)]
    assert book_moves([book], CHESS.position()) == []                      # another game's position: nothing


# -- in play ------------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def searcher():
    from engine.searcher import QUICK_HASH_MB, Searcher
    return Searcher(QUICK_HASH_MB)


def test_a_book_move_is_answered_at_once_and_levels_may_forbid_it(searcher):
    from engine.levels import Level
    from engine.searcher import Limits, search_once
    books, errors = open_books("", XIANGQI)
    assert errors == []
    searcher.set_books(books)
    pos = XIANGQI.position()
    known = dict(books[0].moves(pos))
    try:
        times = []
        for seed in range(5):
            searcher.seed(seed)
            t0 = time.perf_counter()
            result = search_once(pos, searcher=searcher, limits=Limits(movetime=5))
            times.append(time.perf_counter() - t0)
            assert result.book and result.best in known and result.info is None
        assert min(times) < 0.020, times
        searcher.set_books(books, best=True)
        assert search_once(pos, searcher=searcher, limits=Limits(depth=2)).best == max(known, key=known.get)
        result = search_once(pos, searcher=searcher, limits=Limits(depth=2, level=Level(book=False)))
        assert not result.book and result.info.depth == 2
        pos.push("a3a4")                                           # out of the book: a search
        result = search_once(pos, searcher=searcher, limits=Limits(depth=2))
        assert not result.book and result.info is not None
    finally:
        searcher.set_books([])


def test_ucci_usebook_plays_the_book_and_a_bad_book_is_one_line(tmp_path):
    bad = tmp_path / "bad.book"
    bad.write_bytes(b"not a book")
    engine = started(EngineProcess(), "ucci")
    try:
        engine.send("setoption usebook true")
        engine.send("position startpos")
        sent = engine.send("go time 10000")
        t, lines = engine.bestmove(SEARCH_TIMEOUT)
        move = lines[-1].split()[1]
        assert lines == [f"info string book move {move}", f"bestmove {move}"] and t - sent < 0.5, lines
        assert move in dict(open_book(default_book(XIANGQI), XIANGQI).moves(XIANGQI.position()))
        engine.send(f"setoption bookfiles {bad}")
        engine.send("go depth 2")
        _, lines = engine.bestmove(SEARCH_TIMEOUT)
        errors = [ln for ln in lines if "error" in ln]
        assert errors == [f"info string error: book {bad}: not a book of this engine (no SHUAIBK1 header)"], lines
        assert any(ln.startswith("info depth") for ln in lines)           # no book: a search, and a move
        engine.send("go depth 2")
        _, lines = engine.bestmove(SEARCH_TIMEOUT)
        assert not [ln for ln in lines if "error" in ln]                  # said once
    finally:
        engine.close()
