"""The evaluation's parameter file (``engine/<game>/eval_params.py``): written here, read by the evaluation.

The file is a generated Python module, not data, so that numba's cache (stamped with the hash of every module a
kernel imports) is rebuilt whenever the parameters change.  It holds ``PROVENANCE`` (how the values were made)
and ``PARAMS``, one named tuple of integers per block of the evaluation's ``LAYOUT``.

* xiangqi (``engine.xiangqi.evaluate``): blocks of ``HALF_BOARD`` values are written as the left half of the
  board as Red sees it (rank 9 first, files a-e).
* chess (``engine.chess.evaluate``): blocks of ``CHESS_BOARD`` values (64) are written as the whole board as
  White sees it (rank 8 first, files a-h).
"""
from __future__ import annotations

import pprint
from pathlib import Path

from ..xiangqi.constants import FILES, RANKS

HALF_FILES = (FILES + 1) // 2       # files a-e
HALF_BOARD = RANKS * HALF_FILES     # files a-e of every rank: left-right symmetric terms store only these

CHESS_FILES = CHESS_RANKS = 8
CHESS_BOARD = CHESS_FILES * CHESS_RANKS     # a chess piece-square table: every square, from the owner's side

HEADERS = {
    "xiangqi": ["Each block is a term of engine/xiangqi/evaluate.py (LAYOUT says which); blocks of 50 values are the",
                "left half of the board as Red sees it (rank 9 first, files a-e), from the owner's side."],
    "chess": ["Each block is a term of engine/chess/evaluate.py (LAYOUT says which); blocks of 64 values are the",
              "board as White sees it (rank 8 first, files a-h), from the owner's side (a Black piece's square is",
              "mirrored by rank)."],
}


def _row_shape(game: str) -> tuple[int, int]:
    """(board block size, values a row) for ``game``'s board-shaped blocks."""
    return (HALF_BOARD, HALF_FILES) if game == "xiangqi" else (CHESS_BOARD, CHESS_FILES)


def format_params(params: dict, provenance: dict, game: str = "xiangqi") -> str:
    """The text of a parameter module; board-shaped blocks are given in file order (top rank first)."""
    size, width = _row_shape(game)
    out = ['"""Evaluation parameters, written by engine/tune/params.py -- do not edit by hand.',
           "",
           *HEADERS[game],
           '"""',
           "",
           "PROVENANCE = " + pprint.pformat(provenance, width=110, sort_dicts=False),
           "",
           "PARAMS = {"]
    for name, values in params.items():
        values = [int(v) for v in values]
        if len(values) == size:
            rows = [values[i * width:(i + 1) * width] for i in range(size // width)]    # already top rank first
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


def chess_board_values(block) -> list[int]:
    """A chess block as written in the file (rank 8 first) -> values indexed by square (a1 = 0, rank 1 first),
    and back: the ranks reversed, which is its own inverse."""
    rows = [list(block[r * CHESS_FILES:(r + 1) * CHESS_FILES]) for r in range(CHESS_RANKS)][::-1]
    return [v for row in rows for v in row]


def board_values(block, game: str = "xiangqi") -> list[int]:
    """``half_board_values`` (xiangqi) or ``chess_board_values`` (chess)."""
    return half_board_values(block) if game == "xiangqi" else chess_board_values(block)


def write_params(path, params: dict, provenance: dict, game: str = "xiangqi") -> None:
    """Write a parameter module; ``params`` maps block names to values (board-shaped blocks indexed bottom rank
    first, as the evaluation holds them)."""
    size, _ = _row_shape(game)
    ordered = {k: (board_values(v, game) if len(v) == size else list(v)) for k, v in params.items()}
    Path(path).write_text(format_params(ordered, provenance, game), encoding="utf-8")
