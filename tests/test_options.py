"""The engine's options (issue 27): one table (``core.OPTIONS``) owns each option's default and range, the
dialects only name them, and an option that reaches the searcher is applied when it is set -- or, while a
search runs, before the next one.  Pure Python: a recording searcher stands in for the compiled one."""
import re
import threading
from types import SimpleNamespace

import pytest

from engine.protocol import ucci, uci
from engine.protocol.core import OPTIONS, CommandError, EngineCore, _Search
from engine.protocol.loop import Engine


class RecordingSearcher:
    def __init__(self):
        self.calls = []
        self.tb_depth = None
        self.tablebases = SimpleNamespace(take_errors=lambda: [])

    def set_hash(self, mb):
        self.calls.append(("set_hash", mb))

    def set_threads(self, n):
        self.calls.append(("set_threads", n))

    def new_game(self):
        self.calls.append(("new_game",))

    def set_tablebases(self, tables):
        self.calls.append(("set_tablebases", tables))

    def set_books(self, books, best=False):
        self.calls.append(("set_books", [b.path for b in books], best))

    def set_network(self, game, network=None):
        self.calls.append(("set_network", game.name, network and network.hidden))


class FakeTables(tuple):
    """What the fake ``open_tables`` opens: its arguments, and nothing to say about them."""
    def describe(self) -> str:
        return ""


def loaded_core():
    """An EngineCore whose loader has finished, with a recording searcher."""
    searcher = RecordingSearcher()
    engine = Engine(searcher, None, None, None, None,
                    lambda paths, cache_mb: FakeTables(("tables", paths, cache_mb)),
                    applied={"hash_mb": OPTIONS["hash_mb"].default})
    done = threading.Event()
    done.set()
    loader = SimpleNamespace(engine=engine, done=done, started=True, start=lambda: None, wait=lambda: engine)
    out = SimpleNamespace(lines=lambda lines: None, line=lambda text: None)
    return EngineCore(out, loader), searcher


def test_hash_is_applied_by_setoption():
    core, searcher = loaded_core()
    d = uci.UciDialect(core)
    d.cmd_setoption("name Hash value 16".split())
    assert ("set_hash", 16) in searcher.calls
    searcher.calls.clear()
    d.cmd_setoption("name Hash value 16".split())               # the same size: nothing to do
    assert ("set_hash", 16) not in searcher.calls


def test_threads_reach_the_searcher_in_both_dialects():
    core, searcher = loaded_core()
    uci.UciDialect(core).cmd_setoption("name Threads value 4".split())
    assert [c for c in searcher.calls if c[0] == "set_threads"] == [("set_threads", 4)]
    ucci.UcciDialect(core).cmd_setoption("threads 0".split())   # UCCI's 0: the default, one thread
    assert [c for c in searcher.calls if c[0] == "set_threads"] == [("set_threads", 4), ("set_threads", 1)]
    with pytest.raises(CommandError):
        uci.UciDialect(core).cmd_setoption("name Threads value 257".split())   # beyond the honest maximum


def test_hash_set_during_a_search_is_applied_when_it_has_ended():
    core, searcher = loaded_core()
    d = ucci.UcciDialect(core)
    core._search = _Search(1, [], [], False, True)               # a 'go infinite' that has not printed yet
    d.cmd_setoption("hashsize 32".split())
    assert not [c for c in searcher.calls if c[0] == "set_hash"]
    core._search.printed = True                                  # its bestmove is out
    core.apply_options()                                         # as isready / go do
    assert ("set_hash", 32) in searcher.calls
    d.cmd_setoption("hashsize 0".split())                        # UCCI's 0: the engine decides (the default)
    assert searcher.calls[-1] == ("set_hash", OPTIONS["hash_mb"].default)


def test_table_options_reach_the_searcher():
    core, searcher = loaded_core()
    d = uci.UciDialect(core)
    d.cmd_setoption("name EGTBCache value 8".split())
    assert [c for c in searcher.calls if c[0] == "set_tablebases"][-1] == ("set_tablebases", ("tables", "", 8))
    d.cmd_setoption("name EGTBProbeDepth value 5".split())
    assert searcher.tb_depth == 5


def test_book_options_reach_the_searcher_and_a_bad_book_is_one_line():
    from engine.book import default_book
    from engine.game import XIANGQI
    core, searcher = loaded_core()
    said = []
    core.out = SimpleNamespace(lines=said.extend, line=said.append)
    d = ucci.UcciDialect(core)
    d.cmd_setoption("newgame".split())
    assert not [c for c in searcher.calls if c[0] == "set_books"]          # off: nothing opened
    said.clear()                                                            # the evaluation's note
    d.cmd_setoption("usebook true".split())
    assert searcher.calls[-1] == ("set_books", [str(default_book(XIANGQI))], False)
    d.cmd_setoption("bookfiles /nonexistent/x.book".split())
    assert searcher.calls[-1] == ("set_books", [], False)
    assert said == ["info string error: book /nonexistent/x.book: missing"]
    d.cmd_setoption("usebook false".split())
    assert searcher.calls[-1] == ("set_books", [], False) and len(said) == 1
    n = len([c for c in searcher.calls if c[0] == "set_books"])
    uci.UciDialect(core).cmd_setoption("name Best Book Move value true".split())     # off: nothing to apply
    assert len([c for c in searcher.calls if c[0] == "set_books"]) == n


def test_network_options_reach_the_searcher_and_a_bad_file_is_one_line(tmp_path):
    """``Use NNUE`` / ``EvalFile`` (UCCI ``usennue`` / ``evalfile``): on by default, with the game's own network;
    a network that loads is the searcher's and is named; one that does not is one error line and changes
    nothing (the evaluation in effect stays; where there was none, the game's own network); a game without a network is evaluated by hand, and says so; a
    protocol that plays both games gives each its own network, whichever ``startpos`` means."""
    import numpy as np
    from engine.game import CHESS, XIANGQI
    from engine.nnue.network import Network
    path = tmp_path / "x.nnue"
    Network("xiangqi", np.zeros((1260, 16), np.int16), np.zeros(16, np.int16), np.zeros(32, np.int16), 0).save(path)
    core, searcher = loaded_core()
    said = []
    core.out = SimpleNamespace(lines=said.extend, line=said.append)
    d = ucci.UcciDialect(core)
    d.cmd_setoption("newgame".split())
    assert searcher.calls[-1] == ("set_network", "xiangqi", 128)           # on: the game's own
    assert said == [f"info string evaluation: network {XIANGQI.default_network} (128 hidden, 3 king buckets)"]
    d.cmd_setoption("usennue false".split())
    assert searcher.calls[-1] == ("set_network", "xiangqi", None) and len(said) == 1
    n = len(searcher.calls)
    d.cmd_setoption(f"evalfile {path}".split())
    assert len(searcher.calls) == n                                         # off: nothing opened
    d.cmd_setoption("usennue true".split())
    assert searcher.calls[-1] == ("set_network", "xiangqi", 16)
    assert said[1:] == [f"info string evaluation: network {path} (16 hidden)"]
    d.cmd_setoption("evalfile /nonexistent/x.nnue".split())
    assert searcher.calls[-1] == ("set_network", "xiangqi", 16)              # the network in effect stays
    assert said[2:] == ["info string error: network file /nonexistent/x.nnue: missing; the evaluation stays the "
                        f"network {path} (16 hidden)"]
    (tmp_path / "chess.nnue").write_bytes(path.read_bytes().replace(b"xiangqi", b"chess\0\0"))
    d.cmd_setoption(f"evalfile {tmp_path / 'chess.nnue'}".split())
    assert searcher.calls[-1] == ("set_network", "xiangqi", 16) and "for 'chess', not xiangqi" in said[-1]
    d.cmd_setoption("usennue false".split())
    assert searcher.calls[-1] == ("set_network", "xiangqi", None) and len(said) == 4
    d.cmd_setoption("usennue true".split())                                 # the bad file again: hand-written
    assert searcher.calls[-1] == ("set_network", "xiangqi", None)
    assert said[4].endswith("for 'chess', not xiangqi; the evaluation stays the hand-written one"), said[4]
    d.cmd_setoption("evalfile".split())                                     # "": the game's own again
    assert searcher.calls[-1] == ("set_network", "xiangqi", 128)
    assert XIANGQI.default_network.endswith("engine/xiangqi/network.nnue") and CHESS.default_network is None
    core, searcher = loaded_core()                                          # a game without a network
    core.out = SimpleNamespace(lines=said.extend, line=said.append)
    u = uci.UciDialect(core)
    u.cmd_setoption("name UCI_Variant value chess".split())
    core.apply_options()
    assert searcher.calls[-1] == ("set_network", "chess", None)
    assert said[-1] == "info string evaluation: hand-written (chess has no network yet)"
    assert searcher.calls[-2] == ("set_network", "xiangqi", 128)            # a xiangqi FEN: its own network
    core, searcher = loaded_core()          # a bad file set before the first evaluation (GUIs send options first)
    core.out = SimpleNamespace(lines=said.extend, line=said.append)
    d = ucci.UcciDialect(core)
    core.values["eval_file"] = "/nonexistent/x.nnue"
    core.apply_options()
    assert searcher.calls[-1] == ("set_network", "xiangqi", 128)            # the game's own, not the hand-written
    assert said[-1] == ("info string error: network file /nonexistent/x.nnue: missing; the evaluation stays the "
                        f"network {XIANGQI.default_network} (128 hidden, 3 king buckets)")


def test_level_options_make_one_level():
    core, _ = loaded_core()
    assert core.level() is None
    u = uci.UciDialect(core)
    u.cmd_setoption("name Skill Level value 7".split())
    assert core.level().skill == 7
    u.cmd_setoption("name UCI_LimitStrength value true".split())
    assert core.level() is None                                             # UCI_Elo's default: the table's top
    u.cmd_setoption("name UCI_Elo value 1250".split())                   # the lowest offered: skill 8
    assert core.level().skill == 8
    with pytest.raises(CommandError, match="UCI_Elo 1000 out of range"):    # skills 0-7 were not measurable
        u.cmd_setoption("name UCI_Elo value 1000".split())
    core, _ = loaded_core()
    d = ucci.UcciDialect(core)
    d.cmd_setoption("randomness small".split())
    assert core.level().temperature == 10 and core.level().skill == 20
    d.cmd_setoption("knowledge none".split())
    assert not core.level().tables and not core.level().book
    with pytest.raises(CommandError, match="knowledge must be one of none, small, medium, large"):
        d.cmd_setoption("knowledge huge".split())


def test_option_defaults_and_ranges_come_from_one_table():
    """Every option either dialect advertises is an OPTIONS entry (or one of UCCI's own settings), with the
    default and range written there; the core starts from those defaults."""
    core, _ = loaded_core()
    assert core.values == {key: option.default for key, option in OPTIONS.items()}
    out = []
    d = uci.UciDialect(SimpleNamespace(out=SimpleNamespace(lines=out.extend), choose_games=lambda g, v: None))
    d.cmd_uci([])
    for line in out:
        m = re.match(r"option name (.+?) type (\w+)(?: default (\S+))?(?: min (\d+) max (\d+))?", line)
        if not m:
            continue
        spec = OPTIONS[uci.NAMES[m.group(1)]]
        assert m.group(2) == spec.type
        if spec.type == "spin":
            assert (int(m.group(3)), int(m.group(4)), int(m.group(5))) == (spec.default, spec.min, spec.max)
    assert set(uci.NAMES.values()) <= set(OPTIONS)
    assert set(ucci.NAMES.values()) <= set(OPTIONS) | set(ucci.SETTINGS)
    assert not set(ucci.SETTINGS) & set(OPTIONS)                 # each option has one owner
    out.clear()
    d = ucci.UcciDialect(SimpleNamespace(out=SimpleNamespace(lines=out.extend), choose_games=lambda g, v: None))
    d.cmd_ucci([])
    spins = {m.group(1): (int(m.group(2)), int(m.group(3)), int(m.group(4))) for m in
             (re.match(r"option (\w+) type spin min (\d+) max (\d+) default (\d+)", ln) for ln in out) if m}
    assert spins["hashsize"] == (0, OPTIONS["hash_mb"].max, OPTIONS["hash_mb"].default)     # 0: the default
    assert spins["egtbcache"] == (OPTIONS["table_cache_mb"].min, OPTIONS["table_cache_mb"].max,
                                  OPTIONS["table_cache_mb"].default)


def test_a_load_failure_is_reported_by_its_type_and_go_answers_no_move():
    from engine.protocol.core import LoadError

    def wait():
        raise LoadError("engine failed to load: ImportError: no numba")
    done = threading.Event()
    done.set()
    loader = SimpleNamespace(engine=None, done=done, started=True, start=lambda: None, wait=wait)
    out = []
    core = EngineCore(SimpleNamespace(lines=out.extend, line=out.append), loader)
    uci.UciDialect(core).start_search({"depth": 3})
    assert out == ["info string error: engine failed to load: ImportError: no numba", "info depth 0 score mate 0",
                   "bestmove (none)"]
