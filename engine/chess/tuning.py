"""What the evaluation tuner (engine.tune) needs to know of chess, read through ``Game.tuning()``: where the fit
starts, how it is regularised and put on the search's scale, and how self-play begins."""

# The fit's start: material only, the same on every square, every other term zero (textbook piece values).
PLAIN_MATERIAL = {"pawn": 100, "knight": 300, "bishop": 300, "rook": 500, "queen": 900, "king": 0}
DEFAULT_L2 = 1e-4                       # ridge strength, chosen by the validation loss on a third as many
                                        # positions as xiangqi's (README)
SCALE_KINDS = ("knight", "bishop", "rook", "queen")     # the pieces whose values set the evaluation's scale

# Self-play (engine.tune.selfplay): a game starts from an opening of the book and this many random plies, drawn
# only among the moves the static exchange does not judge losing when there are any (a random chess move often
# hangs a piece).
RANDOM_PLIES = (1, 6)
SAFE_RANDOM_PLIES = True
SELFPLAY_GAMES = 4000                   # 350,215 positions (about 88 a game), 23 minutes on 2 shared cores
SELFPLAY_NODES = 3000                   # per move
DATA = "tune/chess-positions.txt.gz"    # the positions' file, relative to the repository
