"""The engine with a watchdog on its clock: where does a search stand when its bestmove comes late?

Usage (from a copy of the engine, as the match runner's engine command):
    python -m engine diagnose stall-watch DUMPDIR [engine arguments]

Runs the engine of the current directory as ``python -m engine`` would, and arms ``faulthandler`` to dump every
thread's Python stack into ``DUMPDIR/stall-<pid>.txt`` when a timed search has not answered ``--slack`` seconds
after its hard limit (``STALL_SLACK`` in the environment; 0.05).  faulthandler's watchdog is a C thread: it
fires even while the search thread holds the GIL or sits in a numba kernel (whose Python caller it then shows).
After a late bestmove a line follows with the engine's own account (its elapsed time from ``go`` to the
bestmove, the hard limit, the position), so a delay seen by the match runner but not here lies outside the
engine.  A search whose thread took ``FAULTS_TOLD`` or more minor page faults (first touches of fresh memory:
the kernel zeroes a page, with transparent huge pages after compacting memory for 2 MB) gets a line too.
"""
import faulthandler
import os
import resource
import sys
import time

import click

FAULTS_TOLD = 64        # a search thread's page faults worth a line (each a first touch of fresh memory)


def watch(log, slack: float) -> None:
    """Wrap the Searcher's clock and its search so that a late search leaves its stacks and its account."""
    from ..searcher import Searcher
    from ..searcher.clock import Clock
    armed = [None]                                  # the search id the watchdog is armed for
    original_arm, original_run = Clock.arm, Searcher._run

    def arm(clock):
        original_arm(clock)
        if clock.budget.soft is not None:
            left = clock.started + clock.budget.hard + slack - time.perf_counter()
            faulthandler.dump_traceback_later(max(left, 0.001), file=log)
            armed[0] = clock.search_id

    def run(self, pos, limits, on_info, on_done, banned, on_progress):
        clock = self.clock
        search_id, fen = clock.search_id, pos.fen()
        faults = resource.getrusage(resource.RUSAGE_THREAD).ru_minflt

        def done(result):
            elapsed = time.perf_counter() - clock.started
            taken = resource.getrusage(resource.RUSAGE_THREAD).ru_minflt - faults
            if armed[0] == search_id:
                faulthandler.cancel_dump_traceback_later()
            if clock.budget.hard is not None and elapsed > clock.budget.hard + slack:
                log.write(f"# late {os.getpid()} search {search_id} at {time.time():.3f}: bestmove after "
                          f"{elapsed * 1000:.0f} ms, hard {clock.budget.hard * 1000:.0f} ms, fen {fen}\n")
            if taken >= FAULTS_TOLD:
                log.write(f"# faults {os.getpid()} search {search_id}: {taken} minor page faults in the search "
                          f"thread, {elapsed * 1000:.0f} ms, fen {fen}\n")
            on_done(result)

        original_run(self, pos, limits, on_info, done, banned, on_progress)

    Clock.arm, Searcher._run = arm, run


@click.command("stall-watch", context_settings={"ignore_unknown_options": True})
@click.argument("dump_dir", type=click.Path(file_okay=False))
@click.option("--slack", type=float, default=0.05, show_default=True, envvar="STALL_SLACK",
              help="Seconds past a search's hard limit before its stacks are dumped (STALL_SLACK; a test sets it "
                   "below 0).")
@click.option("--variant", default=None, help="The game UCI's 'startpos' means (the engine's own --variant).")
def stall_watch(dump_dir, slack, variant):
    """The engine (the one of the current directory) with a watchdog on its clock: a search that answers late
    leaves every thread's stack and its own account in DUMPDIR/stall-PID.txt.  Use it as the match runner's
    engine command: python -m engine diagnose stall-watch DUMPDIR."""
    os.makedirs(dump_dir, exist_ok=True)
    log = open(os.path.join(dump_dir, f"stall-{os.getpid()}.txt"), "a", buffering=1)
    watch(log, slack)
    from ..protocol.loop import run
    sys.exit(run(variant=variant))
