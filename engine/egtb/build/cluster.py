"""``shuai tb build --cluster``: the table dependency graph as Ray tasks.

Each table is one task on one worker.  Its arguments are the files of the smaller tables its captures (and
promotions) lead into -- object references, so Ray starts the task only when they exist and ships their bytes
through its object store (no shared directory).  The task writes the table into a private temporary directory
with the same code as a local build and returns the file's bytes; the driver checks them whole (header, chunk
table, every chunk's checksum, decoding and value bounds: a worker's bytes are not trusted) and writes them into
place atomically (a temporary name, then a rename), recording their digest in the directory's manifest.  So the files are byte-identical to a local build, and a worker
lost mid-build costs only its task, which Ray runs again: a half-built table never reaches the directory.
A large table of a game whose tables can be sliced (``SLICEABLE`` in ``engine.<game>.tables``) is built by
several workers (:mod:`engine.egtb.build.sliced`).
"""
from __future__ import annotations

import tempfile

from ...game import game_named
from . import BuildRecord, Builder, plan
from ..store import TableFile, check_table, remove_stale_temporaries, save_table, table_path, unpack_tables

TASK_RETRIES = 3                # a task whose worker died is run again this many times
SLICE_ABOVE = 500_000_000       # entries: a larger table (of a game that allows it) is built in slices


def build_table_task(game_name: str, name: str, chunk: int, rule: str, threads: int, slices: int, dep_names: list,
                     *dep_files) -> tuple[bytes, BuildRecord]:
    """Runs on a worker: build table ``name`` from the files of its smaller tables (``dep_names``, whose bytes
    Ray passes as ``dep_files``); returns the new file's bytes and its record.  ``slices`` > 1: the table is
    built by that many actors (engine.egtb.build.sliced), this task coordinating.  ``game_name``: the Game's name
    (what crosses to a worker)."""
    game = game_named(game_name)
    if slices > 1:
        import ray
        from .sliced import build_sliced
        material = game.tables().parse_material(name).canonical()[0]
        parts, record = build_sliced(ray, game, material, dep_names, dep_files, slices, chunk, rule)
        return b"".join(parts), record
    with tempfile.TemporaryDirectory(prefix="shuai-tb-") as d:
        builder = Builder(game, d, chunk, rule, threads)
        unpack_tables(d, builder.parts, dep_names, dep_files)
        record = builder.build_one(builder.parse(name).canonical()[0])
        return table_path(d, name, builder.suffix).read_bytes(), record


def build_on_cluster(ray, builder: Builder, game, names, force: bool = False, log=None,
                     line=None, threads: int = 1, slice_above: int = SLICE_ABOVE,
                     slices: int = 0) -> list[BuildRecord]:
    """Build ``names`` and what they need on the Ray cluster ``ray`` (connected), into ``builder``'s
    directory (``game``: the Game whose tables these are).  Tables present are kept (``force``: the named ones are
    rebuilt).  ``log(text)`` gets a line per table as it arrives; ``line`` (a tqdm bar) advances by one table
    at a time.  Each task takes ``threads`` CPUs and threads.  A table of more than ``slice_above`` entries,
    of a game whose tables can be sliced, is cut into ``slices`` slices (0 or more than the cluster's CPUs: one
    per CPU), each an actor of one CPU (engine.egtb.build.sliced)."""
    from ...cluster import cluster_cpus
    slices = min(slices or cluster_cpus(ray), cluster_cpus(ray))     # all of a table's slices run at once
    names = builder.kept(names, log)
    wanted = {builder.parse(n).canonical()[0] for n in names}
    directory = builder.directory
    directory.mkdir(parents=True, exist_ok=True)
    remove_stale_temporaries(directory, builder.suffix)
    task = ray.remote(num_returns=2, num_cpus=threads, max_retries=TASK_RETRIES)(build_table_task)
    records, to_build = [], []
    for m in plan(names, builder.parse):
        path = table_path(directory, m.name, builder.suffix)
        present = None
        if path.exists() and not (force and m in wanted):
            present = builder.present(path, m, log)
        if present is not None:
            records.append(present)
        else:
            to_build.append(m)
    needed = {s for m in to_build for s in m.subtables()}
    files = {}
    for m in needed - set(to_build):                    # present and needed: read as checked (TableFile)
        with TableFile(table_path(directory, m.name, builder.suffix), builder.magic) as f:
            files[m] = ray.put(f.contents())
    pending = {}                                        # record ref -> (material, file ref)
    for m in to_build:                                  # in plan order: a table after the tables it needs
        subs = m.subtables()
        cut = slices if game.tables().SLICEABLE and m.size > slice_above and slices > 1 else 1
        run = task.options(num_cpus=0) if cut > 1 else task         # a coordinator: its actors hold the CPUs
        data, record = run.remote(game.name, m.name, builder.chunk, builder.rule, threads, cut, [s.name for s in subs],
                                  *[files[s] for s in subs])
        files[m] = data
        pending[record] = (m, data)
    if line is not None:
        line.reset(total=len(pending))
    left = list(pending)
    while left:
        done, left = ray.wait(left, num_returns=1)
        m, data = pending[done[0]]
        record = ray.get(done[0])
        save_table(table_path(directory, m.name, builder.suffix), [ray.get(data)],
                   check=lambda tmp, m=m: check_table(tmp, builder.magic, m))      # a worker's bytes: checked whole
        records.append(record)
        if log:
            log(record.line())
        if line is not None:
            line.update(1)
            line.set_postfix_str(f"{m.name} done, {len(left)} left")
    return records
