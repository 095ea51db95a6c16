"""``shuai play``: the click command.  Only click, the standard library and plain-Python descriptions are
imported at module level; the engine (numba) is loaded when the command runs.  The game's own session class
(``Game.Session``: engine.play.session, engine.play.chess_session) plays it."""
import sys

import click

from ..game import DEFAULT, GAMES, game_named, game_of_fen     # plain Python: no numba at import
from ..levels import MAX_SKILL
from ..protocol.core import HASH, MAX_SECONDS

SIDES = list(dict.fromkeys(side for g in GAMES for side in g.side_names))     # red, black, white


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--game", type=click.Choice([g.name for g in GAMES], case_sensitive=False), default=None,
              help="The game (default: the --fen's, told by its ranks (8: chess), else xiangqi).")
@click.option("--side", type=click.Choice(SIDES, case_sensitive=False), default=None,
              help="The side you play: red or black (xiangqi), white or black (chess); default the side that "
                   "moves first (Red, White).")
@click.option("--time", "movetime", type=click.FloatRange(0.01, MAX_SECONDS), default=None, metavar="SECONDS",
              help="Engine thinking time per move (default 2 s; with --depth alone, no time limit).")
@click.option("--depth", type=click.IntRange(1, 60), default=None, help="Engine search depth limit.")
@click.option("--level", type=click.IntRange(0, MAX_SKILL), default=MAX_SKILL, show_default=True,
              help=f"The engine's playing level, 0 (weakest) to {MAX_SKILL} (full strength); the game's 'level N' "
                   "command changes it.")
@click.option("--book", "book", default="", metavar="FILE",
              help="Opening book (the engine's own format; chess: Polyglot .bin); default: the game's own book.")
@click.option("--no-book", is_flag=True, help="Play without an opening book.")
@click.option("--fen", default=None, help="Start from this position instead of the initial one (a FEN with 8 "
                                          "ranks is chess).")
@click.option("--ascii", "force_ascii", is_flag=True,
              help="Letters and ASCII lines instead of Chinese characters or chess symbols (automatic when the "
                   "terminal's encoding cannot show them).")
@click.option("--color/--no-color", default=None,
              help="Force colours on or off (default: on a terminal, unless NO_COLOR is set).")
@click.option("--hash", "hash_mb", type=click.IntRange(1, HASH.max), default=HASH.default, show_default=True,
              help="Engine hash table size in MB.")
def play(game, side, movetime, depth, level, book, no_book, fen, force_ascii, color, hash_mb):
    """Play a game of xiangqi (or, with --game chess, of chess) against Shuai in this terminal.

    Xiangqi moves are typed as coordinates (h2e2, H2-E2), in Chinese (炮二平五, 马8进7, 前车进一) or WXF
    (C2=5, H8+7, R++1); chess moves in SAN (Nf3, O-O, exd5, e8=Q) or coordinates (g1f3, e7e8q).  Type help in
    the game for the commands (undo, hint, draw, resign, save, load, flip, ...).
    """
    try:
        sys.stdout.reconfigure(errors="replace")        # never die on a character the terminal lacks
    except (AttributeError, ValueError):
        pass
    # Ctrl-C is a command here (move now; leave at the prompt): Python raises KeyboardInterrupt only if SIGINT was
    # not ignored when it started, and a parent may have left it ignored (nohup, a background job, a test runner).
    import signal
    signal.signal(signal.SIGINT, signal.default_int_handler)
    if game is not None:
        game = game_named(game.lower())
    else:
        game = (game_of_fen(fen) if fen else None) or DEFAULT
    side = (side or game.side_names[0]).lower()        # default: the side that moves first
    if side not in game.side_names:
        click.echo(f"error: --side {side} is not a side in {game.name} ({' or '.join(game.side_names)})", err=True)
        sys.exit(2)
    user_side = game.side_names.index(side)

    from ..searcher import Limits
    from .terminal import detect_style
    from .thinking import Thinker
    SessionClass = game.Session

    if fen is not None:
        try:
            SessionClass.record(fen)
        except ValueError as e:                        # a bad FEN: one error line, exit 2 (as engine.cli)
            click.echo(f"error: {e}", err=True)
            sys.exit(2)
    if movetime is None and depth is None:
        movetime = 2.0
    style = detect_style(sys.stdout, force_ascii=force_ascii, color=color, sample=SessionClass.sample)
    if sys.stdin.isatty():
        try:
            import readline  # noqa: F401  (line editing and history for input())
        except ImportError:
            pass
    _load_engine(style, game)
    thinker = Thinker(sys.stdout, style, hash_mb, tablebases=SessionClass.tablebases,
                      books=None if no_book else (game, book))
    session = SessionClass(sys.stdout, style, user_side=user_side, limits=Limits(movetime=movetime, depth=depth),
                           start_fen=fen, thinker=thinker, level=level)
    sys.exit(session.run())


def _load_engine(style, game) -> None:
    """Load (or, on a cold numba cache, compile) ``game``'s kernels before the game starts, so that the engine's
    first move gets its whole thinking time.  ``make play`` has warmed the cache already: this takes a second."""
    from ..warmup import warm_all
    from .terminal import CLEAR_LINE, is_tty
    live = is_tty(sys.stdout)
    if live:
        sys.stdout.write(style.paint("Loading the engine (the very first start compiles it: up to a minute) ...",
                                     "38;5;244"))
        sys.stdout.flush()
    warm_all(game)
    if live:
        sys.stdout.write(CLEAR_LINE)
        sys.stdout.flush()
