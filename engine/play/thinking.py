"""The engine thinking, with a live status line.

The search runs in the Searcher's worker thread and calls ``on_info`` after each iteration; this module only
stores the latest info there.  The main thread redraws one status line ten times a second (spinner, depth,
score and its win/draw/loss chances, time, principal variation) on a terminal, and prints nothing while thinking
otherwise, so that piped output stays deterministic.  Ctrl-C while the engine thinks stops the search: it plays
the best move found so far.
"""
from __future__ import annotations

import os
import shutil
import threading
import time

from .terminal import CLEAR_LINE, Style, is_tty, text_width

SPINNER_UNICODE = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
SPINNER_ASCII = "|/-\\"


def format_score(info) -> str:
    """An engine score from its own point of view: '+1.25', '-0.40', 'mate in 3', 'mated in 2'."""
    if info is None:
        return "?"
    if info.mate is not None:
        return f"mate in {info.mate}" if info.mate > 0 else f"mated in {-info.mate}"
    return f"{info.score / 100:+.2f}"


def format_wdl(info, pos) -> str:
    """The side to move's chances of a win, a draw and a loss in ``pos`` for the search's score, as the engine
    reports them with UCI_ShowWDL (``engine.wdl``; per mille, shown as percentages): 'W/D/L 45.0/40.0/15.0%'."""
    if info is None:
        return "W/D/L ?"
    from ..wdl import position_wdl
    return "W/D/L " + "/".join(f"{x / 10:.1f}" for x in position_wdl(pos, info.score)) + "%"


class Thinker:
    """Owns the engine's Searcher for the whole session (its hash table survives between moves)."""

    def __init__(self, out, style: Style, hash_mb: int, tablebases: bool = True, books=None):
        """``books``: (game, paths) to play from opening books (``engine.book.open_books``: "" the game's default
        book); None: no book."""
        from ..egtb.tableset import open_tables
        from ..game import GAMES
        from ..nnue.network import NetworkError, load
        from ..searcher import Searcher
        self.searcher = Searcher(hash_mb)
        tables = open_tables() if tablebases else None      # the project's tablebases/, if built
        self.searcher.set_tablebases(tables)
        self.out = out
        for msg in tables.take_errors() if tables is not None else ():
            out.write(f"warning: endgame tables: {msg}\n")
        for game in GAMES:                                  # each game's own network, where it has one
            if game.default_network is not None:
                try:
                    self.searcher.set_network(game, load(game.default_network, game))
                except NetworkError as e:
                    out.write(f"warning: {e}; {game.name} is evaluated by hand-written rules\n")
        if books is not None:
            from ..book import open_books
            found, errors = open_books(books[1], books[0])
            self.searcher.set_books(found)
            for msg in errors:
                out.write(f"warning: {msg}\n")
        self.style = style
        self.live = is_tty(out) and os.environ.get("TERM", "") != "dumb"

    def new_game(self) -> None:
        self.searcher.new_game()

    def think(self, pos, limits, label: str = "thinking", pv_names=None):
        """Search ``pos`` and return the SearchResult.  ``pv_names(list of coordinate moves) -> list of
        names`` renders the principal variation in the status line."""
        done = threading.Event()
        latest = []
        box = []

        def on_info(info):
            latest.append(info)

        def on_done(result):
            box.append(result)
            done.set()

        start = time.monotonic()
        self.searcher.start(pos, limits, on_info, on_done)
        spinner = SPINNER_UNICODE if self.style.unicode else SPINNER_ASCII
        tick, shown, pv_text = 0, None, ""
        try:
            while not done.wait(0.1):
                if not self.live:
                    continue
                info = latest[-1] if latest else None
                if info is not shown:                       # a new iteration: name its PV once
                    shown = info
                    pv_text = " ".join(pv_names(info.pv[:6])) if pv_names is not None else ""
                self._draw(spinner[tick % len(spinner)], label, info, pos, time.monotonic() - start, pv_text)
                tick += 1
        except KeyboardInterrupt:
            self.searcher.stop()
            done.wait()
        self.searcher.wait()
        if self.live:
            self.out.write(CLEAR_LINE)
            self.out.flush()
        if box[0].failure:                                  # its move is still played: say why it may be weak
            self.out.write(f"error: {box[0].failure}\n")
        return box[0]

    def _draw(self, spin, label, info, pos, elapsed, pv_text) -> None:
        parts = [f"{spin} {label}", f"{elapsed:4.1f}s"]
        if info is not None:
            parts += [f"depth {info.depth}", f"eval {format_score(info)}", format_wdl(info, pos)]
            if pv_text:
                parts.append(pv_text)
        line = "  ".join(parts)
        width = shutil.get_terminal_size((80, 24)).columns - 1
        while text_width(line) > width and len(line) > 1:
            line = line[:-1]
        self.out.write(CLEAR_LINE + self.style.paint(line, "38;5;244"))
        self.out.flush()
