"""``--cluster``: table builds and matches as Ray tasks, on a local Ray instance with 2 CPUs.  The files and
records must be exactly a local run's."""
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from engine.egtb.build import Builder
from engine.game import CHESS, XIANGQI
from engine.egtb.cli import tb
from engine.match.cli import match
from engine.match.openings import load_openings
from engine.match.xiangqi_pgn import parse_pgn
from engine.match.runner import pairs_of, schedule

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).parent / "data"
XIANGQI_OPENINGS = Path(XIANGQI.openings)          # the game's own openings, shipped with the package
FAKE = f"{sys.executable} {ROOT / 'tests' / 'fakes' / 'fake_engine.py'}"

@pytest.fixture(scope="module")
def ray_cluster(tmp_path_factory):
    """A local Ray instance with 2 CPUs for this module's tests.  One at a time among the test workers (a lock
    in their shared temporary directory): a second worker's ``--cluster auto`` would join the first one's
    instance and lose it when the first shuts it down."""
    ray = pytest.importorskip("ray", reason="the cluster extra is not installed (pip install '.[cluster]')")
    from filelock import FileLock                   # a dependency of Ray's
    from engine.cluster import connect
    with FileLock(str(tmp_path_factory.getbasetemp().parent / "shuai-ray.lock")):
        connect("auto", num_cpus=2)
        yield ray
        ray.shutdown()


def _files(directory: Path) -> dict:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir())}


def test_tables_built_on_ray_are_byte_identical_to_a_local_build(ray_cluster, tmp_path):
    """xiangqi and chess tables with their dependency graph (KCPvKA needs KCPvK, KCvKA, KPvKA ... and the
    defenders' KAvK): the same files, byte for byte; present tables are kept, --force rebuilds."""
    local, remote = tmp_path / "local", tmp_path / "ray"
    Builder(XIANGQI, local).build(["KCPvKA", "KRvKB"])
    Builder(CHESS, local).build(["KRvK", "KPvK"])
    r = CliRunner().invoke(tb, ["build", "--cluster", "auto", "--dir", str(remote), "KCPvKA", "KRvKB"])
    assert r.exit_code == 0, r.output
    assert "11 tables built, 0 present already" in r.output
    r = CliRunner().invoke(tb, ["build", "--game", "chess", "--cluster", "auto", "--dir", str(remote),
                                "KPvK", "KNvK"])
    assert r.exit_code == 0, r.output
    assert "3 tables built" in r.output and "KNvK: no table needed" in r.output     # KPvK promotes into KQvK, KRvK
    assert len(_files(local)) == 15 and _files(remote) == _files(local)        # 14 tables and their manifest
    (remote / "KRvKB.xtb").write_bytes(b"broken")                  # a broken file is rebuilt, a good one kept
    r = CliRunner().invoke(tb, ["build", "--cluster", "auto", "--dir", str(remote), "--force", "KCPvKA"])
    assert r.exit_code == 0, r.output
    assert "1 tables built" in r.output and "KCPvKA:" in r.output   # forced; its parts present already
    r = CliRunner().invoke(tb, ["build", "--cluster", "auto", "--dir", str(remote), "KRvKB"])
    assert "rebuilding KRvKB.xtb" in r.output and "1 tables built" in r.output
    assert _files(remote) == _files(local)


def test_a_table_built_in_slices_by_several_workers_is_byte_identical(ray_cluster, tmp_path):
    """Tables above 100,000 entries cut into 3 slices (capped at the 2 CPUs: all slices run at once), levels
    as waves of actor tasks; KRvKN also needs the perpetual-check pass (1,597 positions: attractor rounds and
    rule propagation), run in the slices too, and the slices encode their own chunks."""
    local, remote = tmp_path / "local", tmp_path / "ray"
    records = Builder(XIANGQI, local).build(["KRvKN", "KCPvKA"])
    assert {r.name: r.rule_changed for r in records}["KRvKN"] == 1597
    r = CliRunner().invoke(tb, ["build", "--cluster", "auto", "--dir", str(remote), "--slice-above", "100000",
                                "--slices", "3", "KRvKN", "KCPvKA"])
    assert r.exit_code == 0, r.output
    assert "KRvKN: 729000 entries" in r.output and "1597 changed by the rule" in r.output
    assert _files(remote) == _files(local)
    # the actors mapped the smaller tables from one raw file per machine, in the user's private scratch
    # directory, deleted at the end
    from engine.egtb.build.sliced import scratch_directory
    assert not list(scratch_directory()[0].glob("subs-KRvKN-*"))
    bad = CliRunner().invoke(tb, ["build", "--dir", str(remote), "--slices", "2", "KRvK"])
    assert bad.exit_code == 2 and "--slice-above and --slices need --cluster" in bad.output


def _listening_sockets(pids: set) -> list[tuple[str, int]]:
    """(address in /proc/net/tcp form, port) of the TCP sockets listening in the processes ``pids``."""
    import os
    inodes = set()
    for pid in pids:
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
                if target.startswith("socket:["):
                    inodes.add(target[8:-1])
        except OSError:
            continue
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:              # 0A: LISTEN
                address, port = fields[1].rsplit(":", 1)
                found.append((address, int(port, 16)))
    return found


def _descendants(root: int) -> set:
    import os
    children = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            ppid = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(pid))
    found, stack = set(), [root]
    while stack:
        for child in children.get(stack.pop(), []):
            found.add(child)
            stack.append(child)
    return found


def test_the_private_instance_listens_on_the_loopback_interface_only(ray_cluster):
    """``--cluster auto`` started Ray here (the fixture): every port its processes (GCS, raylet, object manager,
    workers: all descendants of this process) listen on is bound to 127.0.0.1 -- Ray runs whatever code reaches
    them.  (Without engine.cluster's settings, Ray 2.60 binds them all to the wildcard address.)"""
    import os
    ray = ray_cluster
    assert ray.get(ray.remote(lambda: 42).remote()) == 42             # workers up and listening
    assert ray.util.get_node_ip_address() == "127.0.0.1"
    sockets = _listening_sockets(_descendants(os.getpid()))
    loopback = ("0100007F", "0000000000000000FFFF00000100007F", "00000000000000000000000001000000")  # v4, v4-mapped, ::1
    assert len(sockets) >= 3 and all(address in loopback for address, _ in sockets), sockets


def _kill_first_task(name: str, stop, killed: list) -> None:
    """SIGKILL the first worker process found running the Ray task ``name`` (its title is ``ray::NAME``)."""
    import os
    import signal
    while not stop.is_set() and not killed:
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                title = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0]
            except OSError:
                continue
            if title.startswith(f"ray::{name}".encode()):
                os.kill(int(pid), signal.SIGKILL)
                killed.append(int(pid))
                return
        stop.wait(0.02)


def test_a_worker_killed_mid_build_costs_only_its_task(ray_cluster, tmp_path):
    """The worker building a table is killed (SIGKILL) while it works: Ray runs the task again, and the
    directory ends with the same files as a local build -- no half-written one."""
    import threading
    local, remote = tmp_path / "local", tmp_path / "ray"
    Builder(XIANGQI, local).build(["KRNvKA"])
    stop, killed = threading.Event(), []
    killer = threading.Thread(target=_kill_first_task, args=("build_table_task", stop, killed))
    killer.start()
    try:
        r = CliRunner().invoke(tb, ["build", "--cluster", "auto", "--dir", str(remote), "KRNvKA"])
    finally:
        stop.set()
        killer.join()
    assert killed, "no build task was seen running"
    assert r.exit_code == 0, r.output
    assert _files(remote) == _files(local) and not list(remote.glob("*.tmp*"))


def _match(tmp_path, name, *more):
    pgn = tmp_path / f"{name}.pgn"
    r = CliRunner().invoke(match, [
        "--engine", f"proto=ucci {FAKE} --proto ucci", "--engine", f"proto=uci {FAKE} --proto uci --fault illegal "
        "--at 7", "--games", "4", "--tc", "0.05", "--max-plies", "10", "--openings", str(XIANGQI_OPENINGS),
        "--pgn", str(pgn), "--concurrency", "2", *more])
    assert r.exit_code == 0, r.output
    games = sorted(parse_pgn(pgn.read_text()), key=lambda g: int(g.tags["Round"]))
    return r.output, games


def test_a_match_on_ray_gives_the_pgn_and_result_of_a_local_one(ray_cluster, tmp_path):
    """Four games of two scripted engines (deterministic): the same games, tags and final table, whichever
    order the cluster's games finish in."""
    out_local, local = _match(tmp_path, "local")
    out_ray, remote = _match(tmp_path, "ray", "--cluster", "auto")
    assert "on Ray (2 CPUs)" in out_ray
    assert len(local) == len(remote) == 4
    for a, b in zip(local, remote):
        assert a.tags == b.tags and a.moves == b.moves and a.result == b.result
    assert [g.result for g in local] == ["1-0", "0-1", "1-0", "0-1"]          # the illegal mover loses all
    tail = out_local[out_local.index("Finished:"):].splitlines()[1:]
    tail_ray = out_ray[out_ray.index("Finished:"):].splitlines()[1:]
    assert [l for l in tail if not l.startswith("Memory")] == [l for l in tail_ray if not l.startswith("Memory")]
    # each task's engines report their memory, as local ones do (a task plays an opening pair: 2 games)
    assert re.search(r"Memory of Fake-ucci-\w+ \(resident\): \d+ MB after its first game, \d+ MB after 2 games "
                     r"\([-+][\d.]+ %\); 2 processes, the largest \d+ MB", out_ray), out_ray


def test_games_go_to_the_cluster_an_opening_pair_a_task():
    book = load_openings(str(XIANGQI_OPENINGS))[:3]
    groups = pairs_of(schedule(2, 6, book))
    assert [[j.number for j in g] for g in groups] == [[1, 2], [3, 4], [5, 6]]
    assert all(g[0].opening_index == g[1].opening_index and (g[0].red, g[0].black) == (g[1].black, g[1].red)
               for g in groups)
    three = pairs_of(schedule(3, 2, book))          # a round robin: each pairing's two games together
    assert [[(j.red, j.black) for j in g] for g in three] == [[(0, 1)], [(0, 2)], [(1, 2)], [(1, 0)], [(2, 0)],
                                                              [(2, 1)]]


def test_without_cluster_ray_is_not_imported_and_a_bad_address_fails_at_once(tmp_path):
    code = ("import sys; from engine.cli import main\n"
            "try: main(['tb', 'build', '-q', '--dir', sys.argv[1], 'KRvK'])\n"
            "except SystemExit: pass\n"
            "assert 'ray' not in sys.modules, 'ray imported'\n")
    subprocess.run([sys.executable, "-c", code, str(tmp_path)], check=True, cwd=ROOT, timeout=120)
    pytest.importorskip("ray", reason="the cluster extra is not installed (pip install '.[cluster]')")
    for address, words in [("127.0.0.1:1", "error: cannot reach the Ray cluster at '127.0.0.1:1'"),
                           ("nonsense", "error: bad cluster address 'nonsense'")]:
        r = subprocess.run([sys.executable, "-m", "engine", "tb", "build", "--dir", str(tmp_path), "--cluster",
                            address, "KRvK"], capture_output=True, text=True, cwd=ROOT, timeout=60)
        lines = r.stderr.strip().splitlines()
        assert r.returncode == 2 and len(lines) == 1 and lines[0].startswith(words), r.stderr


def test_self_play_data_on_ray_is_the_local_runs(ray_cluster, tmp_path):
    """``python -m engine.tune data --cluster``: the games as Ray tasks give the same positions file as local
    workers, byte for byte once decompressed (text for the tuner, records for the network)."""
    from engine.tune.__main__ import main
    from engine.tune.nnue_data import Positions
    from engine.tune.selfplay import read_positions
    common = ["data", "--games", "3", "--nodes", "200", "--seed", "5"]
    for extra, name in (([], "p.txt.gz"), (["--nnue"], "p.bin")):
        local, remote = tmp_path / f"local-{name}", tmp_path / f"ray-{name}"
        r = CliRunner().invoke(main, common + extra + ["--workers", "1", "--out", str(local)])
        assert r.exit_code == 0, r.output
        r = CliRunner().invoke(main, common + extra + ["--cluster", "auto", "--out", str(remote)])
        assert r.exit_code == 0, r.output
        if extra:
            a, b = Positions(local), Positions(remote)
            assert len(a) > 50 and a.records.tobytes() == b.records.tobytes() and a.provenance == b.provenance
        else:
            rows = list(read_positions(str(local)))
            assert len(rows) > 50 and rows == list(read_positions(str(remote)))
