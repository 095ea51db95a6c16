"""The ``shuai`` command.  With no sub-command it is the engine a GUI talks to over stdin/stdout.

Heavy modules (numba kernels) are imported inside the commands, never at the top: a GUI's ``ucci``/``uci``
must be answered before the compiled code is even loaded.  The games are engine.game's descriptions (plain
Python); what a command does differently by game it asks the ``Game``.
"""
import sys

import click

from .game import DEFAULT, GAMES, game_named, position_of_fen
from .protocol.core import HASH, OPTIONS
from .tools import BENCHMARKS, DIAGNOSES
from .tools.lazy import LazyGroup

GAME_NAMES = [g.name for g in GAMES]


class EngineGroup(click.Group):
    """Errors on the command line are one clear line and a non-zero exit, never a traceback."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException):
            raise
        except ValueError as e:         # FenError, IllegalMoveError, NotationError ...
            click.echo(f"error: {e}", err=True)
            ctx.exit(2)


@click.group(cls=EngineGroup, invoke_without_command=True,
             context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="shuai")
@click.option("--variant", type=click.Choice(GAME_NAMES), default=OPTIONS["variant"].default, show_default=True,
              help="The game UCI's 'startpos' means until UCI_Variant says otherwise (UCCI is always xiangqi; "
                   "a FEN names its own game).")
@click.pass_context
def main(ctx, variant):
    """Shuai (帥), a xiangqi and chess engine.  Run without a command to speak UCCI, UCI or xboard on stdin/stdout
    (the first command chooses)."""
    if ctx.invoked_subcommand is None:
        from .protocol.loop import run
        sys.exit(run(variant=variant))


def _position(fen, moves=(), game=None):
    """The position of ``fen`` (its game told by its ranks), or ``game``'s start; then ``moves`` played."""
    if fen is not None:
        pos = position_of_fen(fen, game and game_named(game))
    else:
        pos = game_named(game or DEFAULT.name).position()
    for m in moves:
        pos.push(m)
    return pos


GAME_OPTION = click.option("--game", type=click.Choice(GAME_NAMES), default=None,
                           help="The game (default: the FEN's, or xiangqi).")


@main.command()
@click.argument("depth", type=click.IntRange(0, 12))
@click.option("--fen", default=None, help="Start from this FEN (default: the initial position); a chess FEN "
                                          "(8 ranks) selects chess.")
@GAME_OPTION
@click.option("--moves", default="", help="Moves to play from the FEN first, e.g. \"h2e2 h9g7\".")
@click.option("--divide", is_flag=True, help="Print the count below each root move first.")
def perft(depth, fen, game, moves, divide):
    """Count the leaf nodes of the legal move tree to DEPTH."""
    from .perft import run_perft
    run_perft(_position(fen, moves.split(), game), depth, divide, out=click.echo)


@main.command()
@click.option("--fen", default=None, help="Start from this FEN (default: the initial position).")
@GAME_OPTION
@click.option("--moves", default="", help="The moves played, e.g. \"h2e2 h9g7\".")
def judge(fen, game, moves):
    """Play MOVES and say how the game stands: ongoing, draw <reason>, <side> wins <reason>.

    Reasons (xiangqi): checkmate, stalemate, perpetual-check, perpetual-chase, 60-move, material, repetition.  The
    first end reached along the moves is reported (a later move would be played after the game was over)."""
    pos = _position(fen, (), game)
    result = pos.game.game_result(pos)
    for m in moves.split():
        if result is not None:
            break
        pos.push(m)
        result = pos.game.game_result(pos)
    if result is None:
        click.echo("ongoing")
    else:
        score, reason = result
        first, second = pos.game.side_names
        click.echo({"1-0": f"{first} wins", "0-1": f"{second} wins"}.get(score, "draw") + " " + reason)


@main.group(cls=LazyGroup, lazy=BENCHMARKS, invoke_without_command=True)
@click.option("--depth", type=click.IntRange(1, 30), default=None, help="Search depth (default 8; chess 10).")
@click.option("--hash", "hash_mb", type=click.IntRange(1, HASH.max), default=None,
              help="Table size in MB.  [default: 16, the signature's]")
@click.option("--game", type=click.Choice(GAME_NAMES), default=DEFAULT.name, show_default=True,
              help="Whose bench positions.")
@click.option("--network", "network_file", default=None, type=click.Path(dir_okay=False),
              help="Evaluate with this network.  [default: the game's own, if it has one]")
@click.pass_context
def bench(ctx, depth, hash_mb, game, network_file):
    """Fixed-depth search over 30 positions with the game's evaluation (its network, if it has one): total nodes
    (the search's signature) and speed; then the same with the hand-written evaluation (its own signature).

    With a COMMAND instead (its options after it), one of the developer's benchmarks, mostly beside a reference
    engine (make bench runs the quick ones); the options above are then the signature's and are ignored."""
    if ctx.invoked_subcommand is not None:
        return
    from .benchmark import run_bench
    from .nnue.network import load
    g = game_named(game)
    path = network_file or g.default_network
    if path is not None:
        network = load(path, g)                 # a NetworkError is a ValueError: one line and status 2
        click.echo(f"with the network {path} ({network.shape}):")
        run_bench(depth, hash_mb, out=click.echo, game=game, network=network)
        click.echo("with the hand-written evaluation:")
    run_bench(depth, hash_mb, out=click.echo, game=game)


@main.command()
def warmup():
    """Compile (or load from numba's cache) every kernel, so that later starts are instant."""
    import time
    t0 = time.perf_counter()
    from .warmup import warm_every_game
    warm_every_game(GAMES)
    click.echo(f"numba kernels ready in {time.perf_counter() - t0:.1f} s")


@main.command()
@click.option("--dir", "directory", default=None, help="Where the tables go.  [default: the engine's tablebases/]")
def setup(directory):
    """Make the engine ready to use, what `make setup` does, on any system with Python (no make needed, as on
    Windows): compile every kernel into numba's cache and build each game's quick endgame tables (tables
    already present are kept)."""
    from functools import partial
    from .egtb import default_directory
    from .egtb.build import build_quick_set
    from .warmup import for_each_game
    click.get_current_context().invoke(warmup)
    directory = directory or str(default_directory())
    for game, records in zip(GAMES, for_each_game(partial(build_quick_set, directory=directory), GAMES)):
        built = [r for r in records if r.built]
        click.echo(f"{game.name}: {len(built)} tables built, {len(records) - len(built)} present already, "
                   f"{sum(r.seconds for r in built):.1f} s, in {directory}")


@main.group(cls=LazyGroup, lazy=DIAGNOSES)
def diagnose():
    """Readings of matches already played (time use, adjudication, rule losses, where games were lost) and the
    engine under a watchdog: what the developer asks when a match looks wrong."""


# Sub-commands defined in their own packages; each module imports only click at the top.
from .bookmaker.cli import book  # noqa: E402
from .egtb.cli import tb  # noqa: E402
from .match.cli import match  # noqa: E402
from .match.sprt import freeze, sprt  # noqa: E402
from .play.cli import play  # noqa: E402

main.add_command(book)
main.add_command(freeze)
main.add_command(match)
main.add_command(play)
main.add_command(sprt)
main.add_command(tb)


if __name__ == "__main__":
    main()
