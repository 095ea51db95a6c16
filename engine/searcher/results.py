"""What a search is asked (``Limits``) and what it tells: an iteration's line (``SearchInfo``), its progress
between iterations (``Progress``), its move (``SearchResult``)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ..files import clip
from ..levels import Level


@dataclass
class Limits:
    """What ``go`` asked for.  ``None`` = no such limit."""
    depth: Optional[int] = None
    nodes: Optional[int] = None
    movetime: Optional[float] = None        # seconds for this move
    time_left: Optional[float] = None       # own clock, seconds
    increment: float = 0.0                  # own increment per move, seconds
    movestogo: Optional[int] = None
    mate: Optional[int] = None              # search for a mate in this many moves
    infinite: bool = False
    ponder: bool = False
    multipv: int = 1                        # lines to report (the best first)
    overhead: Optional[float] = None        # seconds kept from every budget for I/O and the GUI (Move Overhead);
                                            # None: timeman.MOVE_OVERHEAD
    level: Optional[Level] = None           # a playing level (engine.levels); None: full strength
    floor_depth: int = 0                    # iterations up to this depth complete whatever the node limit
    started: Optional[float] = None         # perf_counter when ``go`` arrived: the move's time counts from then,
                                            # what the protocol did before the search (tables opened) included;
                                            # None: from ``start``


@dataclass
class SearchInfo:
    depth: int
    seldepth: int
    score: int                              # centipawns from the side to move's view
    mate: Optional[int]                     # moves to mate: > 0 we mate, < 0 we are mated; None if no mate seen
    nodes: int
    time: float                             # seconds since start
    pv: list[str] = field(default_factory=list)
    hashfull: int = 0                       # per mille
    tbhits: int = 0                         # positions the endgame tables answered
    multipv: int = 1                        # which line (1 = the best)

    @property
    def nps(self) -> int:
        return int(self.nodes / self.time) if self.time > 0 else 0


@dataclass
class Progress:
    """Where a search stands between its iterations (the heartbeat, ``HEARTBEAT``)."""
    nodes: int
    time: float                             # seconds since start
    hashfull: int                           # per mille
    currmove: Optional[str]                 # the root move being searched (None: not known yet)
    currmovenumber: int                     # its place in this iteration's order of the root moves, from 1

    @property
    def nps(self) -> int:
        return int(self.nodes / self.time) if self.time > 0 else 0


@dataclass
class SearchResult:
    best: Optional[str]                     # None: no legal move (the side to move has lost)
    ponder: Optional[str]
    info: Optional[SearchInfo]              # the last completed iteration
    error: Optional[BaseException] = None   # what made the search fail (best is then a salvaged move)
    lines: list = field(default_factory=list)   # the last iteration's lines, best first (MultiPV; a level's
                                            # choice is among them)
    book: bool = False                      # the move is the opening book's (no search: info is None)

    @property
    def failure(self) -> Optional[str]:
        """The error as the one line a user sees; None if the search did not fail."""
        if self.error is None:
            return None
        said = clip(self.error, 200)                    # MemoryError() says nothing
        return f"search failed: {type(self.error).__name__}" + (f": {said}" if said else "")
