"""The terminal game: read a line, play a move or run a command, let the engine answer, show the board.

Everything goes through ``out`` (a text stream) and ``read`` (a function like ``input``), so the loop runs the
same in a terminal, in a pseudo-terminal under test, or with piped input.

``Session`` plays xiangqi; what depends on the game (the record, the board drawing, the texts) is in methods
and class attributes that engine.play.chess_session's ``ChessSession`` overrides for chess.  Each game names
its session class (``Game.Session``), which ``shuai play`` (engine.play.cli) starts.
"""
from __future__ import annotations

import os
import shutil
from dataclasses import replace

from ..files import UnreadableFile, UnwritableFile, clip, read_text, write_atomically
from ..levels import MAX_SKILL, Level
from ..xiangqi.position import FenError
from ..xiangqi.rules import DRAW, loss_for
from ..xiangqi.wxf import MoveParseError
from .xiangqi_view import board_width, render_board, side_by_side
from ..xiangqi.constants import RANKS, RED, SIDE_NAMES
from .record import RESULT_CHINESE
from .xiangqi_record import XiangqiRecord
from .terminal import UNICODE_SAMPLE, Style, pad, text_width
from .thinking import format_score, format_wdl

COMMANDS_HELP = """\
Commands:
  undo          take back your last move and the engine's reply
  hint          the engine suggests a move (at full strength)
  level N       the engine's playing level, 0 (weakest) to 20 (full strength)
  moves         list your legal moves
  draw          offer a draw (the engine accepts if it does not think it is better)
  resign        give up this game
  new           start a new game (same sides, same start position)
  save FILE     save the game as {pgn}
  load FILE     load a PGN game, or: load FEN  to set up a position
  fen           print the position as FEN
  flip          turn the board round
  board         show the board again
  help          this text
  quit          leave"""       # each game's help: its notations, then these with its PGN format

HELP = """\
Moves, in any of three notations:
  coordinates   h2e2  H2-E2          file a-i from Red's left, rank 0-9 from Red's side
  Chinese       炮二平五  马8进7  前车进一  (Red counts files 一-九, Black 1-9, each from his own right)
  WXF           C2=5  H8+7  R++1  +R-1   (K A E H R C P; + forward, - back, = or . sideways)
""" + COMMANDS_HELP.format(pgn="xiangqi PGN (ICCS moves; XQWizard reads it)")

QUIT = object()
MAX_GAME_FILE = 1 << 20     # bytes: what ``load`` reads -- a game is a few KB, a collection of a thousand games
                            # (the first is loaded) fits; reading the largest takes under a second


class Session:
    record = XiangqiRecord              # the game record's class: record(fen) raises fen_error for a bad FEN
    side_names = tuple(name.capitalize() for name in SIDE_NAMES)      # "Red", "Black"
    move_error = MoveParseError         # what the game's parse() raises for input that is no legal move here
    fen_error = FenError                # what the game's reset() raises for a bad FEN
    sample = UNICODE_SAMPLE             # every non-ASCII character the Unicode style prints
    tablebases = True                   # the engine probes the project's (xiangqi) tablebases/, if built
    ranks = RANKS                       # what tells a FEN typed after ``load`` from a file name
    columns = board_width()             # the board's width on screen
    titles = ("Shuai 帥", "Shuai")      # the panel's title: Unicode, ASCII
    farewells = ("再见 — bye.", "Bye.")
    help_page = HELP
    ascii_key = ["", "K general  A advisor  E elephant", "H horse  R chariot  C cannon", "P soldier  (Red upper case)"]
    result_notes = RESULT_CHINESE       # said after the result in the announcement (红胜 …) where Unicode shows

    def __init__(self, out, style: Style, user_side: int = RED, limits=None, start_fen: str | None = None,
                 thinker=None, read=input, flipped: bool | None = None, level: int = MAX_SKILL):
        self.out = out
        self.style = style
        self.user = user_side
        self.limits = limits
        self.start_fen = start_fen or self.record.START_FEN
        self.game = self.record(self.start_fen)
        self.thinker = thinker
        self.read = read
        self.flipped = (user_side != RED) if flipped is None else flipped
        self.last_info = None                   # the engine's last search of its own move
        self.level = level                      # the engine's playing level (engine.levels): its own moves only
        self.commands = {
            "help": self.cmd_help, "?": self.cmd_help, "quit": self.cmd_quit, "exit": self.cmd_quit,
            "q": self.cmd_quit, "undo": self.cmd_undo, "takeback": self.cmd_undo, "hint": self.cmd_hint,
            "moves": self.cmd_moves, "draw": self.cmd_draw, "resign": self.cmd_resign, "new": self.cmd_new,
            "save": self.cmd_save, "load": self.cmd_load, "fen": self.cmd_fen, "flip": self.cmd_flip,
            "board": self.cmd_board, "level": self.cmd_level,
        }

    # -- the game's own parts (ChessSession overrides these) ------------------------------------------------
    def board_lines(self) -> list[str]:
        g = self.game
        return render_board(g.pos.board, self.style, self.flipped, g.last_move, g.king_in_check())

    def intro(self) -> list[str]:
        side = self.side_names[self.user]
        if self.style.unicode:
            return [f"Shuai (帥) — xiangqi. You play {side}; Shuai thinks {self.strength()}.",
                    "Type a move (h2e2, 炮二平五 or C2=5) or a command; help lists them."]
        return [f"Shuai - xiangqi. You play {side}; Shuai thinks {self.strength()}.",
                "Type a move (h2e2 or C2=5) or a command; help lists them."]

    def title(self) -> str:
        return self.titles[0 if self.style.unicode else 1]

    def result_note(self, result: str) -> str:
        return f"  {self.result_notes.get(result, '')}" if self.style.unicode and self.result_notes else ""

    def farewell(self) -> str:
        return self.farewells[0 if self.style.unicode else 1]

    def help_text(self) -> str:
        return self.help_page if self.style.unicode else _ascii_help(self.help_page)

    def looks_like_fen(self, text: str) -> bool:
        first = text.strip().split("\n")[0].split(" ")[0]
        return first.count("/") == self.ranks - 1

    def move_cell(self, n) -> str:
        """A legal move in the list of moves: its name and its coordinates."""
        return f"{self.name_of(n)} {n.iccs}"

    # -- output -----------------------------------------------------------------------------------------------
    def say(self, text: str = "", code: str = "") -> None:
        self.out.write(self.style.paint(text, code) + "\n")
        self.out.flush()

    def error(self, text: str) -> None:
        self.say(("✗ " if self.style.unicode else "! ") + text, "1;38;5;203")

    def full_name(self, n) -> str:
        """炮二平五 (h2e2, C2=5) in Chinese mode; C2=5 (h2e2) in ASCII mode."""
        return f"{n.chinese} ({n.iccs}, {n.wxf})" if self.style.unicode else f"{n.wxf} ({n.iccs})"

    def move_text(self, played) -> str:
        """``full_name``, and ', check!' after a checking move."""
        text = self.full_name(played)
        if self.game.played and self.game.played[-1] is played and self.game.pos.in_check():
            text += ", check!"
        return text

    def name_of(self, n) -> str:
        return n.chinese if self.style.unicode else n.wxf

    def show_board(self) -> None:
        lines = self.board_lines()
        columns = shutil.get_terminal_size((80, 24)).columns
        panel = self.panel(len(lines))
        self.out.write("\n")
        if columns >= self.columns + 3 + 24:
            lines = side_by_side(lines, self.columns, panel)
        else:
            lines = lines + [""] + [p for p in panel if p.strip()]
        self.out.write("\n".join(lines) + "\n")
        self.out.flush()

    def panel(self, height: int) -> list[str]:
        g = self.game
        you, engine = "You", "Shuai"
        first, second = (you, engine) if self.user == RED else (engine, you)
        head = [self.style.paint(self.title(), "1"),
                f"{self.side_names[0]}: {first}   {self.side_names[1]}: {second}",
                "Shuai thinks " + self.strength(), ""]
        tail = []
        if g.ended:
            tail.append(self.style.paint(self.record.describe(*g.ended), "1"))
        elif g.in_check():
            tail.append(self.style.paint(f"{self.side_names[g.side]} is in check", "1;38;5;203"))
        if self.last_info is not None:
            tail.append(f"Shuai's eval {format_score(self.last_info)} (depth {self.last_info.depth})")
        to_move = "" if g.ended else f"{self.side_names[g.side]} to move" + (" (you)" if g.side == self.user else "")
        if to_move:
            tail.append(to_move)
        if not self.style.unicode:                  # the letters need a key
            tail += self.ascii_key
        room = max(0, height - len(head) - len(tail) - 1)
        rows = self.move_rows()
        if len(rows) > room:
            rows = ["  …" if self.style.unicode else "  ..."] + rows[len(rows) - room + 1:]
        return head + rows + [""] + tail

    def move_rows(self) -> list[str]:
        g = self.game
        rows = []
        number = g.start_number()
        first_black = g.played and g.played[0].side != RED
        cells = ([None] if first_black else []) + [self.name_of(p) for p in g.played]
        for i in range(0, len(cells), 2):
            a = cells[i] or "..."
            b = cells[i + 1] if i + 1 < len(cells) else ""
            rows.append(f"{number + i // 2:3d}. {pad(a, 10)}{b}".rstrip())
        return rows

    def strength(self) -> str:
        """'2 s a move', 'to depth 4', '2 s a move, to depth 4 at most'; ', level N' below full strength."""
        movetime = self.limits.movetime if self.limits is not None else None
        depth = self.limits.depth if self.limits is not None else None
        if movetime is not None and depth is not None:
            said = f"{movetime:g} s a move, to depth {depth} at most"
        elif depth is not None:
            said = f"to depth {depth}"
        else:
            said = f"{movetime:g} s a move" if movetime is not None else "without limit"
        return said + (f", level {self.level}" if self.level < MAX_SKILL else "")

    def engine_limits(self):
        """The limits of the engine's own moves: the session's, at its level."""
        return replace(self.limits, level=Level.of(self.level))

    def full_strength(self):
        """The limits of a hint or a draw offer's judgement: full strength, searched (not the book's move)."""
        return replace(self.limits, level=Level(book=False))

    def announce_end(self) -> None:
        result, reason = self.game.ended
        text = f"Game over: {self.record.describe(result, reason)} ({result})" + self.result_note(result)
        self.say(text, "1;38;5;220")
        if result != DRAW:
            winner = RED if result == "1-0" else 1
            self.say("You win! Well played." if winner == self.user else "Shuai wins.")
        self.say("Type new for another game, undo to take back, save FILE to keep it, or quit.")

    # -- the loop ---------------------------------------------------------------------------------------------
    def run(self) -> int:
        first, second = self.intro()
        self.say(first, "1")
        self.say(second)
        if self.game.check_end():
            self.show_board()
            self.announce_end()
        elif self.game.side == self.user:
            self.show_board()
        while True:
            g = self.game
            if not g.ended and g.side != self.user:
                try:
                    self.engine_move()          # Ctrl-C while it thinks: it plays what it has found
                except KeyboardInterrupt:
                    self.say()
                    break
                continue
            prompt = "game over> " if g.ended else f"{self.side_names[self.user].lower()}> "
            try:
                line = self.read(prompt)
            except EOFError:
                self.say()
                break
            except KeyboardInterrupt:
                self.say()
                break
            try:
                if self.handle(line) is QUIT:
                    break
            except KeyboardInterrupt:
                self.say()
                self.say("(interrupted)")
        self.say(self.farewell())
        return 0

    def handle(self, line: str):
        text = line.strip()
        if not text:
            return None
        word, _, rest = text.partition(" ")
        cmd = self.commands.get(word.lower())
        if cmd is not None:
            return cmd(rest.strip())
        return self.user_move(text)

    def user_move(self, text: str):
        g = self.game
        if g.ended:
            self.error("the game is over: type new, undo or load")
            return None
        try:
            move = g.parse(text)
        except self.move_error as e:
            self.error(str(e))
            if g.has_legal_moves() and "not a legal move" in str(e):
                self.say("  (type moves to list your legal moves)")
            return None
        played = g.play(move)
        self.say(f"You play {self.move_text(played)}")
        if g.check_end():
            self.show_board()
            self.announce_end()
        return None

    def engine_move(self) -> None:
        g = self.game
        result = self.thinker.think(g.pos, self.engine_limits(), "Shuai is thinking",
                                    lambda pv: g.names_of_line(pv, self.style.unicode))
        if result.best is None:                     # no legal move: the rules say why
            g.check_end()
            self.show_board()
            if g.ended:
                self.announce_end()
            return
        self.last_info = result.info
        played = g.play(g.parse(result.best))
        extra = f"   eval {format_score(result.info)}, depth {result.info.depth}" if result.info else ""
        if result.book:
            extra = "   from the book"
        self.say(f"Shuai plays {self.move_text(played)}{extra}", "1")
        g.check_end()
        self.show_board()
        if g.ended:
            self.announce_end()

    # -- commands ---------------------------------------------------------------------------------------------
    def cmd_help(self, arg):
        self.say(self.help_text())

    def cmd_quit(self, arg):
        return QUIT

    def cmd_level(self, arg):
        if arg:
            try:
                level = int(arg)
            except ValueError:
                level = -1
            if not 0 <= level <= MAX_SKILL:
                self.error(f"level must be a number from 0 (weakest) to {MAX_SKILL} (full strength), not "
                           f"{clip(arg, 20)!r}")
                return
            self.level = level
        full = " (full strength)" if self.level == MAX_SKILL else ""
        self.say(f"Shuai plays at level {self.level} of {MAX_SKILL}{full}.")

    def cmd_board(self, arg):
        self.show_board()

    def cmd_flip(self, arg):
        self.flipped = not self.flipped
        self.show_board()

    def cmd_fen(self, arg):
        self.say(self.game.fen())

    def game_over(self) -> bool:
        """Has the game ended?  If so, says so (for the commands that need a game in progress)."""
        if self.game.ended:
            self.error("the game is over")
            return True
        return False

    def cmd_moves(self, arg):
        if self.game_over():
            return
        cells = [self.move_cell(n) for n in self.game.legal_moves()]
        width = max(text_width(c) for c in cells) + 2
        per_line = max(1, (shutil.get_terminal_size((80, 24)).columns - 2) // width)
        self.say(f"{len(cells)} legal moves:")
        for i in range(0, len(cells), per_line):
            self.say("  " + "".join(pad(c, width) for c in cells[i:i + per_line]).rstrip())

    def cmd_undo(self, arg):
        g = self.game
        if g.ended and g.ended[1] in ("resignation", "agreement"):
            g.ended = None                          # nothing to take back but the decision itself
            self.say("Game resumed.")
            self.show_board()
            return
        if not any(p.side == self.user for p in g.played):
            self.error("nothing to take back")
            return
        taken = []
        while g.played:
            p = g.take_back()
            taken.append(p)
            if p.side == self.user:
                break
        self.last_info = None
        self.say("Taken back: " + ", ".join(self.name_of(p) for p in reversed(taken)))
        self.show_board()

    def cmd_hint(self, arg):
        if self.game_over():
            return
        g = self.game
        result = self.thinker.think(g.pos, self.full_strength(), "looking for a hint",
                                    lambda pv: g.names_of_line(pv, self.style.unicode))
        if result.best is None:
            self.error("no legal move")
            return
        hint = g.name(g.parse(result.best))
        self.say(f"Hint: {self.full_name(hint)}   eval {format_score(result.info)} for you, "
                 f"{format_wdl(result.info, g.pos)}")

    def cmd_draw(self, arg):
        if self.game_over():
            return
        g = self.game
        result = self.thinker.think(g.pos, self.full_strength(), "Shuai considers your offer")
        info = result.info
        # the search scored the position for the side to move (you); Shuai's view is the opposite
        if info is None:
            engine_score = 0
        elif info.mate is not None:
            engine_score = -1 if info.mate > 0 else 1
        else:
            engine_score = -info.score
        if engine_score <= 0:
            g.finish(DRAW, "agreement")
            self.say("Shuai accepts the draw.", "1")
            self.show_board()
            self.announce_end()
        else:
            shown = f"{engine_score / 100:+.2f}" if info.mate is None else f"mate in {abs(info.mate)}"
            self.say(f"Shuai declines the draw (it thinks it is better: {shown}).")

    def cmd_resign(self, arg):
        if self.game_over():
            return
        self.game.finish(loss_for(self.user), "resignation")
        self.say("You resign.")
        self.announce_end()

    def cmd_new(self, arg):
        self.game = self.record(self.start_fen)
        self.last_info = None
        if self.thinker is not None:
            self.thinker.new_game()
        self.say("New game.")
        if self.game.check_end():
            self.show_board()
            self.announce_end()
        elif self.game.side == self.user:
            self.show_board()

    def cmd_save(self, arg):
        if not arg:
            self.error("save needs a file name: save game.pgn")
            return
        path = os.path.expanduser(arg)
        red, black = ("You", "Shuai") if self.user == RED else ("Shuai", "You")
        if not os.path.isdir(os.path.dirname(path) or "."):
            self.error(f"cannot save to {clip(arg, 200)}: no such directory")
            return
        try:                    # atomically: no half-written game, and a FIFO named so is replaced, not blocked on
            write_atomically(path, [self.game.to_pgn(red, black).encode("utf-8")])
        except UnwritableFile as e:
            self.error(f"cannot save to {e}")
            return
        self.say(f"Saved {len(self.game.played)} moves to {arg}")

    def cmd_load(self, arg):
        if not arg:
            self.error("load needs a PGN file or a FEN: load game.pgn")
            return
        path = os.path.expanduser(arg)
        name = clip(arg, 100)
        if os.path.lexists(path):
            try:
                text = read_text(path, MAX_GAME_FILE)
            except UnreadableFile as e:
                self.error(f"cannot load {e}; load reads one game (a PGN file) or a FEN")
                return
            fresh = self.record()
            try:
                if "[" in text or not self.looks_like_fen(text):
                    fresh.load_pgn(text)
                else:
                    fresh.reset(text.strip().splitlines()[0])
            except (ValueError, self.fen_error) as e:
                self.error(f"cannot load {name}: {e}")
                return
            what = f"{len(fresh.played)} moves from {name}"
            if fresh.recorded_result not in ("*", None) and not fresh.ended:
                said = clip(fresh.recorded_comment, 100) if fresh.recorded_comment else "no reason given"
                what += f" (the file says {fresh.recorded_result}: {said})"
        else:
            fresh = self.record()
            try:
                fresh.reset(arg)
            except self.fen_error as e:
                self.error(f"no such file, and not a FEN either: {e}")
                return
            what = "the position"
        self.game = fresh
        self.start_fen = fresh.start_fen
        self.last_info = None
        if self.thinker is not None:
            self.thinker.new_game()
        self.say(f"Loaded {what}; {self.side_names[fresh.side]} to move.")
        if fresh.check_end():
            self.show_board()
            self.announce_end()
        elif fresh.side == self.user:
            self.show_board()


def _ascii_help(text: str) -> str:
    """The help text without the Chinese examples (for terminals that cannot show them)."""
    lines = []
    for line in text.splitlines():
        if line.strip().startswith("Chinese"):
            lines.append("  Chinese       (Chinese notation is accepted when your terminal can type it)")
        else:
            lines.append(line)
    return "\n".join(lines)
