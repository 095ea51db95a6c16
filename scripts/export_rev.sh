# Sourced by sprt.sh and match.sh: a frozen, warmed copy of one commit of the engine.
#
# export_rev REV OUT PY   -> sets EXPORT_DIR=OUT/shuai-REV and EXPORT_CMD (the command that runs that copy)
# The copy is `git archive REV` plus the endgame tables built here (they are built, not committed), made once
# (an existing directory is reused) and renamed into place only when complete.  It runs from its own directory,
# so `python -m engine` imports the copy and numba caches it there.  `env -u`: the match runner imports the
# working tree's engine package, whose numba set-up exports NUMBA_CACHE_DIR / NUMBA_CACHE_LOCATOR_CLASSES;
# inherited, they make another version's engine load the working tree's cache locator and fail.
export_rev() {
    EXPORT_DIR=$2/shuai-$1
    if [ ! -d "$EXPORT_DIR" ]; then
        rm -rf "$EXPORT_DIR.tmp" && mkdir -p "$EXPORT_DIR.tmp" && git archive "$1" | tar -x -C "$EXPORT_DIR.tmp"
        cp tablebases/*.xtb tablebases/*.ctb "$EXPORT_DIR.tmp/tablebases/" 2>/dev/null || true
        mv "$EXPORT_DIR.tmp" "$EXPORT_DIR"
    fi
    EXPORT_CMD="env -u NUMBA_CACHE_DIR -u NUMBA_CACHE_LOCATOR_CLASSES $3 -m engine"
    (cd "$EXPORT_DIR" && $EXPORT_CMD warmup >/dev/null)
}
