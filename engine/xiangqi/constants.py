"""Xiangqi facts, each declared once: board size, piece codes, FEN letters, the start position, the layout of
the position arrays and the game's limits.  Plain Python (no numba, no numpy), so every edge of the program --
protocol, terminal game, match runner, notation, tables -- can import it without loading compiled code.

Squares: ``square = rank * FILES + file``; rank 0 is Red's back rank, file 0 is file ``a`` (Red's left).
Pieces: ``colour * BLACK_BIT + kind`` with kind 1..7, so ``p >> 3`` is the colour and ``p & 7`` the kind;
0 is an empty square.
"""

from ..layout import H_CAPTURED, H_CHECK, H_CLOCK, H_MOVE, ST_KING, ST_PLY, ST_SIDE  # noqa: F401  (re-exported)

NAME = "xiangqi"

FILES, RANKS = 9, 10
NSQ = FILES * RANKS
FILE_LETTERS = "abcdefghi"

EMPTY = 0
KING, ADVISOR, ELEPHANT, HORSE, ROOK, CANNON, PAWN = 1, 2, 3, 4, 5, 6, 7
RED, BLACK = 0, 1
BLACK_BIT = 8                   # piece code = colour * BLACK_BIT + kind
PIECE_CODES = 2 * BLACK_BIT     # piece codes index tables from 0 to PIECE_CODES - 1

PIECE_CHARS = " KABNRCP"        # FEN letter by kind (upper case Red, lower case Black)
KINDS = len(PIECE_CHARS) - 1    # piece kinds 1..KINDS (the network's inputs: engine.nnue.features)
CHAR_SYNONYMS = {"H": HORSE, "E": ELEPHANT}     # also read in FENs: the WXF letters for horse and elephant
KIND_NAMES = ("", "general", "advisor", "elephant", "horse", "chariot", "cannon", "soldier")
SIDE_NAMES = ("red", "black")

START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

# Layout of the position arrays every kernel receives (see ``board``): the shared part (engine.layout) and no
# more -- hist's clock counts the plies since a capture.
ST_LEN = 4
H_LEN = 4
MAX_HIST = 2048         # game history plus search depth; the Python side rebases long games
MAX_MOVES = 128         # xiangqi's largest known legal move count is 111 (pseudo-legal moves never exceed it by much)

STALEMATE_DRAWS = False          # no legal move loses, in check or not
MOVE_LIMIT_PLIES = 120  # 60 moves by each side without a capture: a draw (Asian rules)

# The search parameters (engine.search_params) whose default differs in this game: singular extension only on
# lines not extended more than one ply beyond the root's depth (SPRT: +24 +- 16 Elo; unbounded, the stacked
# extensions along lines of checks hid mates).
SEARCH_PARAMS = {"SINGULAR_LINE_EXTENSION": 1}

# What the match runner tells other engines (engine.match.engines): the UCI_Variant and xboard variant names,
# whether UCCI (a xiangqi protocol) plays this game, and that moves cross as ICCS coordinates (ranks 0-9, which
# some engines number 1-10, with horse and elephant letters that some FEN readers want as H/E).
UCI_VARIANT = XBOARD_VARIANT = "xiangqi"
UCCI = True
ICCS = True

# This game's parts outside the game package, for the shared front ends (``module:name``, imported on first use
# by engine.game): the terminal session (engine.play), the referee of a match (engine.match), the match's PGN
# writer, and the default openings (a file of the package).
SESSION = "engine.play.session:Session"
REFEREE = "engine.match.referee:XiangqiReferee"
PGN = "engine.match.xiangqi_pgn"
OPENINGS = "openings.epd"

# The network's king buckets (engine.nnue.features): the general's file picks one of three blocks of inputs
# (d, e, f: the file it shelters and the files it leaves open); it stands nowhere outside the palace.  Of the
# maps tried on the same 1.65 M positions (2026-12-06: file, rank, square), the file's fitted held-out games
# best, the nine squares' worst (docs/tuning-and-network.md).
NET_KING_BUCKETS = tuple(sq % FILES - 3 if sq // FILES < 3 and 3 <= sq % FILES <= 5 else 0 for sq in range(NSQ))
