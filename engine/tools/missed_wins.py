"""The games a player did not win although its own search said it was winning: from the match runner's PGN (the
results) and engine traffic (``--log``; the scores each search printed last before its move).

    shuai diagnose missed-wins MATCH.pgn MATCH.log [--player shuai] [--game xiangqi] [--score 150] [--moves 10]

A game is listed when the player drew or lost it after scoring between ``--score`` centipawns and a decided
game for ``--moves`` of its moves in a row: the result and how it ended, the longest such run (its first and
last move, its peak).  A lost advantage that ends by the move-count rule points at the conversion of won
endings; one that ends by repetition or a loss, at the search's horizon or the evaluation.

Apart, the games not won in which the player claimed a decided game at least once: a score beyond any
evaluation (``--decided``: a mate, a tablebase result, a win by the repetition rules) that the opponent then
escaped.  Most are repetitions the opponent had to leave (a perpetual check or chase of its own, the search
right that it loses if it goes on), a few a misreading to look into.
"""
from collections import Counter

import click

from ..game import DEFAULT, GAMES, game_named
from ..scores import EVAL_LIMIT
from .adjudication_replay import games_of_pgn, moves_of_log

DECIDED = EVAL_LIMIT            # beyond any evaluation: a mate, a table, a rule's win


def longest_run(scores: list, least: int, below: int) -> tuple[int, int, int]:
    """(first, last, peak) of the longest run of consecutive scores in [``least``, ``below``) (indices into
    ``scores``; a missing score breaks a run), or (-1, -1, 0) if there is none."""
    best, start = (-1, -1, 0), None
    for i, s in enumerate([*scores, None]):
        if s is not None and least <= s < below:
            start = i if start is None else start
            continue
        if start is not None and i - start > best[1] - best[0] + (best[0] >= 0):
            best = (start, i - 1, max(scores[start:i]))
        start = None
    return best


def not_won(pgn: str, log: str, game: str, player: str):
    """(round, the game's tags, the player's side name, its scores move by move) for every game of the match
    that the player drew or lost; a score is None where its search printed no exact one."""
    tags, logged = games_of_pgn(pgn, game), moves_of_log(log)
    first, second = (name.capitalize() for name in game_named(game).side_names)
    for number, played in sorted(logged.items()):
        t = tags.get(number, {})
        side = next((s for s in (first, second) if player.lower() in t.get(s, "").lower()), None)
        if side is None or t.get("Result") not in ("1-0", "0-1", "1/2-1/2"):
            continue
        if t["Result"] != ("1-0" if side == first else "0-1"):
            yield number, t, side, [s for _, name, s in played[1:] if name == t[side]]


@click.command("missed-wins")
@click.argument("pgn", type=click.Path(exists=True, dir_okay=False))
@click.argument("log", type=click.Path(exists=True, dir_okay=False))
@click.option("--game", type=click.Choice([g.name for g in GAMES]), default=DEFAULT.name, show_default=True)
@click.option("--player", default="shuai", show_default=True, help="Whose games (a part of the PGN's name).")
@click.option("--score", type=click.IntRange(1), default=150, show_default=True,
              help="Centipawns that count as winning, in the player's own scores.")
@click.option("--moves", type=click.IntRange(1), default=10, show_default=True,
              help="Moves in a row at --score or more that make a game listed.")
@click.option("--decided", type=click.IntRange(1), default=DECIDED, show_default=True,
              help="A score at or above this claims a decided game (a mate, a table, a rule's win).")
def missed_wins(pgn, log, game, player, score, moves, decided):
    """The games a player drew or lost after its own search scored it winning for some moves in a row, how each
    ended; and the games not won in which it claimed a decided game."""
    endings, claimed, listed = Counter(), [], 0
    for number, tags, side, scores in not_won(pgn, log, game, player):
        ending = f"{tags['Result']} ({tags.get('Termination', '?')})"
        claims = sum(1 for s in scores if s is not None and s >= decided)
        if claims:
            claimed.append(f"{number} ({claims})")
        first, last, peak = longest_run(scores, score, decided)
        if first < 0 or last - first + 1 < moves:
            continue
        listed += 1
        endings[ending] += 1
        print(f"round {number}: {ending}, {tags.get('PlyCount', '?')} plies, {player} {side}; {score}+ from its "
              f"move {first + 1} to {last + 1}, peak {peak}")
    print(f"{listed} games not won after {moves} moves in a row at {score}+: "
          + (", ".join(f"{n} {e}" for e, n in endings.most_common()) or "none"))
    print(f"{len(claimed)} games not won after claiming a decided game (round, moves that claimed it): "
          + (", ".join(claimed) or "none"))
