"""``shuai play``: the click command.  Only click and the standard library are imported at module level; the
engine (numba) is loaded when the command runs."""
import sys

import click

from ..protocol.core import MAX_SECONDS      # plain Python: no numba at import


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--game", type=click.Choice(["xiangqi", "chess"], case_sensitive=False), default=None,
              help="The game (default: the --fen's, told by its ranks (8: chess), else xiangqi).")
@click.option("--side", type=click.Choice(["red", "white", "black"], case_sensitive=False), default=None,
              help="The side you play: red or black (xiangqi), white or black (chess); default the side that "
                   "moves first (Red, White).")
@click.option("--time", "movetime", type=click.FloatRange(0.01, MAX_SECONDS), default=None, metavar="SECONDS",
              help="Engine thinking time per move (default 2 s; with --depth alone, no time limit).")
@click.option("--depth", type=click.IntRange(1, 60), default=None, help="Engine search depth limit.")
@click.option("--fen", default=None, help="Start from this position instead of the initial one (a FEN with 8 "
                                          "ranks is chess).")
@click.option("--ascii", "force_ascii", is_flag=True,
              help="Letters and ASCII lines instead of Chinese characters or chess symbols (automatic when the "
                   "terminal's encoding cannot show them).")
@click.option("--color/--no-color", default=None,
              help="Force colours on or off (default: on a terminal, unless NO_COLOR is set).")
@click.option("--hash", "hash_mb", type=click.IntRange(1, 4096), default=64, show_default=True,
              help="Engine hash table size in MB.")
def play(game, side, movetime, depth, fen, force_ascii, color, hash_mb):
    """Play a game of xiangqi (or, with --game chess, of chess) against Shuai in this terminal.

    Xiangqi moves are typed as coordinates (h2e2, H2-E2), in Chinese (炮二平五, 马8进7, 前车进一) or WXF
    (C2=5, H8+7, R++1); chess moves in SAN (Nf3, O-O, exd5, e8=Q) or coordinates (g1f3, e7e8q).  Type help in
    the game for the commands (undo, hint, draw, resign, save, load, flip, ...).
    """
    try:
        sys.stdout.reconfigure(errors="replace")        # never die on a character the terminal lacks
    except (AttributeError, ValueError):
        pass
    from ..game import game_of_fen
    game = game.lower() if game else None
    if game is None:
        found = game_of_fen(fen) if fen else None
        game = found.name if found is not None else "xiangqi"
    side = (side or ("white" if game == "chess" else "red")).lower()
    if (game == "chess" and side == "red") or (game == "xiangqi" and side == "white"):
        click.echo(f"error: --side {side} is not a side in {game} "
                   f"({'white or black' if game == 'chess' else 'red or black'})", err=True)
        sys.exit(2)
    user_side = 1 if side == "black" else 0

    from ..search import Limits
    from .terminal import CHESS_SAMPLE, UNICODE_SAMPLE, detect_style
    from .thinking import Thinker
    if game == "chess":
        from .chess_game import check_fen as check
        from .chess_session import ChessSession as SessionClass
    else:
        from ..xiangqi.position import Position as check
        from .session import Session as SessionClass

    if fen is not None:
        try:
            check(fen)
        except ValueError as e:                        # a bad FEN: one error line, exit 2 (as engine.cli)
            click.echo(f"error: {e}", err=True)
            sys.exit(2)
    if movetime is None and depth is None:
        movetime = 2.0
    style = detect_style(sys.stdout, force_ascii=force_ascii, color=color,
                         sample=CHESS_SAMPLE if game == "chess" else UNICODE_SAMPLE)
    if sys.stdin.isatty():
        try:
            import readline  # noqa: F401  (line editing and history for input())
        except ImportError:
            pass
    _load_engine(style, game)
    thinker = Thinker(sys.stdout, style, hash_mb, tablebases=game == "xiangqi")
    session = SessionClass(sys.stdout, style, user_side=user_side, limits=Limits(movetime=movetime, depth=depth),
                           start_fen=fen, thinker=thinker)
    sys.exit(session.run())


def _load_engine(style, game: str = "xiangqi") -> None:
    """Load (or, on a cold numba cache, compile) every kernel before the game starts, so that the engine's
    first move gets its whole thinking time.  ``make play`` has warmed the cache already: this takes a second."""
    from ..game import game_named
    from ..warmup import warm_all
    from .terminal import CLEAR_LINE, is_tty
    live = is_tty(sys.stdout)
    if live:
        sys.stdout.write(style.paint("Loading the engine (the very first start compiles it: up to a minute) ...",
                                     "38;5;244"))
        sys.stdout.flush()
    warm_all(game_named(game))
    if live:
        sys.stdout.write(CLEAR_LINE)
        sys.stdout.flush()
