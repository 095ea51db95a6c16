#!/usr/bin/env python
"""The verdicts a rule changed, played out against the referee (issue 32; ``engine.egtb.verdicts``).

    .venv/bin/python scripts/rule_verdicts.py KRNvKR --new DIR_CHASE --old DIR_CHECK [--samples 200] [--seed 1]

``--new`` holds the table built under the stronger rule (``shuai tb build --rule chase``, the default), ``--old``
the same table (and those it captures into) under the weaker one (``--rule check`` or ``none``).  Prints how
many positions changed verdict and, for a sample of them, how the played lines ended: wins by reason, lines
unresolved within the ply limit, and every line the winner did not win (there should be none).

``--record FILE`` writes the sampled positions, how their lines ended and every answer the two tables gave on
the way (``verdicts.Recorded``) as JSON: ``tests/data/krnvkr-chase-lines.json`` was made so, with
``--samples 200 --seed 1``, from the tables of ``shuai tb build KRNvKR`` under each rule.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402,F401  (configures numba's cache directory)
from engine.egtb import verdicts  # noqa: E402
from engine.egtb.store import TableFile, table_path  # noqa: E402
from engine.game import XIANGQI  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("material")
    ap.add_argument("--new", required=True)
    ap.add_argument("--old", required=True)
    ap.add_argument("--samples", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-plies", type=int, default=80)
    ap.add_argument("--max-lines", type=int, default=200)
    ap.add_argument("--record", metavar="FILE")
    a = ap.parse_args()
    parts = XIANGQI.tables()
    m = parts.parse_material(a.material)
    values = []
    for d in (a.new, a.old):
        with TableFile(table_path(d, m.name, parts.SUFFIX), parts.MAGIC) as f:
            values.append(f.read_all())
            print(f"{f.label}: built under --rule {f.rule}")
    changed = verdicts.changed_indices(*values)
    print(f"{m.name}: {len(changed):,} indices drawn under the old table and decided under the new one "
          "(illegal indices included: files give them a neighbour's value)")
    new, old = verdicts.Recorded(parts.Tablebases(a.new)), verdicts.Recorded(parts.Tablebases(a.old))
    played = []
    rng = np.random.default_rng(a.seed)
    totals = {"positions": 0, "lines": 0, "unresolved": 0, "failures": 0}
    wins: dict = {}
    t0 = time.monotonic()
    for idx in verdicts.sample(rng, changed, a.samples):
        pos = parts.position_at(m, idx)
        if pos is None:
            continue
        old.probe(pos)                         # drawn (recorded: a test checks that the rule changed it)
        outcome = verdicts.play_out(XIANGQI, pos, new, old, a.max_plies, a.max_lines)
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
    print(f"{totals['positions']} legal positions of {a.samples} sampled, {totals['lines']} lines: won by "
          + ", ".join(f"{r} {n}" for r, n in sorted(wins.items())) + f"; unresolved {totals['unresolved']}, "
          f"not won {totals['failures']} ({time.monotonic() - t0:.0f} s)")
    if a.record:
        record = {"material": m.name, "max_plies": a.max_plies, "max_lines": a.max_lines, "positions": played,
                  "new": new.answers, "old": old.answers}
        Path(a.record).write_text(json.dumps(record, indent=0, sort_keys=True) + "\n")
        print(f"{a.record}: {len(played)} positions, {len(new.answers) + len(old.answers)} answers")
    return 1 if totals["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
