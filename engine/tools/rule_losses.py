"""Were a side's losses by its own perpetual check already lost?  The engine's own scores say.

    shuai diagnose rule-losses GAMES.pgn [--loser Shuai] [--movetime 3000] [--back 0 6 12 20]

For every game of a ``shuai match`` PGN that ended by perpetual check (the checker loses) and, with ``--loser``,
was lost by that engine: finds the loser's last run of checking moves, and searches the positions ``--back``
plies before its first check (the game's moves up to there, so the repetition rules see the history) for
``--movetime`` ms with this checkout's engine.  Prints each score from the side to move's view, with the move it
chose.  A score far below zero before the checks began means the checks were a lost game's last resort; a level
one means the search walked into the rule.
"""
from __future__ import annotations

from pathlib import Path

import click

from ..match.xiangqi_pgn import read_games
from ..xiangqi.position import Position
from .uci import UciEngine, default_ours, shift_ranks


def first_check_of_last_run(game) -> tuple[int, str]:
    """The ply of the loser's first move in its final run of checks, and the loser's name."""
    pos = Position(game.fen)
    checks = []
    for move in game.moves:
        pos.push(pos.parse_move(move))
        checks.append(pos.in_check())
    loser_is_red = game.result == "0-1"
    red_moves_first = game.fen.split()[1] in "wr"
    first = 0 if red_moves_first == loser_is_red else 1
    ply = len(game.moves) - 1
    if ply % 2 != first:
        ply -= 1
    while ply - 2 >= 0 and checks[ply - 2]:
        ply -= 2
    return ply, game.tags["Red" if loser_is_red else "Black"]


@click.command("rule-losses")
@click.argument("pgn", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--loser", help="Only games this engine (a PGN player name) lost.")
@click.option("--movetime", type=click.IntRange(1), default=3000, show_default=True, help="ms a position.")
@click.option("--back", type=click.IntRange(0), multiple=True, default=(0, 6, 12, 20), show_default=True,
              help="Plies before the first check (repeat the option for each).")
def rule_losses(pgn, loser, movetime, back):
    """Were a side's losses by its own perpetual check already lost?  The engine's own scores say, searched
    BACK plies before the loser's last run of checks began."""
    found = 0
    ours = UciEngine("shuai", default_ours(), 0, {"Hash": 64})
    for game in read_games(pgn.read_text()):
        if game.tags.get("Termination") != "perpetual-check":
            continue
        start, lost_by = first_check_of_last_run(game)
        if loser and lost_by != loser:
            continue
        found += 1
        plies = [max(0, start - back) for back in back]
        scores = []
        for p in plies:
            move, scored, _, _ = ours.search(game.fen, [shift_ranks(m, 1) for m in game.moves[:p]], movetime)
            iccs = move and shift_ranks(move, -1)
            scores.append(f"ply {p}: {scored.get('kind', '')} {scored.get('value', '?')} ({iccs})")
        print(f"round {game.tags.get('Round', '?')}: {lost_by} lost, {len(game.moves)} plies, checks from ply {start}; "
              + "; ".join(scores))
    ours.close()
    print(f"{found} games lost by perpetual check")
