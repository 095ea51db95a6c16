"""Training positions for the evaluation tuner (issue 13), made by the engine playing itself.

Each game starts from an opening of ``tests/data/openings.epd`` (game g uses opening g mod their number) followed
by a few random legal plies drawn from a generator seeded with (seed, g), so that no two games repeat; then both
sides search a fixed number of nodes a move until the rules end the game (or ``MAX_PLIES`` pass: a draw).  A
fixed node count, a fresh transposition table per game and one process per game stream make every game a
function of (seed, g) alone: the data are reproducible whatever the machine's load and the number of workers.

A position is kept when it is *quiet* -- the side to move is not in check, the search's best move is not a
capture, and the score is not a mate or beyond ``MAX_QUIET_SCORE`` -- and after the random plies.  Each kept
position becomes one line ``FEN;result;score``: the game's result from Red's view (1, 0.5 or 0) and the
search's score in centipawns from Red's view.  Files are gzip-compressed text.
"""
from __future__ import annotations

import gzip
import random
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Iterator

MAX_PLIES = 400                 # a game this long is adjudicated a draw
MAX_QUIET_SCORE = 1500          # beyond this the position is decided; it teaches the evaluation little
RESULT_POINTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


@dataclass
class Settings:
    games: int = 9500           # about 1.05 million positions, 47 min on 2 cores
    nodes: int = 3000           # per move
    seed: int = 1
    random_plies: tuple[int, int] = (2, 8)      # drawn uniformly, inclusive
    openings: str = str(Path(__file__).resolve().parents[2] / "tests" / "data" / "openings.epd")
    hash_mb: int = 16


def play_game(g: int, s: Settings, searcher, openings) -> Iterator[tuple[str, float, int]]:
    """Game ``g``'s quiet positions: (FEN, result for Red, score for Red)."""
    from ..move import move_to
    from ..search import Limits
    from ..xiangqi.position import Position
    from ..xiangqi.rules import game_result

    rng = random.Random(f"{s.seed}:{g}")
    opening = openings[g % len(openings)]
    pos = Position(opening.fen)
    for m in opening.moves:
        pos.push(m)
    for _ in range(rng.randint(*s.random_plies)):
        moves = pos.legal_moves()
        if not moves or game_result(pos):
            break
        pos.push(moves[rng.randrange(len(moves))])
    searcher.new_game()
    kept = []
    result = None
    for _ in range(MAX_PLIES):
        over = game_result(pos)
        if over:
            result = over[0]
            break
        done = []
        searcher.start(pos, Limits(nodes=s.nodes), lambda info: None, done.append)
        searcher.wait()
        res = done[0]
        if res.best is None:
            break
        move = pos.parse_move(res.best)
        info = res.info
        red = 1 if pos.side == 0 else -1
        if (info is not None and info.mate is None and abs(info.score) <= MAX_QUIET_SCORE
                and not pos.in_check() and pos.board[move_to(move)] == 0):
            kept.append((pos.fen(), red * info.score))
        pos.push(move)
    points = RESULT_POINTS.get(result, 0.5)
    for fen, score in kept:
        yield fen, points, score


def _worker(args) -> list[str]:
    games, s = args
    from ..match.openings import load_openings
    from ..search import Searcher
    openings = load_openings(s.openings)
    searcher = Searcher(s.hash_mb)
    lines = []
    for g in games:
        lines.extend(f"{fen};{points:g};{score}" for fen, points, score in play_game(g, s, searcher, openings))
    return lines


def generate(path: str, s: Settings, workers: int = 2, progress=None) -> int:
    """Play ``s.games`` games on ``workers`` processes and write their quiet positions, in game order, to the
    gzip file ``path``.  Returns the number of positions."""
    batch = 20
    jobs = [(range(a, min(a + batch, s.games)), s) for a in range(0, s.games, batch)]
    written = 0
    tmp = Path(f"{path}.tmp")
    with gzip.open(tmp, "wt", encoding="ascii", compresslevel=6) as out:
        if workers <= 1:
            results = map(_worker, jobs)
            pool = None
        else:
            pool = get_context("spawn").Pool(workers)
            results = pool.imap(_worker, jobs)          # in order: the file does not depend on timing
        try:
            for k, lines in enumerate(results, 1):
                out.writelines(line + "\n" for line in lines)
                written += len(lines)
                if progress:
                    progress(min(k * batch, s.games), written)
        finally:
            if pool is not None:
                pool.terminate()
    tmp.replace(path)
    return written


def read_positions(path: str) -> Iterator[tuple[str, float, int]]:
    """The lines of a file written by ``generate``: (FEN, result for Red, score for Red)."""
    with gzip.open(path, "rt", encoding="ascii") as f:
        for line in f:
            fen, points, score = line.rstrip("\n").split(";")
            yield fen, float(points), int(score)
