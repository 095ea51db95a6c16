"""``shuai book build``: a book from games -- a PGN collection, or the engine playing itself.

Each game adds one to the weight of every (position, move) it played in its first ``max_plies`` plies; the book
keeps those played in at least ``min_games`` games.  The format is the game's: Polyglot for chess (python-chess's
board and keys), the project's own for xiangqi (the engine's positions and keys).

Self-play (``selfplay_games``): ``count`` games of ``plies`` plies from the start position, each move drawn
among the best ``levels.LINES`` lines of a search of ``nodes`` nodes by ``levels.choose`` at ``temperature``
(UCCI's randomness grades) -- the levels' own choice at full depth, so the book holds the moves the engine itself
would play, in the proportions it would play them.  Each position is searched once (its lines are remembered for
the games that meet it again), one thread, one hash table, a seeded generator: the same arguments give the same
book, on any machine.
"""
from __future__ import annotations

from typing import Iterable, Optional

from ..book import native, polyglot


class BookCounter:
    """The (position, move) counts of games of one game, in its book format."""

    def __init__(self, game, max_plies: int):
        self.game = game
        self.max_plies = max_plies
        self.polyglot = polyglot.supports(game)
        self.weights: dict = {}
        self.games = 0

    def add(self, fen: str, moves: Iterable[str]) -> None:
        """One game: its start ``fen`` and moves (protocol names); ValueError for a move that is not legal."""
        step = self._polyglot_steps if self.polyglot else self._native_steps
        for key in step(fen, list(moves)[:self.max_plies]):
            self.weights[key] = self.weights.get(key, 0) + 1
        self.games += 1

    def _native_steps(self, fen, moves):
        pos = self.game.position(fen)
        for name in moves:
            move = pos.parse_move(name)
            yield pos.key, move
            pos.push(move)

    @staticmethod
    def _polyglot_steps(fen, moves):
        import chess
        board = chess.Board(fen)
        for name in moves:
            move = chess.Move.from_uci(name)
            if move not in board.legal_moves:
                raise ValueError(f"illegal move {name} in {board.fen()}")
            yield chess.polyglot.zobrist_hash(board), polyglot.encode_move(board, move)
            board.push(move)

    def write(self, path, min_games: int = 1) -> int:
        """Write the book (the moves played in at least ``min_games`` games); the number of records."""
        kept = {k: w for k, w in self.weights.items() if w >= min_games}
        if self.polyglot:
            return polyglot.write_book(path, kept)
        return native.write_book(path, self.game, kept)


def pgn_games(text: str, game) -> list:
    """The games of a PGN text of ``game`` (its PGN module's ``read_games``): each with ``fen`` and ``moves``."""
    return game.pgn().read_games(text)


def selfplay_games(game, count: int, plies: int, nodes: int, temperature: float, seed: int,
                   progress: Optional[callable] = None) -> list[list[str]]:
    """``count`` self-play games of ``plies`` plies from ``game``'s start (see the module doc): their moves."""
    from .. import levels
    from ..searcher import QUICK_HASH_MB, Limits, Searcher
    rng = levels.new_rng(seed)
    searcher = Searcher(QUICK_HASH_MB)
    seen: dict = {}                                 # position key -> the search's lines there
    games = []
    for g in range(count):
        pos = game.position()
        moves = []
        for _ in range(plies):
            if game.game_result(pos) is not None:
                break
            lines = seen.get(pos.key)
            if lines is None:
                lines = seen[pos.key] = _lines(searcher, pos, Limits(nodes=nodes, multipv=levels.LINES, floor_depth=1))
            if not lines:
                break
            move = lines[levels.choose(lines, temperature, rng)].pv[0]
            moves.append(move)
            pos.push(move)
        games.append(moves)
        if progress is not None:
            progress(g + 1, len(seen))
    return games


def _lines(searcher, pos, limits) -> list:
    """The lines of one search of ``pos`` (best first)."""
    from ..searcher import search_once
    return [line for line in search_once(pos, searcher=searcher, limits=limits).lines if line.pv]
