"""``shuai tb build``, ``shuai tb verify`` and ``shuai tb probe`` (click).  Only click and the standard library are imported at module
level; numba and the tables are loaded inside the commands.  Also runnable as ``python -m engine.egtb.cli``."""
import sys

import click

from . import default_directory
from ..cluster import CLUSTER_HELP
from ..game import DEFAULT, GAMES

DEFAULT_DIR = str(default_directory())


@click.group("tb")
def tb():
    """Endgame tablebases: build, verify and probe."""


@tb.command("build")
@click.argument("materials", nargs=-1)
@click.option("--dir", "directory", default=DEFAULT_DIR, show_default=True, help="Directory of the table files.")
@click.option("--game", "game_name", type=click.Choice([g.name for g in GAMES]), default=DEFAULT.name,
              show_default=True, help="Which game's tables (chess: files <MATERIAL>.ctb, e.g. KQvK KBNvK KRvKP).")
@click.option("--default", "default_set", is_flag=True, help="Build the default set (see tablebases/README.md).")
@click.option("--one-attacker", is_flag=True, help="Build every one-attacker ending (R, N, C, P v advisors/elephants).")
@click.option("--force", is_flag=True, help="Rebuild the named tables even if their files exist.")
@click.option("--rule", type=click.Choice(["chase", "check", "none"]), default=None,
              help="The Asian rule the tables apply: perpetual check and perpetual chase lose (chase, the default), "
                   "perpetual check alone (check: the tables before chases were modelled), or none (plain "
                   "retrograde values).")
@click.option("--no-rule", is_flag=True, help="The same as --rule none.")
@click.option("--chunk", type=click.IntRange(256, 32768), default=8192, show_default=True,
              help="Entries per compressed chunk.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@click.option("--cluster", default=None, metavar="auto|ADDRESS", help=CLUSTER_HELP)
@click.option("--slice-above", type=click.IntRange(1), default=None, metavar="ENTRIES",
              help="With --cluster: build a xiangqi table of more entries than this in slices, one worker a slice "
                   "[default: 500000000].")
@click.option("--slices", type=click.IntRange(0), default=0, show_default=True,
              help="With --cluster: slices of such a table (0: one per CPU of the cluster).")
def build_cmd(materials, directory, game_name, default_set, one_attacker, force, rule, no_rule, chunk, quiet, cluster,
              slice_above, slices):
    """Build the tables for MATERIAL... (e.g. KRvK KCPvKAA KNvKAB; with --game chess KQvK KRvKP), and every
    smaller table they capture (or promote) into."""
    from ..game import game_named
    game = game_named(game_name)
    parts = game.tables()
    names = list(materials)
    for option, wanted in (("default", default_set), ("one-attacker", one_attacker)):
        if wanted:
            if option not in parts.SETS:
                raise click.UsageError(f"--{option} is not a set of {game.name} tables")
            names += parts.SETS[option]
    if not names:
        raise click.UsageError("name at least one material (e.g. KRvK) or --default")
    from .material import MaterialError
    try:
        for n in names:
            parts.parse_material(n)
    except MaterialError as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(2)
    from .build import Builder
    from .store import DEFAULT_RULE
    if no_rule and rule not in (None, "none"):
        raise click.UsageError(f"--no-rule contradicts --rule {rule}")
    builder = Builder(game, directory, chunk, rule="none" if no_rule else rule or DEFAULT_RULE)
    if cluster is None and (slice_above is not None or slices):
        raise click.UsageError("--slice-above and --slices need --cluster")
    from ..files import UnwritableFile
    from .store import TableError
    try:
        if cluster is not None:
            _build_on_cluster(builder, game, names, force, cluster, quiet, slice_above, slices)
        else:
            _build_here(builder, names, force, quiet, directory)
    except (UnwritableFile, TableError, OSError) as e:     # a read-only directory, a smaller table gone bad ...
        click.echo(f"error: {e}", err=True)
        sys.exit(2)


def _build_here(builder, names, force, quiet, directory):
    """The tables built in this process, a progress bar per table on stderr."""
    state = {"bar": None, "name": None}

    def progress(material, fraction, text):
        if quiet:
            return
        if state["name"] != material.name:
            if state["bar"] is not None:
                state["bar"].__exit__(None, None, None)
            state["bar"] = click.progressbar(length=1000, label=f"{material.name:<10}", width=30,
                                             show_percent=True, file=sys.stderr)
            state["bar"].__enter__()
            state["name"] = material.name
            state["done"] = 0
        bar = state["bar"]
        target = int(1000 * min(1.0, fraction))
        if target > state["done"]:
            bar.update(target - state["done"])
            state["done"] = target

    def log(msg):
        if state["bar"] is not None:
            state["bar"].__exit__(None, None, None)
            state["bar"] = None
            state["name"] = None
        click.echo(msg)

    records = builder.build(names, force=force, progress=progress, log=log)
    if state["bar"] is not None:
        state["bar"].__exit__(None, None, None)
    _summary(records, directory, rule=builder.rule)


def _summary(records, directory, seconds=None, rule="none"):
    built = [r for r in records if r.built]
    took = seconds if seconds is not None else sum(r.seconds for r in built)
    click.echo(f"{len(built)} tables built, {len(records) - len(built)} present already, "
               f"{took:.1f} s, {sum(r.bytes for r in records)} bytes in {directory}")
    if rule != "none" and built:
        ruled = [r for r in built if r.rule_changed]
        chased = [r for r in built if r.rule_chase]
        click.echo(f"rule ({rule}): {sum(r.rule_changed for r in built)} positions decided in {len(ruled)} of the "
                   f"tables built" + (f", {sum(r.rule_chase for r in built)} of them by perpetual chase in "
                                      f"{len(chased)} tables" if rule == "chase" else ""))


def _build_on_cluster(builder, game, names, force, address, quiet, slice_above, slices):
    """``--cluster``: the tables as Ray tasks (engine.egtb.build.cluster), a live line of tables done / left."""
    import time
    from ..cluster import ClusterError, connect, live_line
    from .build.cluster import SLICE_ABOVE, build_on_cluster
    t0 = time.perf_counter()
    try:
        ray = connect(address)
    except ClusterError as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(2)
    with live_line(0, "tables", enabled=False if quiet else None) as line:
        records = build_on_cluster(ray, builder, game, names, force=force, line=line,
                                   log=line.write if not line.disable else click.echo,
                                   slice_above=slice_above or SLICE_ABOVE, slices=slices)
    _summary(records, builder.directory, time.perf_counter() - t0, builder.rule)


@tb.command("verify")
@click.argument("directory", default=DEFAULT_DIR)
@click.option("--add", is_flag=True,
              help="Record the sound tables the manifest does not list (making one if there is none).")
def verify_cmd(directory, add):
    """Check the tables in DIRECTORY (default: the project's) against its MANIFEST.sha256 and read each whole
    (checksums, decoding, values within the header's bounds).  One line per bad, unlisted or missing file;
    exit status 1 if there is any."""
    from .build.verify import verify_directory
    report = verify_directory(directory, add=add)
    for line in report.problems:
        click.echo(line)
    for name in report.added:
        click.echo(f"{name}: added to the manifest")
    click.echo(f"{len(report.good)} tables good, {len(report.problems)} problems "
               f"({report.checked_bytes:,} bytes read)")
    sys.exit(1 if report.problems else 0)


@tb.command("probe")
@click.option("--fen", required=True, help="The position.")
@click.option("--dir", "directory", default=DEFAULT_DIR, show_default=True, help="Directory of the table files.")
@click.option("--best", is_flag=True, help="Also print the table's best move.")
def probe_cmd(fen, directory, best):
    """Print `win N`, `loss N` (N = plies to mate, for the side to move), `draw` or `unknown`.  A FEN with 8
    ranks is chess (its tables are the directory's *.ctb files), one with 10 xiangqi."""
    from ..game import position_of_fen
    try:
        pos = position_of_fen(fen)
    except ValueError as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(2)
    tbs = pos.game.tablebases(directory)
    result = tbs.probe(pos)
    errors = list(tbs.take_errors())
    for msg in errors:
        click.echo(f"error: {msg}", err=True)
    click.echo(str(result))
    if errors and result.kind == "unknown":
        sys.exit(2)             # the answer is unknown because of the error (missing directory, corrupt table)
    if best and result.kind != "unknown":
        move = tbs.best_move(pos)
        click.echo(f"bestmove {move}" if move else "nobestmove")


if __name__ == "__main__":
    tb()
