"""The chess evaluation's hand-set starting values (commit 1d0ecbd's engine/chess/evaluate.py, before the tuner)
expressed in the parameter vector of ``engine.chess.evaluate``, written as a parameter module.

    .venv/bin/python scripts/chess_hand_params.py [--out tune/chess_hand_params.py]

With this file as ``engine/chess/eval_params.py`` the evaluation scores every position as 1d0ecbd's did (to a
centipawn of rounding: the taper now rounds toward zero; and the no-pawn rule counts material in ``PIECE_VALUE``,
whose rook is 500 where that version counted 480).  Use it to measure the hand-set values' loss on the tuner's
positions (``python -m engine.tune fit --game chess --compare tune/chess_hand_params.py``) or to play with them.
The terms 1d0ecbd did not have are zero.
"""
import sys
from pathlib import Path

import click

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# 1d0ecbd's figures (this project's own round numbers), by kind: pawn, knight, bishop, rook, queen, king.
MATERIAL_MG = [0, 100, 320, 330, 480, 950, 0]
MATERIAL_EG = [0, 120, 300, 320, 540, 1000, 0]
MOBILITY_PAR = [0, 0, 4, 6, 7, 13, 0]
MOBILITY_MG = [0, 0, 4, 5, 3, 2, 0]
MOBILITY_EG = [0, 0, 4, 5, 5, 4, 0]
PASSED_MG = [0, 5, 10, 15, 25, 45, 70, 0]
PASSED_EG = [0, 10, 20, 35, 55, 85, 130, 0]
DOUBLED_MG, DOUBLED_EG = 10, 20
ISOLATED_MG, ISOLATED_EG = 12, 15
BISHOP_PAIR_MG, BISHOP_PAIR_EG = 30, 50
ROOK_OPEN_MG, ROOK_OPEN_EG = 25, 10
ROOK_HALF_OPEN_MG, ROOK_HALF_OPEN_EG = 12, 5
SHIELD_MG = 12
TEMPO = 12


def piece_square_tables():
    """[kind][square] from White's view, (mg, eg): 1d0ecbd's shapes."""
    mg = [[0] * 64 for _ in range(7)]
    eg = [[0] * 64 for _ in range(7)]
    for sq in range(64):
        f, r = sq % 8, sq // 8
        centre = max(abs(f - 3.5), abs(r - 3.5)) - 0.5
        mg[2][sq] = int(20 - 14 * centre)
        eg[2][sq] = int(15 - 10 * centre)
        mg[3][sq] = int(10 - 6 * centre)
        eg[3][sq] = int(8 - 5 * centre)
        mg[4][sq] = 20 if r == 6 else (5 if 2 < f < 5 and r == 0 else 0)
        mg[5][sq] = int(4 - 3 * centre)
        eg[5][sq] = int(10 - 6 * centre)
        if 1 <= r <= 6:
            mg[1][sq] = (0, 0, 4, 10, 18, 30, 50)[r] + (8 if 2 <= f <= 5 and 2 <= r <= 4 else 0)
            eg[1][sq] = (0, 0, 5, 12, 25, 45, 75)[r]
        mg[6][sq] = -35 * r + (25 if r == 0 and f in (1, 2, 6) else 0) - (10 if r == 0 and f in (3, 4, 5) else 0)
        eg[6][sq] = int(20 - 12 * centre)
    return mg, eg


def hand_params() -> dict:
    """The hand-set values as named blocks of ``engine.chess.evaluate.LAYOUT`` (boards indexed by square)."""
    from engine.chess import evaluate as E
    params = {name: [0] * size for name, size in E.LAYOUT}
    pst_mg, pst_eg = piece_square_tables()
    for kind in range(1, 7):
        name = E.KINDS[kind]
        params[f"{name}_mg"] = [MATERIAL_MG[kind] + pst_mg[kind][sq] for sq in range(64)]
        params[f"{name}_eg"] = [MATERIAL_EG[kind] + pst_eg[kind][sq] for sq in range(64)]
    for kind in E.MOBILE:
        name = E.KINDS[kind]
        counts = range(E.MOBILITY_COUNTS[kind])
        params[f"{name}_mobility_mg"] = [(n - MOBILITY_PAR[kind]) * MOBILITY_MG[kind] for n in counts]
        params[f"{name}_mobility_eg"] = [(n - MOBILITY_PAR[kind]) * MOBILITY_EG[kind] for n in counts]
    params["passed_mg"], params["passed_eg"] = list(PASSED_MG), list(PASSED_EG)
    params["doubled_mg"], params["doubled_eg"] = [-DOUBLED_MG], [-DOUBLED_EG]
    params["isolated_mg"], params["isolated_eg"] = [-ISOLATED_MG], [-ISOLATED_EG]
    params["bishop_pair_mg"], params["bishop_pair_eg"] = [BISHOP_PAIR_MG], [BISHOP_PAIR_EG]
    params["rook_open_mg"], params["rook_open_eg"] = [ROOK_OPEN_MG], [ROOK_OPEN_EG]
    params["rook_half_open_mg"], params["rook_half_open_eg"] = [ROOK_HALF_OPEN_MG], [ROOK_HALF_OPEN_EG]
    params["king_shield_mg"] = [SHIELD_MG * n for n in range(E.SHIELD_COUNTS)]
    params["tempo_mg"], params["tempo_eg"] = [TEMPO], [TEMPO]
    return params


PROVENANCE = {
    "source": "hand-set starting values of commit 1d0ecbd's engine/chess/evaluate.py (this project's own round "
              "figures), expressed in the parameter vector by scripts/chess_hand_params.py; terms that version "
              "did not have are zero",
}


@click.command()
@click.option("--out", type=click.Path(dir_okay=False), default="tune/chess_hand_params.py", show_default=True)
def main(out):
    """Write 1d0ecbd's hand-set chess evaluation as a parameter module."""
    from engine.tune.params import write_params
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    write_params(out, hand_params(), PROVENANCE, game="chess")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
