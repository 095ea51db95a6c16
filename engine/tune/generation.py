"""One generation of the evaluation network: the network in effect plays, its child learns, an SPRT judges.

    python -m engine.tune generation --game xiangqi          (make nnue-generation GAME=xiangqi)

1. **Self-play.**  The parent -- the game's network (``engine/<game>/network.nnue``), or the hand-written
   evaluation where the game has none -- plays positions files of ``games_per_file`` games each at the tuner's
   node count, one seed a file (``seed<N>.bin``), until its own files hold ``positions`` positions.
2. **Training.**  The child starts from the parent's weights (``nnue_train.check_parent``: the same game and
   architecture) and learns on the replay buffer (the newest older files, up to ``replay`` positions) followed
   by the parent's files, so that the held-out tail is the parent's newest games; the parent's loss on that tail
   goes in the provenance beside the child's.  After the hand-written evaluation the child is generation 0: it
   starts from the game's *candidate* (``candidate.nnue`` in its package) where there is one, else from random
   weights, trained as a first network is (``nnue_train.Settings``' epochs and rate).
3. **SPRT.**  The child against its parent: the same frozen copy of the engine, ``EvalFile`` the only
   difference; the row goes to docs/results/sprt.tsv as every SPRT's does.
4. **Kept** only with H1: the child becomes ``engine/<game>/network.nnue``, a row goes to
   docs/results/networks.tsv, and the commit to make is printed (the network is what must survive).
   A child of the hand-written evaluation is also *banked* as soon as it is trained: it becomes the game's
   candidate, committed but not played by default, so that a first network too large for one sitting's
   self-play (chess) grows sitting by sitting even when the data folder is lost between them.

The data live outside the work tree, which is laid anew between sittings while the machine is often kept:
``$SHUAI_SELFPLAY`` or ``~/.cache/shuai/selfplay``, a folder a game.  Every step leaves its result there as a
file written whole (``files.atomic_writer``): the seeds played, ``child-<parent>.nnue``, ``sprt-<parent>-<child>
.json``; the same command after an interruption goes on from the last whole file.  Losing the folder costs one
generation's games, never the network, which is committed (nor the candidate, which is too).
"""
from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

from ..files import atomic_writer, remove_stale_temporaries
from ..game import ROOT, Game
from ..nnue.network import Network, load
from .nnue_data import Positions, crc_of, generate, player, source_commit
from .selfplay import Settings as SelfplaySettings

HAND_WRITTEN = "none"           # the parent's name in file names when it is the hand-written evaluation
CANDIDATE = "candidate.nnue"    # a game's unfinished first network, in its package: not yet better than the
                                # hand-written evaluation, the weights the next generation 0 starts from
CHILD_EPOCHS, CHILD_LR = 2, 1e-4    # a child of a network starts near its optimum: few epochs at a tenth of the
                                    # first network's rate overfit least (docs/tuning-and-network.md, Generations)
NETWORKS = ROOT / "docs" / "results" / "networks.tsv"
COLUMNS = ("date", "game", "generation", "network_crc32", "parent_crc32", "positions", "new_positions",
           "held_out_loss", "parent_held_out_loss", "sprt", "verdict", "commit")
SEED_FILE = re.compile(r"seed(\d+)\.bin")


def data_root() -> Path:
    """Where self-play lives between sittings: ``$SHUAI_SELFPLAY`` or ``~/.cache/shuai/selfplay``."""
    return Path(os.environ.get("SHUAI_SELFPLAY") or Path.home() / ".cache" / "shuai" / "selfplay")


@dataclass
class Plan:
    """What a generation does: how much it plays, how it trains, how it is judged."""
    positions: int = 3_000_000      # the parent's own new positions: more than the 2.5 M its parent learnt from
                                    # (about 2.6 hours on 2 quiet cores); on fewer, no child beat its parent
    games_per_file: int = 1000      # a file a seed: an interruption loses at most one file's games
    replay: int = 2_000_000         # older positions trained on too, the newest first
    epochs: int | None = None       # None: CHILD_EPOCHS and CHILD_LR from a network's weights, a first
    lr: float | None = None         # network's (nnue_train.Settings) from random ones
    tc: str = "2+0.02"
    elo0: float = 0.0
    elo1: float = 10.0
    sprt_games: int = 4000
    concurrency: int = 2
    workers: int = 2
    cluster: str | None = None
    force: bool = False             # play the SPRT even when the child's held-out loss is not below the parent's
    king_buckets: bool = False      # the child has the game's king buckets (a child of a bucketed parent has them)


@dataclass
class DataFile:
    path: Path
    seed: int
    player: str                 # the CRC-32 of the network that played it, or HAND_WRITTEN
    positions: int


class Generation:
    """One generation of ``game``'s network in the data folder ``folder``; ``parent_path`` None is the game's
    own network (or the hand-written evaluation where it has none).  ``candidate_path`` (the game's
    ``candidate.nnue``) and ``table`` (docs/results/networks.tsv) are where a child is banked and recorded."""

    def __init__(self, game: Game, folder: Path, plan: Plan, parent_path: Path | None = None, log=print,
                 candidate_path: Path | None = None, table: Path = NETWORKS):
        self.game, self.plan, self.log, self.table = game, plan, log, Path(table)
        self.folder = Path(folder) / game.name
        self.parent_path = parent_path or game.default_network
        self.parent: Network | None = load(self.parent_path, game) if self.parent_path else None
        self.parent_crc = crc_of(self.parent.to_bytes()) if self.parent else HAND_WRITTEN
        self.candidate_path = Path(candidate_path or game.package_file(CANDIDATE))
        # generation 0 goes on from the candidate banked by an earlier sitting, if any
        self.start: Network | None = (load(self.candidate_path, game)
                                      if self.parent is None and self.candidate_path.is_file() else None)
        self._seen: dict[str, DataFile | None] = {}

    # -- the data folder ----------------------------------------------------------------------------------------
    def files(self) -> list[DataFile]:
        """The positions files of the folder, by seed; a file that cannot be used is one line and left out.
        Each is read once (a file is written whole and never changed)."""
        for path in self.folder.glob("seed*.bin"):
            match = SEED_FILE.fullmatch(path.name)
            if match and path.name not in self._seen:
                self._seen[path.name] = self._described(path, int(match[1]))
        return sorted((f for f in self._seen.values() if f is not None), key=lambda f: f.seed)

    def _described(self, path: Path, seed: int) -> DataFile | None:
        try:
            data = Positions(path)
        except ValueError as e:
            self.log(f"left out: {e}")
            return None
        if data.game is not self.game:
            self.log(f"left out: {path.name} holds {data.game.name} positions")
            return None
        return DataFile(path, seed, data.provenance.get("network_crc32", HAND_WRITTEN), len(data))

    def own_files(self) -> list[DataFile]:
        return [f for f in self.files() if f.player == self.parent_crc]

    def replay_files(self) -> list[DataFile]:
        """Older players' files, the newest seeds first, until ``plan.replay`` positions; returned oldest first."""
        chosen, total = [], 0
        for f in reversed([f for f in self.files() if f.player != self.parent_crc]):
            if total >= self.plan.replay:
                break
            chosen.append(f)
            total += f.positions
        return chosen[::-1]

    def next_seed(self) -> int:
        """After the highest seed in the folder, broken files counted: a file is never written over."""
        self.files()
        return max((int(SEED_FILE.fullmatch(name)[1]) for name in self._seen), default=0) + 1

    @property
    def child_path(self) -> Path:
        return self.folder / f"child-{self.parent_crc}.nnue"

    # -- the steps ----------------------------------------------------------------------------------------------
    def play(self) -> None:
        """Self-play by the parent until its files hold ``plan.positions`` positions."""
        self.folder.mkdir(parents=True, exist_ok=True)
        for stale in remove_stale_temporaries(self.folder, "seed*.bin"):     # a sitting that ended mid-file
            self.log(f"removed {stale.name}, a file whose self-play was cut off")
        blob, provenance = player(self.parent_path, self.game) if self.parent else (None, {})
        while (have := sum(f.positions for f in self.own_files())) < self.plan.positions:
            seed = self.next_seed()
            path = self.folder / f"seed{seed}.bin"
            self.log(f"self-play: {have:,} of {self.plan.positions:,} positions; seed {seed} -> {path}")
            t0 = time.monotonic()
            s = SelfplaySettings(games=self.plan.games_per_file, seed=seed, game=self.game.name, network=blob)
            n = generate(path, s, workers=self.plan.workers, cluster=self.plan.cluster,
                         provenance={"commit": source_commit(), **provenance})
            self.log(f"seed {seed}: {n:,} positions in {time.monotonic() - t0:.0f} s")

    def train(self, settings=None) -> Network:
        """The child, trained (or the one already in the folder, if it is this parent's)."""
        from .nnue_train import Settings, train_files
        own, replay = self.own_files(), self.replay_files()
        if self.child_path.exists():        # trained before an interruption, on the same files: kept
            child = load(self.child_path, self.game)
            if [d["file"] for d in child.provenance.get("data", [])] == [f.path.name for f in replay + own]:
                self.log(f"the child is trained already: {self.child_path}")
                return child
        if not own:
            raise ValueError(f"no positions played by the parent ({self.parent_crc}) in {self.folder}")
        weights = self.parent or self.start         # whose weights the child starts from (None: random ones)
        if settings is None:
            if weights is None:
                settings = Settings(epochs=self.plan.epochs or Settings.epochs, lr=self.plan.lr or Settings.lr,
                                    king_buckets=self.plan.king_buckets)
            else:
                settings = Settings(hidden=weights.hidden, epochs=self.plan.epochs or CHILD_EPOCHS,
                                    lr=self.plan.lr or CHILD_LR, factorize=False,
                                    king_buckets=self.plan.king_buckets or weights.buckets > 1)
        self.log(f"training on {sum(f.positions for f in replay):,} replayed and "
                 f"{sum(f.positions for f in own):,} new positions"
                 + (f", from the candidate {crc_of(self.start.to_bytes())}" if self.start else ""))
        label = {"file": Path(self.parent_path).name if self.parent else "hand-written evaluation",
                 "crc32": self.parent_crc}
        child = train_files([f.path for f in replay + own], settings, self.command(), self.parent, label,
                            log=self.log, start=self.start)
        child.provenance["new_positions"] = sum(f.positions for f in own)
        child.save(self.child_path)
        if self.parent is None:
            self.bank(child)
        return child

    def bank(self, child: Network) -> None:
        """A child of the hand-written evaluation becomes the game's candidate, with a row in the table of
        networks: what its positions taught survives the data folder, and the next generation 0 starts from it."""
        target = self.candidate_path
        if target.is_file() and target.read_bytes() == child.to_bytes():
            return
        child.save(target)
        self._row(child, {}, "candidate")
        self.log(f"banked: {target} is the candidate ({child.provenance['positions_learnt']:,} positions learnt); "
                 f"commit it, so that the next sitting goes on from it:\n  git add {target} {self.table}\n"
                 f"  git commit -m 'Network candidate ({self.game.name})'")

    def judge(self, child: Network) -> dict:
        """The SPRT of the child against the parent (or the verdict already in the folder)."""
        from ..match import sprt as S
        from ..match.cli import parse_resume
        verdict_path = self.folder / f"sprt-{self.parent_crc}-{crc_of(child.to_bytes())}.json"
        if verdict_path.exists():
            return json.loads(verdict_path.read_text())
        commit = S.working_tree_commit()
        out = Path("/tmp/shuai-sprt")
        copy = S.frozen_copy(commit, out)
        S.make_copy(copy)
        new = f"proto=uci option.EvalFile={self.child_path.resolve()}"
        base = (f"proto=uci option.EvalFile={Path(self.parent_path).resolve()}" if self.parent
                else "proto=uci 'option.Use NNUE=false'")
        name = f"{self.game.name}-generation-{child.provenance['generation']}-{crc_of(child.to_bytes())}"
        transcript = self.folder / f"{name}.txt"      # beside the data: an interrupted SPRT goes on from it
        resume = S.resume_point(transcript)
        played = sum(parse_resume(resume)[0]) if resume else 0
        if played >= self.plan.sprt_games:
            raise ValueError(f"{transcript} holds {played:,} games of the most {self.plan.sprt_games:,} but no "
                             f"verdict: the SPRT stopped undecided (raise --sprt-games to go on)")
        if resume:
            self.log(f"the SPRT goes on after {played:,} games (--resume {resume}, from {transcript})")
        settings = dict(tc=self.plan.tc, elo0=self.plan.elo0, elo1=self.plan.elo1,
                        games=self.plan.sprt_games - played, concurrency=self.plan.concurrency, game=self.game.name,
                        new_options=new, base_options=base, resume=resume)
        summary = S.play(S.match_arguments(copy, copy, settings, out, name), transcript)
        row = S.sprt_row(commit, commit, settings, summary,
                         f"network generation {child.provenance['generation']} ({crc_of(child.to_bytes())}) "
                         f"against its parent ({self.parent_crc})")
        S.append_row(row)
        with atomic_writer(verdict_path) as f:
            f.write(json.dumps(row).encode())
        return row

    def keep(self, child: Network, row: dict, target: Path | None = None) -> None:
        """The child becomes the game's network (``target``), with a row in the table of networks; a candidate
        that has become it is removed."""
        target = target or self.game.package_file("network.nnue")
        child.save(target)
        self._row(child, row, row["verdict"])
        p = child.provenance
        done = self.candidate_path if self.parent is None and self.candidate_path.is_file() else None
        if done is not None:                # the candidate has become the network
            done.unlink()
        self.log(f"kept: {target} is generation {p['generation']}; commit it:\n  git add {target} {self.table}"
                 + (f"\n  git rm {done}" if done else "") +
                 f"\n  git commit -m 'Network generation {p['generation']} ({self.game.name})'")

    def _row(self, child: Network, row: dict, verdict: str) -> None:
        from ..match import sprt as S
        p = child.provenance
        S.append_row({
            "date": time.strftime("%Y-%m-%d", time.gmtime()), "game": self.game.name,
            "generation": p["generation"], "network_crc32": crc_of(child.to_bytes()),
            "parent_crc32": self.parent_crc, "positions": p["positions"], "new_positions": p["new_positions"],
            "held_out_loss": p["held_out_loss_quantized"],
            "parent_held_out_loss": p["parent"].get("held_out_loss_quantized", ""),
            "sprt": f"{row['wins']}-{row['draws']}-{row['losses']} {row['elo']} +/- {row['elo_error']} "
                    f"LLR {row['llr']} at {row['tc']} [{row['elo0']}, {row['elo1']}]" if row else "",
            "verdict": verdict, "commit": p["commit"]}, self.table, COLUMNS)

    def conclude(self, child: Network) -> dict:
        """The child judged against its parent, and kept with H1; the SPRT's row.  A child that fits the parent's
        newest games no better than the parent does is not played (``plan.force`` plays it anyway): on 2 cores
        an SPRT is hours, and such a child has learnt nothing the games could show."""
        p = child.provenance
        before = p["parent"].get("held_out_loss_quantized")
        self.log(f"child {crc_of(child.to_bytes())}: held-out loss {p['held_out_loss_quantized']} "
                 f"(the parent's on the same positions: {before if before is not None else '-'})")
        if before is not None and p["held_out_loss_quantized"] >= before and not self.plan.force:
            self.log("no SPRT: the child fits the parent's newest games no better than the parent; play more "
                     "(a larger --positions) and train again, or --force")
            return {"verdict": "not played"}
        row = self.judge(child)
        if row["verdict"] == "H1":
            self.keep(child, row)
        elif self.parent is None:
            self.log(f"{row['verdict']}: the hand-written evaluation stays; the child stays the candidate, which "
                     f"the next generation 0 trains on from")
        else:
            self.log(f"{row['verdict']}: the parent stays; the next generation trains on more of its games "
                     f"(raise --positions)")
        return row

    def command(self) -> str:
        return f"python -m engine.tune generation --game {self.game.name} ({vars(self.plan)})"
