"""Checks the games of an XBoard match (scripts/xboard_match.sh): for each pair of a PGN file XBoard saved and the
debug log it wrote, every game is complete and every move legal, and every result Shuai claimed is one the
rules give.  Prints how each game ended; exits with status 1 on any problem.

    python scripts/xboard_check.py GAMES.pgn GAMES.debug [GAMES2.pgn GAMES2.debug ...]

* The PGN, replayed independently of the engine's moves as it received them: chess by python-chess (SAN),
  xiangqi by our rules -- XBoard writes xiangqi in its own SAN (``Che2``, ``Hc7``, ``Cxg3``, ``Ege7``,
  ``cxc5``: piece letter K A E H R C, none for a soldier; from-file or -rank when ambiguous; ranks 0-9), each
  move matched against the legal moves of the position.  The game's last position is then judged by the rules:
  a decisive "Xboard adjudication" or a claim in the final comment must be what the rules say.
* The debug log, as Shuai (XBoard's first engine) saw the games: every ``usermove`` and ``move`` replayed from
  ``new``/``variant``/``setboard``, and at each result Shuai claimed (``1-0 {...}``), the rules must give
  that result in that position.  An ``Illegal move`` or ``Error`` from Shuai is a problem too.
"""
from __future__ import annotations

import re
import sys

import chess
import chess.pgn
import click

from engine.protocol.xboard import XBOARD_STANDARD, game_for
from engine.xiangqi.constants import CHAR_SYNONYMS, FILE_LETTERS, FILES, PIECE_CHARS

XIANGQI_SAN = re.compile(r"([KAEHRCNB])?([a-i])?(\d)?x?([a-i])(\d)[+#]?")
CLAIM = re.compile(r"(1-0|0-1|1/2-1/2) \{(.*)\}")


def xiangqi_move(pos, san: str) -> str:
    """The one legal move XBoard's xiangqi SAN ``san`` names in ``pos`` (ValueError: none or several)."""
    m = XIANGQI_SAN.fullmatch(san)
    if not m:
        raise ValueError(f"not a xiangqi SAN move: {san!r}")
    letter, from_file, from_rank, to_file, to_rank = m.groups()
    kind = PIECE_CHARS.index("P") if letter is None else CHAR_SYNONYMS.get(letter) or PIECE_CHARS.index(letter)
    target = f"{to_file}{to_rank}"
    found = []
    for name in pos.legal_move_names():
        frm = FILE_LETTERS.index(name[0]) + FILES * int(name[1])
        if (name[2:] == target and int(pos.board[frm]) & 7 == kind and from_file in (None, name[0])
                and from_rank in (None, name[1])):
            found.append(name)
    if len(found) != 1:
        raise ValueError(f"{san!r} matches {found or 'no legal move'} in {pos.fen()}")
    return found[0]


def pgn_games(path: str):
    """(headers, SAN moves, final comment, result) of each game in an XBoard PGN file."""
    text = open(path, encoding="utf-8", errors="replace").read()
    for block in re.split(r"\n(?=\[Event )", text.strip()):
        headers = dict(re.findall(r'^\[(\w+) "(.*)"\]$', block, re.M))
        body = "\n".join(line for line in block.splitlines() if not line.startswith("["))
        comments = re.findall(r"\{([^}]*)\}", body)
        moves_text = re.sub(r"\{[^}]*\}", " ", body)
        tokens = [t for t in moves_text.split() if not re.fullmatch(r"\d+\.+", t)]
        result = tokens.pop() if tokens and tokens[-1] in ("1-0", "0-1", "1/2-1/2", "*") else "*"
        yield headers, tokens, (comments[-1] if comments else ""), result


def check_pgn(path: str) -> list[str]:
    problems = []
    for i, (headers, sans, comment, result) in enumerate(pgn_games(path), 1):
        variant = headers.get("Variant", XBOARD_STANDARD)
        game = game_for(variant)
        label = f"{path} game {i} ({headers.get('White')} - {headers.get('Black')}, {variant})"
        try:
            if game.iccs:
                pos = game.position(headers.get("FEN"))
                for san in sans:
                    pos.push(xiangqi_move(pos, san))
                verdict = game.game_result(pos)
                plies = pos.ply
            else:
                board = chess.Board(headers.get("FEN", chess.STARTING_FEN))
                for san in sans:
                    board.push_san(san)
                over = board.outcome(claim_draw=True)
                verdict = (over.result(), over.termination.name.lower()) if over else None
                plies = len(board.move_stack)
        except ValueError as e:
            problems.append(f"{label}: illegal or unreadable move: {e}")
            continue
        print(f"{label}: {result} after {plies} plies -- {comment}"
              f"{'' if verdict is None else f' (rules: {verdict[0]} {verdict[1]})'}")
        if result == "*":
            problems.append(f"{label}: not finished")
        decided_by_board = "adjudication" in comment.lower() or "wins by" in comment or "Draw by" in comment
        if decided_by_board and "time" not in comment.lower() and (verdict is None or verdict[0] != result):
            problems.append(f"{label}: ended {result} {{{comment}}} but the rules say {verdict}")
        if re.search(r"illegal|false|invalid|forfeit|crash", comment, re.I):
            problems.append(f"{label}: {comment}")
    return problems


def check_debug(path: str) -> list[str]:
    """Replays the games as XBoard's first engine (Shuai) saw them; checks each of its claims and errors."""
    problems, pos, game = [], None, None
    for line in open(path, encoding="utf-8", errors="replace"):
        m = re.match(r"\d+ ([<>])first : (.*)", line.rstrip("\n"))
        if not m:
            continue
        direction, text = m.groups()
        text = re.sub(r"\d+ >first : ", "", text)         # a command XBoard wrote in two pieces
        word, _, rest = text.partition(" ")
        if direction == ">":
            if word == "new":
                game = game_for(XBOARD_STANDARD)
                pos = game.position()
            elif word == "variant":
                game = game_for(rest.strip())
                pos = game.position()
            elif word == "setboard":
                pos = game.position(rest.strip())
            elif word == "usermove":
                try:
                    pos.push(rest.strip())
                except ValueError:       # refused by Shuai too (its answer, 'Illegal move', is checked below)
                    pass
            elif word in ("undo", "remove"):
                for _ in range(1 if word == "undo" else 2):
                    pos.pop()
            continue
        if word == "move":
            try:
                pos.push(rest.strip())
            except ValueError as e:
                problems.append(f"{path}: Shuai played an illegal move: {e}")
        elif CLAIM.fullmatch(text):
            claimed = CLAIM.fullmatch(text).group(1)
            verdict = game.game_result(pos)
            print(f"{path}: Shuai claimed {text}; the rules: {verdict}")
            if verdict is None or verdict[0] != claimed:
                problems.append(f"{path}: false claim {text!r} in {pos.fen()} (rules: {verdict})")
        elif re.match(r"(Illegal move|Error|tellusererror)", text):
            problems.append(f"{path}: Shuai answered {text!r}")
    return problems


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
def main(files):
    """Check XBoard's games: FILES are pairs of a PGN and its debug file (GAME.pgn GAME.debug ...)."""
    if len(files) % 2:
        raise click.UsageError("give pairs: GAME.pgn GAME.debug ...")
    problems = []
    for pgn, debug in zip(files[::2], files[1::2]):
        problems += check_pgn(pgn) + check_debug(debug)
    for p in problems:
        print("PROBLEM:", p)
    print("all games complete, every move legal, no false claim" if not problems else f"{len(problems)} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
