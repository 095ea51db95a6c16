"""numba cache locator that invalidates a kernel when any module it depends on changes (see ``_cache``)."""
import ast
import hashlib
from functools import lru_cache
from pathlib import Path

from numba.core.caching import UserProvidedCacheLocator

PACKAGE_DIR = Path(__file__).resolve().parent


@lru_cache(maxsize=None)
def _imports(path: Path) -> tuple:
    """Source files of this package that ``path`` imports (anywhere in the file, lazy imports included)."""
    tree = ast.parse(path.read_bytes())
    package = path.parent
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 0:
                if not (node.module or "").startswith("engine"):
                    continue
                base, parts = PACKAGE_DIR.parent, node.module.split(".")
            else:
                base = package
                for _ in range(node.level - 1):
                    base = base.parent
                parts = node.module.split(".") if node.module else []
            target = base.joinpath(*parts)
            candidates = [target.with_suffix(".py"), target / "__init__.py"]
            candidates += [target / f"{alias.name}.py" for alias in node.names]
        elif isinstance(node, ast.Import):
            candidates = [PACKAGE_DIR.parent.joinpath(*a.name.split(".")).with_suffix(".py")
                          for a in node.names if a.name.startswith("engine")]
        else:
            continue
        found += [c.resolve() for c in candidates if c.is_file()]
    return tuple(sorted(set(found)))


@lru_cache(maxsize=None)
def dependency_stamp(path: Path) -> str:
    """Hash of ``path`` and of every package module it imports, transitively."""
    seen, todo = set(), [path.resolve()]
    while todo:
        p = todo.pop()
        if p not in seen:
            seen.add(p)
            todo.extend(_imports(p))
    h = hashlib.blake2b(digest_size=16)
    for p in sorted(seen):
        h.update(str(p.relative_to(PACKAGE_DIR.parent)).encode())
        h.update(p.read_bytes())
    return h.hexdigest()


class DependencyLocator(UserProvidedCacheLocator):
    def get_source_stamp(self):
        return dependency_stamp(Path(self._py_file))

    @classmethod
    def get_suitable_cache_subpath(cls, py_file):
        """The module's folder named by its place in the package (``engine_xiangqi_tables``), not by a hash of
        its absolute path as numba does: the stamp already says what the sources are, so a moved copy, or the
        same sources installed elsewhere, finds the kernels compiled for them."""
        folder = Path(py_file).resolve().parent
        if not folder.is_relative_to(PACKAGE_DIR.parent):
            return super().get_suitable_cache_subpath(py_file)
        return "_".join(folder.relative_to(PACKAGE_DIR.parent).parts)
