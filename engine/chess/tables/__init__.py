"""Chess's endgame tables: the game's parts of the tables written once in :mod:`engine.egtb` (distance to mate
in plies, both sides to move, no perpetual-check rule), files ``<MATERIAL>.ctb``.

* :mod:`.index`    material signatures (Q R B N P) and the index: king pairs reduced by the board's eight
                   symmetries (the left-right mirror alone with pawns), pawns on ranks 2-7
* :mod:`.probe`    the probe kernel the chess search calls (``tb_probe``)
* :mod:`.generate` retrograde analysis by ply, verifying the losses (promotions and en passant included)

This module is what ``Game.tables()`` hands out: the file suffix and magic, ``Tablebases``, the material
parser and the sets ``shuai tb build --game chess`` knows (``Game.table_generator()`` loads the generator).
"""
from ...egtb.codes import DIST0, DRAW, ILLEGAL, UNKNOWN, goodness
from ...egtb.probe import Tablebases as BaseTablebases
from ...move import move_from, move_to
from ..constants import PAWN, ST_EP
from ..notation import move_name
from ..position import Position
from .index import Material, MaterialError, parse_material  # noqa: F401
from .probe import tb_locate

SUFFIX = ".ctb"
MAGIC = b"SHUAICTB"
RULE_PASS = False               # no perpetual-check rule in chess
#: The warm-up's ending (``engine.warmup.warm_disk_read``): a table and a position one capture from it (the queen
#: takes the rook).
WARM_ENDING = ("KQvK", "4k3/8/8/8/8/8/8/r2QK3 w - - 0 1")
SLICEABLE = False               # chess tables are built whole, by one worker each

#: The endings asked for by name; ``shuai tb build --game chess --default`` builds them and every table they
#: capture or promote into (KPvKP needs KQvKP, KRvKP, KBvKP, KNvKP and those need KQvKQ ... KNvKN).
NAMED = ["KQvK", "KRvK", "KBNvK", "KBBvK", "KPvK", "KQvKR", "KRvKB", "KRvKN", "KQvKP", "KRvKP", "KPvKP"]
DEFAULT_SET = list(NAMED)
#: What ``shuai setup`` builds: the basic mates and KPvK (about 10 s on 2 cores).
QUICK_SET = ["KQvK", "KRvK", "KPvK", "KBBvK", "KBNvK"]
#: The sets ``shuai tb build`` names by an option.
SETS = {"default": DEFAULT_SET}


class Tablebases(BaseTablebases):
    """The chess tables of a directory (or several): ``*.ctb`` files."""

    suffix, magic, parse_material, locate = SUFFIX, MAGIC, staticmethod(parse_material), staticmethod(tb_locate)
    position, move_name = staticmethod(Position), staticmethod(move_name)

    def position_code(self, pos, disk: bool = True) -> int:
        """Value code of a chess Position: castling rights make it unknown; a usable en-passant square is
        answered from the table (the position without it) and the en-passant captures."""
        if pos.castling:
            return UNKNOWN
        code = self.probe_code(pos.board, pos.side, disk)
        ep = int(pos.st[ST_EP])
        if ep == 0 or code < 0 or code == ILLEGAL:
            return code
        best = code
        for m in pos.legal_moves():
            frm, to = move_from(int(m)), move_to(int(m)) & 63
            if pos.board[frm] & 7 != PAWN or to != ep:
                continue
            pos.push(m)
            child = self.probe_code(pos.board, pos.side, disk)
            pos.pop()
            if child < 0 or child == ILLEGAL:
                return UNKNOWN
            mine = child + 1 if child >= DIST0 else DRAW
            if goodness(mine) > goodness(best):
                best = mine
        return best
