"""numba cache locator that invalidates a kernel when any module it depends on changes (see ``_cache``)."""
import hashlib
import re
from functools import lru_cache
from pathlib import Path

from numba.core.caching import UserProvidedCacheLocator

PACKAGE_DIR = Path(__file__).resolve().parent


# An import statement at any indentation: ``from <dots><module> import <names>`` (names in parentheses or
# continued by backslashes) or ``import <modules>``.  A regular expression, not ``ast``: parsing every module
# took 0.35 s of each engine start (a GUI's, a test's), the expression 0.03 s, and it finds the same files in
# every module of the package; a match inside a docstring can only add a dependency, never hide one.
_STATEMENT = re.compile(rb"^[ \t]*(?:from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|(?:\\\r?\n|[^\n#\\])*)"
                        rb"|import[ \t]+((?:\\\r?\n|[^\n#\\])*))", re.M)


def _names(text: bytes) -> list:
    """The imported names of an import statement's tail, without comments and ``as`` aliases."""
    text = re.sub(r"#[^\n]*", "", text.decode()).strip("() \t").replace("\\", " ")
    return [name.split()[0] for name in text.replace("\n", " ").split(",") if name.strip()]


@lru_cache(maxsize=None)
def _imports(path: Path) -> tuple:
    """Source files of this package that ``path`` imports (anywhere in the file, lazy imports included)."""
    package = path.parent
    found = []
    for dots, module, names, modules in _STATEMENT.findall(path.read_bytes()):
        if modules:
            candidates = [PACKAGE_DIR.parent.joinpath(*name.split(".")).with_suffix(".py")
                          for name in _names(modules) if name.startswith("engine")]
        else:
            module = module.decode()
            if not dots:
                if not module.startswith("engine"):
                    continue
                base, parts = PACKAGE_DIR.parent, module.split(".")
            else:
                base = package
                for _ in range(len(dots) - 1):
                    base = base.parent
                parts = module.split(".") if module else []
            target = base.joinpath(*parts)
            candidates = [target.with_suffix(".py"), target / "__init__.py"]
            candidates += [target / f"{name}.py" for name in _names(names)]
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
