"""What every retrograde generator shares (xiangqi's, chess's, the sliced one on Ray): the loop over
distances, the smaller tables a table's captures (and promotions) lead into, the build's figures, and the
growing list a kernel collects indices into."""
from __future__ import annotations

import time

import numpy as np
from numba import njit

from ..codes import MAX_DIST


class BuildStats:
    """A generator's figures; the clock starts with the object."""

    def __init__(self):
        self.levels = 0
        self.seconds = 0.0
        self.rule_changed = 0
        self.rule_chase = 0
        self.start = time.perf_counter()

    def stop(self) -> None:
        self.seconds = time.perf_counter() - self.start


def split_range(n: int, parts: int) -> list[tuple[int, int]]:
    """About ``parts`` ranges covering [0, n)."""
    step = max(1, -(-n // parts))
    return [(i, min(n, i + step)) for i in range(0, n, step)]


def run_init(start, size: int, report) -> list:
    """Pass 1 over [0, size), in slices (enough of them for the progress bar to move): ``start(lo, hi)``
    submits a slice's kernel and returns its future.  Returns the results in slice order."""
    slices = split_range(size, max(8, min(256, size // 20000 + 1)))
    futures = [start(lo, hi) for lo, hi in slices]
    results = []
    done = 0
    for fut, (lo, hi) in zip(futures, slices):
        results.append(fut.result())
        done += hi - lo
        report(0.3 * done / size, "init")
    return results


def run_levels(one_level, max_sched: int, report, start: float = 0.3, span: float = 0.6) -> int:
    """Run ``one_level(level)`` for level 1, 2, ... (it settles the positions lost or won at that distance and
    returns how many) until a level settles nothing and no capture level (up to ``max_sched``) is pending.
    ``report(fraction, text)`` moves the progress bar from ``start`` over ``span``.  Returns the levels run."""
    level = 0
    while True:
        level += 1
        settled = one_level(level)
        report(start + span * min(1.0, level / max(60, max_sched + 1)), f"ply {level}")
        if settled == 0 and level >= max_sched:
            return level
        if level >= MAX_DIST:
            raise RuntimeError("distance overflow")


def smaller_tables(material, load_sub, sub_vals=None):
    """(specs, values, offsets) of the tables one move leads into, in the order of ``material.subtables()``:
    each one's spec, their values one after the other, where each starts.  ``load_sub(material) -> uint16
    values`` provides a table's values -- or ``sub_vals`` holds them all already (a memory-mapped file, say)."""
    subs = material.subtables()
    specs = np.zeros((max(1, len(subs)), len(material.spec())), np.int64)
    offsets = np.zeros(max(1, len(subs)), np.int64)
    off = 0
    arrays = []
    for i, sub in enumerate(subs):
        specs[i] = sub.spec()
        if sub_vals is None:
            vals = load_sub(sub)
            if vals.shape[0] != sub.size:
                raise ValueError(f"table {sub.name} has {vals.shape[0]} entries, expected {sub.size}")
            arrays.append(vals)
        offsets[i] = off
        off += sub.size
    if sub_vals is None:
        sub_vals = np.concatenate(arrays).astype(np.uint16) if arrays else np.zeros(1, np.uint16)
    elif sub_vals.shape[0] != max(1, off):
        raise ValueError(f"the smaller tables of {material.name} have {sub_vals.shape[0]} entries, expected {off}")
    return specs, sub_vals, offsets


@njit(cache=True, inline="always")
def collect(out, nout, value):
    """Append ``value`` to ``out`` (grown when full); returns (out, nout)."""
    if nout == out.shape[0]:
        grown = np.empty(2 * out.shape[0] + 1024, np.int64)
        grown[:nout] = out[:nout]
        out = grown
    out[nout] = value
    return out, nout + 1
