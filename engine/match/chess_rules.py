"""Standard chess for the referee and the terminal game, through python-chess: game ends, moves from engines and
players, and the moves from the initial position to an opening (for xboard engines without ``setboard``).

Game ends (:func:`game_result`) are python-chess's: checkmate, stalemate, insufficient material, the 75-move rule
and fivefold repetition (``board.outcome()``), and the draws a player may claim -- 50 moves without a capture or
pawn move, threefold repetition -- as soon as they have happened on the board (a referee's adjudication, as
cutechess does it; python-chess's ``outcome(claim_draw=True)`` would also end the game where the side to move
merely *could* reach them with its next move).  Results are white first; reasons are the words written into
game records:
"""
from __future__ import annotations

import re

import chess

REASONS = {
    chess.Termination.CHECKMATE: "checkmate",
    chess.Termination.STALEMATE: "stalemate",
    chess.Termination.INSUFFICIENT_MATERIAL: "insufficient material",
    chess.Termination.SEVENTYFIVE_MOVES: "75-move",
    chess.Termination.FIVEFOLD_REPETITION: "fivefold repetition",
    chess.Termination.FIFTY_MOVES: "50-move",
    chess.Termination.THREEFOLD_REPETITION: "repetition",
}

_COORDINATES = re.compile(r"([a-h][1-8])-?([a-h][1-8])=?([qrbn])?")


def game_result(board: chess.Board) -> tuple[str, str] | None:
    """(result, reason) if the game is over in ``board`` (a python-chess board with its move stack), else None."""
    outcome = board.outcome()
    if outcome is None:
        if board.is_fifty_moves():
            outcome = chess.Outcome(chess.Termination.FIFTY_MOVES, None)
        elif board.is_repetition(3):
            outcome = chess.Outcome(chess.Termination.THREEFOLD_REPETITION, None)
        else:
            return None
    return outcome.result(), REASONS[outcome.termination]


def start_board(fen: str) -> chess.Board:
    """A python-chess board for a standard chess FEN; ValueError (with python-chess's reason) if it is not one."""
    try:
        board = chess.Board(fen)
    except ValueError as e:
        raise ValueError(f"bad chess FEN {fen!r}: {e}") from None
    status = board.status()
    if status != chess.STATUS_VALID:
        problems = [flag.name.lower().replace("_", " ") for flag in chess.Status if flag and flag in status]
        raise ValueError(f"not a legal chess position ({', '.join(problems)}): {fen}")
    return board


def parse_coordinates(board: chess.Board, text: str) -> chess.Move | None:
    """A coordinate move (``e2e4``, ``E2-E4``, ``e7e8q``, ``e7e8=Q``, castling ``e1g1`` or king-takes-rook
    ``e1h1``) legal in ``board``; None if ``text`` is not written as coordinates; ValueError if it is but is
    not legal here."""
    m = _COORDINATES.fullmatch(text.strip().lower())
    if not m:
        return None
    return board.parse_uci(m.group(1) + m.group(2) + (m.group(3) or ""))     # IllegalMoveError: a ValueError


def parse_engine_move(board: chess.Board, text: str) -> chess.Move:
    """An engine's move -- coordinates (UCI, xboard) or SAN (which xboard allows engines to send) -- as a legal
    move in ``board``; ValueError if it is none."""
    move = parse_coordinates(board, text)
    if move is None:
        move = board.parse_san(text.strip())
        if not move:                                    # "--" is python-chess's null move
            raise ValueError(f"a null move: {text!r}")
    return move


def path_from_start(fen: str, max_plies: int = 8) -> list[str] | None:
    """UCI moves from the initial position to ``fen`` (same pieces on the same squares, same side to move), or
    None, by :func:`engine.match.openings.find_path`.

    A position is abandoned when it differs from the target on more squares than the plies left can change: two
    a move, two more for each side that may still castle.  (A path through an en-passant capture, which changes
    three squares, may be missed.)"""
    from .openings import find_path
    target = start_board(fen)
    kinds = [(c, pt) for c in chess.COLORS for pt in chess.PIECE_TYPES]
    goal = [target.pieces_mask(pt, c) for c, pt in kinds]
    board = chess.Board()
    side = 0 if target.turn == chess.WHITE else 1
    plies_played = (target.fullmove_number - 1) * 2 + side

    def distance() -> int:
        changed = 0
        for i, (c, pt) in enumerate(kinds):
            changed |= board.pieces_mask(pt, c) ^ goal[i]
        return chess.popcount(changed)

    def slack(left: int) -> int:
        return 2 * left + 2 * sum(1 for c in chess.COLORS if board.has_castling_rights(c))

    return find_path(board, lambda: list(board.legal_moves), distance, lambda: board.turn == target.turn,
                     plies_played, side, max_plies, slack)
