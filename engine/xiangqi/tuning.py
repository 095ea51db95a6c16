"""What the evaluation tuner (engine.tune) needs to know of xiangqi, read through ``Game.tuning()``: where the fit
starts, how it is regularised and put on the search's scale, and how self-play begins."""

# The fit's start: material only, the same on every square, every other term zero -- textbook piece values,
# owing nothing to any engine's tables.
PLAIN_MATERIAL = {"king": 0, "advisor": 200, "elephant": 200, "horse": 400, "rook": 900, "cannon": 450, "pawn": 100}
DEFAULT_L2 = 1e-5                       # ridge strength, chosen by the validation loss (README)
SCALE_KINDS = ("rook", "horse", "cannon")       # the pieces whose values set the evaluation's scale

# Self-play (engine.tune.selfplay): a game starts from an opening of the book and this many random plies (drawn
# uniformly, inclusive), drawn among all legal moves.
RANDOM_PLIES = (2, 8)
SAFE_RANDOM_PLIES = False
SELFPLAY_GAMES = 9500                   # about 1.05 million positions, 47 min on 2 cores
SELFPLAY_NODES = 3000                   # per move
DATA = "tune/positions.txt.gz"          # the positions' file, relative to the repository
