"""Opening positions for a match: an EPD/FEN file, one opening a line.

A line is a FEN (EPD's four fields are enough; halfmove clock and move number are read when present, EPD
operations after them are ignored), ``startpos``, or either followed by ``moves m1 m2 …`` (ICCS for xiangqi, UCI
for chess).  Blank lines and lines starting with ``#`` are skipped.  The game is xiangqi or chess: given, or told
by the file's first FEN (10 ranks: xiangqi, 8: chess); every line must be of that game.  Chess positions are
checked and written in normal form by python-chess.

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


def parse_opening(line: str, game: str = "xiangqi") -> Opening:
    """One line of an openings file, for ``game`` (ValueError if it is bad or a position of another game)."""
    from ..game import game_named, game_of_fen
    text = line.split(";", 1)[0].strip()
    head, _, tail = text.partition(" moves ")
    if text.endswith(" moves"):
        head, tail = text[: -len(" moves")], ""
    words = head.split()
    if not words or words[0] == "startpos":
        fen = game_named(game).start_fen
    else:
        fields = words[:4]
        for w in words[4:6]:
            if w.isdigit():
                fields.append(w)
            else:
                break
        if len(fields) == 4:
            fields += ["0", "1"]
        fen = " ".join(fields)
        found = game_of_fen(fen)
        if found is not None and found.name != game:
            raise ValueError(f"a {found.name} position in a {game} match: {fen}")
    moves = tuple(tail.split())
    if game == "chess":
        return _chess_opening(fen, moves)
    from ..xiangqi.position import Position
    if fen != START_FEN:
        fen = Position(fen).fen()                          # validates; normal form
    if moves:
        pos = Position(fen)
        for m in moves:
            pos.push(m)                                    # IllegalMoveError names the bad move
    return Opening(fen, moves)


def _chess_opening(fen: str, moves: tuple) -> Opening:
    from .chess_rules import start_board
    board = start_board(fen)                               # validates (ValueError)
    fen = board.fen()                                      # normal form
    played = []
    for m in moves:
        try:
            move = board.parse_uci(m)
        except ValueError:
            raise ValueError(f"illegal move {m!r} in {board.fen()}") from None
        board.push(move)
        played.append(move.uci())
    return Opening(fen, tuple(played))


def openings_game(path: str) -> str | None:
    """The game of an openings file's first FEN ("xiangqi" or "chess"), or None if it has none (only
    ``startpos`` lines) or the FEN has neither 10 nor 8 ranks."""
    from ..game import game_of_fen
    with open(path, encoding="utf-8") as f:
        for line in f:
            words = line.split(";", 1)[0].split()
            if not words or words[0].startswith("#") or words[0] == "startpos":
                continue
            found = game_of_fen(words[0])
            return found.name if found is not None else None
    return None


def load_openings(path: str, game: str | None = None) -> list[Opening]:
    """The openings of a file, for ``game`` (default: the game of its first FEN, else xiangqi)."""
    game = game or openings_game(path) or "xiangqi"
    out = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            try:
                out.append(parse_opening(s, game))
            except ValueError as e:
                raise ValueError(f"{path}:{n}: {e}") from None
    if not out:
        raise ValueError(f"{path}: no openings")
    return out


def path_from_start(fen: str, max_plies: int = 8, game: str = "xiangqi") -> list[str] | None:
    """Moves from the initial position to ``fen`` (same pieces on the same squares, same side to move), or None.

    Depth-first with a simple bound: one move changes at most two squares, so a position that differs from the
    target on more than 2 × (plies left) squares is abandoned.  When the FEN's move number says how many plies
    were played, only that depth is searched.  Chess: :func:`engine.match.chess_rules.path_from_start`.
    """
    if game == "chess":
        from .chess_rules import path_from_start as chess_path
        return chess_path(fen, max_plies)
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
