"""Start-up as a GUI sees it: seconds from starting the engine to `ucciok`, and to `readyok` (the compiled
search loaded and ready), with numba's cache as `make setup` leaves it (warm) and empty (cold: everything is
compiled, as on a first start without `make setup`).

    shuai bench startup [--runs 3] [--no-cold]
"""
import os
import shutil
import statistics
import subprocess
import tempfile
import time

import click

from . import ROOT
from .uci import default_ours


def handshake(env) -> tuple[float, float]:
    """(seconds to `ucciok`, seconds to `readyok`) for one engine start."""
    t0 = time.perf_counter()
    p = subprocess.Popen(default_ours(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
                         cwd=ROOT, env=env)
    try:
        p.stdin.write("ucci\n")
        ucciok = readyok = None
        for line in p.stdout:
            if line.strip() == "ucciok" and ucciok is None:
                ucciok = time.perf_counter() - t0
                p.stdin.write("isready\n")
            elif line.strip() == "readyok":
                readyok = time.perf_counter() - t0
                break
        p.stdin.write("quit\n")
        p.wait(timeout=30)
    finally:
        p.kill()
    return ucciok, readyok


@click.command()
@click.option("--runs", type=click.IntRange(1), default=3, show_default=True,
              help="Warm starts to time (the median is shown).")
@click.option("--cold/--no-cold", default=True, help="Time a cold start too (it compiles for a minute).")
def startup(runs, cold):
    """Start-up as a GUI sees it: seconds to `ucciok` and to `readyok`, numba's cache warm and cold."""
    handshake(dict(os.environ))                      # fills the cache if `make setup` has not
    warm = [handshake(dict(os.environ)) for _ in range(runs)]
    print(f"warm cache   ucciok {statistics.median(w[0] for w in warm):6.3f} s   "
          f"readyok {statistics.median(w[1] for w in warm):6.3f} s   (median of {runs})")
    if cold:
        cache = tempfile.mkdtemp(prefix="shuai-cache-")
        try:
            ucciok, readyok = handshake(dict(os.environ, SHUAI_CACHE_DIR=cache))
        finally:
            shutil.rmtree(cache, ignore_errors=True)
        print(f"cold cache   ucciok {ucciok:6.3f} s   readyok {readyok:6.1f} s")
