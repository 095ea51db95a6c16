"""Kernels written once, compiled per game (engine.template): the numba cache must serve a second start whole,
a process must load no other game's kernels, and a template must name everything it uses."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import alphabeta
from engine.template import Template, instantiate

ROOT = Path(__file__).resolve().parent.parent

# A fresh process: search and perft once, then report numba's cache statistics for every compiled kernel.
PROBE = r"""
import json, sys
from numba.core.registry import CPUDispatcher
from engine.game import XIANGQI
from engine.perft import perft_count
from engine.searcher import search_once
pos = XIANGQI.position()
perft_count(pos, 2)
search_once(pos, depth=3)
k = XIANGQI.kernels()
found = {}
for owner in [m for name, m in list(sys.modules.items()) if name.startswith("engine")] + \
        [k.alphabeta._kernels, k.perft._kernels]:
    for value in vars(owner).values():
        if isinstance(value, CPUDispatcher) and value.signatures:
            found[value.py_func.__module__ + "." + value.py_func.__qualname__] = value
stats = {name: (sum(d.stats.cache_hits.values()), len(d.stats.cache_misses)) for name, d in found.items()}
from engine.game import GAME_PACKAGES
games = sorted(g for g, package in GAME_PACKAGES.items() if package + ".kernels" in sys.modules)
print(json.dumps({"stats": stats, "games": games}))
"""


def _probe():
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=280)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_second_start_loads_every_kernel_from_the_cache():
    _probe()                                        # compiles whatever the cache lacks (nothing after make setup)
    report = _probe()
    stats = report["stats"]
    assert "engine.xiangqi.kernels.xiangqi_pvs" in stats and "engine.xiangqi.kernels.xiangqi_perft" in stats
    missed = {name: s for name, s in stats.items() if s[1] > 0 or s[0] == 0}
    assert not missed, f"compiled again instead of loaded: {missed}"
    assert report["games"] == ["xiangqi"]          # no other game's kernels in a xiangqi process


def test_a_game_must_supply_the_whole_interface():
    game = {name: 0 for name in alphabeta.GAME_INTERFACE if name != "evaluate"}
    game.update(__file__=__file__, __name__=__name__)
    with pytest.raises(TypeError, match="lack evaluate"):
        instantiate(alphabeta.TEMPLATE, game, "nogame")


def test_a_template_may_use_only_its_own_names_and_the_interface():
    template = Template({}, ("known",))
    template.kernel()(lambda x: known(x) + unknown(x))     # noqa: F821
    kernels = instantiate(template, {"known": abs, "__file__": __file__, "__name__": __name__}, "nogame")
    with pytest.raises(TypeError, match="uses unknown"):
        kernels.anything
