"""What the benchmark scripts share.

The scripts are run from the repository root as ``.venv/bin/python scripts/X.py``, so this directory is
``sys.path[0]`` and ``from _common import ...`` finds this module; the project itself is imported as the
installed package (``engine``, installed editable by ``make setup``), never through ``sys.path`` edits or the
test helpers.  The shared data files are read from ``tests/data``.
"""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
PERFT_EPD = DATA / "xiangqi-perft.epd"


def perft_cases(path: Path = PERFT_EPD) -> list[tuple[str, dict[int, int]]]:
    """The positions of an EPD perft file (``FEN ;D1 44 ;D2 1920 ...``) as (fen, {depth: nodes})."""
    cases = []
    for line in Path(path).read_text().splitlines():
        if not line.strip():
            continue
        fen, *counts = line.split(";")
        cases.append((fen.strip(), {int(c.split()[0][1:]): int(c.split()[1]) for c in counts}))
    return cases
