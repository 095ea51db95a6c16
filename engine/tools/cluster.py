"""Table builds on one machine and on Ray (issue 16's benchmark; needs the cluster extra).

1. **Overhead:** a table set (default: the whole default set, 105 tables) built by ``shuai tb build`` into a
   fresh directory, then by ``shuai tb build --cluster auto`` (a local Ray instance started by the command,
   every core of this machine) into another: wall time of both, and the files compared byte for byte.  With
   ``--sliced`` also the same set on Ray with every table above 1,000,000 entries cut into slices (the
   waves-of-tasks build a table too large for one worker needs), to show what slicing costs.
2. **The largest table:** ``--largest NAME`` builds NAME and what it needs on this machine, and reports its
   time and the peak resident memory of the build (``getrusage`` of the child process).

    shuai bench cluster [--set default|one-attacker] [--sliced] [--largest KRvKNAABB]

Each figure comes from one run; the machine's load is printed beside it (the clocks are real).
"""
from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import click

from . import ROOT

SHUAI = [sys.executable, "-m", "engine"]


def build(directory: Path, names: list, *extra) -> tuple[float, float, list]:
    """Run ``shuai tb build``: (wall seconds, peak resident MB of the build process, its lines)."""
    t0 = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    r = subprocess.run([*SHUAI, "tb", "build", "-q", "--dir", str(directory), *extra, *names],
                       capture_output=True, text=True, cwd=ROOT)
    if r.returncode != 0:
        sys.exit(f"build failed: {r.stderr.strip() or r.stdout.strip()}")
    peak = max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024
    return time.perf_counter() - t0, peak, r.stdout.strip().splitlines()


def summary_line(lines: list) -> str:
    """The build's last line ("N tables built, ..."), not a warning Ray's raylet may print after it."""
    return next((line for line in reversed(lines) if "tables built" in line), lines[-1] if lines else "")


def files(directory: Path) -> dict:
    return {p.name: p.read_bytes() for p in sorted(directory.glob("*.xtb"))}


@click.command()
@click.option("--set", "table_set", type=click.Choice(["default", "one-attacker"]), default="default",
              show_default=True)
@click.option("--sliced", is_flag=True, help="Also build the set on Ray with large tables sliced.")
@click.option("--largest", metavar="NAME", help="Build this table (and what it needs) and measure it.")
@click.option("--skip-overhead", is_flag=True, help="Only --largest.")
def cluster(table_set, sliced, largest, skip_overhead):
    """Table builds on one machine and on Ray (issue 16's benchmark; needs the cluster extra): the set's wall
    time both ways and the files compared; with --largest, one large table's time and peak memory."""
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    flag = ["--default"] if table_set == "default" else ["--one-attacker"]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        if not skip_overhead:
            t_local, _, lines = build(tmp / "local", [], *flag)
            line = summary_line(lines)
            print(f"{table_set} set, one machine:   {t_local:7.1f} s   ({line})")
            t_ray, _, lines = build(tmp / "ray", [], *flag, "--cluster", "auto")
            line = summary_line(lines)
            same = files(tmp / "local") == files(tmp / "ray")
            print(f"{table_set} set, local Ray:     {t_ray:7.1f} s   ({line}); overhead {t_ray / t_local - 1:+.0%}, "
                  f"files {'byte-identical' if same else 'DIFFERENT'}")
            if sliced:
                t_cut, _, lines = build(tmp / "sliced", [], *flag, "--cluster", "auto", "--slice-above", "1000000")
                line = summary_line(lines)
                same = files(tmp / "local") == files(tmp / "sliced")
                print(f"{table_set} set, Ray, sliced: {t_cut:7.1f} s   ({line}); against one machine "
                      f"{t_cut / t_local - 1:+.0%}, files {'byte-identical' if same else 'DIFFERENT'}")
            print(f"load average now {os.getloadavg()[0]:.1f}")
        if largest:
            t, peak, lines = build(tmp / "largest", [largest])
            own = [l for l in lines if l.startswith(f"{largest}:")]
            print(f"{largest} and what it needs: {t:.1f} s, peak resident memory {peak:.0f} MB "
                  f"({summary_line(lines)}); load average {os.getloadavg()[0]:.1f}")
            print("  " + "\n  ".join(own + [l for l in lines[:-1] if l not in own][-5:]))
