"""``shuai play``: a game of xiangqi (or, with ``--game chess``, of chess) against the engine in a terminal.

    cli.py         the click command (imports only click at module level)
    terminal.py    what the terminal can show (Chinese characters, colours), ANSI, display widths
    xiangqi_view.py  the board drawn as lines of text, plus the move-list panel beside it
    record.py      the game record's part every game shares (``Record``): undo, the end, replaying a loaded game
    xiangqi_record.py  xiangqi: the game record (position, moves with their names, PGN/FEN save and load)
    thinking.py    the engine's search with a live "thinking" line
    session.py     the read-eval-print loop: moves, commands, the engine's replies, the result

    chess_record.py   chess: the game record (python-chess: SAN, game ends, PGN)
    chess_view.py     chess: the board drawn as lines of text
    chess_session.py  chess: the session with the chess record, board and texts

Each game names its session class (``Game.Session``, engine.game), which the command starts.

Move notation (coordinates, Chinese, WXF) lives in engine.xiangqi.wxf, game ends in engine.xiangqi.rules and the
PGN format in engine.match.xiangqi_pgn: this package only uses them.  Chess notation, rules and PGN are python-chess's
(through engine.match.chess_rules and engine.match.chess_pgn).
"""
