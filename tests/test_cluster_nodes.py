"""``--cluster HOST:PORT`` on a cluster of two Ray nodes (two raylets, each with its own object store, on this
machine): a table built in two slices -- one actor on each node, every message between them crossing from one
object store to the other -- is byte-identical to a local build, and a match's games spread over both nodes."""
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

from engine.egtb.build import Builder
from engine.game import XIANGQI

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).parent / "data"
XIANGQI_OPENINGS = Path(XIANGQI.openings)          # the game's own openings, shipped with the package
FAKE = f"{sys.executable} {ROOT / 'tests' / 'fakes' / 'fake_engine.py'}"

# Run in a process of its own: the nodes are started there (ray.cluster_utils.Cluster) and the commands join
# them by address, as a user's driver joins a cluster started with ``ray start``.
SCRIPT = textwrap.dedent("""
    import sys
    from ray.cluster_utils import Cluster
    from engine.cli import main
    directory, pgn, openings, fake = sys.argv[1:5]
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    def run(*args):
        try:
            main(list(args))
        except SystemExit as e:
            assert not e.code, f"{args[0]} failed: {e.code}"
    try:
        run("tb", "build", "-q", "--cluster", cluster.address, "--dir", directory, "--slice-above", "100000",
            "--slices", "2", "KRvKN")
        import ray
        nodes = [n for n in ray.nodes() if n["Alive"]]
        print("nodes", len(nodes), "CPUs", int(ray.cluster_resources()["CPU"]))
        run("match", "--cluster", cluster.address, "--engine", f"proto=ucci {fake} --proto ucci",
            "--engine", f"proto=uci {fake} --proto uci", "--games", "4", "--tc", "0.05", "--max-plies", "10",
            "--openings", openings, "--pgn", pgn, "--no-progress")
    finally:
        import ray
        ray.shutdown()
        cluster.shutdown()
""")


def _files(directory: Path) -> dict:
    return {p.name: p.read_bytes() for p in sorted(directory.glob("*.xtb"))}


def test_two_nodes_joined_by_address_build_a_sliced_table_and_play_a_match(tmp_path, tmp_path_factory):
    pytest.importorskip("ray", reason="the cluster extra is not installed (pip install '.[cluster]')")
    from filelock import FileLock
    local, remote, pgn = tmp_path / "local", tmp_path / "nodes", tmp_path / "nodes.pgn"
    Builder(XIANGQI, local).build(["KRvKN"])
    with FileLock(str(tmp_path_factory.getbasetemp().parent / "shuai-ray.lock")):   # one Ray at a time
        r = subprocess.run([sys.executable, "-c", SCRIPT, str(remote), str(pgn), str(XIANGQI_OPENINGS), FAKE],
                           cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "nodes 2 CPUs 2" in r.stdout
    assert "KRvKN: 729000 entries" in r.stdout and "1597 changed by the rule" in r.stdout
    assert _files(local) == _files(remote)
    assert not list(Path(tempfile.gettempdir()).glob("shuai-subs-KRvKN-*"))
    assert "on Ray (2 CPUs)" in r.stdout and "Finished: 4 games" in r.stdout
    assert pgn.read_text().count("[Result ") == 4
