"""Calibrate the playing levels (issue 30): the matches that put numbers on ``engine.levels``.

    .venv/bin/python scripts/calibrate_levels.py [--chess] [--xiangqi] [--games N] [--tc 10+0.1] [--out DIR]

* ``--chess``: Shuai with ``UCI_LimitStrength`` and ``UCI_Elo`` E against Stockfish with the same ``UCI_Elo`` E,
  for E in ``--elo`` (repeatable; default 1500 and 2000), ``--games`` games each (default 40) from
  ``engine/chess/openings.epd``.  Shuai's Elo at that setting is E plus the Elo difference measured; a level
  that is honest scores about 50%.  Needs ``apt-get install -y stockfish`` (Debian's 15.1 takes UCI_Elo
  1350-2850; calibrated by its authors at longer time controls, see /work/shared/NOTES.md).
  ``--skill-at S:E`` (repeatable): also Shuai at ``Skill Level`` S against Stockfish at ``UCI_Elo`` E, the points that
  ``engine.levels.ELO_OF_SKILL`` is fitted to (``--no-elo``: those alone).
* ``--xiangqi``: the skill ladder: adjacent skills of ``--skill`` (repeatable; default 0 5 10 15 20) against each other,
  and each against a fixed reference, ``--reference`` (default MaxQi over xboard; Fairy-Stockfish at a
  ``Skill Level``: ``--reference "proto=uci option.Skill\\ Level=5 /usr/games/fairy-stockfish"``), ``--games``
  games a pairing (default 20) from ``engine/xiangqi/openings.epd``.

Every match is ``shuai match`` (``python -m engine.match.cli``), concurrency ``--concurrency`` (default 1: the
clocks are real, keep 1 on a loaded 2-core machine); PGN, engine logs and each match's summary go to ``--out``.
The end is a Markdown table for the README's "Levels and books" section.  With neither ``--chess`` nor
``--xiangqi`` both run.

Expected duration at 10 s + 0.1 s, concurrency 1: a chess game takes about half a minute (each side's 10 s
plus the increments), so 2 x 40 games about 40 minutes; the xiangqi ladder's 9 pairings of 20 games about 1.5
hours at most (the weak levels answer in milliseconds, so their games are shorter).
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import click

from engine.game import game_named

ROOT = Path(__file__).resolve().parent.parent
STOCKFISH = "/usr/games/stockfish"
MAXQI = "/usr/games/maxqi"
SCORE = re.compile(r"Score of (.+?) vs (.+?): (\d+) - (\d+) - (\d+)\s+\[([\d.]+)\] (\d+)")
ELO = re.compile(r"Elo difference: (.+?), LOS")


def shuai_command() -> str:
    """The engine under test: the checkout's virtual environment's ``shuai``, else this Python's ``-m engine``."""
    venv = ROOT / ".venv" / "bin" / "shuai"
    return str(venv) if venv.exists() else f"{sys.executable} -m engine"


def shuai_spec(name: str, options: dict) -> str:
    words = [f"name={name}", f"dir={ROOT}", f"cmd={shlex.quote(shuai_command())}", "proto=uci"]
    words += [shlex.quote(f"option.{k}={v}") for k, v in options.items()]
    return " ".join(words)


def play(name: str, first: str, second: str, args, game: str, openings: str) -> dict:
    """One match; its score line and Elo difference (first engine's view)."""
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for suffix in ("pgn", "log", "txt"):
        (out / f"{name}.{suffix}").unlink(missing_ok=True)
    command = [sys.executable, "-m", "engine.match.cli", "--game", game, "--engine", first, "--engine", second,
               "--games", str(args.games), "--tc", args.tc, "--concurrency", str(args.concurrency),
               "--openings", openings, "--pgn", str(out / f"{name}.pgn"), "--log", str(out / f"{name}.log"),
               "--event", f"calibrate_levels: {name}", "--no-progress"]
    print(f"== {name}: {args.games} games at {args.tc}", flush=True)
    start = time.monotonic()
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    (out / f"{name}.txt").write_text(run.stdout + run.stderr)
    scores, elos = SCORE.findall(run.stdout), ELO.findall(run.stdout)
    if run.returncode != 0 or not scores:
        sys.exit(f"{name}: the match failed (exit {run.returncode}); see {out / name}.txt\n{run.stderr[-2000:]}")
    a, b, wins, losses, draws, score, games = scores[-1]
    result = {"name": name, "first": a, "second": b, "wins": int(wins), "draws": int(draws),
              "losses": int(losses), "score": float(score), "games": int(games),
              "elo": elos[-1] if elos else "?", "minutes": (time.monotonic() - start) / 60}
    print(f"   {a} vs {b}: +{wins} ={draws} -{losses} ({100 * float(score):.1f}%), Elo {result['elo']}, "
          f"{result['minutes']:.1f} min", flush=True)
    return result


def row(r: dict, *extra) -> str:
    cells = [r["first"], r["second"], str(r["games"]), f"{r['wins']}-{r['draws']}-{r['losses']}",
             f"{100 * r['score']:.1f}%", r["elo"], *extra]
    return "| " + " | ".join(cells) + " |"


def stockfish_spec(args, elo: int) -> str:
    return (f"name=Stockfish-{elo} proto=uci option.UCI_LimitStrength=true option.UCI_Elo={elo} "
            f"option.Hash=16 'option.Move Overhead=100' {args.stockfish}")


def chess(args) -> list[str]:
    """Shuai at each ``--elos`` E (UCI_LimitStrength) against Stockfish at E, then each ``--skill-at S:E``:
    Shuai at ``Skill Level`` S against Stockfish at E (the points ``ELO_OF_SKILL`` is fitted to)."""
    if not (shutil.which(args.stockfish) or os.access(args.stockfish, os.X_OK)):
        sys.exit(f"{args.stockfish} not found: apt-get install -y stockfish (or give --stockfish PATH)")
    lines = ["| Shuai | Stockfish (UCI_LimitStrength) | games | W-D-L | score | Elo difference "
             "| Shuai's Elo on Stockfish's scale |", "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    openings = game_named("chess").openings
    matches = [(f"chess-elo{elo}", shuai_spec(f"Shuai-{elo}", {"UCI_LimitStrength": "true", "UCI_Elo": elo}), elo)
               for elo in args.elos]
    matches += [(f"chess-skill{skill}-vs-{elo}", shuai_spec(f"Shuai-skill{skill}", {"Skill Level": skill}), elo)
                for skill, elo in args.skill_at]
    for name, shuai, elo in matches:
        r = play(name, shuai, stockfish_spec(args, elo), args, "chess", openings)
        diff = re.match(r"([+-]?\d+(?:\.\d+)?)", r["elo"])
        lines.append(row(r, f"{elo + float(diff.group(1)):.0f}" if diff else "?"))
    return lines


def skill_at(ctx, param, texts) -> list[tuple[int, int]]:
    """``S:E`` -- Shuai's ``Skill Level`` S against Stockfish's ``UCI_Elo`` E (a click callback)."""
    pairs = []
    for text in texts:
        skill, _, elo = text.partition(":")
        try:
            pairs.append((int(skill), int(elo)))
        except ValueError:
            raise click.BadParameter(f"expected SKILL:ELO, got {text!r}") from None
    return pairs


def xiangqi(args) -> list[str]:
    openings = game_named("xiangqi").openings
    skills = sorted(args.skills)
    lines = ["| Red/Black alternate: first | second | games | W-D-L (first's) | score | Elo difference |",
             "| --- | --- | ---: | ---: | ---: | ---: |"]
    for low, high in zip(skills, skills[1:]):
        lines.append(row(play(f"xiangqi-skill{high}-vs-{low}", shuai_spec(f"Shuai-skill{high}", {"Skill Level": high}),
                              shuai_spec(f"Shuai-skill{low}", {"Skill Level": low}), args, "xiangqi", openings)))
    for skill in skills if args.reference != "none" else ():
        lines.append(row(play(f"xiangqi-skill{skill}-vs-reference",
                              shuai_spec(f"Shuai-skill{skill}", {"Skill Level": skill}),
                              f"name=reference {args.reference}", args, "xiangqi", openings)))
    return lines


@click.command()
@click.option("--chess", "play_chess", is_flag=True, help="The chess matches against Stockfish's UCI_Elo.")
@click.option("--xiangqi", "play_xiangqi", is_flag=True, help="The xiangqi skill ladder.")
@click.option("--games", type=click.IntRange(1), default=None, help="Games a match.  [default: chess 40, xiangqi 20]")
@click.option("--tc", default="10+0.1", show_default=True, help="Time control, base+increment in seconds.")
@click.option("--elo", "elos", type=int, multiple=True, default=(1500, 2000), show_default=True,
              help="Shuai at UCI_Elo E against Stockfish at E (repeatable).")
@click.option("--no-elo", is_flag=True, help="No --elo match: the --skill-at ones alone.")
@click.option("--skill-at", multiple=True, callback=skill_at, metavar="S:E",
              help="Also Shuai at Skill Level S against Stockfish at UCI_Elo E (repeatable; for ELO_OF_SKILL).")
@click.option("--skill", "skills", type=int, multiple=True, default=(0, 5, 10, 15, 20), show_default=True,
              help="The xiangqi ladder's skills (repeatable).")
@click.option("--stockfish", default=STOCKFISH, show_default=True)
@click.option("--reference", default=f"proto=xboard {MAXQI}", show_default=True,
              help="The xiangqi ladder's fixed reference, as shuai match's --engine takes it ('none': the ladder "
                   "alone).")
@click.option("--concurrency", type=click.IntRange(1), default=1, show_default=True)
@click.option("--out", type=click.Path(file_okay=False), default="/tmp/shuai-levels", show_default=True)
def main(play_chess, play_xiangqi, games, tc, elos, no_elo, skill_at, skills, stockfish, reference, concurrency,
         out):
    """Calibrate the playing levels (issue 30): the matches that put numbers on engine.levels, and the README's
    tables.  With neither --chess nor --xiangqi both run."""
    settings = dict(tc=tc, elos=[] if no_elo else list(elos), skill_at=skill_at, skills=list(skills),
                    stockfish=stockfish, reference=reference, concurrency=concurrency, out=out)
    both = not (play_chess or play_xiangqi)
    tables = []
    if play_chess or both:
        tables += ["Chess, " + tc + ":", ""] + chess(SimpleNamespace(**settings, games=games or 40)) + [""]
    if play_xiangqi or both:
        tables += ["Xiangqi, " + tc + ":", ""] + xiangqi(SimpleNamespace(**settings, games=games or 20)) + [""]
    print("\n" + "\n".join(tables))


if __name__ == "__main__":
    main()
