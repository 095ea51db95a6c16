"""The value codes of the endgame tables: one ``uint16`` per index, always from the side to move's view.

* ``DRAW`` (0): neither side can force a result (also what is left after the perpetual-check pass);
* ``ILLEGAL`` (1): "don't care" -- the index is not a legal position (overlapping pieces, facing generals, the
  side not to move in check).  The file writer gives such entries the value of a neighbour (longer runs);
* ``DIST0 + d`` (2 + d, below ``RULE_BASE``): the game ends by mate in ``d`` plies.  The parity says who wins:
  odd ``d`` -- the side to move mates in ``d`` plies; even ``d`` -- the side to move is mated in ``d`` plies
  (``d`` = 0: no legal move now, which loses in xiangqi, mate and stalemate alike);
* ``RULE_BASE + 2 * order + w`` (0x8000 and up): decided by the rule (Asian rules: perpetual check, and
  perpetual chase in a table built under ``--rule chase``, the default -- the file's header says which), no
  distance to mate; ``w`` = 1 when the side to move wins, 0 when it loses; ``order`` numbers the rounds of the rule pass
  (see ``engine.egtb.build.rule.rule_pass``), a smaller order being decided earlier.

``UNKNOWN`` (-1) is never stored: it is what a probe returns when no table holds the position, its table is
broken, or its chunk may not be read now.

No numba here: the generator, the file format, the probe kernels and scripts all import these names.
"""

UNKNOWN = -1
DRAW, ILLEGAL, DIST0 = 0, 1, 2
RULE_BASE = 0x8000              # RULE_BASE + 2 * order + (1 if the side to move wins else 0)
MAX_DIST = RULE_BASE - DIST0 - 1


def goodness(code):
    """The order of mate and draw codes for their side to move: faster wins first, then draws, slower losses
    before faster ones (a game without rule-decided results; also compiled for chess's generator)."""
    if code >= DIST0:
        d = code - DIST0
        if d % 2 == 1:
            return 1_000_000 - d
        return -1_000_000 + d
    return 0
