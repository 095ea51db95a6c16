"""Chess facts, each declared once: board size, piece codes, FEN letters, the start position, the layout of
the position arrays and the game's limits.  Plain Python (no numba, no numpy), like ``xiangqi.constants``.

Squares: ``square = rank * FILES + file``; a1 = 0, h1 = 7, a8 = 56, h8 = 63 (rank 0 is White's back rank).
Pieces: ``colour * BLACK_BIT + kind`` with kind 1..6, so ``p >> 3`` is the colour and ``p & 7`` the kind, as in
xiangqi; 0 is an empty square.
"""

from ..layout import H_CAPTURED, H_CHECK, H_CLOCK, H_MOVE, ST_KING, ST_PLY, ST_SIDE  # noqa: F401  (re-exported)

NAME = "chess"

FILES, RANKS = 8, 8
NSQ = FILES * RANKS
FILE_LETTERS = "abcdefgh"

EMPTY = 0
PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = 1, 2, 3, 4, 5, 6
WHITE, BLACK = 0, 1
BLACK_BIT = 8                   # piece code = colour * BLACK_BIT + kind
PIECE_CODES = 2 * BLACK_BIT     # piece codes index tables from 0 to PIECE_CODES - 1

PIECE_CHARS = " PNBRQK"         # FEN letter by kind (upper case White, lower case Black)
KINDS = len(PIECE_CHARS) - 1    # piece kinds 1..KINDS (the network's inputs: engine.nnue.features)
KIND_NAMES = ("", "pawn", "knight", "bishop", "rook", "queen", "king")
SIDE_NAMES = ("white", "black")
PROMOTION_KINDS = (KNIGHT, BISHOP, ROOK, QUEEN)     # a move's two promotion bits index this tuple
PROMOTION_LETTERS = "nbrq"
# A packed move (``engine.move``) of a promotion sets the top bit of its destination field (chess squares need
# six of its seven bits), so a move names itself: ``e7e8n`` and a king's ``e7e8`` differ without a board.
PROMOTION_FLAG = 64
SQUARE_MASK = 63

START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

# Castling rights, one bit each (the position's rights are their OR).
WHITE_OO, WHITE_OOO, BLACK_OO, BLACK_OOO = 1, 2, 4, 8
CASTLING_LETTERS = "KQkq"       # in bit order

# Layout of the position arrays every kernel receives (see ``board``):
# st int64[ST_LEN]: the shared entries (engine.layout: side to move, ply, the two king squares), the castling
# rights and en-passant square now (as hist holds them per ply: move generation reads them here), one bitboard
# per piece code (st[ST_BB + code]; the slots of codes 0, 7 and 8 are unused) and the occupancy of each colour.
ST_CASTLING, ST_EP = 4, 5
ST_BB = 6
ST_OCC = ST_BB + PIECE_CODES                    # st[ST_OCC + colour]
ST_LEN = ST_OCC + 2
# hist[ply]: beyond the shared columns (engine.layout; the clock counts the plies since the last capture or pawn
# move: the 50-move rule and the repetition window), the castling rights, the en-passant target square (0: none
# -- a1 never is one) and the piece that moved.
H_CASTLING, H_EP, H_MOVED = 4, 5, 6
H_LEN = 7
MAX_HIST = 2048         # game history plus search depth; the Python side rebases long games
MAX_MOVES = 256         # the largest known legal move count is 218

STALEMATE_DRAWS = True          # stalemate is a draw
MOVE_LIMIT_PLIES = 100  # the 50-move rule: 50 moves by each side without a capture or a pawn move

# The search parameters (engine.search_params) whose default differs in this game, each kept by an SPRT in it
# (README, the SPRT table): none.
SEARCH_PARAMS: dict[str, int] = {}

# What the match runner tells other engines (engine.match.engines): the UCI_Variant value, xboard's name for
# standard chess ("normal": no variant command), no UCCI (a xiangqi protocol), and moves in UCI coordinates.
UCI_VARIANT, XBOARD_VARIANT = "chess", "normal"
UCCI = False
ICCS = False

# This game's parts outside the game package, for the shared front ends (``module:name``, imported on first use
# by engine.game): the terminal session (engine.play), the referee of a match (engine.match), the match's PGN
# writer, and the default openings (a file of the package).
SESSION = "engine.play.chess_session:ChessSession"
REFEREE = "engine.match.referee:ChessReferee"
PGN = "engine.match.chess_pgn"
OPENINGS = "openings.epd"

# The network's king buckets (engine.nnue.features): one, as yet (no chess network has been trained with more).
NET_KING_BUCKETS = (0,) * NSQ
