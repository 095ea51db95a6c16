"""``shuai bench COMMAND`` and ``shuai diagnose COMMAND`` (engine/tools): every tool is listed, loads and
answers --help (most need reference engines or minutes, so this is their test of form); ``shuai bench`` without
a command is still the signature."""
import pytest
from click.testing import CliRunner

from engine.cli import main
from engine.tools import BENCHMARKS, DIAGNOSES


@pytest.mark.parametrize("group, names", [("bench", BENCHMARKS), ("diagnose", DIAGNOSES)])
def test_every_tool_is_listed_and_loads(group, names):
    listing = CliRunner().invoke(main, [group, "--help"])
    assert listing.exit_code == 0, listing.output
    assert all(name in listing.output for name in names)
    for name in names:
        shown = CliRunner().invoke(main, [group, name, "--help"])
        assert shown.exit_code == 0 and f"main {group} {name}" in shown.output, (name, shown.output)


def test_bench_without_a_command_runs_the_signature(monkeypatch):
    import engine.benchmark
    calls = []
    monkeypatch.setattr(engine.benchmark, "run_bench", lambda depth, hash_mb, out, game, network=None:
                        calls.append((depth, hash_mb, game, network)))
    out = CliRunner().invoke(main, ["bench", "--game", "chess", "--depth", "3"])
    assert out.exit_code == 0, out.output
    assert calls == [(3, None, "chess", None)]
    out = CliRunner().invoke(main, ["bench", "perft", "--help"])
    assert calls == [(3, None, "chess", None)]             # a command instead: no signature
