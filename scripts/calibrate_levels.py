#!/usr/bin/env python3
"""Calibrate the playing levels (issue 30): the matches that put numbers on ``engine.levels``.

    .venv/bin/python scripts/calibrate_levels.py [--chess] [--xiangqi] [--games N] [--tc 10+0.1] [--out DIR]

* ``--chess``: Shuai with ``UCI_LimitStrength`` and ``UCI_Elo`` E against Stockfish with the same ``UCI_Elo`` E,
  for E in ``--elos`` (default 1500 2000), ``--games`` games each (default 40) from
  ``tests/data/chess-openings.epd``.  Shuai's Elo at that setting is E plus the Elo difference measured; a level
  that is honest scores about 50%.  Needs ``apt-get install -y stockfish`` (Debian's 15.1 takes UCI_Elo
  1350-2850; calibrated by its authors at longer time controls, see /work/shared/NOTES.md).
  ``--skill-at S:E ...``: also Shuai at ``Skill Level`` S against Stockfish at ``UCI_Elo`` E, the points that
  ``engine.levels.ELO_OF_SKILL`` is fitted to (``--elos`` with no value: those alone).
* ``--xiangqi``: the skill ladder: adjacent skills of ``--skills`` (default 0 5 10 15 20) against each other,
  and each against a fixed reference, ``--reference`` (default MaxQi over xboard; Fairy-Stockfish at a
  ``Skill Level``: ``--reference "proto=uci option.Skill\\ Level=5 /usr/games/fairy-stockfish"``), ``--games``
  games a pairing (default 20) from ``tests/data/openings.epd``.

Every match is ``shuai match`` (``python -m engine.match.cli``), concurrency ``--concurrency`` (default 1: the
clocks are real, keep 1 on a loaded 2-core machine); PGN, engine logs and each match's summary go to ``--out``.
The end is a Markdown table for the README's "Levels and books" section.  With neither ``--chess`` nor
``--xiangqi`` both run.

Expected duration at 10 s + 0.1 s, concurrency 1: a chess game takes about half a minute (each side's 10 s
plus the increments), so 2 x 40 games about 40 minutes; the xiangqi ladder's 9 pairings of 20 games about 1.5
hours at most (the weak levels answer in milliseconds, so their games are shorter).
"""
from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

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
    openings = str(ROOT / "tests/data/chess-openings.epd")
    matches = [(f"chess-elo{elo}", shuai_spec(f"Shuai-{elo}", {"UCI_LimitStrength": "true", "UCI_Elo": elo}), elo)
               for elo in args.elos]
    matches += [(f"chess-skill{skill}-vs-{elo}", shuai_spec(f"Shuai-skill{skill}", {"Skill Level": skill}), elo)
                for skill, elo in args.skill_at]
    for name, shuai, elo in matches:
        r = play(name, shuai, stockfish_spec(args, elo), args, "chess", openings)
        diff = re.match(r"([+-]?\d+(?:\.\d+)?)", r["elo"])
        lines.append(row(r, f"{elo + float(diff.group(1)):.0f}" if diff else "?"))
    return lines


def skill_at(text: str) -> tuple[int, int]:
    """``S:E`` -- Shuai's ``Skill Level`` S against Stockfish's ``UCI_Elo`` E."""
    skill, _, elo = text.partition(":")
    try:
        return int(skill), int(elo)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected SKILL:ELO, got {text!r}") from None


def xiangqi(args) -> list[str]:
    openings = str(ROOT / "tests/data/openings.epd")
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chess", action="store_true", help="the chess matches against Stockfish's UCI_Elo")
    parser.add_argument("--xiangqi", action="store_true", help="the xiangqi skill ladder")
    parser.add_argument("--games", type=int, default=None, help="games a match (chess 40, xiangqi 20)")
    parser.add_argument("--tc", default="10+0.1", help="time control, base+increment in seconds (10+0.1)")
    parser.add_argument("--elos", type=int, nargs="*", default=[1500, 2000],
                        help="Shuai at UCI_Elo E against Stockfish at E (default 1500 2000)")
    parser.add_argument("--skill-at", type=skill_at, nargs="*", default=[], metavar="S:E",
                        help="also Shuai at Skill Level S against Stockfish at UCI_Elo E (for fitting ELO_OF_SKILL)")
    parser.add_argument("--skills", type=int, nargs="+", default=[0, 5, 10, 15, 20])
    parser.add_argument("--stockfish", default=STOCKFISH)
    parser.add_argument("--reference", default=f"proto=xboard {MAXQI}",
                        help="the xiangqi ladder's fixed reference, as shuai match's --engine takes it "
                             "('none': the ladder alone)")
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--out", default="/tmp/shuai-levels")
    args = parser.parse_args()
    both = not (args.chess or args.xiangqi)
    tables = []
    if args.chess or both:
        chess_args = argparse.Namespace(**{**vars(args), "games": args.games or 40})
        tables += ["Chess, " + args.tc + ":", ""] + chess(chess_args) + [""]
    if args.xiangqi or both:
        xiangqi_args = argparse.Namespace(**{**vars(args), "games": args.games or 20})
        tables += ["Xiangqi, " + args.tc + ":", ""] + xiangqi(xiangqi_args) + [""]
    print("\n" + "\n".join(tables))


if __name__ == "__main__":
    main()
