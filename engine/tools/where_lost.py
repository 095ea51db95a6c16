"""Where a player's lost games were lost, in either game: a stronger engine, the referee, scores every position of
each lost game at a fixed depth (UCI or UCCI ``go depth``), with the moves before it so that its repetition rules
see them.

    shuai diagnose where-lost GAMES.pgn --referee CMD [--game xiangqi] [--player shuai] [--depth 12] [--worst 3]
                                        [--recheck MS]

For each of the player's moves, the drop is its expected score before the move less its expected score after it
(the logistic of the referee's centipawns, 400 cp: 1 to 0.83, the same curve everywhere).  Per game: the moves
that dropped most among those the referee would not have played (the drop of a move it would have played too
is its own horizon), each with its ply, the game's phase (the evaluation's own phase weights: 16 at the start of
xiangqi, 24 of chess) and the material of both sides in pawns; and the ply from which the referee held the game
lost (an expected score below 0.2 to the end).

With ``--recheck MS`` this checkout's engine searches the position before each game's worst move again for MS
milliseconds (several times a move's time in a game).  If it then plays a move the referee scores better by at
least half the drop, more search finds the way: a **search** loss.  If it keeps the move, or another as bad, its
evaluation likes what the referee condemns: an **evaluation** loss.

It measures; nothing it prints feeds the evaluation or the search (the project's parameters come from its own
games).  A game ended by a rule (perpetual check or chase) is listed by its termination; ``shuai diagnose
rule-losses`` tells whether the search saw the rule coming.
"""
from __future__ import annotations

import math
import statistics
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import click

from ..game import DEFAULT, GAMES, game_named
from ..match.adjudication import MATE_CP
from ..match.engines import RESIGN, EngineError, EngineSpec, start_engine
from . import ROOT

LOST = 0.2                      # an expected score below this, to the end: the game is lost from there
OPENING_PLIES = 20


def expected(score: int) -> float:
    """A score (centipawns, mates as MATE_CP) from one side's view -> that side's expected score, 0..1."""
    return 1 / (1 + math.exp(-max(-4000, min(4000, score)) / 250))


@dataclass
class Move:
    ply: int                    # 1 for the game's first move
    played: str
    best: str                   # the referee's move before it
    before: int                 # the referee's scores, the player's view
    after: int
    phase: float                # 0..1: the share of the phase weights still on the board
    own: int                    # material in pawns (kings left out)
    other: int

    @property
    def drop(self) -> float:
        return expected(self.before) - expected(self.after)

    @property
    def stage(self) -> str:
        return "opening" if self.ply <= OPENING_PLIES else "middle game" if self.phase >= 0.5 else "ending"

    def __str__(self) -> str:
        return (f"ply {self.ply:3d} ({self.stage}, phase {self.phase:.2f}, material {self.own}-{self.other})  "
                f"drop {self.drop:.2f} ({self.before} -> {self.after})  played {self.played}, the referee's "
                f"{self.best}")


class Judge:
    """The referee's view of the positions of games of ``game``."""

    def __init__(self, game, referee: str, depth: int):
        self.game, self.depth = game, depth
        self.referee = start_engine(EngineSpec.parse(referee), game=game.name)
        ev = game.evaluation()
        self.phase_weight, self.total_phase, self.value = ev.PHASE_WEIGHT, ev.TOTAL_PHASE, ev.PIECE_VALUE

    def judge(self, fen: str, moves: list[str], pos) -> tuple[int, str]:
        """The referee's score of ``pos`` (``fen`` after ``moves``), its side to move's view, and its move; a side
        with no move has lost (xiangqi) or is mated; stalemate in chess is level."""
        if not pos.legal_moves():
            return (-MATE_CP if pos.in_check() or not self.game.stalemate_draws else 0), "-"
        score, move = self.referee.analyse(fen, moves, self.depth)
        return (0 if score is None else score), ("-" if move == RESIGN else move)

    def material(self, pos, side: int) -> tuple[float, int]:
        """(the phase, 0..1; ``side``'s material in pawns)."""
        mask = self.game.black_bit - 1
        codes = [int(p) for p in pos.board[:self.game.squares] if p]
        phase = min(sum(int(self.phase_weight[p & mask]) for p in codes), self.total_phase) / self.total_phase
        own = sum(int(self.value[p & mask]) for p in codes if (p >= self.game.black_bit) == (side == 1))
        return phase, round(own / 100)

    def moves_of(self, record, colour: int) -> tuple[list[Move], int | None]:
        """The player's moves (``colour`` 0 moves first) scored, and the ply from which the game was lost."""
        pos = self.game.position(record.fen)
        scores, bests, shapes = [], [], []      # after 0, 1, ... plies: the player's view, the referee's move
        for i in range(len(record.moves) + 1):
            s, best = self.judge(record.fen, record.moves[:i], pos)
            scores.append(s if pos.side == colour else -s)
            bests.append(best)
            shapes.append((pos.side, self.material(pos, colour), self.material(pos, 1 - colour)))
            if i < len(record.moves):
                pos.push(pos.parse_move(record.moves[i]))
        rows = [Move(i + 1, move, bests[i], scores[i], scores[i + 1], shapes[i][1][0], shapes[i][1][1],
                     shapes[i][2][1]) for i, move in enumerate(record.moves) if shapes[i][0] == colour]
        lost_from = None                        # the ply after which the game stayed lost
        for i in range(len(scores) - 1, -1, -1):
            if expected(scores[i]) >= LOST:
                break
            lost_from = i
        return rows, lost_from

    def close(self) -> None:
        self.referee.quit()


def recheck(ours, record, move: Move, judge: Judge, movetime: int) -> str:
    """"search" if our engine, searching the position again for ``movetime`` ms, plays a move the referee scores
    at least half the drop better; else "evaluation"."""
    before = record.moves[:move.ply - 1]
    _, choice = ours.analyse(record.fen, before, movetime=movetime)
    if choice in (RESIGN, move.played):
        return "evaluation"
    pos = judge.game.position(record.fen)
    for m in [*before, choice]:
        pos.push(pos.parse_move(m))
    after = -judge.judge(record.fen, [*before, choice], pos)[0]
    return "search" if expected(after) - expected(move.after) >= move.drop / 2 else "evaluation"


def lost_games(game, text: str, player: str):
    """(record, the player's colour) for each game of the PGN text that the player lost."""
    first, second = (name.capitalize() for name in game.side_names)
    for record in game.pgn().read_games(text):
        for colour, tag, lost in ((0, first, "0-1"), (1, second, "1-0")):
            if player.lower() in record.tags.get(tag, "").lower() and record.result == lost:
                yield record, colour


@click.command("where-lost")
@click.argument("pgn", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--referee", required=True, help="The referee's command (UCI or UCCI), as shuai match --engine "
              "takes it: e.g. /tmp/pikafish-hce (xiangqi) or /usr/games/stockfish (chess).")
@click.option("--game", type=click.Choice([g.name for g in GAMES]), default=DEFAULT.name, show_default=True)
@click.option("--player", default="shuai", show_default=True, help="Whose losses (a part of the PGN's name).")
@click.option("--depth", type=click.IntRange(1), default=12, show_default=True, help="The referee's depth.")
@click.option("--worst", "listed", type=click.IntRange(1), default=3, show_default=True, help="Moves listed per game.")
@click.option("--recheck", type=click.IntRange(0), default=0, show_default=True,
              help="ms for this checkout's engine to search each worst move's position again (0: no recheck).")
def where_lost(pgn, referee, game, player, depth, listed, recheck):
    """Where a player's lost games were lost: the moves that lowered its expected score most in a stronger
    engine's eyes, their phase and material, the ply from which the game was lost, and whether more search
    would have saved it."""
    try:
        report(pgn, referee, game, player, depth, listed, recheck)
    except (EngineError, ValueError) as e:
        raise click.ClickException(str(e)) from None


def report(pgn: Path, referee: str, game: str, player: str, depth: int, listed: int, recheck_ms: int) -> None:
    g = game_named(game)
    judge = Judge(g, referee, depth)
    ours = None
    if recheck_ms:
        from .uci import default_ours
        ours = start_engine(EngineSpec(cmd=default_ours(), proto="uci", dir=str(ROOT), options={"Hash": "64"}),
                            game=g.name)
    worst, stages, verdicts, endings, lost_at = [], Counter(), Counter(), Counter(), []
    try:
        for record, colour in lost_games(g, pgn.read_text(errors="replace"), player):
            rows, lost_from = judge.moves_of(record, colour)
            endings[record.tags.get("Termination", "?")] += 1
            head = (f"round {record.tags.get('Round', '?')}: {record.tags.get('Termination', '?')}, "
                    f"{len(record.moves)} plies, {player} {g.side_names[colour]}")
            print(head + (f", lost from ply {lost_from}" if lost_from else ""))
            if lost_from:
                lost_at.append(lost_from)
            # a move the referee would have played too is not the player's error: its drop is the referee's
            # horizon (a deeper look from the other side), so only the other moves are ranked
            rows = sorted((m for m in rows if m.played != m.best), key=lambda m: -m.drop)
            for m in rows[:listed]:
                print(f"  {m}")
            if rows:
                worst.append(rows[0])
                stages[rows[0].stage] += 1
                if ours:
                    verdict = recheck(ours, record, rows[0], judge, recheck_ms)
                    verdicts[verdict] += 1
                    print(f"  the worst move rechecked for {recheck_ms} ms: {verdict} (its loss)")
    finally:
        judge.close()
        if ours:
            ours.quit()
    if not worst:
        print(f"no lost games of {player!r} in {pgn}")
        return
    print(f"{len(worst)} lost games ({', '.join(f'{n} {k}' for k, n in endings.most_common())}); the worst move of "
          f"each: {', '.join(f'{n} in the {k}' for k, n in stages.most_common())}; median ply "
          f"{statistics.median(m.ply for m in worst)}, median drop {statistics.median(m.drop for m in worst):.2f}"
          + (f"; lost from a median ply {statistics.median(lost_at)}" if lost_at else "")
          + (f"; {', '.join(f'{n} {k}' for k, n in verdicts.most_common())} losses" if verdicts else ""))
