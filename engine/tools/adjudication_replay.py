"""What adjudication by score would have done to a match already played: for every game of the match
runner's PGN and engine traffic (``--log``; an SPRT writes both), the move at which a draw or resign rule would
have ended it, whether that verdict agrees with the game's result, and the share of the match's time it saves.

    shuai diagnose adjudication-replay MATCH.pgn MATCH.log [--game chess] \\
        [--draw 'movenumber=40 movecount=8 score=10'] [--resign 'movecount=4 score=800 twosided=true']

The rules and the reading of scores are the runner's (``engine.match.adjudication``); a game's time runs from
its first ``go`` to its last move, as the runner's timestamps see it.
"""
from collections import Counter, defaultdict
from pathlib import Path

import click

from ..game import DEFAULT, GAMES, game_named
from ..match.adjudication import Adjudicator, DrawRule, ResignRule, score_of_info, score_of_thinking
from .time_use import LINE


def games_of_pgn(path: str, game: str) -> dict[int, dict[str, str]]:
    """Each game's tags by its Round (the runner's game number), read by the game's own PGN reader."""
    games = game_named(game).pgn().read_games(Path(path).read_text(errors="replace"))
    return {int(g.tags["Round"]): g.tags for g in games if g.tags.get("Round", "").isdigit()}


def moves_of_log(path: str) -> dict[int, list[tuple[float, str, int | None]]]:
    """Each game's moves in the order played: (time, engine label, its last exact score before the move), and a
    ("go", label) entry's time as the game's first, by game number."""
    played, score, start = defaultdict(list), {}, {}
    with open(path, errors="replace") as log:
        for line in log:
            m = LINE.match(line)
            if not m:
                continue
            t, name, game, direction, text = float(m[1]), m[2], int(m[3]), m[4], m[5]
            words = text.split()
            if not words:
                continue
            if direction == ">":
                if words[0] == "go":
                    start.setdefault(game, t)
                    score[name, game] = None
                continue
            found = score_of_info(words) if words[0] == "info" else score_of_thinking(words)
            if found is not None:
                score[name, game] = found
            elif words[0] in ("bestmove", "move"):
                played[game].append((t, name, score.get((name, game))))
    return {g: [(start.get(g, moves[0][0]), "", None)] + moves for g, moves in played.items()}


def rule(parse):
    """A click callback: the option's text read by ``parse`` (None when not given)."""
    def read(ctx, param, text):
        try:
            return None if text is None else parse(text)
        except ValueError as e:
            raise click.BadParameter(str(e)) from None
    return read


@click.command("adjudication-replay")
@click.argument("pgn", type=click.Path(exists=True, dir_okay=False))
@click.argument("log", type=click.Path(exists=True, dir_okay=False))
@click.option("--game", type=click.Choice([g.name for g in GAMES]), default=DEFAULT.name, show_default=True)
@click.option("--draw", callback=rule(DrawRule.parse), metavar="'movenumber=N movecount=M score=S'",
              help="As shuai match --draw.")
@click.option("--resign", callback=rule(ResignRule.parse), metavar="'movecount=M score=S [twosided=true]'",
              help="As shuai match --resign.")
def adjudication_replay(pgn, log, game, draw, resign):
    """What adjudication by score would have done to a match already played (its PGN and engine traffic): the
    move where a draw or resign rule would have ended each game, whether the verdict agrees with the result, and
    the share of the match's time it saves."""
    if not (draw or resign):
        raise click.UsageError("give --draw, --resign or both")
    tags, logged = games_of_pgn(pgn, game), moves_of_log(log)
    total = saved = 0.0
    verdicts, wrong = Counter(), Counter()
    for number, moves in sorted(logged.items()):
        game = tags.get(number)
        if game is None or not game.get("PlyCount", "").isdigit():
            continue
        (t0, _, _), moves = moves[0], moves[1:]
        total += moves[-1][0] - t0
        book = int(game["PlyCount"]) - len(moves)
        first = moves[0][1]
        judge = Adjudicator(draw, resign)
        for i, (t, name, score) in enumerate(moves):
            verdict = judge.add(0 if name == first else 1, score, book + i + 1)
            if verdict is None:
                continue
            kind, loser, _ = verdict
            if kind == "draw":
                right = game["Result"] == "1/2-1/2"
            else:
                loser_name = first if loser == 0 else next(n for _, n, _ in moves if n != first)
                red_lost = loser_name == game.get("Red", game.get("White"))
                right = game["Result"] == ("0-1" if red_lost else "1-0")
            verdicts[kind] += 1
            wrong[kind] += not right
            saved += moves[-1][0] - t
            break
    print(f"{len(logged)} games, {total:.0f} s of play")
    for kind in ("draw", "loss"):
        if verdicts[kind]:
            print(f"  adjudicated a {kind}: {verdicts[kind]} games, {wrong[kind]} of them against the game's result")
    print(f"  time saved: {saved:.0f} s, {100 * saved / total if total else 0:.1f}% of the games' time")

