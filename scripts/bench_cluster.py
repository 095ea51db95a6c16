#!/usr/bin/env python
"""Table builds on one machine and on Ray (issue 16's benchmark; needs the cluster extra).

1. **Overhead:** a table set (default: the whole default set, 105 tables) built by ``shuai tb build`` into a
   fresh directory, then by ``shuai tb build --cluster auto`` (a local Ray instance started by the command,
   every core of this machine) into another: wall time of both, and the files compared byte for byte.  With
   ``--sliced`` also the same set on Ray with every table above 1,000,000 entries cut into slices (the
   waves-of-tasks build a table too large for one worker needs), to show what slicing costs.
2. **The largest table:** ``--largest NAME`` builds NAME and what it needs on this machine, and reports its
   time and the peak resident memory of the build (``getrusage`` of the child process).

    .venv/bin/python scripts/bench_cluster.py [--set default|one-attacker] [--sliced] [--largest KRvKNAABB]

Each figure comes from one run; the machine's load is printed beside it (the clocks are real).
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--set", choices=["default", "one-attacker"], default="default")
    ap.add_argument("--sliced", action="store_true", help="Also build the set on Ray with large tables sliced.")
    ap.add_argument("--largest", metavar="NAME", help="Build this table (and what it needs) and measure it.")
    ap.add_argument("--skip-overhead", action="store_true")
    args = ap.parse_args()
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    flag = ["--default"] if args.set == "default" else ["--one-attacker"]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        if not args.skip_overhead:
            t_local, _, lines = build(tmp / "local", [], *flag)
            line = summary_line(lines)
            print(f"{args.set} set, one machine:   {t_local:7.1f} s   ({line})")
            t_ray, _, lines = build(tmp / "ray", [], *flag, "--cluster", "auto")
            line = summary_line(lines)
            same = files(tmp / "local") == files(tmp / "ray")
            print(f"{args.set} set, local Ray:     {t_ray:7.1f} s   ({line}); overhead {t_ray / t_local - 1:+.0%}, "
                  f"files {'byte-identical' if same else 'DIFFERENT'}")
            if args.sliced:
                t_cut, _, lines = build(tmp / "sliced", [], *flag, "--cluster", "auto", "--slice-above", "1000000")
                line = summary_line(lines)
                same = files(tmp / "local") == files(tmp / "sliced")
                print(f"{args.set} set, Ray, sliced: {t_cut:7.1f} s   ({line}); against one machine "
                      f"{t_cut / t_local - 1:+.0%}, files {'byte-identical' if same else 'DIFFERENT'}")
            print(f"load average now {os.getloadavg()[0]:.1f}")
        if args.largest:
            t, peak, lines = build(tmp / "largest", [args.largest])
            own = [l for l in lines if l.startswith(f"{args.largest}:")]
            print(f"{args.largest} and what it needs: {t:.1f} s, peak resident memory {peak:.0f} MB "
                  f"({summary_line(lines)}); load average {os.getloadavg()[0]:.1f}")
            print("  " + "\n  ".join(own + [l for l in lines[:-1] if l not in own][-5:]))


if __name__ == "__main__":
    main()
