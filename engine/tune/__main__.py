"""``python -m engine.tune data`` makes the tuner's positions (``make tune-data``); ``python -m engine.tune fit``
fits the evaluation's parameters to them and writes ``engine/xiangqi/eval_params.py`` (``make tune``);
``python -m engine.tune wdl`` plays games and fits the win/draw/loss model to them (``engine/<game>/wdl.json``).
With ``--game chess`` (``make tune-data GAME=chess``, ``make tune GAME=chess``) the same for chess: positions in
``tune/chess-positions.txt.gz``, parameters in ``engine/chess/eval_params.py``."""
import sys
import time
from pathlib import Path

import click

from ..cluster import ClusterError
from ..game import DEFAULT, GAMES, game_named
from .generation import CHILD_EPOCHS, CHILD_LR, Plan
from .nnue_train import Settings as TrainSettings
from .selfplay import DataError, Settings, generate

GAME_OPTION = click.option("--game", type=click.Choice([g.name for g in GAMES]), default=DEFAULT.name,
                           show_default=True, help="Whose evaluation.")


def defaults(setting: str) -> str:
    """Every game's default of a ``Game.tuning()`` setting, for the help text."""
    return ", ".join(f"{g.name} {getattr(g.tuning(), setting):g}" for g in GAMES)


class _Commands(click.Group):
    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except (DataError, ClusterError) as e:  # an unreadable positions file, Ray missing or unreachable: one line
            raise click.ClickException(str(e)) from None


@click.group(cls=_Commands)
def main():
    """Tuning the evaluation on the project's own games."""


@main.command()
@GAME_OPTION
@click.option("--out", default=None, help="Output file (gzip text).  [default: the game's tuning.DATA]")
@click.option("--games", type=click.IntRange(1, 10 ** 7), default=None,
              help=f"[default: {defaults('SELFPLAY_GAMES')}]")
@click.option("--nodes", type=click.IntRange(100, 10 ** 9), default=None,
              help=f"Nodes searched per move.  [default: {defaults('SELFPLAY_NODES')}]")
@click.option("--seed", type=click.IntRange(0, 2 ** 63), default=Settings.seed, show_default=True)
@click.option("--workers", type=click.IntRange(1, 256), default=2, show_default=True)
@click.option("--nnue", is_flag=True,
              help="Write the network's binary positions file (engine.tune.nnue_data) instead of gzip text.  "
                   "[default out: tune/nnue-<game>-seed<SEED>.bin]")
@click.option("--cluster", default=None, help="Play the games as Ray tasks (see shuai match --cluster); the file "
              "is the same as a local run's.")
@click.option("--network", "network_path", default=None,
              help="Search with this evaluation network (engine.nnue); its name and checksum go in the "
                   "provenance.  [default: the hand-written evaluation]")
def data(game, out, games, nodes, seed, workers, nnue, cluster, network_path):
    """Self-play games at a fixed node count; their quiet positions, with the result and the search's score."""
    tuning = game_named(game).tuning()
    out = out or (f"tune/nnue-{game}-seed{seed}.bin" if nnue else tuning.DATA)
    games = games or tuning.SELFPLAY_GAMES
    nodes = nodes or tuning.SELFPLAY_NODES
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()

    def progress(done, positions):
        if done % 500 == 0 or done == games:
            print(f"{done}/{games} games, {positions} positions, {time.monotonic() - t0:.0f} s", flush=True)
    blob, provenance = None, {}
    if network_path:
        from ..nnue.network import NetworkError
        from .nnue_data import player
        try:
            blob, provenance = player(network_path, game_named(game))
        except NetworkError as e:
            raise click.ClickException(str(e)) from None
    settings = Settings(games=games, nodes=nodes, seed=seed, game=game, network=blob)
    if nnue:
        from . import nnue_data
        n = nnue_data.generate(out, settings, workers=workers, progress=progress,
                               provenance={"commit": nnue_data.source_commit(), **provenance}, cluster=cluster)
    else:
        n = generate(out, settings, workers=workers, progress=progress, cluster=cluster)
    print(f"{n} positions from {games} games (seed {seed}, {nodes} nodes a move) in {out}, "
          f"{time.monotonic() - t0:.0f} s")


@main.command("nnue-records")
@GAME_OPTION
@click.argument("texts", nargs=-1, required=True)
@click.option("--out", required=True, help="The positions file to write (engine.tune.nnue_data).")
def nnue_records(game, texts, out):
    """The tuner's text positions (TEXTS, from 'data' without --nnue) as a positions file for 'nnue-train'."""
    from .nnue_data import convert
    t0 = time.monotonic()
    n = convert(texts, out, game_named(game))
    print(f"{n} positions from {len(texts)} file(s) in {out}, {time.monotonic() - t0:.0f} s")


@main.command()
@GAME_OPTION
@click.option("--data", "data_path", default=None,
              help="Positions from 'data'.  [default: the game's tuning.DATA]")
@click.option("--out", default=None, help="Parameter module to write.  [default: engine/<game>/eval_params.py]")
@click.option("--start", type=click.Choice(["plain", "current"]), default="plain", show_default=True,
              help="Start from material only (plain) or from the parameters in use.")
@click.option("--lam", type=click.FloatRange(0, 1), default=0.5, show_default=True,
              help="Weight of the game result in the target (the rest: the search's score).")
@click.option("--iterations", type=click.IntRange(0, 10 ** 6), default=3000, show_default=True)
@click.option("--lr", type=click.FloatRange(0, 1000, min_open=True), default=2.0, show_default=True,
              help="Adam's step, centipawns.")
@click.option("--l2", type=click.FloatRange(0), default=None,
              help="Ridge: loss added per (100 cp)^2 that a table entry strays from its table's mean, or any "
                   f"other parameter from its start.  [default: {defaults('DEFAULT_L2')}]")
@click.option("--scale/--no-scale", default=True, show_default=True,
              help="Put the fitted values on the search's scale (engine.tune.fit.search_scale).")
@click.option("--limit", type=click.IntRange(1), default=None, help="Use at most this many positions.")
@click.option("--validation", type=click.FloatRange(0, 0.5), default=0.1, show_default=True,
              help="Fraction of the positions (the last games) held out to check the fit.")
@click.option("--compare", multiple=True, type=click.Path(exists=True, dir_okay=False),
              help="A parameter module (as this command writes) whose held-out loss to report beside the fit's, "
                   "e.g. hand-set values; repeatable.")
def fit(game, data_path, out, start, lam, iterations, lr, l2, scale, limit, validation, compare):
    """Fit the evaluation to the positions (Texel's method) and write the parameter module."""
    import datetime
    import itertools
    from .fit import (build_dataset, evaluation, fit as run_fit, loss_of, occurrences,
                      params_of, params_vector, plain_start, search_scale)
    from .params import write_params
    from .selfplay import data_digest, read_positions
    E = evaluation(game)
    tuning = game_named(game).tuning()
    l2 = tuning.DEFAULT_L2 if l2 is None else l2
    data_path = data_path or tuning.DATA
    out = out or str(Path(E.__file__).with_name("eval_params.py"))
    others = []                             # read before the fit: a bad file fails at once, not after it
    for path in compare:
        filled = []
        try:
            others.append((path, params_vector(path, game, filled), filled))
        except ValueError as e:
            raise click.BadParameter(str(e), param_hint="--compare") from None
    t0 = time.monotonic()
    rows = itertools.islice(read_positions(data_path), limit)
    data = build_dataset(rows, game)
    print(f"{data.size} positions ({data.skipped} left out: not linear), {len(data.vals)} coefficients, "
          f"{time.monotonic() - t0:.0f} s", flush=True)
    skipped = data.skipped
    data, held_out = data.split(validation)
    w0 = plain_start(game) if start == "plain" else E.W.astype(float)
    res = run_fit(data, w0, lam=lam, iterations=iterations, lr=lr, l2=l2,
                  progress=lambda it, loss: print(f"iteration {it}: loss {loss:.6f}", flush=True))
    check = (f"held-out {held_out.size} positions: {loss_of(held_out, res.w, res.k, lam):.6f} fitted, "
             f"{loss_of(held_out, w0, res.k, lam):.6f} at the start") if held_out.size else "none"
    for path, w_other, filled in others:
        check += f"; {path}: {loss_of(held_out if held_out.size else data, w_other, res.k, lam):.6f}"
        check += f" (without {', '.join(filled)})" if filled else ""
    print(check)
    factor = search_scale(res.w, occurrences(data), game) if scale else 1.0
    digest = data_digest(data_path)
    provenance = {
        "command": "python -m engine.tune fit " + " ".join(sys.argv[2:]),
        "data": f"{data_path} (sha256 of the text {digest}), {data.size} positions fitted, {held_out.size} held out, "
                f"{skipped} left out (not linear)",
        "start": (f"material only ({tuning.__name__}.PLAIN_MATERIAL)" if start == "plain"
                  else "the previous parameters"),
        "target": f"{lam:g} x game result + {1 - lam:g} x sigmoid(search score), sigmoid k = {res.k:.4f}",
        "loss": f"{res.loss_start:.6f} at the start, {res.loss:.6f} after {res.iterations} Adam iterations "
                f"(lr {lr:g}, l2 {l2:g})",
        "validation": check,
        "scale": (f"values multiplied by {factor:.4f} to match the search's PIECE_VALUE "
                  f"({', '.join(tuning.SCALE_KINDS)}); "
                  f"the sigmoid's k on that scale: {res.k / factor:.4f}") if scale else "as fitted",
        "date": datetime.date.today().isoformat(),
    }
    write_params(out, params_of(res.w * factor, game), provenance, game)
    print(f"loss {res.loss_start:.6f} -> {res.loss:.6f} in {res.seconds:.0f} s; wrote {out}")


@main.command()
@GAME_OPTION
@click.option("--games", type=click.IntRange(1, 10 ** 7), default=None,
              help="Self-play games.  [default: engine.tune.wdl.GAMES]")
@click.option("--nodes", type=click.IntRange(100, 10 ** 9), default=None,
              help=f"Nodes searched per move.  [default: {defaults('SELFPLAY_NODES')}]")
@click.option("--seed", type=click.IntRange(0, 2 ** 63), default=None, help="[default: engine.tune.wdl.SEED]")
@click.option("--workers", type=click.IntRange(1, 256), default=2, show_default=True)
@click.option("--out", default=None, help="Model file to write.  [default: engine/<game>/wdl.json]")
def wdl(game, games, nodes, seed, workers, out):
    """Fit the win/draw/loss model (UCI_ShowWDL) to self-play games: played into tune/wdl-<settings>.txt.gz
    unless that file is there already (the games depend on the settings alone), then fitted."""
    import datetime
    from . import wdl as W
    from .selfplay import data_digest, read_positions
    games = games or W.GAMES
    nodes = nodes or game_named(game).tuning().SELFPLAY_NODES
    seed = W.SEED if seed is None else seed
    path = W.data_path(game, games, seed, nodes)
    t0 = time.monotonic()
    if Path(path).exists():
        made = "reused: the file these settings write (the games depend on them alone), played earlier"
    else:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        generate(path, Settings(games=games, nodes=nodes, seed=seed, game=game), workers=workers)
        made = f"played in {time.monotonic() - t0:.0f} s on {workers} worker(s)"
    print(f"self-play: {path}, {made}", flush=True)
    data = W.outcomes_of(read_positions(path), game)
    fitted, held_out = data.split(W.HELD_OUT)
    model, sweeps = W.fit_wdl(fitted, progress=lambda k, loss: print(f"sweep {k}: loss {loss:.6f}", flush=True))
    rates = " / ".join(f"{x:.3f}" for x in fitted.rates())
    provenance = {
        "command": "python -m engine.tune wdl " + " ".join(sys.argv[2:]),
        "data": f"{path}: {games} self-play games (engine.tune.selfplay, seed {seed}, {nodes} nodes a move), "
                f"{made}; sha256 of the text {data_digest(path)}",
        "positions": f"{len(fitted.ply)} fitted (win/draw/loss {rates}), {len(held_out.ply)} held out",
        "ply_cap": f"{model.ply_cap}: the ply {W.CAP_QUANTILE:.0%} of the positions have not passed, rounded up "
                   f"to a multiple of {W.CAP_ROUNDING}",
        "loss": f"mean -log(chance of the result): {W.log_loss(W.START, fitted):.6f} at the start, "
                f"{W.log_loss(model, fitted):.6f} after {sweeps} sweeps; held out {W.log_loss(model, held_out):.6f}",
        "date": datetime.date.today().isoformat(),
    }
    out = out or W.params_path(game)
    W.write_model(out, model, provenance, game)
    print(f"{model}; wrote {out}, {time.monotonic() - t0:.0f} s")


@main.command()
@GAME_OPTION
@click.option("--state", default="tune/spsa-state.json", show_default=True,
              help="The run's state, written after every iteration; an existing one is gone on from.")
@click.option("--iterations", type=click.IntRange(1, 10 ** 6), default=2000, show_default=True,
              help="Planned iterations (the gains' schedule depends on it).")
@click.option("--stop-after", type=click.IntRange(1, 10 ** 6), default=None,
              help="Stop after this many more iterations (a sitting); --state resumes.")
@click.option("--pairs", type=click.IntRange(1, 1000), default=1, show_default=True,
              help="Game pairs (one opening, both colours) an iteration.")
@click.option("--tc", default="2+0.02", show_default=True, help="Time control of the games.")
@click.option("--params", default="",
              help="Parameters to tune, comma-separated.  [default: all but the switches of features that wait "
                   "for an SPRT (engine.search_params.TUNED)]")
@click.option("--rate", type=click.FloatRange(1e-6, 1.0), default=None,
              help="r_end, the learning rate at the end.  [default: engine.tune.spsa.RATE, 0.02]")
@click.option("--openings", default="", help="Openings file.  [default: the game's test openings]")
@click.option("--engine", default="", help="The engine command.  [default: this Python's -m engine]")
@click.option("--hash", type=click.IntRange(1, 4096), default=16, show_default=True, help="Hash (MB) of each engine.")
@click.option("--concurrency", type=click.IntRange(0, 1024), default=2, show_default=True)
@click.option("--cluster", default=None, help="A Ray address: the games as Ray tasks (see shuai match --cluster).")
@click.option("--seed", type=click.IntRange(0, 2 ** 63), default=1, show_default=True)
def spsa(game, state, iterations, stop_after, pairs, tc, params, rate, openings, engine, hash, concurrency, cluster,
         seed):
    """SPSA tuning of the search's parameters (engine.search_params) by game pairs between perturbed engines
    (make spsa); prints the start and tuned values and the SPRT that decides whether they are kept."""
    import shlex
    from types import SimpleNamespace
    from ..files import UnreadableFile, UnwritableFile
    from ..match.engines import TimeControl
    from . import spsa as S
    try:
        TimeControl.parse(tc)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--tc") from None
    args = SimpleNamespace(game=game, state=state, iterations=iterations, stop_after=stop_after, pairs=pairs, tc=tc,
                           params=params, rate=S.RATE if rate is None else rate,
                           openings=openings or game_named(game).openings,
                           engine=shlex.split(engine) if engine else [sys.executable, "-m", "engine"], hash=hash,
                           concurrency=concurrency, cluster=cluster, seed=seed)
    Path(state).parent.mkdir(parents=True, exist_ok=True)
    from ..match.runner import stop_on_sigterm
    stop_on_sigterm()                   # a run in the background is stopped by SIGTERM: its engines with it
    try:
        result = S.run(args)
    except (ValueError, UnreadableFile, UnwritableFile) as e:
        raise click.ClickException(str(e)) from None
    except KeyboardInterrupt:
        print(f"interrupted: the state of the last whole iteration is in {state}; the same command goes on")
        sys.exit(130)
    print(S.report(result))


@main.command("nnue-train")
@click.option("--data", "data_paths", multiple=True, required=True, type=click.Path(dir_okay=False),
              help="A positions file of 'data --nnue'; repeatable (the game is theirs).")
@click.option("--out", required=True, type=click.Path(dir_okay=False), help="The network file to write.")
@click.option("--hidden", type=click.IntRange(16, 2048), default=None,
              help="Accumulator size (a multiple of 16).  [default: the trainer's Settings]")
@click.option("--epochs", type=click.IntRange(1, 1000), default=None, help="[default: the trainer's Settings]")
@click.option("--batch", type=click.IntRange(64, 1 << 20), default=16384, show_default=True)
@click.option("--lr", type=click.FloatRange(0, 1, min_open=True), default=1e-3, show_default=True)
@click.option("--lam", type=click.FloatRange(0, 1), default=0.5, show_default=True,
              help="Weight of the game result in the target (the rest: the search's score).")
@click.option("--validation", type=click.FloatRange(0.01, 0.5), default=0.1, show_default=True,
              help="Fraction of the positions (the last games) held out.")
@click.option("--seed", type=click.IntRange(0, 2 ** 31), default=1, show_default=True)
@click.option("--limit", type=click.IntRange(1), default=None, help="Use the first this many positions.")
@click.option("--threads", type=click.IntRange(0, 256), default=0, show_default=True,
              help="PyTorch's CPU threads (0: its default, every core).")
@click.option("--factorize/--no-factorize", default=True, show_default=True,
              help="Virtual kind-and-colour inputs while training, folded into the file's weights.")
@click.option("--weight-decay", type=click.FloatRange(0, 1), default=0.0, show_default=True, help="AdamW's decay.")
@click.option("--king-buckets", is_flag=True, help="One block of inputs per king bucket of the game's map.")
def nnue_train(data_paths, out, hidden, epochs, batch, lr, lam, validation, seed, limit, threads, factorize,
               weight_decay, king_buckets):
    """Train the evaluation network on self-play positions and write it, quantized, with its provenance."""
    if hidden is not None and hidden % 16:
        raise click.BadParameter("a multiple of 16", param_hint="--hidden")
    try:
        import torch  # noqa: F401
    except ImportError:
        raise click.ClickException("training needs PyTorch: pip install '.[nnue]'") from None
    from .nnue_data import DataError
    from .nnue_train import train_files
    sizes = {k: v for k, v in (("hidden", hidden), ("epochs", epochs)) if v is not None}
    s = TrainSettings(**sizes, batch=batch, lr=lr, lam=lam, validation=validation, seed=seed,
                      threads=threads, factorize=factorize, weight_decay=weight_decay,
                      king_buckets=king_buckets)
    try:
        net = train_files(list(data_paths), s, "python -m engine.tune nnue-train " + " ".join(sys.argv[2:]),
                          limit=limit)
    except (ValueError, DataError) as e:
        raise click.ClickException(str(e)) from None
    net.save(out)
    p = net.provenance
    print(f"{out}: {p['positions']} positions, held-out loss {p['held_out_loss']:.6f} "
          f"(quantized {p['held_out_loss_quantized']:.6f}), {p['seconds']} s")


@main.command()
@GAME_OPTION
@click.option("--data-dir", type=click.Path(file_okay=False), default=None,
              help="Where self-play lives between sittings, a folder a game.  [default: $SHUAI_SELFPLAY or "
                   "~/.cache/shuai/selfplay]")
@click.option("--parent", type=click.Path(dir_okay=False), default=None,
              help="The parent network.  [default: the game's own, or the hand-written evaluation]")
@click.option("--positions", type=click.IntRange(1), default=Plan.positions, show_default=True,
              help="The parent's own self-play positions to train on.")
@click.option("--games-per-file", type=click.IntRange(1), default=Plan.games_per_file, show_default=True)
@click.option("--replay", type=click.IntRange(0), default=Plan.replay, show_default=True,
              help="Older players' positions trained on too, the newest first.")
@click.option("--epochs", type=click.IntRange(1, 1000), default=None,
              help=f"[default: {CHILD_EPOCHS} from the parent's or the candidate's weights, "
                   f"{TrainSettings.epochs} from random ones]")
@click.option("--lr", type=click.FloatRange(0, 1, min_open=True), default=None,
              help=f"[default: {CHILD_LR} from the parent's or the candidate's weights, {TrainSettings.lr} "
                   f"from random ones]")
@click.option("--tc", default=Plan.tc, show_default=True, help="The SPRT's time control.")
@click.option("--elo0", type=float, default=Plan.elo0, show_default=True)
@click.option("--elo1", type=float, default=Plan.elo1, show_default=True)
@click.option("--sprt-games", type=click.IntRange(1), default=Plan.sprt_games, show_default=True,
              help="The most SPRT games before it stops undecided.")
@click.option("--concurrency", type=click.IntRange(1), default=Plan.concurrency, show_default=True)
@click.option("--workers", type=click.IntRange(1, 256), default=Plan.workers, show_default=True,
              help="Self-play processes.")
@click.option("--cluster", default=None, help="Play the self-play games as Ray tasks (see shuai match --cluster).")
@click.option("--force", is_flag=True, help="Play the SPRT even if the child fits the held-out games no better "
              "than its parent.")
@click.option("--king-buckets", is_flag=True, help="The child has the game's king buckets (one block of inputs a "
              "bucket), grown from a parent of one: it starts as its parent's function.")
@click.option("--stop-after", type=click.Choice(["play", "train"]), default=None,
              help="Stop after this step (the same command goes on later).")
def generation(game, data_dir, parent, stop_after, **plan):
    """One generation of the evaluation network: the parent's self-play, its child trained from its weights, an
    SPRT of the child against it, and the child kept only with H1.  Resumable: run the same command again."""
    from ..files import UnreadableFile, UnwritableFile
    from ..nnue.network import NetworkError
    from .generation import Generation, data_root
    folder = Path(data_dir) if data_dir else data_root()
    try:
        g = Generation(game_named(game), folder, Plan(**plan), parent)
        g.play()
        if stop_after == "play":
            return
        child = g.train()
        if stop_after != "train":
            g.conclude(child)
    except (ValueError, NetworkError, UnreadableFile, UnwritableFile) as e:
        raise click.ClickException(str(e)) from None
    except KeyboardInterrupt:
        print(f"interrupted: every whole step is in {folder}/{game}; the same command goes on")
        sys.exit(130)


if __name__ == "__main__":
    sys.exit(main())
