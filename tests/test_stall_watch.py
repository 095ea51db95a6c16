"""shuai diagnose stall-watch: the engine with a watchdog on its clock dumps the threads' stacks of a late search
and tells the engine's own account of it."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_a_late_search_leaves_its_stacks_and_its_account(tmp_path):
    # A slack of -0.5 s: a search of 1 s (its hard limit 0.95 s) is "late" half-way through it.
    env = dict(os.environ, STALL_SLACK="-0.5")
    engine = subprocess.Popen([sys.executable, "-m", "engine", "diagnose", "stall-watch", str(tmp_path)], cwd=ROOT,
                              env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        engine.stdin.write("uci\nisready\nposition startpos\ngo movetime 1000\n")
        engine.stdin.flush()
        assert any(line.startswith("bestmove") for line in engine.stdout)   # read up to the bestmove
        engine.stdin.write("quit\n")
        engine.stdin.flush()
        assert engine.wait(60) == 0
    finally:
        engine.kill()
    [dump] = tmp_path.glob("stall-*.txt")
    text = dump.read_text()
    assert "Thread 0x" in text and "in _iterate" in text        # faulthandler's stacks, the search thread's too
    late = [line for line in text.splitlines() if line.startswith("# late")]
    assert len(late) == 1 and "fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq" in late[0]  # uci: chess
