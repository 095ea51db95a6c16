"""``shuai match``: play engines against each other (the cutechess-cli role).

Only click and the games' plain descriptions (engine.game) are imported here; the runner (and with it
numpy/numba) is imported when the command runs.
"""
import os
import re
import sys

import click

from ..cluster import CLUSTER_HELP
from ..files import clip
from ..game import DEFAULT, GAMES

ENGINE_HELP = """Engine to play (give two or more; more than two play a round robin).  A string of shell words:
key=value words set options, the other words are the command.  Keys: proto=ucci|uci|xboard|auto
(default auto: try UCCI (xiangqi only), then UCI, then xboard), name=NAME, dir=WORKDIR, cmd="COMMAND ARGS", option.NAME=VALUE
(an engine option), ranks=0|1 (first rank number in xiangqi move strings; UCI engines with a UCI_Variant
option other than Shuai, i.e. Fairy-Stockfish, default to 1), ms=1|0 (UCCI clock values in milliseconds),
tc=SPEC (this engine's own time control, as --tc: time odds).
Examples: --engine /usr/games/fairy-stockfish  --engine "proto=xboard /usr/games/maxqi"
--engine "name=shuai cmd='.venv/bin/python -m engine' option.Hash=64"  --engine "tc=30+0.3 /usr/games/maxqi"."""


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--engine", "engines", multiple=True, required=True, metavar="SPEC", help=ENGINE_HELP)
@click.option("--game", type=click.Choice([g.name for g in GAMES]), default=None,
              help="The game played (default: the game of the openings file's positions, else xiangqi).")
@click.option("--games", type=click.IntRange(1), default=2, show_default=True,
              help="Games per pairing; each opening is played twice, colours swapped.")
@click.option("--tc", required=True, metavar="SPEC",
              help="Seconds per move (0.2) or sudden death base+increment in seconds (10+0.1).")
@click.option("--openings", type=click.Path(), default=None,
              help="EPD/FEN file, one opening a line (FEN, or FEN/startpos followed by 'moves m1 m2 ...'); "
                   "without it every game starts from the initial position.  Chess FENs (8 ranks) mean "
                   "--game chess.")
@click.option("--concurrency", type=click.IntRange(1), default=None,
              help="Games played at the same time (default: one per core).")
@click.option("--pgn", "pgn_path", type=click.Path(dir_okay=False), default=None,
              help="Append every game to this PGN file (xiangqi PGN with ICCS moves; chess: standard PGN).")
@click.option("--sprt", default=None, metavar="'elo0=A elo1=B [alpha=0.05 beta=0.05]'",
              help="Stop early when the GSPRT decides between elo0 and elo1 (two engines only).  The "
                   "parameters may also follow as separate words: --sprt elo0=0 elo1=5.")
@click.option("--max-plies", type=click.IntRange(0), default=0, show_default=True,
              help="Adjudicate a draw after this many plies (0: never).")
@click.option("--draw", "draw_rule", default=None, metavar="'movenumber=N movecount=M score=S'",
              help="Adjudicate a draw once N full moves are played and both engines' scores have stayed within S "
                   "centipawns of zero for M consecutive moves each (cutechess-cli's -draw).")
@click.option("--resign", "resign_rule", default=None, metavar="'movecount=M score=S [twosided=true]'",
              help="Adjudicate a loss for an engine whose score has been S centipawns or more below zero for M "
                   "consecutive moves; twosided: only while its opponent's is as far above (cutechess-cli's "
                   "-resign).")
@click.option("--margin", type=click.FloatRange(0), default=50.0, show_default=True,
              help="Time grace in ms; a move may take the available time + this + 10% of the nominal time "
                   "per move (the fixed time, or the increment) before it loses on time.")
@click.option("--hang-timeout", type=click.FloatRange(0.01), default=2.0, show_default=True,
              help="Seconds to wait, after the deadline and a stop request, before an engine counts as hung.")
@click.option("--handshake-timeout", type=click.FloatRange(0.1), default=30.0, show_default=True,
              help="Seconds an engine may take to answer ucci/uci/xboard and isready/ping (a numba engine may "
                   "compile at start-up).  When the protocol is guessed, a wrong guess is given up after 5 s.")
@click.option("--shuffle/--no-shuffle", default=False, help="Shuffle the openings (with --seed).")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed for --shuffle.")
@click.option("--resume", default=None, metavar="W,D,L[/LL,LD,DD,WL,WD,WW]",
              help="Go on with an earlier run of the same two engines that ended with W wins, D draws and L "
                   "losses for the first: they count in the score, Elo and SPRT, and the schedule goes on with "
                   "the openings after its W+D+L games (an SPRT can span several sittings); --games counts the games "
                   "still to play.  After a slash, how many of its opening pairs the first engine lost twice, lost "
                   "and drew, ... won twice (the summary's 'Resume with' line gives both): the SPRT takes those "
                   "as pairs, the other games alone.")
@click.option("--event", default="shuai match", show_default=True, help="PGN Event tag.")
@click.option("--log", "log_path", type=click.Path(dir_okay=False), default=None,
              help="Write all engine traffic to this file.")
@click.option("--cluster", default=None, metavar="auto|ADDRESS",
              help=CLUSTER_HELP + "  Games are Ray tasks (an opening pair each, engines started on the worker: "
                   "the engine commands must work there); --concurrency defaults to the cluster's CPUs.")
@click.option("--progress/--no-progress", default=None,
              help="A live line of games played, Elo and LLR on stderr (default: when stderr is a terminal).")
@click.argument("extra", nargs=-1, metavar="")
def match(engines, game, games, tc, openings, concurrency, pgn_path, sprt, max_plies, draw_rule, resign_rule,
          margin, hang_timeout,
          handshake_timeout, shuffle, seed, resume, event, log_path, cluster, progress, extra):
    """Play a match between xiangqi engines speaking UCCI, UCI or xboard, or chess engines speaking UCI or
    xboard (--game chess), with real clocks, adjudication, PGN output, Elo and an optional SPRT.

    Losses are scored for an illegal move, a resignation, a time forfeit, a crash or a hang (the engine is
    restarted for the next game); the rules end games -- xiangqi: checkmate, stalemate (a loss in xiangqi),
    the 60-move rule, bare material or repetition; chess (python-chess): checkmate, stalemate, insufficient
    material, the 50-move rule or threefold repetition.

    \b
    Examples:
      shuai match --engine /usr/games/fairy-stockfish --engine "proto=xboard /usr/games/maxqi" \\
          --games 4 --tc 0.2 --openings engine/xiangqi/openings.epd --pgn games.pgn
      shuai match --engine "name=new cmd=.venv/bin/shuai" --engine "name=old cmd=../old/.venv/bin/shuai" \\
          --games 2000 --tc 10+0.1 --openings engine/xiangqi/openings.epd --sprt elo0=0 elo1=5
      shuai match --game chess --engine .venv/bin/shuai --engine "proto=xboard /usr/games/fairymax" \\
          --games 10 --tc 5+0.05 --pgn chess.pgn
    """
    from .adjudication import DrawRule, ResignRule
    from .engines import EngineSpec, TimeControl
    from .stats import Sprt

    sprt_words = [sprt] if sprt else []
    for word in extra:
        if word.split("=", 1)[0] in ("elo0", "elo1", "alpha", "beta") and sprt is not None:
            sprt_words.append(word)
        else:
            raise click.UsageError(f"unexpected argument {word!r}")
    try:
        specs = [EngineSpec.parse(e) for e in engines]
        time_control = TimeControl.parse(tc)
        sprt_cfg = Sprt.parse(" ".join(sprt_words)) if sprt_words else None
        carried, carried_pairs = parse_resume(resume) if resume is not None else (None, None)
        draw = DrawRule.parse(draw_rule) if draw_rule is not None else None
        resign_by_score = ResignRule.parse(resign_rule) if resign_rule is not None else None
    except ValueError as e:
        raise click.UsageError(str(e)) from None
    if len(specs) < 2:
        raise click.UsageError("give at least two --engine options")

    from .openings import load_openings, openings_game
    from .runner import Match, MatchConfig, check_appendable, stop_on_sigterm, summary
    try:
        if openings:
            found = openings_game(openings)
            if game is not None and found is not None and found != game:
                raise ValueError(f"{clip(openings, 200)} holds {found} positions, not {game}")
            game = game or found
        game = game or DEFAULT.name
        book = load_openings(openings, game) if openings else None
    except ValueError as e:
        raise click.UsageError(str(e)) from None
    for option, path in (("--pgn", pgn_path), ("--log", log_path)):
        try:
            if path:
                check_appendable(path)
        except ValueError as e:
            raise click.BadParameter(str(e), param_hint=option) from None
    if book and shuffle:
        import random
        random.Random(seed).shuffle(book)

    cfg = MatchConfig(specs=specs, tc=time_control, games=games, openings=book,
                      concurrency=concurrency or (0 if cluster else os.cpu_count() or 1), pgn_path=pgn_path,
                      sprt=sprt_cfg, cluster=cluster, max_plies=max_plies, draw=draw, resign=resign_by_score,
                      margin=margin / 1000.0, hang_timeout=hang_timeout, handshake_timeout=handshake_timeout,
                      log_path=log_path, event=event, resume=carried, resume_pairs=carried_pairs, game=game)

    from ..cluster import ClusterError, live_line
    line = live_line(0, "games", enabled=progress)

    def out(text):
        if line.disable:
            click.echo(text)
            sys.stdout.flush()
        else:
            line.write(text)

    def advance(done, total, score):
        line.total = total
        line.n = done
        line.set_postfix_str(score.split(":", 1)[-1].strip(), refresh=True)

    stop_on_sigterm()                   # SIGTERM: stop like Ctrl-C (kill the engines, print the table so far)
    try:
        runner = Match(cfg, out=out, progress=None if line.disable else advance)
        result = runner.run()
    except (ValueError, ClusterError) as e:
        raise click.ClickException(str(e)) from None
    finally:
        line.close()
    click.echo(summary(result, sprt_cfg if len(specs) == 2 else None))
    if result.interrupted:
        sys.exit(130)


def parse_resume(text: str) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
    """``W,D,L`` (commas or spaces), three counts of games, optionally followed by ``/`` and the six counts of
    opening pairs by their two results (``PAIR_KINDS``); none negative, no more pairs of a result than games."""
    from .stats import PAIR_KINDS, unpaired
    games, slash, pairs = text.partition("/")
    # Commas or spaces between the counts, but no empty field ('1,,1,1' is a typo, not 1,1,1), and ASCII digits.
    counts = [re.split(r"\s*,\s*|\s+", part.strip()) if part.strip() else [] for part in (games, pairs)]
    if (len(counts[0]) != 3 or (slash and len(counts[1]) != len(PAIR_KINDS))
            or not all(re.fullmatch(r"[0-9]+", w) for w in counts[0] + counts[1])):
        raise ValueError(f"bad --resume {clip(text, 80)!r}: expected W,D,L (wins, draws, losses of the first "
                         f"engine), optionally /{','.join(PAIR_KINDS)} (its opening pairs by their results)")
    wdl, kinds = tuple(map(int, counts[0])), tuple(map(int, counts[1]))
    try:
        unpaired(*wdl, kinds)
    except ValueError as e:
        raise ValueError(f"bad --resume {clip(text, 80)!r}: {e}") from None
    return wdl, kinds if slash else None


if __name__ == "__main__":
    match()
