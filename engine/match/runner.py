"""The match runner: schedules games between two or more engines (round robin), plays them on worker
threads (one game per worker, each worker with its own engine processes, or a pool's kept between matches:
``EnginePool``), writes PGN, keeps the score and stops early when an SPRT decides.  The game is xiangqi
(xiangqi PGN, engine.match.xiangqi_pgn) or chess (PGN through python-chess, engine.match.chess_pgn): the game's PGN
module (``Game.pgn()``) writes the record.
"""
from __future__ import annotations

import datetime
import math
import os
import queue
import socket
import stat
import threading
import time
from collections import Counter
from dataclasses import dataclass, field, replace

from .adjudication import DrawRule, ResignRule
from .engines import EngineError, EngineLog, EngineSpec, TimeControl, kill_all, start_engine
from ..files import clip
from ..game import DEFAULT, GAMES, game_named
from .referee import GameOptions, GameRecord, play_game
from .openings import Opening, path_from_start
from .stats import PAIR_KINDS, Sprt, elo_estimate, format_elo, pair_kind, pentanomial, unpaired


@dataclass
class MatchConfig:
    specs: list[EngineSpec]
    tc: TimeControl
    games: int = 2                          # per pairing
    openings: list[Opening] | None = None
    concurrency: int = 1
    pgn_path: str | None = None
    sprt: Sprt | None = None
    max_plies: int = 0
    draw: DrawRule | None = None            # adjudication by the engines' scores (engine.match.adjudication)
    resign: ResignRule | None = None
    margin: float = 0.05
    hang_timeout: float = 2.0
    handshake_timeout: float = 30.0
    log_path: str | None = None
    event: str = "shuai match"
    game: str = DEFAULT.name                # a Game name
    resume: tuple[int, int, int] | None = None  # an earlier run of the same two engines: wins, draws, losses of
                                                # the first; counted in the score and the SPRT, and the schedule
                                                # goes on after its games (the next openings)
    resume_pairs: tuple[int, ...] | None = None # ... and its complete opening pairs, counted by PAIR_KINDS
    cluster: str | None = None              # a Ray address ("auto", "HOST:PORT"): games as Ray tasks
    pool: EnginePool | None = None          # engines kept running after the match, for the next one (SPSA)


def stop_on_sigterm() -> None:
    """Make SIGTERM stop a run as Ctrl-C does (the runner kills its engines, which live in sessions of their own
    and would outlive the process, and the caller reports what it has).  A job started in the background ignores
    SIGINT, so SIGTERM is how it is stopped.  Only the main thread may set a handler: elsewhere nothing is done."""
    import signal

    def terminate(signum, frame):
        raise KeyboardInterrupt
    try:
        signal.signal(signal.SIGTERM, terminate)
    except ValueError:                  # not the main thread (e.g. under a test runner)
        pass


class EnginePool:
    """Started engines kept between matches: SPSA plays thousands of two-game matches between the same two
    commands with other options each time, and starting four engines a match made an iteration take 15 s instead
    of 8.  ``take`` hands out a free live engine of the same command and protocol, sending only the options that
    changed (``isready`` after them), or starts one; ``give`` takes it back after the match; ``close`` quits them
    all."""

    def __init__(self):
        self._free: dict[tuple, list] = {}
        self._options: dict[int, dict] = {}         # id(engine) -> the options it was last set to
        self._lock = threading.Lock()

    @staticmethod
    def _kind(spec: EngineSpec, game: str) -> tuple:
        return tuple(spec.cmd), spec.proto, spec.dir, game

    def _pop(self, kind: tuple):
        with self._lock:
            free = self._free.get(kind)
            return free.pop() if free else None

    def take(self, spec: EngineSpec, game: str, log: EngineLog, start):
        """A live engine for ``spec`` and ``game`` set to the spec's options, writing to ``log``: a free one, or
        ``start()``'s."""
        kind = self._kind(spec, game)
        while (eng := self._pop(kind)) is not None:
            had = self._options.pop(id(eng), {})
            if not eng.dead and set(had) <= set(spec.options):      # an option cannot be unset: start afresh
                changed = {k: v for k, v in spec.options.items() if had.get(k) != v}
                eng.rebind(spec, log)
                try:
                    for k, v in changed.items():
                        eng.setoption(k, v)
                    if changed:
                        eng.sync()
                    self._options[id(eng)] = dict(spec.options)
                    return eng
                except EngineError:
                    pass
            eng.quit()
        eng = start()
        self._options[id(eng)] = dict(spec.options)
        return eng

    def give(self, spec: EngineSpec, game: str, eng) -> None:
        if eng.dead:
            self._options.pop(id(eng), None)
            eng.quit()
            return
        eng.rebind(spec, EngineLog(None))               # the match's log closes with it
        with self._lock:
            self._free.setdefault(self._kind(spec, game), []).append(eng)

    def close(self) -> None:
        with self._lock:
            engines = [e for free in self._free.values() for e in free]
            self._free.clear()
        for eng in engines:
            eng.quit()
        self._options.clear()


@dataclass
class Job:
    number: int
    red: int                                 # engine indices
    black: int
    opening_index: int
    opening: Opening


@dataclass
class Tally:
    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def add(self, points: float) -> None:
        if points == 1.0:
            self.wins += 1
        elif points == 0.0:
            self.losses += 1
        else:
            self.draws += 1


@dataclass
class MatchResult:
    names: list[str]
    records: list[tuple[Job, GameRecord]] = field(default_factory=list)
    pair: dict = field(default_factory=dict)          # (i, j), i < j -> Tally from i's side
    total: dict = field(default_factory=dict)         # i -> Tally against the field
    reasons: Counter = field(default_factory=Counter)
    sprt_decision: str | None = None
    llr: float | None = None
    # A two-engine match's complete opening pairs (both colours of one opening), from the first engine's side,
    # counted by engine.match.stats.PAIR_KINDS: the SPRT takes them as pairs (pentanomial), the other games
    # alone.  A game whose partner is still to be played waits in ``half_pairs`` (schedule index // 2 -> the
    # first engine's points in it) and counts in the SPRT only with it; when the match ends without the
    # partner, it counts alone, as a game whose partner this run never had (a resumed schedule's first).
    pairs: list[int] = field(default_factory=lambda: [0] * len(PAIR_KINDS))
    half_pairs: dict = field(default_factory=dict)
    interrupted: bool = False
    seconds: float = 0.0
    # Resident memory of each engine process over its games, for leaks in long matches:
    # (engine index, pid) -> [MB after its first game, MB after its latest game, games played]
    memory: dict = field(default_factory=dict)


def schedule(n_engines: int, games: int, openings: list[Opening], first: int = 0) -> list[Job]:
    """Each pairing plays ``games`` games, numbered from ``first`` (a resumed match goes on where the earlier
    run stopped); game g of a pairing uses opening g//2 (cycling through the list) with colours swapped every
    game, so each opening is played once from each side.  Pairings are interleaved so that an early stop leaves
    every pairing equally advanced."""
    pairs = [(i, j) for i in range(n_engines) for j in range(i + 1, n_engines)]
    jobs = []
    for g in range(first, first + games):
        k = (g // 2) % len(openings)
        for i, j in pairs:
            red, black = (i, j) if g % 2 == 0 else (j, i)
            jobs.append(Job(first * len(pairs) + len(jobs) + 1, red, black, k, openings[k]))
    return jobs


def pairs_of(jobs: list[Job]) -> list[list[Job]]:
    """The jobs in groups of one opening played with colours swapped (two consecutive games of one pairing on
    one opening), or alone: a cluster task plays a group with one start of each engine."""
    groups: list[list[Job]] = []
    for job in jobs:
        last = groups[-1] if groups else None
        if (last and len(last) == 1 and last[0].opening_index == job.opening_index
                and (last[0].red, last[0].black) == (job.black, job.red)):
            last.append(job)
        else:
            groups.append([job])
    return groups


def play_jobs(cfg: MatchConfig, names: list[str], jobs: list[Job]) -> tuple[list, dict]:
    """A cluster task: play ``jobs`` with engine processes of its own, started here on the worker and closed
    after the last game, by the same code as a local worker thread; the records go back to the driver, which
    scores them and writes the PGN.  Returns ([(job, record or None)], the engines' resident memory as
    ``MatchResult.memory`` keyed by (engine index, "host:pid"))."""
    match = Match(replace(cfg, log_path=None, pgn_path=None, sprt=None, cluster=None), out=lambda text: None)
    match.names = names
    match.result = MatchResult(names)
    engines: dict = {}
    played = []
    try:
        for job in jobs:
            played.append((job, match._play(job, engines)))
            match._measure(engines)
    finally:
        for eng in engines.values():
            eng.quit()
    host = socket.gethostname()
    return played, {(i, f"{host}:{pid}"): seen for (i, pid), seen in match.result.memory.items()}


class Match:
    def __init__(self, cfg: MatchConfig, out=print, progress=None):
        if len(cfg.specs) < 2:
            raise ValueError("a match needs at least two engines")
        self.cfg = cfg
        self.out = out
        self.log = EngineLog(cfg.log_path)
        if cfg.game not in [g.name for g in GAMES]:
            raise ValueError(f"unknown game {cfg.game!r} ({' or '.join(g.name for g in GAMES)})")
        self.opts = GameOptions(cfg.tc, margin=cfg.margin, hang_timeout=cfg.hang_timeout, max_plies=cfg.max_plies,
                                draw=cfg.draw, resign=cfg.resign, game=cfg.game)
        self.openings = cfg.openings or [Opening(game_named(cfg.game).start_fen)]
        if cfg.resume is not None and (len(cfg.specs) != 2 or min(cfg.resume) < 0):
            raise ValueError("resume takes the wins, draws and losses of an earlier two-engine run")
        if cfg.resume_pairs is not None:
            if cfg.resume is None or len(cfg.resume_pairs) != len(PAIR_KINDS) or min(cfg.resume_pairs) < 0:
                raise ValueError(f"resume's pairs are {len(PAIR_KINDS)} counts ({', '.join(PAIR_KINDS)}) beside "
                                 "its wins, draws and losses")
            unpaired(*cfg.resume, cfg.resume_pairs)         # no more pairs of a result than games of it
        self.jobs = schedule(len(cfg.specs), cfg.games, self.openings, sum(cfg.resume or ()))
        self._pair_games = Counter((job.number - 1) // 2 for job in self.jobs)    # two: both games scheduled
        self._paths: dict[int, list[str] | None] = {}
        self._spare: dict = {}                      # engine index -> started engine, from the preflight
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._queue: queue.Queue = queue.Queue()
        self.names: list[str] = []
        self.result: MatchResult | None = None
        self.progress = progress                    # progress(games done, games scheduled, score line)
        self._date = datetime.date.today().strftime("%Y.%m.%d")

    # -- set-up ---------------------------------------------------------------------------------------------
    def _preflight(self) -> None:
        """Start every engine once: detect its protocol and name, and fail early on a bad command."""
        names = []
        for spec in self.cfg.specs:
            try:
                eng = self._start(spec)
            except EngineError as e:
                raise ValueError(f"engine {spec.label!r} did not start: {e}") from None
            names.append(eng.name)
            self.out(f"Engine {len(names)}: {eng.name} ({eng.proto}: {' '.join(spec.cmd)})")
            self._spare[len(names) - 1] = eng         # handed to the first worker that needs it
        seen, given = Counter(), list(names)        # two engines of one name: "Shuai #1", "Shuai #2"
        for i, n in enumerate(given):
            seen[n] += 1
            if given.count(n) > 1:
                names[i] = f"{n} #{seen[n]}"
        for spec, n in zip(self.cfg.specs, names):
            spec.name = n
        self.names = names

    def _path(self, k: int):
        with self._lock:
            if k not in self._paths:
                self._paths[k] = path_from_start(self.openings[k].fen, game=self.cfg.game)
            return self._paths[k]

    # -- running --------------------------------------------------------------------------------------------
    def run(self) -> MatchResult:
        t_start = time.monotonic()
        self._preflight()
        n = len(self.names)
        res = self.result = MatchResult(self.names)
        res.pair = {(i, j): Tally() for i in range(n) for j in range(i + 1, n)}
        res.total = {i: Tally() for i in range(n)}
        if self.cfg.resume is not None:
            w, d, l = self.cfg.resume
            res.pair[(0, 1)], res.total[0], res.total[1] = Tally(w, d, l), Tally(w, d, l), Tally(l, d, w)
            res.pairs = list(self.cfg.resume_pairs or res.pairs)
        if self.cfg.sprt and n != 2:
            self.out("warning: SPRT ignored (it needs exactly two engines)")
        elif self.cfg.sprt and self.cfg.resume is not None:
            res.llr = match_llr(self.cfg.sprt, res)
            res.sprt_decision = self.cfg.sprt.verdict(res.llr)
            if res.sprt_decision:                   # the games resumed decide it already: none is played
                self.out(f"SPRT: the resumed games' LLR {res.llr:.2f} is past a bound: {res.sprt_decision} "
                         f"accepted; nothing to play")
                self._stop.set()
        if self.cfg.cluster:
            self._run_on_cluster(t_start)
            res.half_pairs.clear()                  # games whose partner was not played count alone now
            return res
        for job in self.jobs:
            self._queue.put(job)
        workers = [threading.Thread(target=self._worker, name=f"game-worker-{w}", daemon=True)
                   for w in range(max(1, min(self.cfg.concurrency, len(self.jobs))))]
        self._announce(len(workers))
        for w in workers:
            w.start()
        try:
            while any(w.is_alive() for w in workers):
                for w in workers:
                    w.join(timeout=0.2)
        except KeyboardInterrupt:
            res.interrupted = True           # games in progress are dropped, not scored
            self._stop.set()
            kill_all()
            for w in workers:                # a worker may be starting an engine right now
                w.join(timeout=2.0)
            self.out("interrupted: engines killed")
        finally:
            for idx, eng in self._spare.items():
                self._release(idx, eng)
            if self.cfg.pool is None or res.interrupted:
                kill_all()
            self.log.close()
        res.seconds = time.monotonic() - t_start
        res.half_pairs.clear()
        return res

    def _announce(self, concurrency: int, where: str = "") -> None:
        which = "" if self.cfg.game == DEFAULT.name else f" ({self.cfg.game})"       # the default game goes unsaid
        tcs = [spec.tc or self.cfg.tc for spec in self.cfg.specs]
        clock = str(tcs[0]) if len(set(tcs)) == 1 else "time odds " + " vs ".join(map(str, tcs))
        self.out(f"Match{which}: {len(self.jobs)} games, {clock}, "
                 f"concurrency {concurrency}{where}"
                 + (f", SPRT {self.cfg.sprt}" if self.cfg.sprt and len(self.names) == 2 else "")
                 + (f", draw {self.cfg.draw}" if self.cfg.draw else "")
                 + (f", resign {self.cfg.resign}" if self.cfg.resign else ""))

    def _run_on_cluster(self, t_start: float) -> MatchResult:
        """The games as Ray tasks (``play_jobs``, one opening pair each), at most ``concurrency`` at a time
        (0: one per CPU of the cluster), so that an SPRT decision stops the farm after the games in flight;
        results are scored as they arrive, in the order they finish."""
        from ..cluster import cluster_cpus, connect
        res = self.result
        for eng in self._spare.values():            # the preflight's engines: the workers start their own
            eng.quit()
        self._spare.clear()
        ray = connect(self.cfg.cluster)
        task = ray.remote(num_cpus=1, max_retries=2)(play_jobs)
        shared = ray.put(self.cfg)                  # play_jobs drops what only the driver does (PGN, log, SPRT)
        groups = iter(pairs_of(self.jobs))
        slots = self.cfg.concurrency or cluster_cpus(ray)
        self._announce(slots, f" on Ray ({cluster_cpus(ray)} CPUs)")
        pending: dict = {}

        def submit() -> None:
            group = next(groups, None)
            if group is not None:
                pending[task.remote(shared, self.names, group)] = group
        for _ in range(slots):
            submit()
        try:
            while pending:
                done, _ = ray.wait(list(pending), num_returns=1, timeout=0.5)
                for ref in done:
                    group = pending.pop(ref)
                    try:
                        played, memory = ray.get(ref)
                    except Exception as e:              # the task failed for good (Ray's retries spent)
                        self.out(f"Games {', '.join(str(j.number) for j in group)}: lost on the cluster ({e!r}); "
                                 "not scored")
                        played, memory = [], {}
                    res.memory.update(memory)
                    for job, rec in played:             # a pair's second game after a decision counts,
                        if rec is not None:                 # as a local game in flight does
                            self._finished(job, rec)
                    if not self._stop.is_set():
                        submit()
                if self._stop.is_set():
                    break
        except KeyboardInterrupt:
            res.interrupted = True
            self.out("interrupted: cluster games cancelled")
        finally:
            for ref in pending:                         # an SPRT decision or Ctrl-C: games in flight are dropped
                ray.cancel(ref, force=True)
            self.log.close()
        res.seconds = time.monotonic() - t_start
        return res

    def _worker(self) -> None:
        engines: dict = {}
        try:
            while not self._stop.is_set():
                try:
                    job = self._queue.get_nowait()
                except queue.Empty:
                    break
                try:
                    rec = self._play(job, engines)
                except Exception as e:            # a referee bug must not silently swallow the rest of a match
                    import traceback
                    traceback.print_exc()
                    self.out(f"Game {job.number}: internal error ({e!r}); game not scored")
                    for eng in engines.values():
                        eng.kill()
                    engines.clear()
                    continue
                if rec is not None and not self.result.interrupted:
                    self._finished(job, rec)
                    self._measure(engines)
        finally:
            for idx, eng in engines.items():
                self._release(idx, eng)

    def _start(self, spec: EngineSpec):
        """A started engine for ``spec``: from the pool where there is one."""
        start = lambda: start_engine(spec, self.log, self.cfg.handshake_timeout, game=self.cfg.game)  # noqa: E731
        return self.cfg.pool.take(spec, self.cfg.game, self.log, start) if self.cfg.pool is not None else start()

    def _release(self, idx: int, eng) -> None:
        """An engine the match is done with: back to the pool, or quit."""
        if self.cfg.pool is not None:
            self.cfg.pool.give(self.cfg.specs[idx], self.cfg.game, eng)
        else:
            eng.quit()

    def _engine(self, engines: dict, idx: int):
        eng = engines.get(idx)
        if eng is not None and not eng.dead:
            return eng
        if eng is not None:
            eng.quit()                 # restart a crashed or hung engine for the next game
        with self._lock:
            eng = self._spare.pop(idx, None)
        if eng is not None and not eng.dead:
            engines[idx] = eng
            return eng
        eng = self._start(self.cfg.specs[idx])
        engines[idx] = eng
        return eng

    def _play(self, job: Job, engines: dict) -> GameRecord | None:
        players = []
        for side, idx in enumerate((job.red, job.black)):
            try:
                players.append(self._engine(engines, idx))
            except EngineError as e:
                engines.pop(idx, None)
                rec = GameRecord(self.names[job.red], self.names[job.black], job.opening, list(job.opening.moves))
                rec.result = "0-1" if side == 0 else "1-0"
                rec.reason, rec.loser_side = e.reason, side
                rec.detail = f"{self.names[idx]} could not be started: {e}"
                return rec
        if self._stop.is_set():
            return None
        for eng in players:
            eng.playing(job.number)
        return play_game(players[0], players[1], job.opening, self.opts, path=lambda: self._path(job.opening_index),
                         red_name=self.names[job.red], black_name=self.names[job.black])

    # -- book-keeping ---------------------------------------------------------------------------------------
    def _finished(self, job: Job, rec: GameRecord) -> None:
        res = self.result
        with self._lock:
            res.records.append((job, rec))
            res.reasons[rec.reason] += 1
            red_points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(rec.result)
            if red_points is not None:
                i, j = sorted((job.red, job.black))
                p_i = red_points if job.red == i else 1.0 - red_points
                res.pair[(i, j)].add(p_i)
                res.total[job.red].add(red_points)
                res.total[job.black].add(1.0 - red_points)
                pair = (job.number - 1) // 2           # two engines: the schedule's game g is numbered g + 1
                if len(self.names) == 2 and self._pair_games[pair] == 2:
                    partner = res.half_pairs.pop(pair, None)
                    if partner is None:
                        res.half_pairs[pair] = p_i
                    else:
                        res.pairs[pair_kind(partner, p_i)] += 1
            self._write_pgn(job, rec)
            line = (f"Game {job.number}/{self.jobs[-1].number}: {rec.red} vs {rec.black}: {rec.result} "
                    f"{{{rec.detail or rec.reason}}} ({rec.plies} plies)")
            self.out(line)
            score = self._score_line()
            self.out(score)
            if self.progress:
                self.progress(len(res.records), len(self.jobs), score)
            sprt = self.cfg.sprt
            if sprt and len(self.names) == 2:
                res.llr = match_llr(sprt, res)
                decision = sprt.verdict(res.llr)
                if decision and not res.sprt_decision:
                    res.sprt_decision = decision
                    self.out(f"SPRT: LLR {res.llr:.2f} crossed {'upper' if decision == 'H1' else 'lower'} "
                             f"bound: {decision} accepted; stopping")
                    self._stop.set()

    def _measure(self, engines: dict) -> None:
        for idx, eng in engines.items():
            mb = eng.p.resident_mb() if eng.p is not None and not eng.dead else None
            if mb is None:
                continue
            with self._lock:
                seen = self.result.memory.setdefault((idx, eng.p.proc.pid), [mb, mb, 0])
                seen[1], seen[2] = mb, seen[2] + 1

    def _score_line(self) -> str:
        res = self.result
        if len(self.names) == 2:
            t = res.pair[(0, 1)]
            e = elo_estimate(t.wins, t.draws, t.losses)
            s = f"Score of {self.names[0]} vs {self.names[1]}: {t.wins} - {t.losses} - {t.draws}  " \
                f"[{e.score:.3f}] {t.games}  Elo {format_elo(e)}"
            if self.cfg.sprt:
                s += f"  LLR {match_llr(self.cfg.sprt, res):.2f} " \
                     f"[{self.cfg.sprt.lower:.2f}, {self.cfg.sprt.upper:.2f}]"
            return s
        done = sum(t.games for t in res.pair.values())
        parts = [f"{self.names[i]} {t.wins + t.draws / 2:g}/{t.games}" for i, t in res.total.items()]
        return f"Standings after {done} games: " + ", ".join(parts)

    def _write_pgn(self, job: Job, rec: GameRecord) -> None:
        if not self.cfg.pgn_path:
            return
        game = game_named(self.cfg.game)
        first, second = (name.capitalize() for name in game.side_names)        # Red / White, Black
        own = [self.cfg.specs[i].tc or self.cfg.tc for i in (job.red, job.black)]
        played = own[0] if own[0] == own[1] else self.cfg.tc     # both engines' tc= the same: that clock
        tags = {"Event": self.cfg.event, "Site": "?", "Date": self._date, "Round": str(job.number),
                first: rec.red, second: rec.black, "TimeControl": played.pgn(),
                "PlyCount": str(rec.plies), "Termination": rec.reason}
        if own[0] != own[1]:                        # time odds: each side's clock, as cutechess-cli writes them
            tags.update({f"{first}TimeControl": own[0].pgn(), f"{second}TimeControl": own[1].pgn()})
        text = game.pgn().format_record(tags, rec.opening.fen, rec.moves, rec.detail or rec.reason, rec.result)
        try:
            with open(self.cfg.pgn_path, "a", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:                # a full disk, a file gone: said, and the match goes on
            self.out(f"Game {job.number}: not written to {clip(self.cfg.pgn_path, 200)}: {e.strerror or e}")


def check_appendable(path: str) -> None:
    """ValueError (one line) unless lines can be appended to ``path`` -- a regular file, or a new one in a
    directory that exists -- so that a bad --pgn or --log fails before the match, not after its first game.
    A missing file is created (empty); nothing is opened so that it could block (a FIFO without a reader)."""
    shown = clip(path, 200)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as e:
        raise ValueError(f"{shown}: {e.strerror}") from None
    if mode is not None and not stat.S_ISREG(mode):
        raise ValueError(f"{shown}: not a regular file")
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK, 0o666))
    except OSError as e:
        raise ValueError(f"{shown}: cannot write to it ({e.strerror})") from None


def match_llr(sprt: Sprt, res: MatchResult) -> float:
    """The SPRT's LLR of a two-engine match: its complete pairs as pairs, its other games alone, but for those
    whose partner is still to be played."""
    t = res.pair[(0, 1)]
    waiting = Counter(res.half_pairs.values())
    return sprt.llr_record(t.wins - waiting[1.0], t.draws - waiting[0.5], t.losses - waiting[0.0], res.pairs)


def summary(res: MatchResult, sprt: Sprt | None = None) -> str:
    """The final table."""
    lines = []
    n = len(res.names)
    played = len(res.records)
    lines.append(f"Finished: {played} games in {res.seconds:.1f} s" + (" (interrupted)" if res.interrupted else ""))
    if n == 2:
        t = res.pair[(0, 1)]
        e = elo_estimate(t.wins, t.draws, t.losses)
        lines.append(f"Score of {res.names[0]} vs {res.names[1]}: {t.wins} - {t.losses} - {t.draws}  "
                     f"[{e.score:.3f}] {t.games}" if t.games else "No games scored")
        if t.games:
            lines.append(f"Elo difference: {format_elo(e)}, LOS: {100 * e.los:.1f} %, "
                         f"DrawRatio: {100 * e.draw_ratio:.1f} %")
            alone = sum(unpaired(t.wins, t.draws, t.losses, res.pairs))
            lines.append(f"Opening pairs: {sum(res.pairs)}, scoring 0, 1/2, 1, 1 1/2, 2: "
                         f"{', '.join(map(str, pentanomial(res.pairs)))}; games outside a pair: {alone}")
        if sprt:
            verdict = {"H1": "H1 accepted", "H0": "H0 accepted"}.get(res.sprt_decision, "no decision")
            lines.append(f"SPRT ({sprt}): LLR {match_llr(sprt, res):.2f} (bounds {sprt.lower:.2f}, "
                         f"{sprt.upper:.2f}): {verdict}")
        if t.games:
            lines.append(f"Resume with --resume {t.wins},{t.draws},{t.losses}/{','.join(map(str, res.pairs))}")
    w = max(len(x) for x in res.names + ["Engine"])
    lines.append(f"{'Rank':>4}  {'Engine':<{w}}  {'Elo':>7}  {'+/-':>6}  {'Games':>5}  {'Score':>6}  "
                 f"{'W':>4} {'D':>4} {'L':>4}")
    ranked = sorted(res.total.items(), key=lambda kv: -((kv[1].wins + kv[1].draws / 2) / kv[1].games
                                                         if kv[1].games else 0))
    for rank, (i, t) in enumerate(ranked, 1):
        e = elo_estimate(t.wins, t.draws, t.losses)
        elo = "-" if not t.games else ("inf" if math.isinf(e.elo) and e.elo > 0 else
                                       "-inf" if math.isinf(e.elo) else f"{e.elo:+.0f}")
        err = "-" if math.isnan(e.error) else f"{e.error:.0f}"
        score = f"{100 * e.score:.1f}%" if t.games else "-"
        lines.append(f"{rank:>4}  {res.names[i]:<{w}}  {elo:>7}  {err:>6}  {t.games:>5}  {score:>6}  "
                     f"{t.wins:>4} {t.draws:>4} {t.losses:>4}")
    if n > 2:
        lines.append("Pairings (first engine's view): " + "; ".join(
            f"{res.names[i]} vs {res.names[j]} +{t.wins} ={t.draws} -{t.losses}" for (i, j), t in res.pair.items()))
    longest, largest = {}, {}           # each engine's longest-lived process; the most any of its processes held
    for (i, pid), (first, last, games) in res.memory.items():
        if games > longest.get(i, (0,))[0]:
            longest[i] = (games, first, last)
        procs, mb = largest.get(i, (0, 0.0))
        largest[i] = (procs + 1, max(mb, first, last))
    for i, (games, first, last) in sorted(longest.items()):
        if games > 1:
            procs, mb = largest[i]
            lines.append(f"Memory of {res.names[i]} (resident): {first:.0f} MB after its first game, "
                         f"{last:.0f} MB after {games} games ({100 * (last - first) / first:+.1f} %)"
                         + (f"; {procs} processes, the largest {mb:.0f} MB" if procs > 1 else ""))
    if res.reasons:
        lines.append("Endings: " + ", ".join(f"{r or 'unknown'} {c}" for r, c in res.reasons.most_common()))
    return "\n".join(lines)
