"""The developer's tools behind ``shuai bench ...`` and ``shuai diagnose ...``: speed and strength benchmarks
beside reference engines, and readings of matches already played (time use, adjudication, rule losses).

A front end: each tool is a module with one click command, loaded only when that command runs
(``engine.tools.lazy``), so that ``shuai`` starts as fast with them as without.
"""
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]          # the repository (a checkout: the tools are for developers)
DATA = ROOT / "tests" / "data"                      # the shared positions: perft counts, mate puzzles

# ``shuai bench COMMAND``: command -> "module:attribute" (engine.tools.lazy).
BENCHMARKS = {"perft": "perft:perft", "mates": "mates:mates", "mates-nodes": "mates_nodes:mates_nodes",
              "search": "search:search", "startup": "startup:startup", "compare": "compare:compare",
              "threads": "threads:threads", "see": "see:see_speed", "egtb": "egtb:egtb", "cluster": "cluster:cluster"}
# ``shuai diagnose COMMAND``.
DIAGNOSES = {"time-use": "time_use:time_use", "adjudication-replay": "adjudication_replay:adjudication_replay",
             "stall-watch": "stall_watch:stall_watch", "rule-verdicts": "rule_verdicts:rule_verdicts",
             "rule-losses": "rule_losses:rule_losses", "where-lost": "where_lost:where_lost",
             "missed-wins": "missed_wins:missed_wins"}
