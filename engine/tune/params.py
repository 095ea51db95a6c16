"""The evaluation's parameter file (``engine/xiangqi/eval_params.py``): written here, read by the evaluation.

The file is a generated Python module, not data, so that numba's cache (stamped with the hash of every module a
kernel imports) is rebuilt whenever the parameters change.  It holds ``PROVENANCE`` (how the values were made)
and ``PARAMS``, one named tuple of integers per block of ``engine.xiangqi.evaluate.LAYOUT``.  Blocks of
``HALF_BOARD`` values are written as the left half of the board as Red sees it (rank 9 first, files a-e).
"""
from __future__ import annotations

import pprint
from pathlib import Path

from ..xiangqi.constants import FILES, RANKS

HALF_FILES = (FILES + 1) // 2       # files a-e
HALF_BOARD = RANKS * HALF_FILES     # files a-e of every rank: left-right symmetric terms store only these


def format_params(params: dict, provenance: dict) -> str:
    """The text of a parameter module; half-board blocks are given in file order (rank 9 first)."""
    out = ['"""Evaluation parameters, written by engine/tune/params.py -- do not edit by hand.',
           "",
           "Each block is a term of engine/xiangqi/evaluate.py (LAYOUT says which); blocks of 50 values are the",
           "left half of the board as Red sees it (rank 9 first, files a-e), from the owner's side.",
           '"""',
           "",
           "PROVENANCE = " + pprint.pformat(provenance, width=110, sort_dicts=False),
           "",
           "PARAMS = {"]
    for name, values in params.items():
        values = [int(v) for v in values]
        if len(values) == HALF_BOARD:
            rows = [values[i * HALF_FILES:(i + 1) * HALF_FILES] for i in range(RANKS)]    # already rank 9 first
            body = "\n".join("        " + "".join(f"{v:6d}," for v in row) for row in rows)
            out.append(f'    "{name}": (\n{body}\n    ),')
        else:
            out.append(f'    "{name}": ({", ".join(str(v) for v in values)},),')
    out.append("}")
    return "\n".join(out) + "\n"


def half_board_values(block) -> list[int]:
    """A block as written in the file (rank 9 first) -> values indexed rank * HALF_FILES + file (rank 0 first),
    and back: the ranks reversed, which is its own inverse."""
    rows = [list(block[r * HALF_FILES:(r + 1) * HALF_FILES]) for r in range(RANKS)][::-1]
    return [v for row in rows for v in row]


def write_params(path, params: dict, provenance: dict) -> None:
    """Write a parameter module; ``params`` maps block names to values (half-board blocks indexed rank-first)."""
    ordered = {k: (half_board_values(v) if len(v) == HALF_BOARD else list(v)) for k, v in params.items()}
    Path(path).write_text(format_params(ordered, provenance), encoding="utf-8")
