#!/usr/bin/env bash
# Build LalaFrogKK (CGI Lab, NCTU), the solver that won every TAAI, TCGA and Computer
# Olympiad nonogram tournament from 2011 to 2015, for benchmarks/nonogram_tournament.py.
#
# Usage: benchmarks/build-lalafrog.sh SNAPSHOT_DIR_OR_CHECKOUT [OUT_DIR]
#
#   SNAPSHOT_DIR_OR_CHECKOUT  a checkout of github.com/CGI-LAB/Nonogram (commit 3f15247,
#                             the published version) or a bare git directory of it (read
#                             with `git archive HEAD`)
#   OUT_DIR                   where to install; default ~/.cache/excover-bench/lalafrog
#
# Installs into OUT_DIR:
#   bin/lalafrog   the solver, as configured in its config.h: 25x25 puzzles, a file of
#                  exactly 1,000 of them (MODE 1: one solution each, first to last). Run
#                  it in a folder holding the tournament file as input.txt; it writes
#                  solution.txt (each puzzle's "$N" and 25 rows of tab-separated 0/1) and
#                  log.txt (seconds per puzzle, then the total).
#   BUILD_INFO     source commit, compiler, flags and the changes made to build it
#
# The sources were written for Visual C++ on Windows. To build them with g++ here, and
# only for that: the headers they include under other capitalizations (hash.h, puzzle.h,
# lineSolver.h) are linked to the files; the MSVC-only <intrin.h> include is dropped
# (nothing from it is used); <cmath>, <cstring> and <cstdlib> are included ahead of each
# file (MSVC brings them in implicitly); CLK_TCK, used by the one-puzzle mode, is defined
# as CLOCKS_PER_SEC; and Search.Scheduling.cpp (MODE 0, a scheduler for an older
# tournament rule, which does not link) is left out. The solver's code is unchanged.
# Environment: CXX (default g++), CXXFLAGS (default -O3).
set -euo pipefail

usage() {
    sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
}

if [[ $# -lt 1 || $# -gt 2 || "$1" == "-h" || "$1" == "--help" ]]; then
    usage >&2
    exit 2
fi

SRC_IN=$1
OUT_DIR=${2:-"$HOME/.cache/excover-bench/lalafrog"}
CXX=${CXX:-g++}
CXXFLAGS=${CXXFLAGS:--O3}

for tool in git "$CXX"; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "build-lalafrog.sh: '$tool' not found on PATH" >&2
        exit 1
    fi
done

mkdir -p "$OUT_DIR"
OUT_DIR=$(cd "$OUT_DIR" && pwd)
WORK="$OUT_DIR/work"
rm -rf "$WORK"
mkdir -p "$WORK/src" "$OUT_DIR/bin"

# 1. sources -> $WORK/src
if [[ -f "$SRC_IN/lineSolver.cpp" ]]; then
    COMMIT=$(git -C "$SRC_IN" rev-parse HEAD 2>/dev/null || echo unknown)
    tar -C "$SRC_IN" --exclude=./.git -cf - . | tar -C "$WORK/src" -xf -
elif git --git-dir="$SRC_IN" rev-parse --verify -q HEAD >/dev/null 2>&1; then
    COMMIT=$(git --git-dir="$SRC_IN" rev-parse HEAD)
    git --git-dir="$SRC_IN" archive HEAD | tar -C "$WORK/src" -xf -
else
    echo "build-lalafrog.sh: $SRC_IN is neither a checkout of CGI-LAB/Nonogram nor a bare git directory" >&2
    exit 1
fi
CODE="$WORK/src"
for file in lineSolver.cpp main.cpp config.h Hash.h Puzzle.h LineSolver.h; do
    if [[ ! -f "$CODE/$file" ]]; then
        echo "build-lalafrog.sh: $SRC_IN does not look like LalaFrogKK (no $file)" >&2
        exit 1
    fi
done

# 2. the changes that let g++ build it (see the header)
ln -sf Hash.h "$CODE/hash.h"
ln -sf Puzzle.h "$CODE/puzzle.h"
ln -sf LineSolver.h "$CODE/lineSolver.h"
sed -i 's/#include <intrin.h>//' "$CODE/lineSolver.cpp"
FLAGS="$CXXFLAGS -w -include cmath -include cstring -include cstdlib -DCLK_TCK=CLOCKS_PER_SEC"
SOURCES=()
for file in "$CODE"/*.cpp; do
    [[ "$(basename "$file")" == Search.Scheduling.cpp ]] || SOURCES+=("$file")
done
# shellcheck disable=SC2086  # FLAGS is a list of flags
"$CXX" $FLAGS -o "$OUT_DIR/bin/lalafrog" "${SOURCES[@]}" >"$WORK/build.log" 2>&1 || {
    tail -20 "$WORK/build.log" >&2
    echo "build-lalafrog.sh: the build failed (log: $WORK/build.log)" >&2
    exit 1
}

# 3. smoke test: the batch mode on 1,000 copies of the all-black puzzle (every clue 25)
mkdir -p "$WORK/smoke"
for ((k = 1; k <= 1000; k++)); do
    echo "\$$k"
    for ((line = 0; line < 50; line++)); do echo 25; done
done >"$WORK/smoke/input.txt"
(cd "$WORK/smoke" && "$OUT_DIR/bin/lalafrog" 2>/dev/null)
ROWS=$(grep -c -x "$(printf '1\t%.0s' {1..24})1" "$WORK/smoke/solution.txt" || true)
if [[ "$ROWS" != 25000 ]]; then
    echo "build-lalafrog.sh: smoke test failed: $ROWS all-black rows of 25,000 in its answers" >&2
    exit 1
fi

{
    echo "source: CGI-LAB/Nonogram @ $COMMIT"
    echo "built: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "compiler: $("$CXX" --version | head -1)"
    echo "flags: $FLAGS (Search.Scheduling.cpp left out)"
    echo "changes: hash.h, puzzle.h, lineSolver.h linked to Hash.h, Puzzle.h, LineSolver.h;"
    echo "         #include <intrin.h> dropped from lineSolver.cpp"
} >"$OUT_DIR/BUILD_INFO"
cat "$OUT_DIR/BUILD_INFO"
