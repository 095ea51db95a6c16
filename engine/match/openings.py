"""Opening positions for a match: an EPD/FEN file, one opening a line.

A line is a FEN (EPD's four fields are enough; halfmove clock and move number are read when present, EPD
operations after them are ignored), ``startpos``, or either followed by ``moves m1 m2 …`` (ICCS).  Blank lines
and lines starting with ``#`` are skipped.

Engines that cannot set up a FEN (xboard engines without ``setboard``, such as MaxQi) are sent the moves that
lead from the initial position to the opening: :func:`path_from_start` finds them for short openings.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .engines import START_FEN


@dataclass(frozen=True)
class Opening:
    fen: str = START_FEN
    moves: tuple[str, ...] = field(default_factory=tuple)

    def label(self) -> str:
        return self.fen + (" moves " + " ".join(self.moves) if self.moves else "")


def parse_opening(line: str) -> Opening:
    from ..xiangqi.position import Position
    text = line.split(";", 1)[0].strip()
    head, _, tail = text.partition(" moves ")
    if text.endswith(" moves"):
        head, tail = text[: -len(" moves")], ""
    words = head.split()
    if not words or words[0] == "startpos":
        fen = START_FEN
    else:
        fields = words[:4]
        for w in words[4:6]:
            if w.isdigit():
                fields.append(w)
            else:
                break
        if len(fields) == 4:
            fields += ["0", "1"]
        fen = Position(" ".join(fields)).fen()            # validates; normal form
    moves = tuple(tail.split())
    if moves:
        pos = Position(fen)
        for m in moves:
            pos.push(m)                                    # IllegalMoveError names the bad move
    return Opening(fen, moves)


def load_openings(path: str) -> list[Opening]:
    out = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            try:
                out.append(parse_opening(s))
            except ValueError as e:
                raise ValueError(f"{path}:{n}: {e}") from None
    if not out:
        raise ValueError(f"{path}: no openings")
    return out


def path_from_start(fen: str, max_plies: int = 8) -> list[str] | None:
    """Moves from the initial position to ``fen`` (same pieces on the same squares, same side to move), or None.

    Depth-first with a simple bound: one move changes at most two squares, so a position that differs from the
    target on more than 2 × (plies left) squares is abandoned.  When the FEN's move number says how many plies
    were played, only that depth is searched.
    """
    import numpy as np
    from ..xiangqi.position import Position
    target = Position(fen)
    goal = target.board.copy()
    goal_side = target.side
    pos = Position()
    plies_played = target.ply_base            # (fullmove - 1) * 2 + side, from the FEN's counters
    if 0 < plies_played <= max_plies:
        depths = [plies_played]
    else:
        depths = [d for d in range(0, max_plies + 1) if d % 2 == goal_side]
    path: list[str] = []

    def search(left: int) -> bool:
        diff = int(np.count_nonzero(pos.board != goal))
        if left == 0:
            return diff == 0 and pos.side == goal_side
        if diff > 2 * left:
            return False
        for m in pos.legal_move_names():
            pos.push(m)
            path.append(m)
            if search(left - 1):
                return True
            path.pop()
            pos.pop()
        return False

    for d in depths:
        if search(d):
            return list(path)
    return None
