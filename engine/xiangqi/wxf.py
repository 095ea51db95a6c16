"""Chinese and WXF move notation: name every legal move of a position, and read what a player types.

Pure Python on purpose (no numba, no numpy needed): it works on any board sequence and a list of packed
legal moves, so the terminal game, tests and scripts can use it without the engine.

Files, counted from each player's own right
-------------------------------------------
Our coordinates: file ``a``..``i`` = 0..8 from Red's left, rank 0..9 from Red's back rank.  A player counts the
files 1..9 from *his own right hand*:

* Red sits at rank 0 facing rank 9; his right hand is towards file ``i``.  So Red's file 1 = ``i``, Red's 9 =
  ``a``: **red number = 9 - file**.  Written with Chinese numerals 一 … 九.
* Black sits at rank 9 facing rank 0; his right hand is towards file ``a``.  So Black's file 1 = ``a``, Black's
  9 = ``i``: **black number = file + 1**.  Written with Arabic digits 1 … 9.

Red moves *forward* (进, ``+``) to higher ranks, Black to lower ranks; backward is 退 (``-``), sideways 平
(``=``).  After the action comes, for pieces that move straight (general, chariot, cannon, soldier) going
forward or back, the number of ranks moved; for sideways moves and for the diagonal movers (horse, elephant,
advisor), the destination file in the mover's own numbering.

Worked examples from the initial position (checked in tests/test_wxf.py):

* ``h2e2``: Red cannon on file h → red 9-7 = 二; to file e → 9-4 = 五, same rank: 炮二平五, ``C2=5``.
* ``h9g7``: Black horse on file h → black 7+1 = 8; to file g → 6+1 = 7; rank 9 → 7 is forward for Black:
  马8进7, ``H8+7``.
* ``b7e7``: Black cannon on file b → 1+1 = 2; to file e → 5: 炮2平5, ``C2=5`` (the same WXF text as Red's
  central cannon: notation is always read from the side to move).
* ``h7h0``: Black cannon takes the horse on h0: file 8, seven ranks forward: 炮8进7, ``C8+7``.
* ``b0c2``: Red horse b → 9-1 = 八, to c → 9-2 = 七: 马八进七, ``H8+7``.

Several identical pieces on one file (tandem pieces)
----------------------------------------------------
"Front" is the piece nearer the opponent (higher rank for Red, lower for Black).

* Two chariots / horses / cannons / soldiers on a file: 前 / 后 replace the file number: 前车进一, 后炮平四;
  WXF puts ``+`` / ``-`` in place of the file digit: ``R++1``, ``C-=4`` (the WXF standard; ``+R+1`` and the
  traditional 车前进一 are accepted too).
* Advisors and elephants on one file keep the file number (仕六进五, ``A6+5``): they can never both reach the
  same point in the same direction, so the name is unique anyway.
* Soldiers, 3 on one file: 前兵 / 中兵 / 后兵; WXF ``P+``, ``P<file>`` (the middle one takes the ordinary
  name), ``P-``.  4 or 5 on one file: 一兵 二兵 三兵 四兵 (五兵) counted from the front; WXF ``++``, ``P+``,
  (``P<file>`` for the middle of five), ``P-``, ``--``.
* Soldiers doubled on *two* files: the file number replaces the piece name: 前七进一 / 中七 / 后七 (Black
  前7 …); WXF ``7+``, ``77`` (middle), ``7-``.

Reading input (:class:`MoveNames.parse`)
----------------------------------------
Coordinates (``h2e2``, ``H2-E2``), Chinese (either character set: 车車俥, 马馬傌, 炮砲包, 兵卒, 帅帥将將,
仕士, 相象, 进進, 后後; Chinese numerals, Arabic or full-width digits for either side) or WXF (upper or lower
case, ``.`` or ``=`` for sideways, ``N``/``B`` for horse/elephant).  Every legal move's canonical name wins
first; then looser aliases (a plain file number for a tandem piece when only one of them can make that move,
前/后 for the first/last of four or five soldiers, 一/二/三 for 前/中/后 …) are tried, and an alias shared by
several moves is reported as ambiguous with the candidates.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from ..files import clip
from ..move import move_from, move_to
from .constants import (ADVISOR, BLACK, CANNON, ELEPHANT, FILE_LETTERS, FILES, HORSE, KING, PAWN,  # noqa: F401
                        RANKS, RED, ROOK)

DIAGONAL_MOVERS = (HORSE, ELEPHANT, ADVISOR)

WXF_LETTERS = " KAEHRCP"                                 # index = kind
CHINESE_PIECES = (" 帅仕相马车炮兵", " 将士象马车炮卒")        # notation (simplified) characters, by colour
CHINESE_NUMERALS = " 一二三四五六七八九"
CHINESE_ACTIONS = {"+": "进", "-": "退", "=": "平"}

# Input normalisation for Chinese: every accepted character maps to one token of the internal key alphabet
# (the same alphabet as WXF: piece letters, digits, + - =), tandem words to f/m/b (front, middle, back).
_CN_TOKENS = {}
for _chars, _tok in (("帅帥将將", "K"), ("仕士", "A"), ("相象", "E"), ("马馬傌", "H"), ("车車俥", "R"),
                     ("炮砲包", "C"), ("兵卒", "P"), ("进進", "+"), ("退", "-"), ("平", "="),
                     ("前", "f"), ("中", "m"), ("后後", "b")):
    for _c in _chars:
        _CN_TOKENS[_c] = _tok
for _i, _c in enumerate(CHINESE_NUMERALS):
    if _i:
        _CN_TOKENS[_c] = str(_i)
        _CN_TOKENS[str(_i)] = str(_i)
_WXF_LETTER_SYNONYMS = {"N": "H", "B": "E"}
_COORD_RE = re.compile(r"([a-i])([0-9])\s*-?\s*([a-i])([0-9])")


class MoveParseError(ValueError):
    """Input that is not a legal move here: garbage, illegal or ambiguous.  The message says which."""


# -- numbering ------------------------------------------------------------------------------------------------
def side_file(side: int, file: int) -> int:
    """Our file index 0..8 (a..i) -> the mover's own file number 1..9 (see the module docstring)."""
    return 9 - file if side == RED else file + 1


def file_of_number(side: int, number: int) -> int:
    """Inverse of :func:`side_file`."""
    return 9 - number if side == RED else number - 1


def _digit(side: int, n: int) -> str:
    """A file number or a count of ranks as the side writes it: Chinese numerals for Red, Arabic for Black."""
    return CHINESE_NUMERALS[n] if side == RED else str(n)


def is_front(side: int, rank_a: int, rank_b: int) -> bool:
    """Is rank_a nearer the opponent than rank_b (for ``side``)?"""
    return rank_a > rank_b if side == RED else rank_a < rank_b


# -- naming ---------------------------------------------------------------------------------------------------
@dataclass
class MoveName:
    move: int
    iccs: str                       # h2e2
    chinese: str                    # 炮二平五
    wxf: str                        # C2=5
    side: int                       # who makes the move (0 red, 1 black)
    chinese_aliases: set = field(default_factory=set)     # normalised keys, see _chinese_key
    wxf_aliases: set = field(default_factory=set)         # normalised keys, see _wxf_key


def _columns(board, side: int) -> dict:
    """{kind: {file: [squares, front first]}} for the pieces of ``side``."""
    cols: dict = {}
    for sq in range(FILES * RANKS):
        p = int(board[sq])
        if p and (p >> 3) == side:
            cols.setdefault(p & 7, {}).setdefault(sq % FILES, []).append(sq)
    for by_file in cols.values():
        for squares in by_file.values():
            squares.sort(key=lambda s: -(s // FILES) if side == RED else s // FILES)
    return cols


def _tandem_words(n: int) -> list[str]:
    """Chinese position words for n pieces on a file, front first."""
    if n == 2:
        return ["前", "后"]
    if n == 3:
        return ["前", "中", "后"]
    return [CHINESE_NUMERALS[i + 1] for i in range(n)]


def _pawn_wxf_markers(n: int, num: int) -> list[str]:
    """WXF designators (two characters) for n soldiers on one file (only file), front first."""
    mid = f"P{num}"
    return {2: ["P+", "P-"], 3: ["P+", mid, "P-"], 4: ["++", "P+", "P-", "--"],
            5: ["++", "P+", mid, "P-", "--"]}[n]


class MoveNames:
    """The Chinese and WXF names of every legal move in one position.

    ``board``: 90 squares (square = rank * 9 + file, piece = colour * 8 + kind); ``side``: 0 red, 1 black;
    ``moves``: the legal moves, packed (``engine.move``).
    """

    def __init__(self, board, side: int, moves):
        self.side = side
        self.names: list[MoveName] = []
        self._by_move: dict[int, MoveName] = {}
        cols = _columns(board, side)
        doubled_pawn_files = sum(1 for sqs in cols.get(PAWN, {}).values() if len(sqs) >= 2)
        for m in moves:
            name = self._name(board, side, int(m), cols, doubled_pawn_files)
            self.names.append(name)
            self._by_move[name.move] = name
        self._index()

    @classmethod
    def of(cls, pos) -> "MoveNames":
        """From anything with ``board``, ``side`` and ``legal_moves()`` (engine.xiangqi.position.Position)."""
        return cls(pos.board, pos.side, pos.legal_moves())

    # -- formatting -------------------------------------------------------------------------------------------
    def _name(self, board, side, move, cols, doubled_pawn_files) -> MoveName:
        frm, to = move_from(move), move_to(move)
        fr, ff = divmod(frm, FILES)
        tr, tf = divmod(to, FILES)
        kind = int(board[frm]) & 7
        num = side_file(side, ff)
        piece_cn, letter = CHINESE_PIECES[side][kind], WXF_LETTERS[kind]

        # the action and its number
        if fr == tr:
            act, arg = "=", side_file(side, tf)
        else:
            act = "+" if is_front(side, tr, fr) else "-"
            arg = side_file(side, tf) if kind in DIAGONAL_MOVERS else abs(tr - fr)
        cn_tail = CHINESE_ACTIONS[act] + _digit(side, arg)
        wxf_tail = f"{act}{arg}"

        # which piece: file number, or its place among identical pieces on the file
        plain_cn, plain_wxf = piece_cn + _digit(side, num), f"{letter}{num}"
        column = cols[kind][ff]
        n, i = len(column), column.index(frm)
        cn_aliases, wxf_aliases = {_chinese_key(plain_cn + cn_tail)}, {plain_wxf + wxf_tail}
        if n == 1 or kind in (ADVISOR, ELEPHANT):
            cn_head, wxf_head = plain_cn, plain_wxf
            if n > 1:                                   # 前仕 / A+ are understood too
                word = _tandem_words(n)[i]
                cn_aliases.add(_chinese_key(word + piece_cn + cn_tail))
                wxf_aliases.add(f"{letter}{'+-'[i]}{wxf_tail}")
        elif kind == PAWN and doubled_pawn_files >= 2:  # soldiers doubled on two files: 前七, 7+
            word = _tandem_words(n)[i]
            cn_head = word + _digit(side, num)
            wxf_head = f"{num}{(['+', '-'] if n == 2 else ['+', str(num), '-'])[i]}"   # n is 2 or 3 here
            cn_aliases.add(_chinese_key(word + piece_cn + _digit(side, num) + cn_tail))   # 前兵七进一
        elif kind == PAWN:
            words = _tandem_words(n)
            cn_head = words[i] + piece_cn
            wxf_head = _pawn_wxf_markers(n, num)[i]
            # 一二三 for 前中后, and 前/中/后 for the first / middle / last of four or five
            if n <= 3:
                cn_aliases.add(_chinese_key(CHINESE_NUMERALS[i + 1] + piece_cn + cn_tail))
            else:
                extra = "前" if i == 0 else "后" if i == n - 1 else "中" if n == 5 and i == 2 else None
                if extra:
                    cn_aliases.add(_chinese_key(extra + piece_cn + cn_tail))
            if n <= 3 and wxf_head[1] in "+-":
                wxf_aliases.add(wxf_head[1] + "P" + wxf_tail)                # +P=4
        else:                                           # two chariots / horses / cannons / soldiers
            cn_head = ("前", "后")[i] + piece_cn
            wxf_head = f"{letter}{'+-'[i]}"
            wxf_aliases.add(f"{'+-'[i]}{letter}{wxf_tail}")                   # +R-1
        iccs = FILE_LETTERS[ff] + str(fr) + FILE_LETTERS[tf] + str(tr)
        return MoveName(move, iccs, cn_head + cn_tail, wxf_head + wxf_tail, side, cn_aliases, wxf_aliases)

    def name(self, move: int) -> MoveName:
        """The names of a legal move (KeyError for any other)."""
        return self._by_move[move]

    # -- parsing ----------------------------------------------------------------------------------------------
    def _index(self) -> None:
        self._iccs = {n.iccs: n.move for n in self.names}
        self._cn = {_chinese_key(n.chinese): n.move for n in self.names}
        self._wxf = {n.wxf: n.move for n in self.names}
        self._cn_alias: dict[str, set] = {}
        self._wxf_alias: dict[str, set] = {}
        for n in self.names:
            for k in n.chinese_aliases:
                self._cn_alias.setdefault(k, set()).add(n.move)
            for k in n.wxf_aliases:
                self._wxf_alias.setdefault(k, set()).add(n.move)

    def parse(self, text: str) -> int:
        """Coordinates, Chinese or WXF -> the packed legal move; MoveParseError (a clear message) otherwise."""
        raw = unicodedata.normalize("NFKC", text).strip()
        if not raw:
            raise MoveParseError("empty move")
        compact = re.sub(r"\s+", "", raw)
        m = _COORD_RE.fullmatch(raw.lower())
        if m:
            iccs = "".join(m.groups())
            if iccs in self._iccs:
                return self._iccs[iccs]
            if iccs[:2] == iccs[2:]:
                raise MoveParseError(f"{raw}: a move must go somewhere")
            raise MoveParseError(f"{raw} is not a legal move here")
        if any(_is_cjk(c) for c in compact):
            key = _chinese_key(compact)
            if key is None:
                raise MoveParseError(f"cannot read {clip(raw, 30)!r} as a move (like 炮二平五, 马8进7, 前车进一)")
            exact, alias = self._cn, self._cn_alias
        else:
            key = _wxf_key(compact)
            if key is None:
                raise MoveParseError(f"cannot read {clip(raw, 30)!r} as a move: type coordinates (h2e2), "
                                     "Chinese (炮二平五) or WXF (C2=5)")
            exact, alias = self._wxf, self._wxf_alias
        if key in exact:
            return exact[key]
        found = alias.get(key, set())
        if len(found) == 1:
            return next(iter(found))
        if len(found) > 1:
            options = ", ".join(sorted(f"{self._by_move[mv].chinese} ({self._by_move[mv].iccs})"
                                       for mv in found))
            raise MoveParseError(f"{raw} is ambiguous: {options}")
        raise MoveParseError(f"{raw} is not a legal move here")


def _is_cjk(c: str) -> bool:
    return "\u2e80" <= c <= "\u9fff" or "\uf900" <= c <= "\ufaff"


def _chinese_key(text: str):
    """Chinese move text -> key in the internal alphabet, or None if some character is not notation.

    The traditional order with the position word after the piece (车前进一) is turned into 前车进一's key."""
    out = []
    for c in text:
        if c in " \t":
            continue
        tok = _CN_TOKENS.get(c)
        if tok is None:
            return None
        out.append(tok)
    key = "".join(out)
    m = re.fullmatch(r"([KAEHRCP])([fmb])(.*)", key)
    if m:
        key = m.group(2) + m.group(1) + m.group(3)
    return key


def _wxf_key(text: str):
    """WXF text -> normalised key (upper case, ``.`` -> ``=``, N/B -> H/E), or None if it cannot be WXF."""
    t = text.upper().replace(".", "=")
    if len(t) != 4 or t[2] not in "+-=" or t[3] not in "123456789":
        return None
    head = list(t[:2])
    for i in (0, 1):
        head[i] = _WXF_LETTER_SYNONYMS.get(head[i], head[i])
    if not all(c in "KAEHRCP+-123456789" for c in head):
        return None
    return "".join(head) + t[2:]
