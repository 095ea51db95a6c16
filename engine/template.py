"""Kernels written once and compiled per game: templates.

The search (``alphabeta``), perft (``perft``), the evaluation's frame (``evaluation``) and the tables' index and
probe (``egtb.index``, ``egtb.probe``) are *templates*: ordinary Python functions that call the game's kernels by
name -- ``generate_moves``, ``make_move``, ``evaluate`` ... (each template lists the names it needs in its
``interface``).  A game module (the game's ``kernels``, ``evaluate``, ``tables.probe`` ...) defines those names
and calls :func:`instantiate`, which
rebinds every template function to a namespace made of the template's own globals plus the game's kernels,
and compiles it with numba.  So the search exists once in the source, and once per game in machine code,
with the game's move generator and evaluation inlined as if written there.

Why rebinding and not a closure or a dispatcher argument: numba cannot cache a kernel that closes over other
dispatchers (the closure pickles differently in every process, numba issue #6264) -- every start would
recompile the search.  A rebound function has no closure: its code object is the template's, given

* the instantiating game module's file as its file name: numba keeps the compiled code beside that file, and
  the project's cache locator (``_numba_locator``) stamps it with that file and everything it imports, the
  template and the game's rules included, so an edit to either recompiles it, and nothing else;
* a qualified name with the game in it (``xiangqi_pvs``), so two games never share an index entry.

(A numba error inside a template kernel therefore names the game's kernels file with the template's line
numbers: read the line in the template.)  A xiangqi process imports only ``xiangqi.kernels``, so it never
compiles chess kernels.  Recursive kernels carry an explicit signature (numba issues #6061/#6713: a cached
recursive kernel reached with other argument types crashes), given as a function of the game namespace.
"""
import builtins
import dis
import threading
import types
from dataclasses import dataclass, field

from numba import njit


@dataclass
class Template:
    """The kernels of one template module, in definition order (a kernel may call only earlier ones and
    itself), and the names a game must supply."""
    module_globals: dict
    interface: tuple
    kernels: list = field(default_factory=list)

    def kernel(self, signature=None, **options):
        """Decorator: record a template kernel.  ``signature``: None (compiled lazily, for the types met) or a
        function of the game namespace returning the explicit numba signature; ``options``: njit's."""
        def record(func):
            self.kernels.append((func, signature, options))
            return func
        return record


class Instance:
    """A template's kernels for one game, by name (``instance.pvs``).  Nothing is compiled or loaded until the
    first name is asked for: then every kernel with an explicit signature is (so perft never waits for the
    search); the others at their first call."""

    def __init__(self, template: Template, game_globals: dict, game_name: str):
        self._args = template, game_globals, game_name
        self._kernels = None
        self._lock = threading.Lock()

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        with self._lock:
            if self._kernels is None:
                self._kernels = _compile(*self._args)
        return getattr(self._kernels, name)


def instantiate(template: Template, game_globals: dict, game_name: str) -> Instance:
    """``template``'s kernels for the game whose kernels module has ``game_globals`` (compiled on first use)."""
    missing = [name for name in template.interface if name not in game_globals]
    if missing:
        raise TypeError(f"{game_name} kernels lack {', '.join(missing)} (needed by the template)")
    return Instance(template, game_globals, game_name)


def _compile(template: Template, game_globals: dict, game_name: str) -> types.SimpleNamespace:
    namespace = dict(template.module_globals)
    namespace.update({name: game_globals[name] for name in template.interface})
    for func, _, _ in template.kernels:           # a name the interface forgot would fail deep inside numba
        unknown = {i.argval for i in dis.get_instructions(func) if i.opname == "LOAD_GLOBAL"} - \
            set(namespace) - set(dir(builtins)) - {f.__name__ for f, _, _ in template.kernels}
        if unknown:
            raise TypeError(f"template kernel {func.__name__} uses {', '.join(sorted(unknown))}, which is "
                            f"neither the template's nor in its interface")
    compiled = {}
    for func, signature, options in template.kernels:
        qualname = f"{game_name}_{func.__name__}"
        code = func.__code__.replace(co_filename=game_globals["__file__"], co_name=qualname)
        if hasattr(code, "co_qualname"):                       # Python 3.11+
            code = code.replace(co_qualname=qualname)
        rebound = types.FunctionType(code, namespace, qualname, func.__defaults__)
        rebound.__qualname__ = qualname
        rebound.__module__ = game_globals["__name__"]
        rebound.__doc__ = func.__doc__
        dispatcher = njit(cache=True, **options)(rebound)
        namespace[func.__name__] = dispatcher                   # later kernels (and this one) call it by name
        if signature is not None:                               # what njit(signature) does, once it is named
            dispatcher.compile(signature(namespace))
            dispatcher.disable_compile()
        compiled[func.__name__] = dispatcher
    return types.SimpleNamespace(**compiled)
