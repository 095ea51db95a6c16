"""``python -m engine.tune data``: the training positions of the evaluation tuner (``make tune-data``)."""
import sys
import time

import click

from .selfplay import Settings, generate


@click.group()
def main():
    """Tuning the evaluation on the project's own games."""


@main.command()
@click.option("--out", default="tune/positions.txt.gz", show_default=True, help="Output file (gzip text).")
@click.option("--games", type=click.IntRange(1, 10 ** 7), default=Settings.games, show_default=True)
@click.option("--nodes", type=click.IntRange(100, 10 ** 9), default=Settings.nodes, show_default=True,
              help="Nodes searched per move.")
@click.option("--seed", type=click.IntRange(0, 2 ** 63), default=Settings.seed, show_default=True)
@click.option("--workers", type=click.IntRange(1, 256), default=2, show_default=True)
def data(out, games, nodes, seed, workers):
    """Self-play games at a fixed node count; their quiet positions, with the result and the search's score."""
    from pathlib import Path
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()

    def progress(done, positions):
        if done % 500 == 0 or done == games:
            print(f"{done}/{games} games, {positions} positions, {time.monotonic() - t0:.0f} s", flush=True)
    n = generate(out, Settings(games=games, nodes=nodes, seed=seed), workers=workers, progress=progress)
    print(f"{n} positions from {games} games (seed {seed}, {nodes} nodes a move) in {out}, "
          f"{time.monotonic() - t0:.0f} s")


if __name__ == "__main__":
    sys.exit(main())
