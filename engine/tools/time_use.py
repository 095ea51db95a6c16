"""How each engine of a match spent its clock, read from the match runner's engine traffic (``--log``; the SPRT
writes one beside its PGN): per engine, the time from each ``go`` to its ``bestmove`` by the engine's own move
number in the game, as milliseconds and as a share of the clock it had, and how close it came to flagging.

    shuai diagnose time-use MATCH.log [MATCH.log ...] [--bucket 10]

It reads UCCI's ``go time T`` and UCI's ``go wtime W btime B`` (the side to move from the ``position`` line
before it); a ``go`` with no clock (``movetime``, ``depth``, ``nodes``) is skipped.  Times are the runner's
timestamps, so they include the pipes both ways: what the engine's clock is charged.
"""
import re
import statistics
from collections import defaultdict

import click

LINE = re.compile(r"\s*([\d.]+) (\S+) #(\d+) ([<>]) (.*)")


def side_to_move(position: str) -> str:
    """'w' or 'b' after a UCI ``position`` command (startpos or FEN, then its moves)."""
    words = position.split()
    moves = len(words) - words.index("moves") - 1 if "moves" in words else 0
    black_first = "fen" in words and words[words.index("fen") + 2] == "b"
    return "wb"[(black_first + moves) % 2]


def clock_of(go: str, position: str) -> float | None:
    """Milliseconds on the engine's own clock at this ``go``, or None if it has none."""
    words = go.split()
    key = "time" if "time" in words else side_to_move(position) + "time"
    at = words.index(key) + 1 if key in words else len(words)
    return float(words[at]) if at < len(words) else None


def moves(paths):
    """(engine, move number in the game, ms used, ms on the clock) for every timed move of the logs."""
    position, started, number = {}, {}, defaultdict(int)
    for path in paths:
        with open(path, errors="replace") as log:
            for line in log:
                m = LINE.match(line)
                if not m:
                    continue
                t, name, game, direction, text = float(m[1]), m[2], m[3], m[4], m[5]
                key = (path, name, game)
                if direction == ">" and text.startswith("position"):
                    position[key] = text
                elif direction == ">" and text.startswith("go"):
                    clock = clock_of(text, position.get(key, ""))
                    number[key] += 1
                    started[key] = (t, clock) if clock is not None else None
                elif direction == "<" and text.startswith("bestmove") and started.get(key):
                    t0, clock = started.pop(key)
                    yield name, number[key], 1000 * (t - t0), clock


@click.command("time-use")
@click.argument("logs", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--bucket", type=click.IntRange(1), default=10, show_default=True, help="Moves per row.")
def time_use(logs, bucket):
    """How each engine of a match spent its clock, from the runner's engine traffic (--log; an SPRT writes one):
    the time from each go to its bestmove by move number, as ms and as a share of the clock, and how close each
    came to flagging."""
    rows = defaultdict(lambda: defaultdict(list))
    worst = defaultdict(lambda: (0.0, 0.0, 0.0))      # engine -> (largest share of the clock used, ms, clock)
    least = defaultdict(lambda: float("inf"))          # engine -> the least clock left after a move
    for name, number, used, clock in moves(logs):
        rows[name][(number - 1) // bucket].append((used, clock))
        if clock > 0 and used / clock > worst[name][0]:
            worst[name] = (used / clock, used, clock)
        least[name] = min(least[name], clock - used)
    for name in sorted(rows):
        print(f"{name}: moves | count | ms a move (mean, median) | share of the clock left (mean %)")
        for row in sorted(rows[name]):
            cell = rows[name][row]
            used = [u for u, _ in cell]
            share = [100 * u / c for u, c in cell if c > 0]
            print(f"  {row * bucket + 1:3d}-{(row + 1) * bucket:<3d} | {len(cell):6d} | "
                  f"{statistics.mean(used):7.1f} {statistics.median(used):7.1f} | "
                  f"{statistics.mean(share) if share else 0:5.2f}")
        share, used, clock = worst[name]
        print(f"  the largest share: {100 * share:.1f}% ({used:.0f} of {clock:.0f} ms); the least clock left "
              f"after a move: {least[name]:.0f} ms")

