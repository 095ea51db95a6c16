"""Make the chess opening book ``engine/chess/openings.epd``: short, balanced, varied openings, found by
this project's own engine (there is no chess book in the repository, and none is copied from elsewhere).

    .venv/bin/python scripts/make_chess_openings.py [--count 200] [--seed 1] [--depth 8] [--margin 60]

Each candidate is a number of plies (4..8, uniform) from the initial position, each a legal move drawn from a
generator seeded with (seed, candidate number) among the moves the static exchange does not judge losing; it
is kept when the game is not over, no earlier candidate reached the same position, and a fixed-depth search by
our engine (fresh table) scores it within ``margin`` centipawns of equality.  The output is deterministic: one
FEN a line, in the order found.  The tuner's chess self-play (``python -m engine.tune data --game chess``)
starts its games from these.
"""
import random
import sys
from pathlib import Path

import click

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def candidate(n: int, seed: int, min_plies: int, max_plies: int):
    """Candidate ``n``: a Position after its random plies, or None if the game ended on the way."""
    from engine.chess.position import Position
    from engine.chess.rules import game_result
    from engine.chess.see import see_ge
    rng = random.Random(f"chess-openings:{seed}:{n}")
    pos = Position()
    for _ in range(rng.randint(min_plies, max_plies)):
        moves = pos.legal_moves()
        safe = [m for m in moves if see_ge(pos.board, pos.st, m, 0)]
        moves = safe or moves
        pos.push(moves[rng.randrange(len(moves))])
        if game_result(pos):
            return None
    return pos


@click.command()
@click.option("--out", type=click.Path(dir_okay=False), default=str(ROOT / "engine" / "chess" / "openings.epd"),
              show_default="engine/chess/openings.epd")
@click.option("--count", type=click.IntRange(1), default=200, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--depth", type=click.IntRange(1), default=8, show_default=True,
              help="Search depth of the balance check.")
@click.option("--margin", type=click.IntRange(0), default=60, show_default=True,
              help="Largest |score| kept, centipawns.")
@click.option("--min-plies", type=click.IntRange(1), default=4, show_default=True)
@click.option("--max-plies", type=click.IntRange(1), default=8, show_default=True)
def main(out, count, seed, depth, margin, min_plies, max_plies):
    """Make the chess opening book: short, balanced, varied openings found by this engine."""
    from engine.searcher import Searcher, search_once
    searcher = Searcher(16)
    seen, lines, tried = set(), [], 0
    while len(lines) < count:
        pos = candidate(tried, seed, min_plies, max_plies)
        tried += 1
        if pos is None:
            continue
        fen = pos.fen()
        key = " ".join(fen.split()[:4])
        if key in seen:
            continue
        seen.add(key)
        searcher.new_game()
        res = search_once(pos, depth=depth, searcher=searcher)
        if res.info is None or res.info.mate is not None or abs(res.info.score) > margin:
            continue
        lines.append(fen)
    Path(out).write_text("".join(line + "\n" for line in lines), encoding="ascii")
    print(f"{len(lines)} openings of {tried} candidates -> {out}")


if __name__ == "__main__":
    main()
