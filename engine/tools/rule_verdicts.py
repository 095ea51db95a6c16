"""The verdicts a rule changed, played out against the referee (issue 32; ``engine.egtb.build.verdicts``).

    shuai diagnose rule-verdicts KRNvKR --new DIR_CHASE --old DIR_CHECK [--samples 200] [--seed 1]

``--new`` holds the table built under the stronger rule (``shuai tb build --rule chase``, the default), ``--old``
the same table (and those it captures into) under the weaker one (``--rule check`` or ``none``).  Prints how
many positions changed verdict and, for a sample of them, how the played lines ended: wins by reason, lines
unresolved within the ply limit, and every line the winner did not win (there should be none).

``--record FILE`` writes the sampled positions, how their lines ended and every answer the two tables gave on
the way (``verdicts.Recorded``) as JSON: ``tests/data/krnvkr-chase-lines.json`` was made so, with
``--samples 200 --seed 1``, from the tables of ``shuai tb build KRNvKR`` under each rule.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import click
import numpy as np

from ..egtb.build import verdicts
from ..egtb.store import TableFile, table_path
from ..game import XIANGQI


@click.command("rule-verdicts")
@click.argument("material")
@click.option("--new", required=True, type=click.Path(exists=True, file_okay=False),
              help="The tables built under the stronger rule.")
@click.option("--old", required=True, type=click.Path(exists=True, file_okay=False),
              help="The same tables under the weaker one.")
@click.option("--samples", type=click.IntRange(1), default=200, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--max-plies", type=click.IntRange(1), default=80, show_default=True)
@click.option("--max-lines", type=click.IntRange(1), default=200, show_default=True)
@click.option("--record", metavar="FILE", help="Write the positions, their lines' ends and the tables' answers.")
def rule_verdicts(material, new, old, samples, seed, max_plies, max_lines, record):
    """The verdicts a rule changed in the xiangqi table MATERIAL, played out against the referee (issue 32):
    wins by reason, lines unresolved, and every line the winner did not win (there should be none)."""
    sys.exit(play_out_changes(material, new, old, samples, seed, max_plies, max_lines, record))


def play_out_changes(material, new_dir, old_dir, samples, seed, max_plies, max_lines, record) -> int:
    parts = XIANGQI.tables()
    m = parts.parse_material(material)
    values = []
    for d in (new_dir, old_dir):
        with TableFile(table_path(d, m.name, parts.SUFFIX), parts.MAGIC) as f:
            values.append(f.read_all())
            print(f"{f.label}: built under --rule {f.rule}")
    changed = verdicts.changed_indices(*values)
    print(f"{m.name}: {len(changed):,} indices drawn under the old table and decided under the new one "
          "(illegal indices included: files give them a neighbour's value)")
    new, old = verdicts.Recorded(parts.Tablebases(new_dir)), verdicts.Recorded(parts.Tablebases(old_dir))
    played = []
    rng = np.random.default_rng(seed)
    totals = {"positions": 0, "lines": 0, "unresolved": 0, "failures": 0}
    wins: dict = {}
    t0 = time.monotonic()
    for idx in verdicts.sample(rng, changed, samples):
        pos = parts.position_at(m, idx)
        if pos is None:
            continue
        old.probe(pos)                         # drawn (recorded: a test checks that the rule changed it)
        outcome = verdicts.play_out(XIANGQI, pos, new, old, max_plies, max_lines)
        played.append({"fen": pos.fen(), "wins": outcome.wins, "unresolved": outcome.unresolved,
                       "failures": outcome.failures})
        totals["positions"] += 1
        totals["lines"] += outcome.lines()
        totals["unresolved"] += outcome.unresolved
        totals["failures"] += len(outcome.failures)
        for reason, n in outcome.wins.items():
            wins[reason] = wins.get(reason, 0) + n
        for f in outcome.failures[:3]:
            print(f"FAILED {pos.fen()}: {f}")
    print(f"{totals['positions']} legal positions of {samples} sampled, {totals['lines']} lines: won by "
          + ", ".join(f"{r} {n}" for r, n in sorted(wins.items())) + f"; unresolved {totals['unresolved']}, "
          f"not won {totals['failures']} ({time.monotonic() - t0:.0f} s)")
    if record:
        record = {"material": m.name, "max_plies": max_plies, "max_lines": max_lines, "positions": played,
                  "new": new.answers, "old": old.answers}
        Path(record).write_text(json.dumps(record, indent=0, sort_keys=True) + "\n")
        print(f"{record}: {len(played)} positions, {len(new.answers) + len(old.answers)} answers")
    return 1 if totals["failures"] else 0

