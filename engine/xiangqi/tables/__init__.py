"""Xiangqi's endgame tables: the game's parts of the tables written once in :mod:`engine.egtb` (distance to mate
in plies, both sides to move, the Asian rule on perpetual check and chase), files ``<MATERIAL>.xtb``.

* :mod:`.index`    material signatures (R N C P A B) and the index: general pairs with mirror symmetry,
                   advisors/elephants/pawns on their own squares
* :mod:`.probe`    the probe kernel the search calls (``tb_probe``)
* :mod:`.moves`    captures into smaller tables and un-moves, as the generator walks them
* :mod:`.generate` retrograde analysis by ply; :mod:`.rule` the rule pass's steps (checks, chases)

This module is what ``Game.tables()`` hands out: the file suffix and magic, ``Tablebases``, the material
parser and the sets ``shuai tb build`` knows (``Game.table_generator()`` loads the generator: the search never
needs it).
"""
import numpy as np

from ...egtb.probe import ATTACK_CHASE, ATTACK_CHECK, ATTACK_NONE, Tablebases as BaseTablebases
from ..movegen import gives_check
from ..repetition import gives_chase
from ..notation import move_name
from ..position import Position, board_fen
from .index import Material, MaterialError, decode, parse_material  # noqa: F401
from .probe import tb_locate

SUFFIX = ".xtb"
MAGIC = b"SHUAIXTB"
RULE_PASS = True                # the rule pass (``shuai tb build --rule none`` skips it)
#: The warm-up's ending (``engine.warmup.warm_disk_read``): a table and a position one capture from it (the rook
#: or the general takes the cannon).
WARM_ENDING = ("KRvK", "3k5/9/9/9/9/9/9/9/R3c4/4K4 w - - 0 1")
SLICEABLE = True                # a large table may be built in slices by several Ray workers (engine.egtb.build.sliced)

DEFENDERS = ["", "A", "AA", "B", "BB", "AB", "AAB", "ABB", "AABB"]
ATTACKERS = "RNCP"
#: Every ending with one attacking piece against any advisors and elephants.
ONE_ATTACKER = [f"K{a}vK{d}" for a in ATTACKERS for d in DEFENDERS]
#: Two attacking pieces against up to two defenders: the candidates ...
TWO_ATTACKER_ALL = [f"K{a}{b}vK{d}" for i, a in enumerate(ATTACKERS) for b in ATTACKERS[i:]
                    for d in ("", "A", "B", "AA", "AB", "BB")]
#: ... and those that ``make tablebases`` builds (all that fit in the 30-minute budget; see tablebases/README.md).
TWO_ATTACKER_DEFAULT = list(TWO_ATTACKER_ALL)
DEFAULT_SET = ONE_ATTACKER + TWO_ATTACKER_DEFAULT
#: What ``shuai setup`` builds: every one-attacker ending (45 tables, about 15 s on 2 cores).
QUICK_SET = ONE_ATTACKER
#: The sets ``shuai tb build`` names by an option.
SETS = {"default": DEFAULT_SET, "one-attacker": ONE_ATTACKER}


def position_at(material, idx: int):
    """The Position of index ``idx`` of ``material``'s table, or None where the index holds no legal position
    (a file gives those the value of a neighbour: read them as nothing)."""
    from ...egtb.material import MAX_SLOTS
    from ..position import FenError
    board = np.zeros(90, np.int8)
    side = decode(int(idx), material.spec(), np.zeros(MAX_SLOTS, np.int64), board)
    try:
        return None if side < 0 else Position(board_fen(board, side))
    except FenError:
        return None


class Tablebases(BaseTablebases):
    """The xiangqi tables of a directory (or several): ``*.xtb`` files."""

    suffix, magic, parse_material, locate = SUFFIX, MAGIC, staticmethod(parse_material), staticmethod(tb_locate)
    position, move_name = staticmethod(Position), staticmethod(move_name)

    def attack(self, pos, move: int) -> int:
        m = np.int32(move)
        if gives_check(pos.board, pos.st, m):
            return ATTACK_CHECK
        return ATTACK_CHASE if gives_chase(pos.board, pos.st, m) else ATTACK_NONE
