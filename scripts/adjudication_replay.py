#!/usr/bin/env python3
"""What adjudication by score would have done to a match already played: for every game of the match
runner's PGN and engine traffic (``--log``; an SPRT writes both), the move at which a draw or resign rule would
have ended it, whether that verdict agrees with the game's result, and the share of the match's time it saves.

    .venv/bin/python scripts/adjudication_replay.py MATCH.pgn MATCH.log [--game chess] \\
        [--draw 'movenumber=40 movecount=8 score=10'] [--resign 'movecount=4 score=800 twosided=true']

The rules and the reading of scores are the runner's (``engine.match.adjudication``); a game's time runs from
its first ``go`` to its last move, as the runner's timestamps see it.
"""
import argparse
from collections import Counter, defaultdict
from pathlib import Path

from engine.game import DEFAULT, GAMES, game_named
from engine.match.adjudication import Adjudicator, DrawRule, ResignRule, score_of_info, score_of_thinking
from time_use import LINE


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


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn")
    parser.add_argument("log")
    parser.add_argument("--game", choices=[g.name for g in GAMES], default=DEFAULT.name)
    parser.add_argument("--draw", type=DrawRule.parse, default=None, help="as shuai match --draw")
    parser.add_argument("--resign", type=ResignRule.parse, default=None, help="as shuai match --resign")
    args = parser.parse_args()
    if not (args.draw or args.resign):
        parser.error("give --draw, --resign or both")
    tags, logged = games_of_pgn(args.pgn, args.game), moves_of_log(args.log)
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
        judge = Adjudicator(args.draw, args.resign)
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


if __name__ == "__main__":
    main()
