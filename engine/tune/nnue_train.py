"""Training the evaluation network (issue 33) with PyTorch, the optional extra ``pip install '.[nnue]'``.

The data are positions files of ``make nnue-data`` (``engine.tune.nnue_data``), each position also mirrored
left to right (the same position for the evaluation).  The target is the tuner's (``engine.tune.fit``): the
game's result blended with the search's score turned into an expected result, ``lam * result + (1 - lam) *
sigmoid(score)``, with the sigmoid's scale ``k`` fitted to the data; the loss is the mean squared error of
``sigmoid(network)`` against it, on the side to move's view.  The last ``validation`` of the positions (the
last games) are held out and their loss reported.  Inputs are sparse: an ``EmbeddingBag`` sums the active rows
of the first layer, as the engine's accumulator does.

With ``factorize`` every piece also feeds a virtual input of its kind and colour alone (where it stands not
counting), shared by all its squares, as nnue-pytorch's factorizers do: what a kind is worth anywhere is
learned from every position holding one, not from each square's few.  The virtual rows are folded into the
real ones on export (each piece activates exactly one of each), so the file and the engine do not change.

With king buckets (``buckets`` > 1: the game's map, :mod:`engine.nnue.features`) every piece also feeds a
shared input of its kind, colour and square in no bucket, folded in on export the same way: a bucket where a
king seldom stands still knows what its parent's single block knew, and learns only how it differs.  A child of
one bucket's parent starts with the parent's weights in the shared inputs and nothing in the buckets: it begins
as exactly its parent's function.

The float network is quantized as the file has it (``engine.nnue.network``): the first layer times ``QA``, the
output layer in centipawns times ``QB``; the weights are clipped while training so that every quantized value
fits (first layer and its bias within +-``FT_CLIP``; the output layer, which works in units of ``OUT_SCALE``
centipawns so that Adam's steps move it fast enough, within +-``OUT_CLIP`` and +-``BIAS_CLIP`` of them).
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..nnue.features import input_count, king_offsets, mirror_files
from ..nnue.network import OUTPUT_DIVISOR, QA, QB, Network
from .fit import fit_k, sigmoid
from .nnue_data import Positions

MAX_PIECES = 32
FT_CLIP = 1.98                  # 32 inputs of at most 1.98 and the bias stay below 128 (int16 at QA)
OUT_SCALE = 400.0               # centipawns per unit of the output layer (Adam's steps are about 0.001 units)
OUT_CLIP = 32767 / QB / OUT_SCALE       # the output weights in centipawns within int16 at QB
BIAS_CLIP = 500.0 / OUT_SCALE   # the output bias in centipawns (500) times OUTPUT_DIVISOR within int32


def feature_matrix(boards: np.ndarray, viewer: np.ndarray, game, buckets: int = 1) -> np.ndarray:
    """int64 [N, MAX_PIECES]: the active inputs of each board for its ``viewer`` (0/1 per row) in the bucket of
    the viewer's king, padded with the input count (the embedding's padding row)."""
    n, squares = boards.shape
    sq = np.arange(squares)
    flipped = (game.ranks - 1 - sq // game.files) * game.files + sq % game.files
    seen = np.where(viewer[:, None] == 1, flipped[None, :], sq[None, :])
    pieces = boards.astype(np.int64)
    offset = 0
    if buckets > 1:
        kings = np.argmax(pieces == viewer[:, None] * game.black_bit + game.king, axis=1)
        offsets = king_offsets(game.net_king_buckets, input_count(squares, game.kinds))
        offset = offsets[seen[np.arange(n), kings]][:, None]     # the king's square as its viewer sees it
    feats = offset + (((pieces >> 3) ^ viewer[:, None]) * game.kinds + (pieces & 7) - 1) * squares + seen
    filled = boards != 0
    out = np.full((n, MAX_PIECES), input_count(squares, game.kinds, buckets), np.int64)
    out[np.arange(MAX_PIECES) < filled.sum(axis=1)[:, None]] = feats[filled]
    return out


@dataclass
class Samples:
    us: np.ndarray              # inputs of the side to move
    them: np.ndarray            # inputs of the other side
    score: np.ndarray           # the search's score, side to move's view
    result: np.ndarray          # the game's result, side to move's view (0, 0.5, 1)

    def __len__(self):
        return len(self.score)

    def take(self, index):
        return Samples(self.us[index], self.them[index], self.score[index], self.result[index])


def samples_of(positions: list[Positions], mirror: bool = True, buckets: int = 1) -> Samples:
    """The side-to-move samples of the positions files (in file order), each followed by its mirror image, for
    a network of ``buckets`` king buckets."""
    game = positions[0].game
    parts = []
    for p in positions:
        if p.game is not game:
            raise ValueError(f"positions of {p.game.name} mixed with {game.name}")
        r = p.records
        boards = p.boards()
        side = r["side"].astype(np.int64)
        sign = np.where(side == 0, 1, -1)
        result = r["result"] / 2.0
        variants = [boards, mirror_files(boards, game.files)] if mirror else [boards]
        for b in variants:
            parts.append(Samples(feature_matrix(b, side, game, buckets), feature_matrix(b, 1 - side, game, buckets),
                                 (sign * r["score"]).astype(np.float32),
                                 np.where(side == 0, result, 1 - result).astype(np.float32)))
    if mirror:                  # interleave each file's two halves so a held-out tail holds both images
        ordered = []
        for a, b in zip(parts[0::2], parts[1::2]):
            idx = np.argsort(np.concatenate([np.arange(len(a)), np.arange(len(b))]), kind="stable")
            ordered.append(_concat([a, b]).take(idx))
        parts = ordered
    return _concat(parts)


def _concat(parts: list[Samples]) -> Samples:
    return Samples(*(np.concatenate([getattr(p, f) for p in parts]) for f in ("us", "them", "score", "result")))


@dataclass
class Settings:
    hidden: int = 128           # with the factors, the best held-out loss at 0.7 M positions (README)
    epochs: int = 8             # the held-out loss is lowest near here at 0.7 M positions, then overfits
    batch: int = 16384
    lr: float = 1e-3
    lam: float = 0.5
    validation: float = 0.1
    seed: int = 1
    threads: int = 0            # torch's intra-op threads (0: its default)
    factorize: bool = True      # virtual kind-and-colour inputs, folded in on export
    weight_decay: float = 0.0   # AdamW's decoupled decay
    king_buckets: bool = False  # one block of inputs a king bucket of the game's map (engine.nnue.features)

    def buckets(self, game) -> int:
        return game.net_buckets if self.king_buckets else 1


def check_parent(parent: Network, game, s: Settings) -> None:
    """A child keeps its parent's architecture -- or grows from one bucket to its game's king buckets, starting
    as the same function -- and learns without factors (the parent's weights hold them already, folded in: a
    factor row added to them would count twice); ValueError otherwise."""
    if parent.game != game.name:
        raise ValueError(f"the parent is a network for {parent.game}, not {game.name}")
    if parent.hidden != s.hidden or parent.buckets not in (1, s.buckets(game)):
        raise ValueError(f"the parent has {parent.hidden} hidden units in {parent.buckets} king bucket(s), not "
                         f"{s.hidden} in {s.buckets(game)}: a child keeps its parent's architecture (or grows "
                         f"from one bucket to its game's)")
    if s.factorize:
        raise ValueError("a child learns without factors: its parent's weights hold them already")


def train(positions: list[Positions], s: Settings, log=print, parent: Network | None = None):
    """Train a network on ``positions``, from random weights or from those of ``parent`` (a generation's child,
    see ``check_parent``); (the quantized Network, {"train_loss", "validation_loss", "k", ...})."""
    import torch
    from torch import nn

    game = positions[0].game
    if parent is not None:
        check_parent(parent, game, s)
    torch.manual_seed(s.seed)
    if s.threads:
        torch.set_num_threads(s.threads)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    buckets = s.buckets(game)
    data = samples_of(positions, buckets=buckets)
    split = int(len(data) * (1 - s.validation)) & ~1
    train_set, held = data.take(slice(0, split)), data.take(slice(split, None))
    k = fit_k(train_set.score.astype(np.float64), train_set.result.astype(np.float64))
    block = input_count(game.squares, game.kinds)
    inputs = block * buckets
    shared = block if buckets > 1 else 0          # the shared rows, after the bucketed ones
    factors = 2 * game.kinds if s.factorize else 0
    padding = inputs + shared + factors
    ft_limit = FT_CLIP / (1 + bool(shared) + bool(factors))  # the rows a piece feeds, each a part: their sum fits
    scale = k * math.log(10) / 400             # sigmoid(s, k) = torch.sigmoid(s * scale)

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.ft = nn.EmbeddingBag(padding + 1, s.hidden, mode="sum", padding_idx=padding)
            self.b1 = nn.Parameter(torch.full((s.hidden,), 0.25))
            nn.init.uniform_(self.ft.weight, -0.1, 0.1)
            with torch.no_grad():
                self.ft.weight[inputs:].zero_()     # the factors start at nothing, the padding stays so
            self.out = nn.Linear(2 * s.hidden, 1)
            nn.init.uniform_(self.out.weight, -0.1, 0.1)
            nn.init.zeros_(self.out.bias)
            if parent is not None:
                self.inherit(parent)

        def inherit(self, net: Network):
            """The parent's integers back at the training's scales (``quantize`` undone)."""
            def tensor(a):
                return torch.from_numpy(np.asarray(a, np.float64)).float()
            with torch.no_grad():
                if net.buckets == buckets:
                    self.ft.weight[:inputs] = tensor(net.w1 / QA)
                else:                               # one block grows into buckets: the parent is the shared part
                    self.ft.weight[:inputs].zero_()
                    self.ft.weight[inputs:inputs + shared] = tensor(net.w1 / QA)
                self.b1.copy_(tensor(net.b1 / QA))
                self.out.weight.copy_(tensor(net.w2 / (QB * OUT_SCALE))[None])
                self.out.bias.fill_(net.b2 / (OUTPUT_DIVISOR * OUT_SCALE))

        def forward(self, us, them):                 # centipawns, side to move's view
            a = torch.clamp(self.ft(us) + self.b1, 0, 1) ** 2
            b = torch.clamp(self.ft(them) + self.b1, 0, 1) ** 2
            return self.out(torch.cat([a, b], 1)).squeeze(1) * OUT_SCALE

        def clip(self):
            with torch.no_grad():
                self.ft.weight.clamp_(-ft_limit, ft_limit)
                self.b1.clamp_(-FT_CLIP, FT_CLIP)
                self.out.weight.clamp_(-OUT_CLIP, OUT_CLIP)
                self.out.bias.clamp_(-BIAS_CLIP, BIAS_CLIP)

    def with_factors(x: np.ndarray) -> torch.Tensor:
        real = x < inputs
        parts = [np.where(real, x, padding)]
        if shared:
            parts.append(np.where(real, inputs + x % block, padding))
        if factors:
            parts.append(np.where(real, inputs + shared + x % block // game.squares, padding))
        return torch.from_numpy(np.hstack(parts).astype(np.int32))

    def tensors(d: Samples):
        score, result = torch.from_numpy(d.score), torch.from_numpy(d.result)
        target = s.lam * result + (1 - s.lam) * torch.sigmoid(score * scale)
        return with_factors(d.us).to(device), with_factors(d.them).to(device), target.to(device)

    model = Model().to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=s.lr, weight_decay=s.weight_decay)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=s.epochs)
    tr, va = tensors(train_set), tensors(held)

    def loss_on(t, index):
        return torch.mean((torch.sigmoid(model(t[0][index], t[1][index]) * scale) - t[2][index]) ** 2)

    def evaluate_loss(t):
        model.eval()
        with torch.no_grad():
            total = sum(float(loss_on(t, slice(i, i + 65536))) * len(t[2][i:i + 65536])
                        for i in range(0, len(t[2]), 65536))
        model.train()
        return total / max(1, len(t[2]))

    gen = torch.Generator().manual_seed(s.seed)
    history = []
    for epoch in range(1, s.epochs + 1):
        t0 = time.monotonic()
        order = torch.randperm(len(tr[2]), generator=gen).to(device)
        running = 0.0
        for i in range(0, len(order), s.batch):
            idx = order[i:i + s.batch]
            opt.zero_grad()
            loss = loss_on(tr, idx)
            loss.backward()
            opt.step()
            model.clip()
            running += float(loss.detach()) * len(idx)
        sched.step()
        held_loss = evaluate_loss(va)
        history.append((running / len(order), held_loss))
        log(f"epoch {epoch}/{s.epochs}: train {running / len(order):.6f}, held out {held_loss:.6f}, "
            f"{time.monotonic() - t0:.0f} s")
    net = quantize(model, game, factors, buckets)
    return net, {"train_loss": history[-1][0], "validation_loss": history[-1][1], "k": k,
                 "positions": len(data) // 2, "train_samples": split, "held_out_samples": len(data) - split,
                 "history": history}


def quantize(model, game, factors: int = 0, buckets: int = 1) -> Network:
    """The file's integers of a trained model (see the module's docstring for the scales), the shared rows (with
    king buckets) and the factor rows (``factors`` of them) folded into the real rows they stand for."""
    block = input_count(game.squares, game.kinds)
    inputs, shared = block * buckets, block if buckets > 1 else 0
    weight = model.ft.weight.detach().cpu().numpy()
    ft = weight[:inputs].reshape(buckets, block, -1)
    if shared:
        ft = ft + weight[inputs:inputs + shared][None]
    if factors:
        ft = ft + np.repeat(weight[inputs + shared:inputs + shared + factors], game.squares, axis=0)[None]
    ft = ft.reshape(inputs, -1)
    b1 = model.b1.detach().cpu().numpy()
    w2 = model.out.weight.detach().cpu().numpy()[0] * OUT_SCALE
    b2 = float(model.out.bias.detach().cpu().numpy()[0]) * OUT_SCALE
    return Network(game.name, np.round(ft * QA).astype(np.int16), np.round(b1 * QA).astype(np.int16),
                   np.round(w2 * QB).astype(np.int16), int(round(b2 * OUTPUT_DIVISOR)),
                   king_buckets=game.net_king_buckets if buckets > 1 else None)


def held_out_loss_of(net: Network, positions: list[Positions], k: float, lam: float, validation: float,
                     batch: int = 16384) -> float:
    """The loss of a quantized network (numpy reference arithmetic, vectorised a batch at a time: a whole
    held-out tail of a million samples would need some 30 GB at once) on the held-out tail."""
    data = samples_of(positions, buckets=net.buckets)
    held = data.take(slice(int(len(data) * (1 - validation)) & ~1, None))
    w1 = np.vstack([net.w1.astype(np.int64), np.zeros((1, net.hidden), np.int64)])
    y = np.empty(len(held.us), np.int64)
    for i in range(0, len(y), batch):
        acc_us = net.b1 + w1[held.us[i:i + batch]].sum(axis=1)
        acc_them = net.b1 + w1[held.them[i:i + batch]].sum(axis=1)
        a = np.clip(acc_us, 0, QA) ** 2 @ net.w2[:net.hidden].astype(np.int64)
        b = np.clip(acc_them, 0, QA) ** 2 @ net.w2[net.hidden:].astype(np.int64)
        y[i:i + batch] = (a + b + net.b2) // OUTPUT_DIVISOR
    target = lam * held.result + (1 - lam) * sigmoid(held.score, k)
    return float(np.mean((sigmoid(y, k) - target) ** 2))


def train_files(data_paths: list, s: Settings, command: str, parent: Network | None = None,
                parent_label: dict | None = None, limit: int | None = None, log=print,
                start: Network | None = None) -> Network:
    """``train`` on the positions files ``data_paths`` (at most ``limit`` positions, the first ones), the network
    returned with its provenance: the data and their own provenance, the commit, settings, losses, the command
    and, for a child, its parent (``parent_label``, and the parent's loss on the same held-out tail).  A child of
    the hand-written evaluation (``parent`` None) is generation 0; it may start from the weights of ``start``,
    the candidate an earlier sitting banked, which the provenance names with its loss on the same tail, the
    positions it had learnt counted in ``positions_learnt``."""
    from .nnue_data import Positions, crc_of, source_commit
    positions = [Positions(p) for p in data_paths]
    if len({p.game.name for p in positions}) > 1:
        raise ValueError("the positions files are of different games")
    if limit:
        for p in positions:
            p.records = p.records[:max(0, limit)]
            limit -= len(p.records)
    t0 = time.monotonic()
    net, stats = train(positions, s, log, parent if parent is not None else start)
    quantized = held_out_loss_of(net, positions, stats["k"], s.lam, s.validation)
    net.provenance = {
        "data": [{"file": Path(p).name, **pos.provenance} for p, pos in zip(data_paths, positions)],
        "positions": stats["positions"], "commit": source_commit(), "settings": vars(s), "k": round(stats["k"], 6),
        "train_loss": round(stats["train_loss"], 7), "held_out_loss": round(stats["validation_loss"], 7),
        "held_out_loss_quantized": round(quantized, 7), "seconds": round(time.monotonic() - t0),
        "command": command,
    }
    if parent_label is not None:        # a generation's child: its parent is a network or the hand-written evaluation
        before = parent.provenance.get("generation", 0) if parent is not None else -1
        net.provenance["parent"] = {**parent_label, "generation": before}
        if parent is not None:
            net.provenance["parent"]["held_out_loss_quantized"] = round(
                held_out_loss_of(parent, positions, stats["k"], s.lam, s.validation), 7)
        elif start is not None:
            net.provenance["start"] = {
                "crc32": crc_of(start.to_bytes()), "positions_learnt": start.provenance.get("positions_learnt", 0),
                "held_out_loss_quantized": round(held_out_loss_of(start, positions, stats["k"], s.lam,
                                                                  s.validation), 7)}
        if parent is None:
            net.provenance["positions_learnt"] = stats["positions"] + (
                net.provenance["start"]["positions_learnt"] if start is not None else 0)
        net.provenance["generation"] = before + 1
    return net
