"""shuai diagnose missed-wins: the games a player did not win although its own scores said it was winning."""
from click.testing import CliRunner

from engine.tools.missed_wins import longest_run, missed_wins

# Round 1: p (Red) scores 200+ for four moves, then the game is drawn.  Round 2: p (Black) wins: never listed.
# Round 3: p (Black) claims a decided game once (a rule's win), a run of only two moves, and loses.
PGN = """\
[Event "t"]
[Round "1"]
[Red "p"]
[Black "q"]
[Result "1/2-1/2"]
[PlyCount "12"]
[Termination "60-move"]

1. h2e2 h9g7 *

[Event "t"]
[Round "2"]
[Red "q"]
[Black "p"]
[Result "0-1"]
[PlyCount "8"]

1. h2e2 h9g7 *

[Event "t"]
[Round "3"]
[Red "q"]
[Black "p"]
[Result "1-0"]
[PlyCount "8"]
[Termination "resignation"]

1. h2e2 h9g7 *
"""


def game(number, red, black, red_scores, black_scores):
    lines, t = [], 10.0 * number
    for r, b in zip(red_scores, black_scores):
        for name, score in ((red, r), (black, b)):
            lines.append(f"{t:10.3f} {name} #{number} > go time 2000")
            lines.append(f"{t + 0.2:10.3f} {name} #{number} < info depth 5 score {score} nodes 10 pv h2e2")
            lines.append(f"{t + 0.4:10.3f} {name} #{number} < bestmove h2e2")
            t += 0.5
    return lines


def test_longest_run_counts_the_scores_between_the_bounds_and_a_missing_score_breaks_it():
    assert longest_run([0, 200, 300, None, 200, 250, 400, 100], 150, 1000) == (4, 6, 400)
    assert longest_run([200, 5000, 200, 200], 150, 1000) == (2, 3, 200)       # a decided score is no evaluation
    assert longest_run([0, 100], 150, 1000) == (-1, -1, 0)


def test_missed_wins_lists_runs_and_claims_of_the_games_not_won(tmp_path):
    (tmp_path / "m.pgn").write_text(PGN)
    log = (game(1, "p", "q", [50, 200, 300, 250, 220, 90], [0] * 6)
           + game(2, "q", "p", [0] * 4, [400, 500, 600, 700])
           + game(3, "q", "p", [0] * 4, [160, 170, 28900, -500]))
    (tmp_path / "m.log").write_text("\n".join(log) + "\n")
    out = CliRunner().invoke(missed_wins, [str(tmp_path / "m.pgn"), str(tmp_path / "m.log"), "--player", "p",
                                           "--moves", "3"])
    assert out.exit_code == 0, out.output
    assert out.output.splitlines() == [
        "round 1: 1/2-1/2 (60-move), 12 plies, p Red; 150+ from its move 2 to 5, peak 300",
        "1 games not won after 3 moves in a row at 150+: 1 1/2-1/2 (60-move)",
        "1 games not won after claiming a decided game (round, moves that claimed it): 3 (1)",
    ]
    out = CliRunner().invoke(missed_wins, [str(tmp_path / "m.pgn"), str(tmp_path / "m.log"), "--player", "p",
                                           "--moves", "2", "--score", "155"])
    assert "round 3: 1-0 (resignation), 8 plies, p Black; 155+ from its move 1 to 2, peak 170" in out.output
