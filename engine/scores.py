"""The score scale, for both games and every part of the program (search, table, tablebases, protocol).

Scores are from the side to move's point of view, in centipawn-like units (a xiangqi soldier before the river
is about 100).  From the top down:

    MATE_SCORE - n          the side to move mates in n plies (n counted from the root while searching)
    MATE_BOUND              |score| above this is a mate; everything below is not
    RULE_WIN_SCORE          a win by the repetition rules (perpetual check or chase by the opponent)
    TB_RULE_SCORE - k       a tablebase position decided by the perpetual-check rule, k = its order + ply
    DISTANCE_BOUND          |score| above this counts plies from the root (the table stores it from the node)
    ...                     evaluations stay far below (|eval| < 20000)
    DRAW_SCORE              0

and the mirror image for losses.  ``INFINITE`` bounds every window; ``NO_SCORE`` is an out-of-band "none"
(no repetition found, no table answer), never a real score.
"""

INFINITE = 32000
MATE_SCORE = 30000
MATE_BOUND = MATE_SCORE - 1000
RULE_WIN_SCORE = 28900          # above every evaluation, below every mate: a rule win is never "mate N"
TB_RULE_SCORE = RULE_WIN_SCORE - 200
TB_RULE_ORDER_CAP = 500         # orders beyond this share one score (they stay above every evaluation)
# |score| above this counts a distance from the root (mates, and tablebase rule results: TB_RULE_SCORE - order
# - ply, at any ply below 200): the transposition table stores such scores relative to the node.
DISTANCE_BOUND = TB_RULE_SCORE - TB_RULE_ORDER_CAP - 200
DRAW_SCORE = 0
NO_SCORE = -32768
# The widest static evaluation: the network's output is clamped to it (a file whose weights say more -- checked
# whole, but numbers are numbers -- must not reach the mate scores or the windows' INFINITE).
EVAL_LIMIT = 20000

assert RULE_WIN_SCORE < MATE_BOUND and TB_RULE_SCORE - TB_RULE_ORDER_CAP - 1000 > EVAL_LIMIT
assert EVAL_LIMIT < DISTANCE_BOUND < TB_RULE_SCORE - TB_RULE_ORDER_CAP - 96


def mate_in_moves(score: int):
    """Moves to mate for a mate score (> 0: the side to move mates, < 0: it is mated), None for any other."""
    if abs(score) <= MATE_BOUND:
        return None
    plies = MATE_SCORE - abs(score)
    return (plies + 1) // 2 if score > 0 else -(plies // 2)
