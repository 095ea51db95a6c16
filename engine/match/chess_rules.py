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
    None: the chess version of :func:`engine.match.openings.path_from_start`.

    Depth first, abandoning a position that differs from the target on more squares than the plies left can
    change: two a move, two more for each side that may still castle.  (A path through an en-passant capture,
    which changes three squares, may be missed.)  When the FEN's move number says how many plies were played,
    only that depth is searched."""
    target = start_board(fen)
    goal = [(target.pieces_mask(pt, c)) for c in chess.COLORS for pt in chess.PIECE_TYPES]
    board = chess.Board()
    plies_played = (target.fullmove_number - 1) * 2 + (0 if target.turn == chess.WHITE else 1)
    if 0 < plies_played <= max_plies:
        depths = [plies_played]
    else:
        depths = [d for d in range(0, max_plies + 1) if d % 2 == (0 if target.turn == chess.WHITE else 1)]
    path: list[str] = []

    def diff() -> int:
        changed = 0
        for i, (c, pt) in enumerate((c, pt) for c in chess.COLORS for pt in chess.PIECE_TYPES):
            changed |= board.pieces_mask(pt, c) ^ goal[i]
        return chess.popcount(changed)

    def search(left: int) -> bool:
        d = diff()
        if left == 0:
            return d == 0 and board.turn == target.turn
        castlings = sum(1 for c in chess.COLORS if board.has_castling_rights(c))
        if d > 2 * left + 2 * castlings:
            return False
        for move in list(board.legal_moves):
            board.push(move)
            path.append(move.uci())
            if search(left - 1):
                return True
            path.pop()
            board.pop()
        return False

    for depth in depths:
        if search(depth):
            return list(path)
    return None
