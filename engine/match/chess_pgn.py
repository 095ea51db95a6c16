"""Chess PGN, written and read by python-chess (``chess.pgn``): SAN moves, the Seven Tag Roster, ``SetUp``/``FEN``
when a game does not start from the initial position, the way the game ended as a comment after the last move.
"""
from __future__ import annotations

import io
from dataclasses import dataclass, field

import chess
import chess.pgn
import chess.variant

STANDARD_TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "Result")


def format_record(tags: dict, fen: str, moves: list[str], comment: str = "", result: str = "*") -> str:
    """One game as PGN text (ending with a blank line): ``tags`` (Event, Site, Date, Round, White, Black and any
    others, e.g. TimeControl, Termination), the start ``fen``, UCI ``moves`` (legal, in order), a final
    ``comment`` and the ``result`` (white first)."""
    board = chess.Board(fen)
    game = chess.pgn.Game()
    game.setup(board)                        # FEN and SetUp tags unless it is the initial position
    for key in STANDARD_TAGS:
        if key in tags:
            game.headers[key] = str(tags[key])
    game.headers["Result"] = result
    for key, value in tags.items():
        if key not in STANDARD_TAGS and key not in ("FEN", "SetUp"):
            game.headers[key] = str(value)
    node = game
    for uci in moves:
        node = node.add_variation(chess.Move.from_uci(uci))
    if comment:
        node.comment = comment
    text = game.accept(chess.pgn.StringExporter(headers=True, variations=True, comments=True))
    return text + "\n\n"


# What python-chess's PGN reader raises besides ValueError on text it does not expect (``1. Ke3 ) !`` raised an
# IndexError inside it): an error of the file, never of the program.
PARSER_ERRORS = (ValueError, LookupError, AttributeError, TypeError, RecursionError)


@dataclass
class ChessPgnGame:
    tags: dict = field(default_factory=dict)
    fen: str = chess.STARTING_FEN
    moves: list = field(default_factory=list)       # UCI
    comment: str = ""                               # the comment after the last move (how the game ended)
    result: str = "*"


class _QuietBuilder(chess.pgn.GameBuilder):
    """python-chess's game builder, collecting errors in ``game.errors`` without logging them; after
    ``max_moves`` moves (None: no limit) the rest are skipped unread."""

    def __init__(self, max_moves: int | None = None):
        super().__init__()
        self.moves_left = max_moves

    def handle_error(self, error: Exception) -> None:
        self.game.errors.append(error)

    def begin_parse_san(self, board, san):
        if self.moves_left is not None:
            if self.moves_left <= 0:
                return chess.pgn.SKIP
            self.moves_left -= 1
        return super().begin_parse_san(board, san)


def _known_variant(name: str | None) -> bool:
    """Whether python-chess knows a Variant tag's game (a xiangqi game's it does not)."""
    try:
        return name is None or chess.variant.find_variant(name) is not None
    except ValueError:
        return False


def read_game(text: str, max_moves: int | None = None) -> ChessPgnGame | None:
    """The first game of a PGN text (None if there is none); ValueError if it is not standard chess or a move
    cannot be read or played.  ``max_moves``: read at most that many moves (plies, side lines included), the
    game ending there -- python-chess spends about 30 us on each, and a file can hold a million."""
    try:
        game = chess.pgn.read_game(io.StringIO(text), Visitor=lambda: _QuietBuilder(max_moves))
    except PARSER_ERRORS as e:
        raise ValueError(f"cannot read the PGN: {e}") from None
    if game is None:
        return None
    record = _checked(game)
    if not record.moves and "[" not in text and text.split()[-1:] != [game.headers.get("Result", "*")]:
        raise ValueError("no chess game in it (no tags, no moves)")
    return record


def read_games(text: str) -> list[ChessPgnGame]:
    """Every game of a PGN text, each with ``fen`` and ``moves`` (UCI) -- the reader every game's PGN module has
    (``Game.pgn()``), as ``shuai book build`` reads a collection; ValueError as ``read_game``'s, naming the game."""
    stream = io.StringIO(text)
    games = []
    while True:
        try:
            game = chess.pgn.read_game(stream, Visitor=_QuietBuilder)
            if game is None:
                return games
            games.append(_checked(game))
        except PARSER_ERRORS as e:
            raise ValueError(f"game {len(games) + 1}: {e}") from None


def _checked(game) -> ChessPgnGame:
    """A game python-chess has read, as a record; ValueError if it is not standard chess or had an error."""
    if game.headers.get("Game", "Chess") != "Chess" or not _known_variant(game.headers.get("Variant")):
        raise ValueError(f"not a chess game ({game.headers.get('Game') or game.headers.get('Variant')})")
    if game.errors:
        error = str(game.errors[0])
        raise ValueError(error.split(" while parsing")[0])
    board = game.board()
    if type(board) is not chess.Board or board.chess960:
        raise ValueError(f"not standard chess (Variant {game.headers.get('Variant', '?')!r})")
    moves = [m.uci() for m in game.mainline_moves()]
    return ChessPgnGame(dict(game.headers), board.fen(), moves, game.end().comment.strip(),
                        game.headers.get("Result", "*"))
