"""Opening positions for a match: an EPD/FEN file, one opening a line.

A line is a FEN (EPD's four fields are enough; halfmove clock and move number are read when present, EPD
operations after them are ignored), ``startpos``, or either followed by ``moves m1 m2 …`` (ICCS for xiangqi, UCI
for chess).  Blank lines and lines starting with ``#`` are skipped.  The file is read by ``engine.files``' rule (a
regular file, opened without blocking, at most ``files.MAX_TEXT`` bytes) and a line may be MAX_LINE characters
long: ``/dev/zero``, a FIFO or a file of one endless line is one error line at once.  The game is xiangqi or
chess: given, or told by the file's first FEN (10 ranks: xiangqi, 8: chess); every line must be of that game.
The game's referee (``Game.Referee``, engine.match.referee) checks each opening and writes it in normal form.

Engines that cannot set up a FEN (xboard engines without ``setboard``, such as MaxQi) are sent the moves that
lead from the initial position to the opening: :func:`path_from_start` finds them for short openings, the
game's referee supplying its moves and :func:`find_path` the search.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..files import UnreadableFile, clip, read_text
from ..game import DEFAULT, GAMES, game_named, game_of_fen
from .engines import START_FEN

MAX_LINE = 4096             # characters in one opening: a FEN and some hundreds of moves


@dataclass(frozen=True)
class Opening:
    fen: str = START_FEN
    moves: tuple[str, ...] = field(default_factory=tuple)

    def label(self) -> str:
        return self.fen + (" moves " + " ".join(self.moves) if self.moves else "")


def parse_opening(line: str, game: str = DEFAULT.name) -> Opening:
    """One line of an openings file, for ``game`` (ValueError if it is bad or a position of another game)."""
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
    return Opening(*game_named(game).Referee.opening(fen, tuple(tail.split())))


def opening_lines(path: str) -> list[tuple[int, str]]:
    """(line number, text) of each line of an openings file that is not blank or a ``#`` comment; ValueError
    (one line naming the file) if it cannot be read or a line is too long."""
    try:
        text = read_text(path)
    except UnreadableFile as e:
        raise ValueError(f"openings file {e}") from None
    lines = []
    for n, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        if len(s) > MAX_LINE:
            raise ValueError(f"{clip(path, 200)}:{n}: longer than {MAX_LINE:,} characters: not an opening")
        lines.append((n, s))
    return lines


def openings_game(path: str) -> str | None:
    """The game of an openings file's first FEN ("xiangqi" or "chess"), or of its first ``startpos moves ...``
    line whose moves only one game can play; None if neither tells (bare ``startpos`` lines) or the FEN has
    neither 10 nor 8 ranks."""
    for _, line in opening_lines(path):
        words = line.split(";", 1)[0].split()
        if not words:
            continue
        if words[0] == "startpos":
            playable = [g.name for g in GAMES if _plays(line, g.name)]
            if len(words) > 2 and len(playable) == 1:
                return playable[0]
            continue
        found = game_of_fen(words[0])
        return found.name if found is not None else None
    return None


def _plays(line: str, game: str) -> bool:
    try:
        parse_opening(line, game)
    except ValueError:
        return False
    return True


def load_openings(path: str, game: str | None = None) -> list[Opening]:
    """The openings of a file, for ``game`` (default: the game of its first FEN, else xiangqi)."""
    game = game or openings_game(path) or DEFAULT.name
    out = []
    for n, line in opening_lines(path):
        try:
            out.append(parse_opening(line, game))
        except ValueError as e:
            raise ValueError(f"{clip(path, 200)}:{n}: {clip(e, 300)}") from None
    if not out:
        raise ValueError(f"{clip(path, 200)}: no openings")
    return out


def path_from_start(fen: str, max_plies: int = 8, game: str = DEFAULT.name) -> list[str] | None:
    """Moves from the initial position to ``fen`` (same pieces on the same squares, same side to move), or None:
    the game's referee's ``path_from_start``."""
    return game_named(game).Referee.path_from_start(fen, max_plies)


def find_path(board, legal, distance, reached, plies_played: int, goal_side: int, max_plies: int,
              slack=lambda left: 2 * left) -> list[str] | None:
    """The moves (as text) that take ``board`` (pushed and popped in place) to a target position, or None.

    Depth first: ``legal()`` gives the moves to try, ``distance()`` how many squares differ from the target,
    ``reached()`` whether the board at distance 0 is the target (its side to move).  A board more than
    ``slack(left)`` squares from the target with ``left`` plies to go is abandoned (one move changes at most
    two squares).  When the target's move counters say how many plies were played (``plies_played``, 1 to
    ``max_plies``) only that depth is searched, else every depth up to ``max_plies`` that leaves the target's
    side to move (``goal_side``: 0 the first player).
    """
    if 0 < plies_played <= max_plies:
        depths = [plies_played]
    else:
        depths = [d for d in range(0, max_plies + 1) if d % 2 == goal_side]
    path: list = []

    def search(left: int) -> bool:
        d = distance()
        if left == 0:
            return d == 0 and reached()
        if d > slack(left):
            return False
        for move in legal():
            board.push(move)
            path.append(move)
            if search(left - 1):
                return True
            path.pop()
            board.pop()
        return False

    for depth in depths:
        if search(depth):
            return [str(m) for m in path]
    return None
