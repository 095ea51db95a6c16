"""The shape of the house, read from the source: which module may import which, and what a game's compiled
kernels depend on.

Layers, bottom to top (an import goes down, or sideways inside one package):

* the base: the move packing, the arrays' shared layout, the score scale and its win/draw/loss model, the
  transposition table, the template machinery, the shared Position, the search, perft and evaluation templates,
  the clock, numba's cache, the borrowed arrays of the recursion;
* ``engine.game``: the registry of games (it loads a game's parts by module path, so it imports no game);
* the table core (``engine.egtb`` modules a game's kernels reach) and the game packages (``engine.xiangqi``,
  ``engine.chess``), each game importing only the base, the registry, the table core and itself;
* everything else: the searcher, the protocols, the terminal game, the match runner, the tuner, the table
  builders and the command line, which ask a ``Game`` for what differs.

Imports are read with ``ast`` from every statement in a file, lazy ones inside functions included: they are
dependencies all the same, and numba's cache locator (``engine._numba_locator``) follows them too.
"""
import ast
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "engine"
GAME_PACKAGES = ("engine.xiangqi", "engine.chess")

BASE = {"engine", "engine._cache", "engine._numba_locator", "engine.move", "engine.moving", "engine.layout",
        "engine.scores", "engine.tt", "engine.memory", "engine.template", "engine.position", "engine.timeman",
        "engine.alphabeta", "engine.perft", "engine.evaluation", "engine.wdl", "engine.files", "engine.search_params",
        "engine.nnue", "engine.nnue.features", "engine.nnue.network", "engine.nnue.kernels", "engine.borrow",
        "engine.search_state", "engine.history", "engine.ordering"}
FRONT_ENDS = ("engine.tune", "engine.play", "engine.match", "engine.protocol", "engine.searcher", "engine.cli",
              "engine.benchmark", "engine.warmup", "engine.cluster", "engine.levels", "engine.book",
              "engine.bookmaker", "engine.tools")
# A table generator (and what drives one) is build-time code: no search kernel may depend on it.
GENERATOR = re.compile(r"\.(build|generate|cli)(\.|$)")   # builders: egtb.build, tables.build, CLIs


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _resolve(name: str) -> str | None:
    """``name`` if it is a module or package of the engine, else None."""
    path = ROOT.joinpath(*name.split("."))
    return name if path.with_suffix(".py").is_file() or (path / "__init__.py").is_file() else None


def imports_of(path: Path) -> set:
    """The engine modules that ``path`` imports, anywhere in the file."""
    here = module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_bytes())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "engine"}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "engine":
                continue
            subs = {_resolve(f"{target}.{a.name}") for a in node.names} - {None}
            found |= subs if subs and len(subs) == len(node.names) else subs | {target}
    return {m for m in found if _resolve(m)} - {here}


@pytest.fixture(scope="module")
def graph():
    return {module_name(p): imports_of(p) for p in ENGINE.rglob("*.py") if ".numba-cache" not in p.parts}


def closure(graph, start):
    seen, todo = set(), [start]
    while todo:
        m = todo.pop()
        if m not in seen:
            seen.add(m)
            todo.extend(graph.get(m, ()))
    return seen


def in_package(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def test_the_import_graph_is_read_right(graph):
    """The reader sees plain, relative, lazy and ``from package import module`` imports."""
    assert "engine.alphabeta" in graph["engine.xiangqi.kernels"]          # from .. import alphabeta
    assert "engine.xiangqi.movegen" in graph["engine.xiangqi.kernels"]    # from .movegen import ...
    assert "engine.scores" in graph["engine.searcher.iterations"]           # from ..scores import ...
    assert "engine.searcher.core" in graph["engine.searcher"]               # from .core import ...
    assert len(graph) > 80


def _file_of(module: str) -> Path:
    path = ROOT.joinpath(*module.split("."))
    return path.with_suffix(".py") if path.with_suffix(".py").is_file() else path / "__init__.py"


def test_the_cache_locator_misses_no_import(graph):
    """numba's cache locator reads imports with a regular expression (``ast`` was too slow for every start):
    each module's files are a superset of what ``ast`` finds in it, so no edit can leave a stale kernel."""
    from engine import _numba_locator as L
    for module, imported in graph.items():
        found = set(L._imports.__wrapped__(_file_of(module).resolve()))
        assert {_file_of(m).resolve() for m in imported} <= found, module


def test_the_cache_locator_reads_every_form_of_import(tmp_path):
    """Parentheses over lines with comments, backslashes, aliases, several modules a statement, lazy imports;
    a comment is no import."""
    from engine import _numba_locator as L
    probe = tmp_path / "probe.py"
    probe.write_text(textwrap.dedent('''
        """A docstring."""
        from engine.chess import (board,  # the board
                                  evaluate as ev)
        from engine.xiangqi.movegen import generate, \\
            king_attacked
        import engine.tt, engine.wdl as wdl
        # from engine import levels
        def later():
            from engine import scores
    '''))
    names = {str(p.relative_to(ENGINE)) for p in L._imports.__wrapped__(probe)}
    assert names == {"chess/__init__.py", "chess/board.py", "chess/evaluate.py", "xiangqi/movegen.py", "tt.py",
                     "wdl.py", "__init__.py", "scores.py"}


def test_no_import_circles(graph):
    """Tarjan's strongly connected components: every one a single module."""
    index, low, stack, on_stack, circles = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    sys.setrecursionlimit(10_000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    assert circles == []


def test_the_base_imports_only_the_base(graph):
    wrong = {m: sorted(graph[m] - BASE) for m in BASE if graph[m] - BASE}
    assert wrong == {}


def test_the_registry_imports_no_game(graph):
    assert graph["engine.game"] <= BASE


def test_a_game_imports_no_other_game_and_no_front_end(graph):
    for package in GAME_PACKAGES:
        others = [p for p in GAME_PACKAGES if p != package]
        for module in (m for m in graph if in_package(m, package)):
            for target in graph[module]:
                assert not any(in_package(target, p) for p in others + list(FRONT_ENDS)), (module, target)


def test_the_table_core_imports_no_game(graph):
    """The table modules a game's kernels reach are game-neutral."""
    core = {m for package in GAME_PACKAGES for m in closure(graph, f"{package}.kernels")
            if in_package(m, "engine.egtb")}
    assert core, "the kernels probe the tables through the table core"
    for module in core:
        assert not any(in_package(t, p) for t in graph[module] for p in GAME_PACKAGES), module


@pytest.mark.parametrize("package", GAME_PACKAGES)
def test_a_games_kernels_depend_on_nothing_but_the_base_the_table_core_and_the_game(graph, package):
    """What numba's cache stamp of a game's search covers: no other game, no front end, no table generator, no
    tuner."""
    reached = closure(graph, f"{package}.kernels")
    other = [p for p in GAME_PACKAGES if p != package]
    assert not [m for m in reached if any(in_package(m, p) for p in other + list(FRONT_ENDS))]
    assert not [m for m in reached if GENERATOR.search(m) and m not in BASE]
    assert f"{package}.evaluate" in reached and "engine.alphabeta" in reached


# A string test of the game's name: `== "chess"`, `"xiangqi" !=`, `is XIANGQI`, `in ("chess", ...)` ...
NAME_TEST = re.compile(r"""(==|!=)\s*["'](chess|xiangqi)["']|["'](chess|xiangqi)["']\s*(==|!=)"""
                       r"""|\bis\s+(not\s+)?(XIANGQI|CHESS)\b|["'](chess|xiangqi)["']\s+(not\s+)?in\b"""
                       r"""|\bin\s+\(\s*["'](chess|xiangqi)["']""")


def test_no_string_test_of_the_games_name_outside_the_games():
    """Code outside ``engine/game.py`` and the game packages asks the ``Game``, never which game it is."""
    allowed = [ENGINE / "game.py", ENGINE / "xiangqi", ENGINE / "chess"]
    hits = []
    for path in sorted(ENGINE.rglob("*.py")):
        if any(path == a or a in path.parents for a in allowed):
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if NAME_TEST.search(line.split("#")[0]):
                hits.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert hits == []
    assert NAME_TEST.search('if game == "chess":') and NAME_TEST.search("if game is XIANGQI:")


STAMPS = textwrap.dedent("""
    import sys
    from pathlib import Path
    from engine import _numba_locator as L
    def stamps():
        L._imports.cache_clear(); L.dependency_stamp.cache_clear()
        return {g: L.dependency_stamp(Path(f"engine/{g}/kernels.py")) for g in ("xiangqi", "chess")}
    before = stamps()
    path = Path(sys.argv[1])
    path.write_text(path.read_text() + "\\n# edited\\n")
    after = stamps()
    print(" ".join(g for g in before if before[g] != after[g]))
""")


@pytest.mark.parametrize("edited, recompiled", [
    ("engine/chess/movegen.py", "chess"),
    ("engine/xiangqi/movegen.py", "xiangqi"),
    ("engine/chess/evaluate.py", "chess"),
    ("engine/xiangqi/board.py", "xiangqi"),
    ("engine/alphabeta.py", "xiangqi chess"),
])
def test_an_edit_recompiles_only_the_kernels_that_depend_on_it(tmp_path, edited, recompiled):
    """Through the project's cache locator, on a copy of the package: the stamps of the kernels an edit
    touches change, the other game's stay."""
    shutil.copytree(ENGINE, tmp_path / "engine", ignore=shutil.ignore_patterns(".numba-cache", "__pycache__"))
    env = dict(os.environ, PYTHONPATH=str(tmp_path), SHUAI_CACHE_DIR=str(tmp_path / "cache"))
    out = subprocess.run([sys.executable, "-c", STAMPS, edited], cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == recompiled.split()


def _package_of(module: str) -> str:
    """The top-level part of the engine a module belongs to (``engine.protocol.uci`` -> ``engine.protocol``)."""
    return ".".join(module.split(".")[:2])


def test_no_arrow_runs_back_up(graph):
    """Between the engine's top-level packages and modules the imports run one way: no two of them import each
    other, however indirectly (a module-level circle is caught above; this one is between parts, e.g. the
    books' reader below the searcher and their builder above it)."""
    edges = {}
    for module, targets in graph.items():
        for target in targets:
            if _package_of(module) != _package_of(target):
                edges.setdefault(_package_of(module), set()).add(_package_of(target))

    def reaches(start, goal):
        seen, todo = set(), [start]
        while todo:
            for nxt in edges.get(todo.pop(), ()):
                if nxt == goal:
                    return True
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return False

    back = sorted((a, b) for a in edges for b in edges[a] if reaches(b, a))
    assert back == []


LONGEST_FUNCTION = 150
LONG_ALLOWED = {("engine/alphabeta.py", "pvs")}     # the search itself, in numbered steps like Stockfish's search()


def test_no_function_is_too_long_to_read():
    """No function of the engine over 150 lines but ``pvs``."""
    long = []
    for path in sorted(ENGINE.rglob("*.py")):
        if ".numba-cache" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_bytes())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                where = (path.relative_to(ROOT).as_posix(), node.name)
                if node.end_lineno - node.lineno + 1 > LONGEST_FUNCTION and where not in LONG_ALLOWED:
                    long.append((*where, node.end_lineno - node.lineno + 1))
    assert long == []
