"""Set-up without make (issue 28): ``pip install <checkout>`` then ``shuai setup`` gives a ready engine, as a
user on Windows (no make) gets it.  Run for real in a fresh virtual environment: the package built from a copy
of this checkout and installed (not editable) into it, ``shuai setup`` compiling every kernel into the installed
package's own numba cache (a cold compile: an installed package never shares the checkout's cache) and building
the quick tables into the user's data directory, then the installed engine started from another directory.

To stay quick, the new environment borrows the test interpreter's installed dependencies (numba, numpy, click,
python-chess, zstandard, tqdm, pip) through a ``.pth`` file instead of downloading them again, and the package is
installed with ``--no-deps``; the build itself is pip's usual isolated one, so pip fetches the build backend
(``pyproject.toml``'s ``setuptools>=68``) from its package index, as for any user.  Likewise the installed
package's numba cache is seeded from the checkout's (kernels are cached by what their sources are, not where they
lie: ``engine._numba_locator``), all but the perft kernel, which ``shuai setup`` must compile into it: the cold
compile of everything (two minutes) is what every fresh clone's ``make setup`` does already.  The user's data
directory is seeded the same way with this checkout's quick tables, all but one of each game, which ``shuai setup``
must build there (building every one again is ``make setup``'s work, and test_cli checks that a rebuilt table is
the same file).  Everything else is what a user runs.
"""
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

import pytest

from engine._cache import CACHE_DIR
from engine.egtb import default_directory
from engine.game import XIANGQI

from conftest import seed_tables
from test_protocol import LOAD_TIMEOUT, ROOT, EngineProcess

BUILD_FILES = ("pyproject.toml", "README.md", "engine")     # what the package is built from
NOT_BUILT = shutil.ignore_patterns("__pycache__", ".numba-cache", "*.pyc")
SETUP_TIMEOUT = 900         # a cold compile of every kernel, should the seeded cache miss: 2.5 min idle
COMPILED_BY_SETUP = ("kernels.xiangqi_perft-*.nbi", "kernels.xiangqi_perft-*.nbc")    # left out of the seed
SEEDED_COMPILE_LIMIT = 60.0 # seconds: one kernel compiled (about 5 s idle), the rest loaded (a cold compile: 110+)
SECOND_SETUP_LIMIT = 30.0   # seconds: every kernel loaded from the cache, every table present
READY_LIMIT = 20.0          # isready after setup: the search's kernels loaded from the cache (about 1 s idle, 5 s
                            # at a load of 5 on 2 cores; about 35 s or more when they must be compiled)
KRK = "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1"     # xiangqi, chariot and general against a general: a quick table
BUILT_BY_SETUP = ("KRvK.xtb", "KRvK.ctb")      # left out of the seeded data directory: KRK is probed from it


def run(command, env, cwd, timeout=SETUP_TIMEOUT):
    out = subprocess.run([str(c) for c in command], env=env, cwd=cwd, capture_output=True, text=True,
                         timeout=timeout)
    assert out.returncode == 0, f"{command}: {out.stdout[-2000:]}\n{out.stderr[-3000:]}"
    return out.stdout


@pytest.mark.timeout(SETUP_TIMEOUT + 300)
def test_pip_install_then_shuai_setup_gives_a_ready_engine(tmp_path):
    source = tmp_path / "checkout"
    source.mkdir()
    for name in BUILD_FILES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=NOT_BUILT)
        else:
            shutil.copy2(ROOT / name, source / name)
    venv, home = tmp_path / "venv", tmp_path / "home"
    home.mkdir()
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / ("Scripts" if os.name == "nt" else "bin") / "python"
    site = Path(run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                    None, tmp_path).strip())
    (site / "borrowed-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    # A user's environment: no PYTHONPATH (the checkout would shadow the installed package), a home of its own.
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "SHUAI_CACHE_DIR", "LOCALAPPDATA")}
    env.update(HOME=str(home), XDG_DATA_HOME=str(home / "data"), XDG_CACHE_HOME=str(home / "cache"))

    t0 = time.monotonic()
    run([python, "-m", "pip", "install", "--no-deps", "--quiet", source], env, tmp_path)
    installed = time.monotonic() - t0
    where = run([python, "-c", "import engine; print(engine.__file__)"], env, home).strip()
    assert Path(where).resolve().is_relative_to(site.resolve())         # the installed copy, not the checkout
    shuai = python.with_name("shuai.exe" if os.name == "nt" else "shuai")

    cache = site / "engine" / ".numba-cache"
    shutil.copytree(CACHE_DIR, cache, ignore=shutil.ignore_patterns(*COMPILED_BY_SETUP), dirs_exist_ok=True)
    assert not list(cache.rglob(COMPILED_BY_SETUP[0]))
    tables = home / "data" / "shuai" / "tablebases"                     # the user's data directory
    tables.mkdir(parents=True)
    seed_tables(tables, BUILT_BY_SETUP)
    t0 = time.monotonic()
    first = run([shuai, "setup"], env, home).splitlines()
    setup = time.monotonic() - t0
    compiled = re.fullmatch(r"numba kernels ready in ([\d.]+) s.*", first[0])
    assert compiled and float(compiled[1]) < SEEDED_COMPILE_LIMIT, f"the seeded cache missed: {first[0]}"
    assert first[1].startswith("xiangqi: 1 tables built, 44 present already") and first[1].endswith(str(tables))
    assert first[2].startswith("chess: 1 tables built, 4 present already")
    assert len(list(tables.glob("*.[xc]tb"))) == 50 and (tables / "MANIFEST.sha256").is_file()
    for name in BUILT_BY_SETUP:
        assert (tables / name).read_bytes() == (default_directory() / name).read_bytes()
    assert list(cache.rglob(COMPILED_BY_SETUP[0]))                  # compiled into the installed package's cache

    t0 = time.monotonic()
    again = run([shuai, "setup"], env, home).splitlines()
    second = time.monotonic() - t0
    assert again[1].startswith("xiangqi: 0 tables built, 45 present already")
    assert second < SECOND_SETUP_LIMIT, f"second shuai setup took {second:.1f} s: the numba cache missed"

    expected = XIANGQI.tablebases(tables).probe(XIANGQI.position(KRK))   # this checkout reading those files
    assert expected.kind == "win" and expected.plies > 0
    engine = EngineProcess([shuai], cwd=home, env=env)
    try:
        engine.handshake("ucci")
        t0 = engine.send("isready")
        t, _ = engine.read_until(lambda ln: ln == "readyok", LOAD_TIMEOUT)
        ready = t - t0
        assert ready < READY_LIMIT, f"isready took {ready:.1f} s after shuai setup"
        engine.send(f"probe fen {KRK}")
        _, lines = engine.read_until(lambda ln: ln.startswith("pophash"))
        assert f"win {expected.plies}" in lines
        engine.send("quit")
        assert engine.proc.wait(30) == 0
    finally:
        engine.close()
    print(f"pip install {installed:.1f} s, shuai setup {setup:.1f} s ({first[0]}), again {second:.1f} s, "
          f"isready {ready:.2f} s")
