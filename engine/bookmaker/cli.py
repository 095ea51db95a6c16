"""``shuai book build`` and ``shuai book probe``.  Only click and plain-Python descriptions at module level."""
import sys
import time

import click

from ..game import DEFAULT, GAMES, game_named, position_of_fen
from ..levels import RANDOMNESS, TEMPERATURE_OF_RANDOMNESS

GAME_NAMES = [g.name for g in GAMES]


def fail(message: str) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(2)


@click.group()
def book():
    """Opening books: build one from games, list a position's moves."""


@book.command()
@click.option("--game", type=click.Choice(GAME_NAMES), default=DEFAULT.name, show_default=True)
@click.option("--pgn", "pgns", multiple=True, metavar="FILE",
              help="Games to build from (xiangqi: ICCS PGN as `shuai play` saves it; chess: standard PGN).  "
                   "May be repeated.")
@click.option("--selfplay", type=click.IntRange(0), default=0, metavar="N",
              help="Also N games of the engine playing itself from the start position (see --plies, --nodes, "
                   "--randomness, --seed).")
@click.option("--plies", type=click.IntRange(1, 200), default=20, show_default=True,
              help="Plies of each game that go into the book (self-play games are this long).")
@click.option("--nodes", type=click.IntRange(1), default=20000, show_default=True,
              help="Self-play: nodes searched per position.")
@click.option("--randomness", type=click.Choice(RANDOMNESS[1:]), default="medium", show_default=True,
              help="Self-play: how far from the best line a move may be drawn (UCCI's grades: tiny 5 cp ... "
                   "huge 80 cp).")
@click.option("--seed", type=int, default=1, show_default=True, help="Self-play: the random choices' seed.")
@click.option("--min-games", type=click.IntRange(1), default=1, show_default=True,
              help="Keep a move only if at least this many games played it in that position.")
@click.option("--out", required=True, metavar="FILE", help="The book to write (chess: Polyglot .bin).")
def build(game, pgns, selfplay, plies, nodes, randomness, seed, min_games, out):
    """Build an opening book: every (position, move) of the games' first --plies plies, weighted by the number
    of games that played it."""
    from ..files import UnreadableFile, UnwritableFile, read_text
    from .build import BookCounter, pgn_games, selfplay_games
    game = game_named(game)
    if not pgns and not selfplay:
        fail("nothing to build from: give --pgn FILE or --selfplay N")
    counter = BookCounter(game, plies)
    for path in pgns:
        try:
            games = pgn_games(read_text(path), game)
            for number, record in enumerate(games, 1):
                counter.add(record.fen, record.moves)
        except UnreadableFile as e:
            fail(f"cannot read {e}")
        except ValueError as e:
            fail(f"{path}: {e}")
        click.echo(f"{path}: {len(games)} games")
    if selfplay:
        start = time.perf_counter()

        def progress(done, positions):
            if done % 50 == 0 or done == selfplay:
                click.echo(f"self-play: {done}/{selfplay} games, {positions} positions searched, "
                           f"{time.perf_counter() - start:.0f} s")
        for moves in selfplay_games(game, selfplay, plies, nodes, TEMPERATURE_OF_RANDOMNESS[randomness], seed,
                                    progress):
            counter.add(game.start_fen, moves)
    try:
        records = counter.write(out, min_games)
    except UnwritableFile as e:
        fail(f"cannot write {e}")
    click.echo(f"{out}: {records} moves from {counter.games} games (each kept if played in {min_games} or more)")


@book.command()
@click.option("--fen", default=None, help="The position (default: the game's start).")
@click.option("--moves", default="", help="Moves played from it first, e.g. \"h2e2 h9g7\".")
@click.option("--game", type=click.Choice(GAME_NAMES), default=None, help="The game (default: the FEN's).")
@click.option("--book", "path", default="", metavar="FILE", help="The book (default: the game's own).")
def probe(fen, moves, game, path):
    """List the book's moves for a position, with their weights (legal moves only)."""
    from ..book import BookError, book_moves, default_book, open_book
    try:
        pos = position_of_fen(fen, game and game_named(game)) if fen else game_named(game or DEFAULT.name).position()
        game = pos.game
        for m in moves.split():
            pos.push(m)
    except (ValueError, IndexError) as e:
        fail(str(e))
    path = path or default_book(game)
    if not path:
        fail(f"{game.name} has no default book: give --book FILE")
    try:
        found = book_moves([open_book(path, game)], pos)
    except BookError as e:
        fail(str(e))
    total = sum(w for _, w in found)
    for move, weight in found:
        click.echo(f"{move:6} {weight:6} {100 * weight / total if total else 0:5.1f}%")
    if not found:
        click.echo("no book moves")
