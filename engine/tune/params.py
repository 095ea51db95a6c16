"""The evaluation's parameter file (``engine/<game>/eval_params.py``): written here, read by the evaluation.

The file is a generated Python module, not data, so that numba's cache (stamped with the hash of every module a
kernel imports) is rebuilt whenever the parameters change.  It holds ``PROVENANCE`` (how the values were made)
and ``PARAMS``, one named tuple of integers per block of the evaluation's ``LAYOUT``.  What differs by game is
the evaluation's (``Game.evaluation()``): the header (``PARAMS_HEADER``) and how a board block is written
(``TABLE_SIZE`` values in rows of ``TABLE_ROW``, top rank first; ``table_values`` turns the evaluation's order
into the file's).
"""
from __future__ import annotations

import pprint
from pathlib import Path

from ..game import DEFAULT, game_named


def format_params(params: dict, provenance: dict, game: str = DEFAULT.name) -> str:
    """The text of a parameter module; board-shaped blocks are given in file order (top rank first)."""
    ev = game_named(game).evaluation()
    size, width = ev.TABLE_SIZE, ev.TABLE_ROW
    out = ['"""Evaluation parameters, written by engine/tune/params.py -- do not edit by hand.',
           "",
           *ev.PARAMS_HEADER,
           '"""',
           "",
           "PROVENANCE = " + pprint.pformat(provenance, width=110, sort_dicts=False),
           "",
           "PARAMS = {"]
    for name, values in params.items():
        values = [int(v) for v in values]
        if len(values) == size:
            # Two ranks a line, already top rank first (a line of one rank repeats too often: kings' zeros).
            rows = [values[i:i + 2 * width] for i in range(0, size, 2 * width)]
            body = "\n".join("        " + "".join(f"{v:6d}," for v in row) for row in rows)
            out.append(f'    "{name}": (\n{body}\n    ),')
        else:
            out.append(f'    "{name}": ({", ".join(str(v) for v in values)},),')
    out.append("}")
    return "\n".join(out) + "\n"


def write_params(path, params: dict, provenance: dict, game: str = DEFAULT.name) -> None:
    """Write a parameter module; ``params`` maps block names to values (board-shaped blocks indexed bottom rank
    first, as the evaluation holds them)."""
    ev = game_named(game).evaluation()
    ordered = {k: (ev.table_values(v) if len(v) == ev.TABLE_SIZE else list(v)) for k, v in params.items()}
    Path(path).write_text(format_params(ordered, provenance, game), encoding="utf-8")
