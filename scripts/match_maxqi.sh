#!/bin/sh
# A short real-engine match: Fairy-Stockfish (UCCI) against MaxQi (xboard), to check both adapters end to end.
# Usage: scripts/match_maxqi.sh [GAMES] [TC] [extra shuai-match options...]
#   GAMES default 4, TC default 0.2 (seconds per move; or base+inc such as 10+0.1).
# Needs: apt-get install fairy-stockfish fairymax.
set -e
cd "$(dirname "$0")/.."
GAMES=${1:-4}
TC=${2:-0.2}
[ $# -ge 2 ] && shift 2 || shift $#
PY=.venv/bin/python
[ -x "$PY" ] || PY=python3
exec "$PY" -m engine.match.cli \
    --engine /usr/games/fairy-stockfish \
    --engine "proto=xboard /usr/games/maxqi" \
    --games "$GAMES" --tc "$TC" \
    --openings tests/data/openings.epd \
    --pgn "${PGN:-/tmp/fsf-vs-maxqi.pgn}" "$@"
