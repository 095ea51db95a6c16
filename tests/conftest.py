"""Shared test helpers: random positions for oracle comparisons, pyffish move conversion, and a terminal game
played from a script."""
import io
import random
import re
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


def ffish_to_iccs(move: str) -> str:
    """pyffish writes xiangqi ranks 1-10 (``h3e3``); ICCS/UCI use 0-9 (``h2e2``)."""
    f1, r1, f2, r2 = re.fullmatch(r"([a-i])(\d+)([a-i])(\d+)", move).groups()
    return f"{f1}{int(r1) - 1}{f2}{int(r2) - 1}"


def iccs_to_ffish(move: str) -> str:
    return f"{move[0]}{int(move[1]) + 1}{move[2]}{int(move[3]) + 1}"


def random_positions(count: int, seed: int, max_plies: int = 100, capture_bias: float = 0.3):
    """FENs met along random games from the start: a deterministic mix of openings, middle games, checks
    and bare endings (captures are preferred now and then so that games thin out)."""
    from engine.xiangqi.position import Position
    rng = random.Random(seed)
    fens = []
    while len(fens) < count:
        pos = Position()
        for _ in range(max_plies):
            moves = pos.legal_moves()
            if not moves:
                break
            fens.append(pos.fen())
            captures = [m for m in moves if pos.board[m & 127] != 0]
            if captures and rng.random() < capture_bias:
                pos.push(rng.choice(captures))
            else:
                pos.push(rng.choice(moves))
    return fens[:count]


def seed_tables(directory: Path, leave_out) -> None:
    """Copy this checkout's quick tables of both games into ``directory``, all but the files named in
    ``leave_out``: a set-up under test then builds only those (building every table is make setup's work)."""
    import shutil
    from engine.egtb import default_directory
    for table in default_directory().iterdir():
        if table.suffix in (".xtb", ".ctb") and table.name not in leave_out:
            shutil.copy2(table, directory / table.name)


def perft_cases():
    cases = []
    for line in (DATA / "xiangqi-perft.epd").read_text().splitlines():
        if not line.strip():
            continue
        fen, *counts = line.split(";")
        cases.append((fen.strip(), {int(c.split()[0][1:]): int(c.split()[1]) for c in counts}))
    return cases


@pytest.fixture(scope="session")
def positions_2500():
    return random_positions(2500, seed=20261123)


def run_scripted_session(session_class, thinker, lines, style, **options):
    """A terminal game (engine.play's ``Session`` or ``ChessSession``) fed ``lines`` as the user's input, with
    ``thinker(out, style)`` as its engine and ``options`` its other arguments: (the session, everything it
    wrote, prompts and input included)."""
    out = io.StringIO()
    script = iter(lines)

    def read(prompt):
        out.write(prompt)
        try:
            line = next(script)
        except StopIteration:
            raise EOFError from None
        out.write(line + "\n")
        return line

    session = session_class(out, style, thinker=thinker(out, style), read=read, **options)
    assert session.run() == 0
    return session, out.getvalue()
