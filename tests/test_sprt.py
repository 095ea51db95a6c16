"""``shuai sprt`` without a match: its options and their defaults, the frozen copies it plans, the runner's
command line it builds, and the row it appends to docs/results/sprt.tsv."""
from pathlib import Path

from click.testing import CliRunner

from engine.cli import main
from engine.game import game_named
from engine.match import sprt

SUMMARY = """\
Finished: 137 games in 1234.5 s
Score of new-abc1234 vs base-def5678: 68 - 48 - 21  [0.573] 137
Elo difference: +51.1 +/- 54.5, LOS: 97.0 %, DrawRatio: 15.3 %
SPRT (elo0=0 elo1=10 alpha=0.05 beta=0.05): LLR 2.97 (bounds -2.94, 2.94): H1 accepted
Resume with --resume 68,21,48/1,4,25,23,15
"""

SETTINGS = dict(tc="2+0.02", elo0=0.0, elo1=5.0, games=20000, concurrency=2, game="xiangqi", new_options="",
                base_options="", resume="")


def test_the_options_keep_sprt_sh_defaults(monkeypatch, tmp_path):
    seen = {}

    def fake_play(args, transcript):
        seen["args"], seen["transcript"] = args, transcript
        return SUMMARY

    monkeypatch.setattr(sprt, "make_copy", lambda copy: seen.setdefault("copies", []).append(copy))
    monkeypatch.setattr(sprt, "play", fake_play)
    monkeypatch.setattr(sprt, "working_tree_commit", lambda: "abc1234")
    monkeypatch.setattr(sprt, "git", lambda *args: "def5678")
    results = tmp_path / "sprt.tsv"
    out = CliRunner().invoke(main, ["sprt", "HEAD~1", "--out", str(tmp_path), "--results", str(results),
                                    "--elo0", "-5", "--elo1", "0", "--new-options", "option.Threads=2"])
    assert out.exit_code == 0, out.output
    args = seen["args"]
    assert args[args.index("--tc") + 1] == "2+0.02" and args[args.index("--games") + 1] == "20000"
    assert args[args.index("--concurrency") + 1] == "2" and args[args.index("--game") + 1] == "xiangqi"
    assert args[args.index("--sprt") + 1] == "elo0=-5 elo1=0" and "--resume" not in args
    assert args[args.index("--openings") + 1] == game_named("xiangqi").openings
    assert args[args.index("--engine") + 1].endswith("-m engine' option.Threads=2")
    assert [c.commit for c in seen["copies"]] == ["abc1234", "def5678"]
    assert seen["transcript"].name == "abc1234-vs-def5678-option.Threads=2-vs-.txt"
    header, row = results.read_text().splitlines()
    assert row.split("\t")[1:10] == ["abc1234", "def5678", "xiangqi", "2+0.02", "-5", "0", "68", "21", "48"]


def test_the_frozen_copies_run_from_their_own_directory_without_the_runners_numba_settings(tmp_path):
    copy = sprt.frozen_copy("abc1234", tmp_path, "/venv/bin/python")
    assert copy.directory == tmp_path / "shuai-abc1234"
    assert copy.command == "env -u NUMBA_CACHE_DIR -u NUMBA_CACHE_LOCATOR_CLASSES /venv/bin/python -m engine"
    new, base = copy, sprt.frozen_copy("def5678", tmp_path, "/venv/bin/python")
    args = sprt.match_arguments(new, base, dict(SETTINGS, resume="1,2,3", game="chess"), tmp_path, "n")
    assert f"name=base-def5678 dir={base.directory} cmd='{base.command}'" in args
    assert args[args.index("--resume") + 1] == "1,2,3"
    assert args[args.index("--openings") + 1] == game_named("chess").openings
    assert args[-4:] == ["--pgn", str(tmp_path / "n.pgn"), "--log", str(tmp_path / "n.log")]


def test_the_row_reads_the_summary_from_the_new_engines_view():
    row = sprt.sprt_row("abc1234", "def5678", dict(SETTINGS, elo1=10.0), SUMMARY, "a\tnote\n", date="2026-12-05")
    assert [row[c] for c in sprt.COLUMNS] == ["2026-12-05", "abc1234", "def5678", "xiangqi", "2+0.02", "0", "10",
                                             68, 21, 48, "51.1", "54.5", "2.97", "H1", "a note"]
    undecided = SUMMARY.replace("H1 accepted", "no decision")
    assert sprt.sprt_row("a", "b", SETTINGS, undecided)["verdict"] == "undecided"
    assert sprt.outcome(SUMMARY.replace("2.97", "-2.95").replace("H1", "H0"))[3:] == (-2.95, "H0")


def test_the_table_gets_its_header_once(tmp_path):
    table = tmp_path / "results" / "sprt.tsv"
    row = sprt.sprt_row("abc1234", "def5678", SETTINGS, SUMMARY, date="2026-12-05")
    sprt.append_row(row, table)
    sprt.append_row(row, table)
    lines = table.read_text().splitlines()
    assert lines[0].split("\t") == list(sprt.COLUMNS) and len(lines) == 3
    assert all(len(line.split("\t")) == len(sprt.COLUMNS) for line in lines)
    assert Path(sprt.RESULTS).relative_to(sprt.ROOT) == Path("docs/results/sprt.tsv")


def test_an_interrupted_match_goes_on_from_its_transcript(tmp_path):
    """The summary's 'Resume with' line when the runner wrote one; else (killed outright) the last running score,
    in --resume's order W,D,L; nothing for a missing transcript or one with no game scored."""
    transcript = tmp_path / "t.txt"
    assert sprt.resume_point(transcript) == ""
    transcript.write_text("SPRT (xiangqi) a vs b\nGame 1/40: new vs base: 1-0 {mate}\n")
    assert sprt.resume_point(transcript) == ""
    transcript.write_text("Game 2/40: ...\n"
                          "Score of new-a vs base-b: 1 - 0 - 1  [0.750] 2  Elo +191 +/- 400  LLR 0.10 [-2.94, 2.94]\n"
                          "Game 3/40: ...\n"
                          "Score of new-a vs base-b: 1 - 1 - 1  [0.500] 3  Elo +0 +/- 400  LLR 0.00 [-2.94, 2.94]\n"
                          "Game 4/40: new-a vs base-b: 1-0 {mate}\n")
    assert sprt.resume_point(transcript) == "1,1,1"
    transcript.write_text(SUMMARY)
    assert sprt.resume_point(transcript) == "68,21,48/1,4,25,23,15"
