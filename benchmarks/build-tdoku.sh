#!/usr/bin/env bash
# Build tdoku (https://github.com/t-dillon/tdoku) for benchmarks/sudoku_tdoku.py.
#
# Usage: benchmarks/build-tdoku.sh SNAPSHOT_DIR_OR_CHECKOUT [OUT_DIR]
#
#   SNAPSHOT_DIR_OR_CHECKOUT  a checkout of t-dillon/tdoku (a directory holding CMakeLists.txt)
#                             or a bare git directory of it (read with `git archive HEAD`;
#                             data.zip is left out, since snapshots often lack its blob)
#   OUT_DIR                   where to install; default ~/.cache/excover-bench/tdoku
#
# Installs into OUT_DIR:
#   bin/run_benchmark   tdoku's own benchmark harness (-s tdoku; -f = first solution,
#                       without -f = count solutions up to 2; prints puzzles/sec)
#   bin/solve           tdoku's example/solve.c: reads puzzles on stdin and prints
#                       "puzzle:count:solution" per line (`solve 1` = first solution,
#                       `solve 2` = count up to 2, with the solution when unique)
#   lib/libtdoku_static.a, include/tdoku.h
#   BUILD_INFO          source commit, compiler and flags
#
# Environment: CXX / CC pick the compiler (default g++ / gcc); OPT (default O3) and
# ARCH (default native) are passed to tdoku's CMakeLists as -DOPT and -DARCH.
#
# tdoku's input format: 81 characters per puzzle, '1'..'9' for clues and '.' (NOT '0') for
# blanks. The solver looks at the byte after the 81 cells to tell a plain sudoku (newline or
# NUL there) from a 729-character pencilmark puzzle (any byte >= '.'), so lines must not carry
# trailing text such as ";rating". sudoku_tdoku.py writes normalised copies of each data set.
set -euo pipefail

usage() {
    sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
}

if [[ $# -lt 1 || $# -gt 2 || "$1" == "-h" || "$1" == "--help" ]]; then
    usage >&2
    exit 2
fi

SRC_IN=$1
OUT_DIR=${2:-"$HOME/.cache/excover-bench/tdoku"}
OPT=${OPT:-O3}
ARCH=${ARCH:-native}
export CXX=${CXX:-g++}
export CC=${CC:-gcc}

for tool in cmake make git "$CXX" "$CC"; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "build-tdoku.sh: '$tool' not found on PATH" >&2
        if [[ "$tool" == cmake ]]; then
            echo "  (pip install cmake  or  apt-get install cmake)" >&2
        elif [[ "$tool" == "$CXX" || "$tool" == "$CC" ]]; then
            echo "  (apt-get install g++, or set CXX/CC)" >&2
        fi
        exit 1
    fi
done

mkdir -p "$OUT_DIR"
OUT_DIR=$(cd "$OUT_DIR" && pwd)
WORK="$OUT_DIR/work"
rm -rf "$WORK"
mkdir -p "$WORK/src" "$OUT_DIR/bin" "$OUT_DIR/lib" "$OUT_DIR/include"

# 1. sources -> $WORK/src (tdoku's configure step writes src/build_info.h into its source tree).
if [[ -f "$SRC_IN/CMakeLists.txt" ]]; then
    COMMIT=$(git -C "$SRC_IN" rev-parse HEAD 2>/dev/null || echo unknown)
    tar -C "$SRC_IN" --exclude=./.git --exclude=./build -cf - . | tar -C "$WORK/src" -xf -
elif git --git-dir="$SRC_IN" rev-parse --verify -q HEAD >/dev/null 2>&1; then
    COMMIT=$(git --git-dir="$SRC_IN" rev-parse HEAD)
    # (git may still print "invalid object ... for 'data.zip'" when the blob is absent: harmless)
    git --git-dir="$SRC_IN" archive HEAD -- . ':(exclude)data.zip' 2>"$WORK/archive.log" |
        tar -C "$WORK/src" -xf -
else
    echo "build-tdoku.sh: $SRC_IN is neither a tdoku checkout nor a bare git directory" >&2
    exit 1
fi
if [[ ! -f "$WORK/src/src/solver_dpll_triad_simd.cc" ]]; then
    echo "build-tdoku.sh: $SRC_IN does not look like t-dillon/tdoku" >&2
    exit 1
fi

# 2. configure and build (the same targets BUILD.sh builds, without the third-party solvers).
JOBS=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
cmake -S "$WORK/src" -B "$WORK/build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_POLICY_VERSION_MINIMUM=3.5 \
    -DOPT="$OPT" -DARCH="$ARCH" >"$WORK/cmake.log"
cmake --build "$WORK/build" -j "$JOBS" --target run_benchmark tdoku_static >"$WORK/make.log"
"$CC" -O3 "$WORK/src/example/solve.c" "$WORK/build/libtdoku_static.a" \
    -o "$WORK/build/solve" -lstdc++ -lm

# 3. install
install -m 755 "$WORK/build/run_benchmark" "$WORK/build/solve" "$OUT_DIR/bin/"
install -m 644 "$WORK/build/libtdoku_static.a" "$OUT_DIR/lib/"
install -m 644 "$WORK/src/include/tdoku.h" "$OUT_DIR/include/"

# 4. smoke test: one known puzzle from tdoku's own tests.
PUZZLE=$(grep -v '^#' "$WORK/src/test/test_puzzles" | head -1 | cut -c1-81)
EXPECTED=$(grep -v '^#' "$WORK/src/test/test_puzzles" | head -1 | cut -d: -f3)
GOT=$(printf '%s\n' "$PUZZLE" | "$OUT_DIR/bin/solve" 2 | cut -d: -f2-)
if [[ "$GOT" != "1:$EXPECTED" ]]; then
    echo "build-tdoku.sh: smoke test failed: got '$GOT', expected '1:$EXPECTED'" >&2
    exit 1
fi

{
    echo "source: t-dillon/tdoku @ $COMMIT"
    echo "built: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    "$OUT_DIR/bin/run_benchmark" -h | grep 'build info' || true
    echo "cmake: -DOPT=$OPT -DARCH=$ARCH"
} >"$OUT_DIR/BUILD_INFO"
cat "$OUT_DIR/BUILD_INFO"
echo "installed into $OUT_DIR"
