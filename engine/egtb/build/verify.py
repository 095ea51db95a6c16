"""``shuai tb verify``: a table directory checked against its manifest (``engine.egtb.manifest``), and every table
in it read whole -- header, chunk table, each chunk's checksum and decoding, every value within the header's
bounds -- the check a worker's table gets before the driver writes it (``engine.egtb.store.check_table``).

A tool above the games: every game's tables of the directory (``*.xtb``, ``*.ctb``) are checked.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ...files import clip
from ...game import GAMES
from .. import manifest
from ..store import TableError, TableFile


@dataclass
class Report:
    """What ``verify_directory`` found: the tables that passed, one line per bad or missing file, and the
    tables added to the manifest."""
    good: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    checked_bytes: int = 0


def verify_directory(directory, add: bool = False) -> Report:
    """Check ``directory``: every table file sound and of the digest its manifest lists; a file not listed, or
    listed but absent, or no manifest at all, is a problem too.  ``add``: record in the manifest (made if
    absent) the digests of the sound tables it does not list -- for a set built before manifests, or one's
    own; a table whose digest differs is never re-recorded (rebuild or remove it)."""
    directory = Path(directory)
    report = Report()
    if not directory.is_dir():
        report.problems.append(f"{clip(directory, 200)}: not a directory")
        return report
    try:
        listed = manifest.read_manifest(directory)
    except manifest.ManifestError as e:
        report.problems.append(str(e))
        listed = {}
    unlisted = {}
    on_disk = set()
    for game in GAMES:
        parts = game.tables()
        for path in sorted(directory.glob(f"*{parts.SUFFIX}")):
            on_disk.add(path.name)
            try:
                with TableFile(path, parts.MAGIC) as f:           # the digest, when listed, checked here
                    f.material(parts.parse_material)
                    f.verify()
                    report.checked_bytes += path.stat().st_size
                    if listed is not None and path.name in listed:
                        report.good.append(path.name)
                    else:
                        unlisted[path.name] = f.digest() if add else None
            except TableError as e:
                report.problems.append(str(e))
    if add:
        report.added = sorted(unlisted)
        report.good += report.added
    elif listed is None:
        report.problems.append(f"{clip(manifest.manifest_path(directory), 200)}: missing (the tables' digests are "
                               "unchecked; shuai tb verify --add records them)")
    else:
        report.problems += [f"{clip(directory / name, 200)}: not listed in {manifest.MANIFEST_NAME}"
                            for name in sorted(unlisted)]
    for name in sorted(set(listed or {}) - on_disk):
        report.problems.append(f"{clip(directory / name, 200)}: missing (listed in {manifest.MANIFEST_NAME})")
    if report.added:
        manifest.record(directory, {name: unlisted[name] for name in report.added})
    return report
