"""Where Shuai's lost chess games were lost: a stronger engine (Stockfish at a fixed depth, over UCI) scores the
position before and after each of Shuai's moves, and the moves that lowered Shuai's expected score the most are
listed per game, with their ply and the material left on the board (pawn 1, minor 3, rook 5, queen 9; 78 at the
start), then summed up over the games.

    shuai diagnose where-lost GAMES.pgn [--depth 12] [--engine /usr/games/stockfish] [--worst 3]

The expected score is the logistic of the centipawns (400 cp: 1 to 0.83), the same curve for every position, so a
drop says how much a move gave away in the referee's eyes, not how the game went on.  It measures; nothing it
prints feeds the evaluation (the project's parameters come from its own games).
"""
import math
import statistics

import chess
import chess.engine
import chess.pgn
import click

PLAYER = "Shuai"
MATERIAL = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}


def expected(score: chess.engine.Score) -> float:
    """A score from one side's view -> that side's expected score, 0..1."""
    if score.is_mate():
        return 1.0 if score.mate() > 0 else 0.0
    return 1 / (1 + math.exp(-score.score() / 250))


def material(board: chess.Board) -> int:
    return sum(len(board.pieces(kind, colour)) * value for kind, value in MATERIAL.items() for colour in chess.COLORS)


def lost_games(path: str):
    """(game, Shuai's colour) for each game of the file that Shuai lost."""
    with open(path) as pgn:
        while (game := chess.pgn.read_game(pgn)) is not None:
            colour = chess.WHITE if game.headers.get("White") == PLAYER else chess.BLACK
            if game.headers.get("Result") == ("0-1" if colour == chess.WHITE else "1-0"):
                yield game, colour


def drops(engine, game, colour, depth: int) -> list[tuple]:
    """(drop, ply, material, score before, score after, move, the referee's move) for each of Shuai's moves."""
    board = game.board()
    rows = []
    limit = chess.engine.Limit(depth=depth)
    for move in game.mainline_moves():
        if board.turn != colour:
            board.push(move)
            continue
        before = engine.analyse(board, limit)
        board.push(move)
        after = engine.analyse(board, limit)
        sb, sa = before["score"].pov(colour), after["score"].pov(colour)
        rows.append((expected(sb) - expected(sa), board.ply(), material(board), sb, sa, move.uci(),
                     before["pv"][0].uci()))
    return sorted(rows, key=lambda row: -row[0])


@click.command("where-lost")
@click.argument("pgn", type=click.Path(exists=True, dir_okay=False))
@click.option("--depth", type=click.IntRange(1), default=12, show_default=True, help="The referee's depth.")
@click.option("--engine", "referee", default="/usr/games/stockfish", show_default=True, help="The referee (UCI).")
@click.option("--worst", "listed", type=click.IntRange(1), default=3, show_default=True, help="Moves listed per game.")
def where_lost(pgn, depth, referee, listed):
    """Where Shuai's lost chess games were lost: the moves that lowered its expected score the most, by a
    stronger engine's scores before and after each of its moves."""
    worst = []
    with chess.engine.SimpleEngine.popen_uci(referee) as engine:
        for game, colour in lost_games(pgn):
            rows = drops(engine, game, colour, depth)
            print(f"round {game.headers.get('Round')}: {game.headers.get('Termination')}, "
                  f"{game.end().ply()} plies, Shuai {chess.COLOR_NAMES[colour]}")
            for drop, ply, mat, sb, sa, move, best in rows[:listed]:
                print(f"  ply {ply:3d}  material {mat:2d}  drop {drop:.2f} ({sb} -> {sa})  played {move}, "
                      f"the referee's {best}")
            if rows:
                worst.append(rows[0])
    if worst:
        print(f"{len(worst)} lost games; the worst move of each: median ply {statistics.median(r[1] for r in worst)}, "
              f"median material {statistics.median(r[2] for r in worst)}, median drop "
              f"{statistics.median(r[0] for r in worst):.2f}, largest {max(r[0] for r in worst):.2f}")

