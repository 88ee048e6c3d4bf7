#!/usr/bin/env bash
# Build Jan Wolter's pbnsolve (Apache 2.0) for benchmarks/nonogram_pbnsolve.py.
#
# Usage: benchmarks/build-pbnsolve.sh SNAPSHOT_DIR_OR_CHECKOUT [OUT_DIR]
#
#   SNAPSHOT_DIR_OR_CHECKOUT  a checkout of pbnsolve 1.10 (e.g. github.com/avi-levy/pbnsolve,
#                             a directory holding src/pbnsolve.c, or the unpacked tarball
#                             from webpbn.com holding pbnsolve.c itself) or a bare git
#                             directory of it (read with `git archive HEAD`)
#   OUT_DIR                   where to install; default ~/.cache/excover-bench/pbnsolve
#
# Installs into OUT_DIR:
#   bin/pbnsolve   the solver. Flags the benchmark uses: -u (after a search, look for a
#                  second solution: prints "unique" or "multiple"), -b (one line of
#                  words: unique, multiple, line, contradiction, ...), -x<secs> (CPU
#                  limit). Reads webpbn XML (.xml), Simpson's .non, Olsak's .mk/.g,
#                  Wilk's .nin (-fnin), .cwd, .lp and .pbm, chosen by suffix or -f<fmt>.
#   BUILD_INFO     source commit, compiler and flags
#
# Needs a C compiler and libxml2's headers (Debian/Ubuntu: apt-get install libxml2-dev;
# without them pbnsolve cannot read XML, and this script stops). Environment: CC (default
# gcc), CFLAGS (default -O2, the optimisation pbnsolve's README asks for). config.h is
# used as distributed (line cache on, DEBUG_LEVEL 2, NICENESS: pbnsolve lowers its own
# priority, which matters only on a machine busy with other work).
#
# Snapshots of the GitHub copy carry stale object files and a binary next to the
# sources: they are removed before building, so that everything is compiled here.
set -euo pipefail

usage() {
    sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
}

if [[ $# -lt 1 || $# -gt 2 || "$1" == "-h" || "$1" == "--help" ]]; then
    usage >&2
    exit 2
fi

SRC_IN=$1
OUT_DIR=${2:-"$HOME/.cache/excover-bench/pbnsolve"}
CC=${CC:-gcc}
CFLAGS=${CFLAGS:--O2}

for tool in make git "$CC"; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "build-pbnsolve.sh: '$tool' not found on PATH" >&2
        exit 1
    fi
done

XML_CFLAGS=$(pkg-config --cflags libxml-2.0 2>/dev/null || xml2-config --cflags 2>/dev/null || true)
XML_LIBS=$(pkg-config --libs libxml-2.0 2>/dev/null || xml2-config --libs 2>/dev/null || echo -lxml2)
if [[ -z "$XML_CFLAGS" && ! -d /usr/include/libxml2 ]]; then
    echo "build-pbnsolve.sh: libxml2's headers not found (apt-get install libxml2-dev)" >&2
    exit 1
fi
XML_CFLAGS=${XML_CFLAGS:--I/usr/include/libxml2}

mkdir -p "$OUT_DIR"
OUT_DIR=$(cd "$OUT_DIR" && pwd)
WORK="$OUT_DIR/work"
rm -rf "$WORK"
mkdir -p "$WORK/src" "$OUT_DIR/bin"

# 1. sources -> $WORK/src
if [[ -f "$SRC_IN/src/pbnsolve.c" || -f "$SRC_IN/pbnsolve.c" ]]; then
    COMMIT=$(git -C "$SRC_IN" rev-parse HEAD 2>/dev/null || echo unknown)
    tar -C "$SRC_IN" --exclude=./.git -cf - . | tar -C "$WORK/src" -xf -
elif git --git-dir="$SRC_IN" rev-parse --verify -q HEAD >/dev/null 2>&1; then
    COMMIT=$(git --git-dir="$SRC_IN" rev-parse HEAD)
    git --git-dir="$SRC_IN" archive HEAD | tar -C "$WORK/src" -xf -
else
    echo "build-pbnsolve.sh: $SRC_IN is neither a pbnsolve checkout nor a bare git directory" >&2
    exit 1
fi
CODE="$WORK/src/src"
[[ -f "$CODE/pbnsolve.c" ]] || CODE="$WORK/src"
if [[ ! -f "$CODE/pbnsolve.c" || ! -f "$CODE/line_lro.c" ]]; then
    echo "build-pbnsolve.sh: $SRC_IN does not look like pbnsolve" >&2
    exit 1
fi

# 2. build with the distributed Makefile, its compiler flags and libraries replaced
rm -f "$CODE"/*.o "$CODE/pbnsolve"
make -C "$CODE" pbnsolve CFLAGS="$CFLAGS $XML_CFLAGS -w" LIB="$XML_LIBS -lm" \
    >"$WORK/make.log" 2>&1 || {
    tail -20 "$WORK/make.log" >&2
    echo "build-pbnsolve.sh: make failed (log: $WORK/make.log)" >&2
    exit 1
}

# 3. install
install -m 755 "$CODE/pbnsolve" "$OUT_DIR/bin/"

# 4. smoke test: a plus sign, unique, in Simpson's .non format
cat >"$WORK/plus.non" <<'EOF'
width 3
height 3
rows
1
3
1
columns
1
3
1
EOF
GOT=$("$OUT_DIR/bin/pbnsolve" -u -b "$WORK/plus.non")
if [[ "$GOT" != *unique* ]]; then
    echo "build-pbnsolve.sh: smoke test failed: pbnsolve -u -b printed '$GOT'" >&2
    exit 1
fi

{
    echo "source: pbnsolve @ $COMMIT"
    echo "built: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "compiler: $("$CC" --version | head -1)"
    echo "flags: $CFLAGS $XML_CFLAGS $XML_LIBS -lm"
} >"$OUT_DIR/BUILD_INFO"
cat "$OUT_DIR/BUILD_INFO"
echo "installed into $OUT_DIR"
