"""Training positions for the evaluation tuner (issue 13), made by the engine playing itself.

Each game starts from an opening of the game's book (``Game.openings``, xiangqi: ``engine/xiangqi/openings.epd``,
chess: ``engine/chess/openings.epd``; game g uses opening g mod their number) followed by a few random legal plies
drawn from a generator seeded with (seed, g), so that no two games repeat (chess: only plies that the static
exchange does not judge losing, when there are any -- a random chess move often hangs a piece); then both
sides search a fixed number of nodes a move (with the hand-written evaluation, or with a network given as
``Settings.network``) until the rules end the game (or ``MAX_PLIES`` pass: a draw).  A
fixed node count, a fresh transposition table per game and one process per game stream make every game a
function of (seed, g) alone: the data are reproducible whatever the machine's load and the number of workers.

A position is kept when it is *quiet* -- the side to move is not in check, the search's best move is not a
capture (chess: nor en passant or a queen promotion), and the score is not a mate or beyond
``MAX_QUIET_SCORE`` -- and after the random plies.  Each kept position becomes one line ``FEN;result;score``:
the game's result from the first player's view (Red, White: 1, 0.5 or 0) and the search's score in
centipawns from that player's view.  Files are gzip-compressed text; they are read by ``engine.files``' rule (a
regular file, opened without blocking) with the text and each line bounded (``MAX_DATA_TEXT``, ``MAX_DATA_LINE``),
anything else one ``DataError`` line naming the file -- a gzip bomb or one endless line included.
"""
from __future__ import annotations

import gzip
import hashlib
import os
import random
import zlib
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing import get_context
from typing import Iterator

from ..files import UnreadableFile, atomic_writer, clip, open_regular
from ..game import DEFAULT, GAMES, game_named

MAX_PLIES = 400                 # a game this long is adjudicated a draw
MAX_QUIET_SCORE = 1500          # beyond this the position is decided; it teaches the evaluation little
MAX_DATA_TEXT = 4 << 30         # bytes of text in a positions file: some 50 million positions, far more than
                                # any run makes (1,000 games give about 8 MB)
MAX_DATA_LINE = 256             # bytes in a line FEN;result;score (a FEN has under 100)
RESULT_POINTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


@dataclass
class Settings:
    games: int = None           # None: the game's (``Game.tuning()``: SELFPLAY_GAMES)
    nodes: int = None           # per move; None: the game's (SELFPLAY_NODES)
    seed: int = 1
    random_plies: tuple[int, int] = None        # drawn uniformly, inclusive; None: the game's (RANDOM_PLIES)
    openings: str = None                        # None: the game's book (Game.openings)
    hash_mb: int = None                         # None: the quick searches' (search.QUICK_HASH_MB)
    game: str = DEFAULT.name
    network: bytes = None                       # an evaluation network file's bytes (engine.nnue.network), which
                                                # the searches evaluate with; None: the hand-written evaluation

    def __post_init__(self):
        if self.game not in [g.name for g in GAMES]:
            raise ValueError(f"unknown game {self.game!r}")
        tuning = game_named(self.game).tuning()
        self.games = self.games or tuning.SELFPLAY_GAMES
        self.nodes = self.nodes or tuning.SELFPLAY_NODES
        self.random_plies = self.random_plies or tuning.RANDOM_PLIES
        self.openings = self.openings or game_named(self.game).openings


def play_game(g: int, s: Settings, searcher, openings) -> Iterator[tuple[str, float, int]]:
    """Game ``g``'s quiet positions: (FEN, result for the first player, score for the first player).  The game
    starts from opening g mod their number and random plies (only those the static exchange does not judge
    losing, where the game's ``tuning.SAFE_RANDOM_PLIES`` says so and there are any)."""
    game = game_named(s.game)
    kernels = game.kernels()
    rng = random.Random(f"{s.seed}:{g}")
    opening = openings[g % len(openings)]
    pos = game.position(opening.fen)
    for m in opening.moves:
        pos.push(m)
    for _ in range(rng.randint(*s.random_plies)):
        moves = pos.legal_moves()
        if not moves or game.game_result(pos):
            break
        if game.tuning().SAFE_RANDOM_PLIES:
            moves = [m for m in moves if kernels.see_ge(pos.board, pos.st, m, 0)] or moves
        pos.push(moves[rng.randrange(len(moves))])
    yield from _play_out(pos, s, searcher, game.game_result, kernels.is_capture)


def _play_out(pos, s: Settings, searcher, game_result, is_capture) -> Iterator[tuple[str, float, int]]:
    """Both sides search ``s.nodes`` a move from ``pos`` until ``game_result`` ends the game (or MAX_PLIES: a
    draw); the quiet positions met, as (FEN, result, score), both from the first side's view."""
    from ..searcher import search_once
    searcher.new_game()
    kept = []
    result = None
    for _ in range(MAX_PLIES):
        over = game_result(pos)
        if over:
            result = over[0]
            break
        res = search_once(pos, nodes=s.nodes, searcher=searcher)
        if res.best is None:
            break
        move = pos.parse_move(res.best)
        info = res.info
        first = 1 if pos.side == 0 else -1
        if (info is not None and info.mate is None and abs(info.score) <= MAX_QUIET_SCORE
                and not pos.in_check() and not is_capture(pos.board, move)):
            kept.append((pos.fen(), first * info.score))
        pos.push(move)
    points = RESULT_POINTS.get(result, 0.5)
    for fen, score in kept:
        yield fen, points, score


def _worker(args) -> list[tuple[str, float, int]]:
    games, s = args
    from ..match.openings import load_openings
    from ..searcher import QUICK_HASH_MB, Searcher
    openings = load_openings(s.openings, s.game)
    searcher = Searcher(s.hash_mb or QUICK_HASH_MB)
    if s.network is not None:
        from ..nnue.network import parse
        game = game_named(s.game)
        searcher.set_network(game, parse(s.network, game))
    return [row for g in games for row in play_game(g, s, searcher, openings)]


def play_games(s: Settings, workers: int = 2, cluster: str | None = None
               ) -> Iterator[tuple[int, list[tuple[str, float, int]]]]:
    """Play ``s.games`` games on ``workers`` processes, or as tasks on the Ray cluster at ``cluster``
    (``engine.cluster``; every batch of games a task): (games played so far, the quiet positions of the next
    batch of games as (FEN, result, score)), in game order -- what is written does not depend on timing or
    on where a game was played."""
    batch = 20
    jobs = [(range(a, min(a + batch, s.games)), s) for a in range(0, s.games, batch)]
    if cluster is not None:
        from ..cluster import connect
        ray = connect(cluster)
        task = ray.remote(num_cpus=1, max_retries=2)(_worker)
        pending = [task.remote(job) for job in jobs]
        for job, ref in zip(jobs, pending):
            yield job[0].stop, ray.get(ref)
        return
    if workers <= 1:
        for job, rows in zip(jobs, map(_worker, jobs)):
            yield job[0].stop, rows
        return
    pool = get_context("spawn").Pool(workers)
    try:
        for job, rows in zip(jobs, pool.imap(_worker, jobs)):
            yield job[0].stop, rows
    finally:
        pool.terminate()


def generate(path: str, s: Settings, workers: int = 2, progress=None, cluster: str | None = None) -> int:
    """Play ``s.games`` games (``play_games``) and write their quiet positions, in game order, to the gzip file
    ``path``.  Returns the number of positions."""
    written = 0
    with atomic_writer(path) as raw, gzip.open(raw, "wt", encoding="ascii", compresslevel=6) as out:
        for played, rows in play_games(s, workers, cluster):
            out.writelines(f"{fen};{points:g};{score}\n" for fen, points, score in rows)
            written += len(rows)
            if progress:
                progress(played, written)
    return written


class DataError(ValueError):
    """A positions file that cannot be read; the message is one line that names the file."""


@contextmanager
def _decompressed(path: str):
    """The text of a positions file as a binary stream, the file opened by ``engine.files``' rule; its
    failures, and those of gzip while it is read, as DataError."""
    try:
        fd = open_regular(path)
    except UnreadableFile as e:
        raise DataError(f"positions file {e}") from None
    try:
        with gzip.GzipFile(fileobj=os.fdopen(fd, "rb")) as f:
            yield f
    except (OSError, EOFError, zlib.error) as e:       # not gzip, truncated, corrupt
        raise DataError(f"positions file {clip(path, 200)}: {clip(e, 100) or type(e).__name__}") from None


def _lines(f, path: str) -> Iterator[bytes]:
    """The lines of the stream ``f``, each at most MAX_DATA_LINE bytes, MAX_DATA_TEXT in all (DataError)."""
    total = 0
    for n, line in enumerate(iter(lambda: f.readline(MAX_DATA_LINE + 1), b""), 1):
        total += len(line)
        if len(line) > MAX_DATA_LINE:
            raise DataError(f"{clip(path, 200)}:{n}: longer than {MAX_DATA_LINE} bytes: not a position line")
        if total > MAX_DATA_TEXT:
            raise DataError(f"{clip(path, 200)}: more than {MAX_DATA_TEXT:,} bytes of text")
        yield line


def read_positions(path: str) -> Iterator[tuple[str, float, int]]:
    """The lines of a file written by ``generate``: (FEN, result for Red/White, score for Red/White); DataError
    for a file or a line that is not one."""
    with _decompressed(path) as f:
        for n, line in enumerate(_lines(f, path), 1):
            try:
                fen, points, score = line.decode("ascii").rstrip("\n").split(";")
                row = fen, float(points), int(score)
            except ValueError:                          # UnicodeDecodeError too
                shown = clip(line.decode("ascii", "replace").rstrip("\n"), 60)
                raise DataError(f"{clip(path, 200)}:{n}: not FEN;result;score: {shown!r}") from None
            yield row


def data_digest(path: str) -> str:
    """The first 16 hex digits of the sha256 of a positions file's text (not of its gzip bytes, whose header
    holds a time): what a parameter file's provenance names its data by."""
    sha = hashlib.sha256()
    with _decompressed(path) as f:
        for line in _lines(f, path):
            sha.update(line)
    return sha.hexdigest()[:16]
