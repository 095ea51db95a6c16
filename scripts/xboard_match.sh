#!/bin/sh
# Shuai in a real XBoard (Debian's xboard 4.9, under xvfb-run): a 2-game xiangqi match against MaxQi and a
# 2-game chess match against Fairy-Max, each engine speaking the xboard protocol, then every game checked
# (scripts/xboard_check.py): complete, every move legal by our rules (xiangqi) or python-chess (chess), no
# result claimed that the rules do not give.  The xiangqi match runs with the board on the virtual screen and a
# screenshot is taken during its first game.
#
# Usage: scripts/xboard_match.sh [OUT]          (OUT: a directory for games, logs and the screenshot;
#                                                default /tmp/shuai-xboard)
#   SHUAI=command   the engine (default .venv/bin/shuai; a wrapper script for another checkout)
#   TC=0:10 INC=0.1 the time control of every game (minutes:seconds and seconds per move)
# Needs: apt-get install xboard xvfb fairymax imagemagick
set -e
cd "$(dirname "$0")/.."
ROOT=$(pwd)
OUT=${1:-/tmp/shuai-xboard}
SHUAI=${SHUAI:-$ROOT/.venv/bin/shuai}
TC=${TC:-0:10}
INC=${INC:-0.1}
PY=${PY:-$ROOT/.venv/bin/python}
mkdir -p "$OUT"
rm -f "$OUT"/*.pgn "$OUT"/*.debug "$OUT"/*.png

# One match: VARIANT OPPONENT NAME [GUI]; with GUI the board is drawn on the virtual screen and shot.
match() {
    variant=$1 opponent=$2 name=$3 gui=$4
    set -- -variant "$variant" -fcp "$SHUAI" -fd "$ROOT" -scp "$opponent" -sd "$OUT" \
        -matchMode T -matchGames 2 -tc "$TC" -inc "$INC" -saveGameFile "$OUT/$name.pgn" \
        -autoCallFlag true -testClaims true -debug -nameOfDebugFile "$OUT/$name.debug" -xexit
    if [ -n "$gui" ]; then
        xvfb-run -a -s "-screen 0 1000x800x24" sh -c '
            /usr/games/xboard "$@" -size medium & gui=$!
            sleep 25; import -window root -trim +repage "'"$OUT/$name"'.png"; wait $gui' sh "$@"
    else
        xvfb-run -a /usr/games/xboard "$@" -noGUI
    fi
}

match xiangqi /usr/games/maxqi xiangqi gui
match normal /usr/games/fairymax chess
"$PY" scripts/xboard_check.py "$OUT/xiangqi.pgn" "$OUT/xiangqi.debug" "$OUT/chess.pgn" "$OUT/chess.debug"
