"""SPSA tuning of the search's parameters (``engine.search_params``), as fishtest runs it.

Each iteration k draws a random sign Δᵢ = ±1 for every parameter and plays a batch of game pairs (each opening
once from each side) between the engine at θ + c_k Δ and the engine at θ − c_k Δ, both set through the
``SearchParams`` option, so no engine is recompiled.  With R the batch's wins of the first engine minus its
losses, every parameter moves by r_k c_k R Δᵢ (clipped to its range): towards the side that scored.  The gains
follow Spall's schedule, parametrised as fishtest does by their values at the end of the run:
c_k = c_end (N / k)^γ, r_k = r_end ((A + N) / (A + k))^α, with γ = 0.101, α = 0.602, A = N / 10.  Each
parameter's c_end is its ``step`` (``search_params``); r_end (``--rate``) is the same for all: ``RATE``, ten times
fishtest's 0.002, because a run here is a few thousand games, not fishtest's hundred thousand.  With 0.002 and
2,000 pairs, a 5 Elo difference between θ + c and θ − c moves a parameter by a fifth of its step over the
whole run (LMP_BASE: 0.2), and the noise of the games by as much; with 0.02, by two steps, and the noise by as much.

The state (θ, the iteration, the games and their results, where it started) is written after every iteration to
``--state`` (JSON, atomically), and a run started with an existing state goes on from it: a tuning run of
thousands of games spans sittings.  The values it reaches are a candidate only: they are kept if an SPRT of
``SearchParams=<tuned>`` against the defaults passes (the command line to run it is printed at the end).
"""
from __future__ import annotations

import json
import math
import random
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..files import read_text, write_atomically
from ..search_params import BY_NAME, TUNED, format_values

ALPHA, GAMMA = 0.602, 0.101
RATE = 0.02                 # r_end: see above
STATE_VERSION = 1


@dataclass
class State:
    """A tuning run: its settings and where it is."""
    iterations: int                       # N, the planned length (the gains' schedule depends on it)
    rate: float = RATE                    # r_end
    names: list = field(default_factory=lambda: list(TUNED))
    theta: list = field(default_factory=list)     # the current values (floats), in ``names`` order
    k: int = 0                            # iterations done
    games: int = 0
    wins: int = 0                         # of the θ + cΔ engines, over the run
    draws: int = 0
    losses: int = 0
    started: str = ""                     # when and from which commit (provenance)
    commit: str = ""
    tc: str = ""
    game: str = ""
    seed: int = 0

    def __post_init__(self):
        if not self.theta:
            self.theta = [float(BY_NAME[n].default) for n in self.names]

    def params(self):
        return [BY_NAME[n] for n in self.names]

    def values(self) -> dict[str, int]:
        """θ rounded: what an engine plays with."""
        return {n: int(round(t)) for n, t in zip(self.names, self.theta)}

    def gains(self, k: int) -> tuple[list[float], float]:
        """(c_k for each parameter, r_k) at iteration k (from 1)."""
        n = self.iterations
        a = 0.1 * n
        r_k = self.rate * ((a + n) / (a + k)) ** ALPHA
        return [p.step * (n / k) ** GAMMA for p in self.params()], r_k

    def to_json(self) -> str:
        return json.dumps({"version": STATE_VERSION, **self.__dict__}, indent=1)

    @classmethod
    def load(cls, path: str) -> "State":
        """A state file, checked field by field (a file is never trusted: one clear ValueError)."""
        data = json.loads(read_text(path, 1 << 20))
        if not isinstance(data, dict) or data.pop("version", None) != STATE_VERSION:
            raise ValueError(f"{path}: not an SPSA state of version {STATE_VERSION}")
        names, theta = data.get("names"), data.get("theta")
        if (not isinstance(names, list) or not isinstance(theta, list) or len(names) != len(theta)
                or not all(isinstance(n, str) and n in BY_NAME for n in names)
                or not all(isinstance(t, (int, float)) and math.isfinite(t) for t in theta)):
            raise ValueError(f"{path}: unknown parameters or bad values")
        fields = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        for key in ("iterations", "k", "games", "wins", "draws", "losses", "seed"):
            if not isinstance(fields.get(key, 0), int):
                raise ValueError(f"{path}: {key} is not an integer")
        state = cls(**fields)
        if not (isinstance(state.iterations, int) and 0 <= state.k <= state.iterations):
            raise ValueError(f"{path}: bad iteration counts")
        return state


def perturbed(state: State, k: int, rng: random.Random) -> tuple[list[int], dict, dict]:
    """(Δ, the values of the θ + c_k Δ engine, of the θ − c_k Δ engine), each rounded and clipped."""
    c, _ = state.gains(k)
    delta = [rng.choice((-1, 1)) for _ in state.names]
    plus, minus = {}, {}
    for name, t, ci, d, p in zip(state.names, state.theta, c, delta, state.params()):
        plus[name] = min(p.hi, max(p.lo, int(round(t + ci * d))))
        minus[name] = min(p.hi, max(p.lo, int(round(t - ci * d))))
    return delta, plus, minus


def update(state: State, k: int, delta: list[int], result: int) -> None:
    """θᵢ += r_k c_k R Δᵢ, clipped to the range; R = ``result`` (wins minus losses of the + engine)."""
    c, r_k = state.gains(k)
    state.theta = [min(p.hi, max(p.lo, t + r_k * ci * result * d))
                   for t, ci, d, p in zip(state.theta, c, delta, state.params())]
    state.k = k


def play_batch(plus: dict, minus: dict, args, first_opening: int, pool=None) -> tuple[int, int, int]:
    """Games between SearchParams=plus and SearchParams=minus (``args.pairs`` openings, both colours), by the
    match runner (locally, with the engines of ``pool`` where given, or on a Ray cluster): the + engine's (wins,
    draws, losses)."""
    from ..match.engines import EngineSpec, TimeControl
    from ..match.openings import load_openings
    from ..match.runner import Match, MatchConfig
    openings = load_openings(args.openings, args.game)
    chosen = [openings[(first_opening + i) % len(openings)] for i in range(args.pairs)]
    specs = [EngineSpec(cmd=list(args.engine), proto="uci", name=name,
                        options={"UCI_Variant": args.game, "SearchParams": format_values(values),
                                 "Hash": str(args.hash)})
             for name, values in (("plus", plus), ("minus", minus))]
    cfg = MatchConfig(specs=specs, tc=TimeControl.parse(args.tc), games=2 * args.pairs, openings=chosen,
                      concurrency=args.concurrency, game=args.game, cluster=args.cluster, event="spsa",
                      pool=None if args.cluster else pool)
    res = Match(cfg, out=lambda line: None).run()
    if res.interrupted:                 # Ctrl-C: the runner took it and dropped the games in play; so does the run
        raise KeyboardInterrupt
    t = res.pair[(0, 1)]
    return t.wins, t.draws, t.losses


def commit_of_checkout() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              cwd=Path(__file__).resolve().parent, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def run(args, out=print) -> State:
    """Tune until ``args.iterations`` iterations are done (or ``args.stop_after`` more), saving the state after
    each; returns it."""
    state_path = Path(args.state)
    if state_path.exists():
        state = State.load(str(state_path))
        out(f"going on from {state_path}: iteration {state.k} of {state.iterations}, {state.games} games")
    else:
        names = [n.strip().upper() for n in args.params.split(",")] if args.params else list(TUNED)
        unknown = [n for n in names if n not in BY_NAME]
        if unknown:
            raise ValueError(f"unknown search parameters: {', '.join(unknown)}")
        state = State(iterations=args.iterations, rate=args.rate, names=names, seed=args.seed,
                      started=time.strftime("%Y-%m-%d %H:%M:%S"), commit=commit_of_checkout(), tc=args.tc,
                      game=args.game)
    rng = random.Random(f"{state.seed}:{state.k}")
    last = state.iterations if args.stop_after is None else min(state.iterations, state.k + args.stop_after)
    t0 = time.monotonic()
    from ..match.runner import EnginePool
    pool = EnginePool()                 # the engines live through the run: only SearchParams changes
    try:
        for k in range(state.k + 1, last + 1):
            delta, plus, minus = perturbed(state, k, rng)
            w, d, l = play_batch(plus, minus, args, first_opening=(k - 1) * args.pairs, pool=pool)
            update(state, k, delta, w - l)
            state.games += w + d + l
            state.wins, state.draws, state.losses = state.wins + w, state.draws + d, state.losses + l
            write_atomically(state_path, [state.to_json().encode()])
            out(f"iteration {k}/{state.iterations}: +{w} ={d} -{l}, {state.games} games, "
                f"{time.monotonic() - t0:.0f} s; " + format_values(state.values()))
    finally:
        pool.close()
    return state


def report(state: State) -> str:
    """The README's table: each parameter's start and its value now, and how to test them."""
    lines = ["| parameter | start | tuned |", "| --- | ---: | ---: |"]
    tuned = state.values()
    changed = {}
    for p in state.params():
        lines.append(f"| {p.name} | {p.default} | {tuned[p.name]} |")
        if tuned[p.name] != p.default:
            changed[p.name] = tuned[p.name]
    lines.append("")
    lines.append(f"{state.k} of {state.iterations} iterations, {state.games} games at {state.tc} "
                 f"({state.game}), from {state.commit or '?'} on {state.started}.")
    if changed:
        lines.append(f"Test them: shuai sprt HEAD --new-options 'option.SearchParams={format_values(changed)}' "
                     f"--tc {state.tc} --game {state.game}")
    return "\n".join(lines)

