#!/bin/sh
# SPRT of the working tree against an earlier commit: is a search or evaluation change worth keeping?
#
# Usage: scripts/sprt.sh BASE                  (make sprt BASE=<commit>)
# Environment (defaults in brackets):
#   TC [2+0.02]            time control of both engines (seconds + increment)
#   ELO0 [0] ELO1 [5]      the hypotheses: a gainer passes H1 elo1; a simplification uses e.g. ELO0=-5 ELO1=0
#   GAMES [20000]          the most games before the test gives up undecided
#   CONCURRENCY [2]        games at once (2 on a 2-core machine: the clocks are real, leave the machine alone)
#   OUT [/tmp/shuai-sprt]  PGN, engine traffic and the summary
#   GAME [xiangqi]         xiangqi, or chess (from tests/data/chess-openings.epd, over UCI)
#   NEW_OPTIONS, BASE_OPTIONS [none]  engine options of each side, as the match runner's option.NAME=VALUE
#                          words: e.g. NEW_OPTIONS=option.Threads=2 with BASE=HEAD tests Threads 2 vs 1
#   RESUME [none]          W,D,L of an earlier run of the same pair (new engine's view), best with its opening
#                          pairs (W,D,L/LL,LD,DD,WL,WD,WW, the summary's "Resume with" line): the test goes on
#                          from there with the next openings (a small gain needs thousands of games: several
#                          sittings).  The SPRT takes pairs as pairs (pentanomial), other games alone.
# Both engines are frozen copies (the working tree as it is now, uncommitted edits included, and BASE), each
# with its own numba cache, warmed before the first game; both play every opening of tests/data/openings.epd
# with each colour (chess: of tests/data/chess-openings.epd).  The summary ends with the SPRT verdict, the Elo with its 95% error, and the games played.
set -e
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { sed -n '2,17p' "$0"; exit 2; }
BASE=$(git rev-parse --short "$1")
TC=${TC:-2+0.02}
ELO0=${ELO0:-0}
ELO1=${ELO1:-5}
GAMES=${GAMES:-20000}
CONCURRENCY=${CONCURRENCY:-2}
OUT=${OUT:-/tmp/shuai-sprt}
GAME=${GAME:-xiangqi}
OPENINGS=tests/data/openings.epd
[ "$GAME" = chess ] && OPENINGS=tests/data/chess-openings.epd
PY=$(cd .venv/bin && pwd)/python
mkdir -p "$OUT"

# The working tree as a commit object (HEAD when nothing is uncommitted), so that edits made while the test
# runs do not change the engine under test.
NEW=$(git stash create 2>/dev/null || true)
NEW=$(git rev-parse --short "${NEW:-HEAD}")

. scripts/export_rev.sh
export_rev "$NEW" "$OUT" "$PY"
export_rev "$BASE" "$OUT" "$PY"
ENGINE=$EXPORT_CMD
name=$NEW-vs-$BASE
[ -n "$NEW_OPTIONS$BASE_OPTIONS" ] && name=$name-$(echo "$NEW_OPTIONS-vs-$BASE_OPTIONS" | tr -c 'A-Za-z0-9=.\n-' _)
echo "SPRT ($GAME) $NEW (working tree) ${NEW_OPTIONS:+($NEW_OPTIONS) }vs $BASE ${BASE_OPTIONS:+($BASE_OPTIONS) }at $TC, elo0=$ELO0 elo1=$ELO1, up to $GAMES games -> $OUT/$name.*"
"$PY" -m engine.match.cli \
    --engine "name=new-$NEW dir=$OUT/shuai-$NEW cmd='$ENGINE' $NEW_OPTIONS" \
    --engine "name=base-$BASE dir=$OUT/shuai-$BASE cmd='$ENGINE' $BASE_OPTIONS" \
    --games "$GAMES" --tc "$TC" --concurrency "$CONCURRENCY" \
    --game "$GAME" --openings "$OPENINGS" --sprt "elo0=$ELO0 elo1=$ELO1" \
    ${RESUME:+--resume "$RESUME"} --event "sprt $name" --pgn "$OUT/$name.pgn" --log "$OUT/$name.log" | tee "$OUT/$name.txt"
