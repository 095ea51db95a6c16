"""shuai diagnose adjudication-replay: what the runner's score adjudication would have done to a match played."""
import subprocess
import sys

REPLAY = [sys.executable, "-m", "engine", "diagnose", "adjudication-replay"]

# Game 1, a draw in the end: both engines call it level from their second move on.  Game 2, won by b (Black):
# a calls itself lost from its second move, b calls itself winning.
PGN = """\
[Event "t"]
[Round "1"]
[Red "a"]
[Black "b"]
[Result "1/2-1/2"]
[PlyCount "8"]

1. h2e2 h9g7 *

[Event "t"]
[Round "2"]
[Red "a"]
[Black "b"]
[Result "0-1"]
[PlyCount "6"]

1. h2e2 h9g7 *
"""


def game(number, scores, t0):
    lines = []
    for i, score in enumerate(scores):
        name, t = "ab"[i % 2], t0 + i
        lines.append(f"{t:10.3f} {name} #{number} > go time 2000")
        lines.append(f"{t + 0.5:10.3f} {name} #{number} < info depth 5 score {score} nodes 10 pv h2e2")
        lines.append(f"{t + 1:10.3f} {name} #{number} < bestmove h2e2")
    return lines


def test_replay_counts_verdicts_their_agreement_and_the_time_saved(tmp_path):
    (tmp_path / "m.pgn").write_text(PGN)
    log = game(1, [50, 0, 5, -3, 0, 2, 1, 0], 0.0) + game(2, [-900, 900, -950, 950, -990, 990], 100.0)
    (tmp_path / "m.log").write_text("\n".join(log) + "\n")
    out = subprocess.run([*REPLAY, str(tmp_path / "m.pgn"), str(tmp_path / "m.log"),
                          "--draw", "movenumber=2 movecount=2 score=10",
                          "--resign", "movecount=2 score=800 twosided=true"],
                         capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    # Game 1 (8 s): level from ply 2, four plies of it at ply 5 -> a draw, 3 s before its end.  Game 2 (6 s):
    # a at -800 or less twice and b at +800 twice by ply 4 -> a's loss, as played, 2 s before its end.
    assert out.stdout.splitlines() == [
        "2 games, 14 s of play",
        "  adjudicated a draw: 1 games, 0 of them against the game's result",
        "  adjudicated a loss: 1 games, 0 of them against the game's result",
        "  time saved: 5 s, 35.7% of the games' time",
    ]
    # A rule that calls game 2 drawn too is counted against its result.
    out = subprocess.run([*REPLAY, str(tmp_path / "m.pgn"), str(tmp_path / "m.log"),
                          "--draw", "movenumber=0 movecount=1 score=1000"],
                         capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert "adjudicated a draw: 2 games, 1 of them against the game's result" in out.stdout
