"""``shuai sprt``: is a search or evaluation change worth keeping?  The working tree plays an earlier commit.

Both engines are frozen copies (the working tree as it is now, uncommitted edits included, and BASE): ``git
archive`` of the commit plus the endgame tables built here, each run from its own directory so that ``python -m
engine`` imports that copy and numba caches it there, warmed before the first game.  Both play every opening of
the game's book with each colour; the match runner's summary ends with the verdict, and one row is appended to
``docs/results/sprt.tsv``: the way a change is proved.

Only click is imported at the top; the runner is started as ``python -m engine.match.cli``, a process of its own.
"""
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import click

from ..game import DEFAULT, GAMES

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "docs" / "results" / "sprt.tsv"
COLUMNS = ("date", "new_commit", "base_commit", "game", "tc", "elo0", "elo1", "wins", "draws", "losses", "elo",
           "elo_error", "llr", "verdict", "note")
# The match runner imports the working tree's engine, whose numba set-up exports these; inherited, they make
# another version's engine load the working tree's cache locator and fail.
NUMBA_VARIABLES = ("NUMBA_CACHE_DIR", "NUMBA_CACHE_LOCATOR_CLASSES")


@dataclass(frozen=True)
class FrozenCopy:
    """One commit of the engine as it is played: its directory and the command that runs it there."""
    commit: str
    directory: Path
    command: str


def frozen_copy(commit: str, out: Path, python: str = sys.executable) -> FrozenCopy:
    """Where ``commit``'s copy lives under ``out`` and how it runs (``env -u``: see NUMBA_VARIABLES)."""
    unset = " ".join(f"-u {name}" for name in NUMBA_VARIABLES)
    return FrozenCopy(commit, Path(out) / f"shuai-{commit}", f"env {unset} {python} -m engine")


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()


def working_tree_commit() -> str:
    """The working tree as a commit object (HEAD when nothing is uncommitted), so that edits made while the test
    runs do not change the engine under test."""
    return git("rev-parse", "--short", git("stash", "create") or "HEAD")


def make_copy(copy: FrozenCopy) -> None:
    """``git archive`` of the commit plus the tables built here, made once (an existing directory is reused) and
    renamed into place only when complete; then warmed (every kernel compiled into the copy's own cache)."""
    if not copy.directory.is_dir():
        partial = copy.directory.with_name(copy.directory.name + ".tmp")
        shutil.rmtree(partial, ignore_errors=True)
        partial.mkdir(parents=True)
        archive = subprocess.Popen(["git", "archive", copy.commit], cwd=ROOT, stdout=subprocess.PIPE)
        subprocess.run(["tar", "-x", "-C", str(partial)], stdin=archive.stdout, check=True)
        if archive.wait():
            raise click.ClickException(f"git archive {copy.commit} failed")
        (partial / "tablebases").mkdir(exist_ok=True)
        for table in [*ROOT.glob("tablebases/*.xtb"), *ROOT.glob("tablebases/*.ctb")]:
            shutil.copy2(table, partial / "tablebases")
        partial.rename(copy.directory)
    if subprocess.run(copy.command.split() + ["warmup"], cwd=copy.directory, stdout=subprocess.DEVNULL).returncode:
        raise click.ClickException(f"the copy of {copy.commit} in {copy.directory} does not start (files the "
                                   f"commit lacks? git stash create leaves untracked files out)")


def run_name(new: str, base: str, new_options: str, base_options: str) -> str:
    """The files' stem: the pair, and their options (when any) made safe for a file name."""
    name = f"{new}-vs-{base}"
    if new_options or base_options:
        options = f"{new_options}-vs-{base_options}"
        name += "-" + "".join(c if c.isascii() and (c.isalnum() or c in "=.-") else "_" for c in options)
    return name


def match_arguments(new: FrozenCopy, base: FrozenCopy, settings: dict, out: Path, name: str) -> list[str]:
    """The runner's command line: the working tree's engine plays BASE's, over the game's openings."""
    from ..game import game_named
    s = settings
    args = [sys.executable, "-m", "engine.match.cli",
            "--engine", f"name=new-{new.commit} dir={new.directory} cmd='{new.command}' {s['new_options']}".strip(),
            "--engine", f"name=base-{base.commit} dir={base.directory} cmd='{base.command}' {s['base_options']}"
            .strip(),
            "--games", str(s["games"]), "--tc", s["tc"], "--concurrency", str(s["concurrency"]),
            "--game", s["game"], "--openings", game_named(s["game"]).openings,
            "--sprt", f"elo0={s['elo0']:g} elo1={s['elo1']:g}"]
    if s["resume"]:
        args += ["--resume", s["resume"]]
    return args + ["--event", f"sprt {name}", "--pgn", str(out / f"{name}.pgn"), "--log", str(out / f"{name}.log")]


def outcome(summary: str) -> tuple[int, int, int, float, str]:
    """(wins, draws, losses of the first engine, LLR, verdict H1/H0/undecided) from the runner's summary."""
    wins = draws = losses = 0
    llr, verdict = float("nan"), "undecided"
    for line in summary.splitlines():
        if line.startswith("Score of "):
            wins, draws, losses = _score(line)
        elif line.startswith("SPRT ("):               # "SPRT (...): LLR x (bounds a, b): H1 accepted"
            llr = float(line.split(" LLR ", 1)[1].split()[0])
            verdict = line.rsplit(": ", 1)[1].split()[0]
            verdict = verdict if verdict in ("H1", "H0") else "undecided"
    return wins, draws, losses, llr, verdict


def _score(line: str) -> tuple[int, int, int]:
    """(wins, draws, losses) of a runner's "Score of A vs B: W - L - D  [score] N" line."""
    wins, losses, draws = (int(c) for c in line.rsplit(": ", 1)[1].split("[")[0].split(" - "))
    return wins, draws, losses


def resume_point(transcript: Path) -> str:
    """Where an interrupted match of the same pair goes on (``--resume``'s argument), read from its transcript:
    the summary's 'Resume with' line if the runner wrote one, else its last running score (a run killed outright
    leaves no summary; its opening pairs are then unknown and the test goes on from the games alone); "" when
    there is no transcript or no game was scored."""
    try:
        lines = transcript.read_text(errors="replace").splitlines()
    except OSError:
        return ""
    point = ""
    for line in lines:
        if line.startswith("Resume with --resume "):
            return line.split()[-1]
        if line.startswith("Score of "):
            try:
                point = ",".join(map(str, _score(line)))
            except (ValueError, IndexError):
                continue
    return point


def sprt_row(new: str, base: str, settings: dict, summary: str, note: str = "", date: str = None) -> dict:
    """One row of the results table: the pair, the settings, and what the match decided."""
    from .stats import elo_estimate
    wins, draws, losses, llr, verdict = outcome(summary)
    e = elo_estimate(wins, draws, losses)
    return {"date": date or time.strftime("%Y-%m-%d", time.gmtime()), "new_commit": new, "base_commit": base,
            "game": settings["game"], "tc": settings["tc"], "elo0": f"{settings['elo0']:g}",
            "elo1": f"{settings['elo1']:g}", "wins": wins, "draws": draws, "losses": losses,
            "elo": f"{e.elo:.1f}", "elo_error": f"{e.error:.1f}", "llr": f"{llr:.2f}", "verdict": verdict,
            "note": " ".join(note.split())}


def append_row(row: dict, path: Path = RESULTS, columns: tuple = COLUMNS) -> None:
    """Append ``row`` to the tab-separated table at ``path``, made with its header line when missing."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    new_file = not path.exists() or path.stat().st_size == 0
    with path.open("a") as table:
        if new_file:
            table.write("\t".join(columns) + "\n")
        table.write("\t".join(str(row[c]).replace("\t", " ") for c in columns) + "\n")


def play(args: list[str], transcript: Path) -> str:
    """Run the match, its output shown and kept in ``transcript`` (as ``tee`` would); its text."""
    lines = []
    with transcript.open("w") as kept, subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, text=True) as runner:
        for line in runner.stdout:
            sys.stdout.write(line)
            sys.stdout.flush()
            kept.write(line)
            kept.flush()                # what an interrupted run leaves is where it goes on (resume_point)
            lines.append(line)
    if runner.returncode:           # interrupted (130) or failed: no verdict to record
        raise click.ClickException(f"the match runner stopped with status {runner.returncode}, no row written; "
                                   f"go on with --resume (the summary's 'Resume with' line in {transcript})")
    return "".join(lines)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("base")
@click.option("--tc", default="2+0.02", show_default=True, help="Time control of both engines (seconds + increment).")
@click.option("--elo0", type=float, default=0.0, show_default=True,
              help="H0's Elo.  A simplification uses e.g. --elo0 -5 --elo1 0.")
@click.option("--elo1", type=float, default=5.0, show_default=True, help="H1's Elo: what a gainer passes.")
@click.option("--games", type=click.IntRange(1), default=20000, show_default=True,
              help="The most games before the test gives up undecided.")
@click.option("--concurrency", type=click.IntRange(1), default=2, show_default=True,
              help="Games at once (2 on a 2-core machine: the clocks are real, leave the machine alone).")
@click.option("--out", type=click.Path(file_okay=False), default="/tmp/shuai-sprt", show_default=True,
              help="The frozen copies, PGN, engine traffic and the summary.")
@click.option("--game", type=click.Choice([g.name for g in GAMES]), default=DEFAULT.name, show_default=True,
              help="The game played, from its own openings.")
@click.option("--new-options", default="", metavar="WORDS",
              help="The working tree's engine options as the runner's option.NAME=VALUE words: e.g. "
                   "--new-options option.Threads=2 with BASE HEAD tests Threads 2 vs 1.")
@click.option("--base-options", default="", metavar="WORDS", help="BASE's engine options, the same way.")
@click.option("--resume", default="", metavar="W,D,L[/LL,LD,DD,WL,WD,WW]",
              help="An earlier run of the same pair (the new engine's view; the summary's 'Resume with' line): "
                   "the test goes on from there with the next openings.")
@click.option("--note", default="", help="The results row's note (what the change is).")
@click.option("--results", type=click.Path(dir_okay=False), default=str(RESULTS), show_default="docs/results/sprt.tsv",
              help="The table the result is appended to.")
def sprt(base, tc, elo0, elo1, games, concurrency, out, game, new_options, base_options, resume, note, results):
    """SPRT of the working tree against the earlier commit BASE: every search or evaluation change must pass one
    (make sprt BASE=<commit> [TC=2+0.02] [ELO0=0 ELO1=5] [GAME=chess] runs it).  Prints the runner's summary,
    keeps it as OUT/NEW-vs-BASE.txt beside the PGN and the engine traffic, and appends the result to RESULTS."""
    try:
        base = git("rev-parse", "--short", base)
        new = working_tree_commit()
    except subprocess.CalledProcessError as e:
        raise click.ClickException(f"git: {e.stderr.strip() or e}") from None
    out = Path(out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    settings = dict(tc=tc, elo0=elo0, elo1=elo1, games=games, concurrency=concurrency, game=game,
                    new_options=new_options, base_options=base_options, resume=resume)
    copies = [frozen_copy(commit, out) for commit in (new, base)]
    for copy in copies:
        make_copy(copy)
    name = run_name(new, base, new_options, base_options)
    click.echo(f"SPRT ({game}) {new} (working tree) {f'({new_options}) ' if new_options else ''}vs {base} "
               f"{f'({base_options}) ' if base_options else ''}at {tc}, elo0={elo0:g} elo1={elo1:g}, "
               f"up to {games} games -> {out}/{name}.*")
    summary = play(match_arguments(*copies, settings, out, name), out / f"{name}.txt")
    row = sprt_row(new, base, settings, summary, note)
    append_row(row, Path(results))
    click.echo(f"{row['verdict']}: appended to {results}")


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("commit")
@click.option("--out", type=click.Path(file_okay=False), default="/tmp/shuai-sprt", show_default=True,
              help="Where the copy goes (OUT/shuai-COMMIT).")
def freeze(commit, out):
    """A frozen, warmed copy of COMMIT of the engine, as `shuai sprt` plays it (scripts/match.sh's SHUAI_REV):
    prints its directory, then the command that runs it from there."""
    try:
        commit = git("rev-parse", "--short", commit)
    except subprocess.CalledProcessError as e:
        raise click.ClickException(f"git: {e.stderr.strip() or e}") from None
    copy = frozen_copy(commit, Path(out).resolve())
    make_copy(copy)
    click.echo(f"{copy.directory}\n{copy.command}")
