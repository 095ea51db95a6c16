"""Training positions for the evaluation tuner (issue 13), made by the engine playing itself.

Each game starts from an opening of the game's book (``Game.openings``, xiangqi: ``tests/data/openings.epd``,
chess: ``tests/data/chess-openings.epd``; game g uses opening g mod their number) followed by a few random legal plies
drawn from a generator seeded with (seed, g), so that no two games repeat (chess: only plies that the static
exchange does not judge losing, when there are any -- a random chess move often hangs a piece); then both
sides search a fixed number of nodes a move until the rules end the game (or ``MAX_PLIES`` pass: a draw).  A
fixed node count, a fresh transposition table per game and one process per game stream make every game a
function of (seed, g) alone: the data are reproducible whatever the machine's load and the number of workers.

A position is kept when it is *quiet* -- the side to move is not in check, the search's best move is not a
capture (chess: nor en passant or a queen promotion), and the score is not a mate or beyond
``MAX_QUIET_SCORE`` -- and after the random plies.  Each kept position becomes one line ``FEN;result;score``:
the game's result from the first player's view (Red, White: 1, 0.5 or 0) and the search's score in
centipawns from that player's view.  Files are gzip-compressed text.
"""
from __future__ import annotations

import gzip
import random
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Iterator

from ..game import game_named

MAX_PLIES = 400                 # a game this long is adjudicated a draw
MAX_QUIET_SCORE = 1500          # beyond this the position is decided; it teaches the evaluation little
RESULT_POINTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}




@dataclass
class Settings:
    games: int = 9500           # about 1.05 million positions, 47 min on 2 cores
    nodes: int = 3000           # per move
    seed: int = 1
    random_plies: tuple[int, int] = None        # drawn uniformly, inclusive; None: the game's (RANDOM_PLIES)
    openings: str = None                        # None: the game's book (Game.openings)
    hash_mb: int = None                         # None: the quick searches' (search.QUICK_HASH_MB)
    game: str = "xiangqi"

    def __post_init__(self):
        if self.game not in GAMES:
            raise ValueError(f"unknown game {self.game!r}")
        if self.random_plies is None:
            self.random_plies = RANDOM_PLIES[self.game]
        if self.openings is None:
            self.openings = game_named(self.game).openings


RANDOM_PLIES = {"xiangqi": (2, 8), "chess": (1, 6)}
# The command line's defaults by game (games, nodes a move): xiangqi's as Settings; chess's 350,215 positions
# (about 88 a game) in 23 minutes on 2 shared cores.
DEFAULTS = {"xiangqi": (Settings.games, Settings.nodes), "chess": (4000, 3000)}


def play_game(g: int, s: Settings, searcher, openings) -> Iterator[tuple[str, float, int]]:
    """Game ``g``'s quiet positions: (FEN, result for the first player, score for the first player)."""
    yield from PLAYERS[s.game][1](g, s, searcher, openings)


def _play_xiangqi_game(g: int, s: Settings, searcher, openings) -> Iterator[tuple[str, float, int]]:
    """Game ``g``'s quiet positions, xiangqi: (FEN, result for Red, score for Red)."""
    from ..move import move_to
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
    yield from _play_out(pos, s, searcher, game_result, lambda board, move: board[move_to(move)] != 0)


def _play_out(pos, s: Settings, searcher, game_result, is_capture) -> Iterator[tuple[str, float, int]]:
    """Both sides search ``s.nodes`` a move from ``pos`` until ``game_result`` ends the game (or MAX_PLIES: a
    draw); the quiet positions met, as (FEN, result, score), both from the first side's view."""
    from ..search import Limits
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
        first = 1 if pos.side == 0 else -1
        if (info is not None and info.mate is None and abs(info.score) <= MAX_QUIET_SCORE
                and not pos.in_check() and not is_capture(pos.board, move)):
            kept.append((pos.fen(), first * info.score))
        pos.push(move)
    points = RESULT_POINTS.get(result, 0.5)
    for fen, score in kept:
        yield fen, points, score


def _play_chess_game(g: int, s: Settings, searcher, openings) -> Iterator[tuple[str, float, int]]:
    """Game ``g``'s quiet positions, chess: (FEN, result for White, score for White)."""
    from ..chess.kernels import is_capture
    from ..chess.position import Position
    from ..chess.rules import game_result
    from ..chess.see import see_ge

    rng = random.Random(f"{s.seed}:{g}")
    pos = Position(openings[g % len(openings)])
    for _ in range(rng.randint(*s.random_plies)):
        if game_result(pos):
            break
        moves = pos.legal_moves()
        safe = [m for m in moves if see_ge(pos.board, pos.st, m, 0)]
        moves = safe or moves
        pos.push(moves[rng.randrange(len(moves))])
    yield from _play_out(pos, s, searcher, game_result, is_capture)


def load_chess_openings(path: str) -> list[str]:
    """The FENs of a chess openings file: one a line (EPD's four fields are enough), ``#`` comments."""
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            words = line.split(";", 1)[0].split()
            if not words or words[0].startswith("#"):
                continue
            fields = words[:6] if len(words) >= 6 and words[4].isdigit() else words[:4] + ["0", "1"]
            out.append(" ".join(fields))
    if not out:
        raise ValueError(f"{path}: no openings")
    return out


def _load_xiangqi_openings(path: str):
    from ..match.openings import load_openings
    return load_openings(path)


# How each game's self-play reads its openings and plays a game: the random plies differ (chess draws only moves
# the static exchange does not judge losing), and the games' opening files differ (xiangqi's carry moves).
PLAYERS = {"xiangqi": (_load_xiangqi_openings, _play_xiangqi_game), "chess": (load_chess_openings, _play_chess_game)}
GAMES = tuple(PLAYERS)


def _worker(args) -> list[str]:
    games, s = args
    from ..search import QUICK_HASH_MB, Searcher
    openings = PLAYERS[s.game][0](s.openings)
    searcher = Searcher(s.hash_mb or QUICK_HASH_MB)
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
    """The lines of a file written by ``generate``: (FEN, result for Red/White, score for Red/White)."""
    with gzip.open(path, "rt", encoding="ascii") as f:
        for line in f:
            fen, points, score = line.rstrip("\n").split(";")
            yield fen, float(points), int(score)
