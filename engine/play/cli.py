"""``shuai play``: the click command.  Only click and the standard library are imported at module level; the
engine (numba) is loaded when the command runs."""
import sys

import click

from ..protocol.core import MAX_SECONDS      # plain Python: no numba at import


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--side", type=click.Choice(["red", "black"], case_sensitive=False), default="red",
              show_default=True, help="The side you play (Red moves first).")
@click.option("--time", "movetime", type=click.FloatRange(0.01, MAX_SECONDS), default=None, metavar="SECONDS",
              help="Engine thinking time per move (default 2 s; with --depth alone, no time limit).")
@click.option("--depth", type=click.IntRange(1, 60), default=None, help="Engine search depth limit.")
@click.option("--fen", default=None, help="Start from this position instead of the initial one.")
@click.option("--ascii", "force_ascii", is_flag=True,
              help="Letters and ASCII lines instead of Chinese characters (automatic when the terminal's "
                   "encoding cannot show them).")
@click.option("--color/--no-color", default=None,
              help="Force colours on or off (default: on a terminal, unless NO_COLOR is set).")
@click.option("--hash", "hash_mb", type=click.IntRange(1, 4096), default=64, show_default=True,
              help="Engine hash table size in MB.")
def play(side, movetime, depth, fen, force_ascii, color, hash_mb):
    """Play a game of xiangqi against Shuai in this terminal.

    Type moves as coordinates (h2e2, H2-E2), in Chinese (炮二平五, 马8进7, 前车进一) or WXF (C2=5, H8+7,
    R++1); type help in the game for the commands (undo, hint, draw, resign, save, load, flip, ...).
    """
    try:
        sys.stdout.reconfigure(errors="replace")        # never die on a character the terminal lacks
    except (AttributeError, ValueError):
        pass
    from ..search import Limits
    from ..xiangqi.position import Position
    from .session import Session
    from .terminal import detect_style
    from .thinking import Thinker

    if fen is not None:
        try:
            Position(fen)
        except ValueError as e:                        # a bad FEN: one error line, exit 2 (as engine.cli)
            click.echo(f"error: {e}", err=True)
            sys.exit(2)
    if movetime is None and depth is None:
        movetime = 2.0
    style = detect_style(sys.stdout, force_ascii=force_ascii, color=color)
    if sys.stdin.isatty():
        try:
            import readline  # noqa: F401  (line editing and history for input())
        except ImportError:
            pass
    _load_engine(style)
    thinker = Thinker(sys.stdout, style, hash_mb)
    session = Session(sys.stdout, style, user_side=0 if side.lower() == "red" else 1,
                      limits=Limits(movetime=movetime, depth=depth), start_fen=fen, thinker=thinker)
    sys.exit(session.run())


def _load_engine(style) -> None:
    """Load (or, on a cold numba cache, compile) every kernel before the game starts, so that the engine's
    first move gets its whole thinking time.  ``make play`` has warmed the cache already: this takes a second."""
    from ..warmup import warm_all
    from .terminal import CLEAR_LINE, is_tty
    live = is_tty(sys.stdout)
    if live:
        sys.stdout.write(style.paint("Loading the engine (the very first start compiles it: up to a minute) ...",
                                     "38;5;244"))
        sys.stdout.flush()
    warm_all()
    if live:
        sys.stdout.write(CLEAR_LINE)
        sys.stdout.flush()
