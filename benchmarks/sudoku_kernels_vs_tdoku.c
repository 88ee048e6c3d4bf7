/* The Sudoku core's kernels against tdoku in one process, by CPU time.
 *
 * benchmarks/sudoku_tdoku.py compares excover's Python batch API with tdoku's own
 * harness, two processes timed by the wall clock; on a shared machine that swings by
 * tens of percent from one run to the next. This program puts both solvers in one
 * process and times them by CPU time, in turns (tdoku, then each kernel asked for), best
 * of several rounds: the ratio of the two C cores, without Python's parsing and
 * formatting. Each side reads the puzzle's 81 characters in its timed loop (tdoku parses
 * its input string; the kernels get the values from the text the same way), and the
 * counts of both are compared after each limit.
 *
 * Build, with tdoku built as benchmarks/sudoku_tdoku.py says (its static library):
 *
 *     gcc -O3 -Isrc/excover/puzzles/sudoku benchmarks/sudoku_kernels_vs_tdoku.c \
 *         ~/.cache/excover-bench/tdoku/build/libtdoku_static.a -lstdc++ -o /tmp/vs
 *
 * and run: /tmp/vs FILE SECONDS ROUNDS KERNEL... (kernels by number: 0 portable,
 * 1 sse4, 2 avx2, 3 avx512). FILE holds one puzzle of 81 characters a line ('.' or '0'
 * a blank; lines starting with '#' skipped); each figure runs SECONDS of CPU time at
 * least. Output: puzzles/second, first solution (limit 1) and count up to 2 (limit 2).
 */
#include "_sudoku9.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* tdoku's entry point (its include/tdoku.h), a C function of its C++ library. */
size_t TdokuSolverDpllTriadSimd(const char *input, size_t limit, uint32_t configuration,
                                char *solution, size_t *num_guesses);

#define MAX_PUZZLES 100000

static char puzzles[MAX_PUZZLES][82];
static int n_puzzles;

static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static long pass_excover(int limit) {
    uint8_t grid[81], out[81];
    long ticks = 0, guesses = 0, total = 0;
    for (int k = 0; k < n_puzzles; k++) {
        for (int j = 0; j < 81; j++) grid[j] = puzzles[k][j] == '.' ? 0 : (uint8_t)(puzzles[k][j] - '0');
        total += s9_run(grid, limit, out, NULL, &ticks, &guesses);
    }
    return total;
}

static long pass_tdoku(int limit) {
    char solution[81];
    size_t guesses;
    long total = 0;
    for (int k = 0; k < n_puzzles; k++)
        total += (long)TdokuSolverDpllTriadSimd(puzzles[k], (size_t)limit, 0, solution, &guesses);
    return total;
}

/* Puzzles/second of passes repeated for at least `seconds` of CPU time. */
static double rate(long (*pass)(int), int limit, double seconds) {
    double start = cpu_seconds(), spent;
    long passes = 0;
    do {
        pass(limit);
        passes++;
        spent = cpu_seconds() - start;
    } while (spent < seconds);
    return (double)n_puzzles * (double)passes / spent;
}

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: %s FILE SECONDS ROUNDS KERNEL...\n", argv[0]);
        return 2;
    }
    FILE *file = fopen(argv[1], "r");
    if (!file) {
        perror(argv[1]);
        return 2;
    }
    double seconds = atof(argv[2]);
    int rounds = atoi(argv[3]);
    char line[1024];
    while (n_puzzles < MAX_PUZZLES && fgets(line, sizeof line, file)) {
        if (line[0] == '#' || strlen(line) < 81) continue;
        for (int j = 0; j < 81; j++) puzzles[n_puzzles][j] = line[j] == '0' ? '.' : line[j];
        puzzles[n_puzzles][81] = '\n';
        n_puzzles++;
    }
    fclose(file);
    s9_init();
    printf("%s: %d puzzles\n", argv[1], n_puzzles);
    for (int limit = 1; limit <= 2; limit++) {
        double tdoku = 0, ours[S9_KERNELS] = {0};
        for (int r = 0; r < rounds; r++) {
            double x = rate(pass_tdoku, limit, seconds);
            if (x > tdoku) tdoku = x;
            for (int a = 4; a < argc; a++) {
                int k = atoi(argv[a]);
                if (!s9_select(k)) continue;
                x = rate(pass_excover, limit, seconds);
                if (x > ours[k]) ours[k] = x;
            }
        }
        printf("  %s: tdoku %.0f/s", limit == 1 ? "solve" : "count<=2", tdoku);
        for (int a = 4; a < argc; a++) {
            int k = atoi(argv[a]);
            if (!s9_select(k)) {
                printf(" | %s: not on this CPU", k >= 0 && k < S9_KERNELS ? s9_kernel_names[k] : "?");
                continue;
            }
            printf(" | %s %.0f/s %.2fx", s9_kernel_names[k], ours[k], ours[k] / tdoku);
            if (pass_excover(limit) != pass_tdoku(limit)) printf(" COUNTS DIFFER");
        }
        printf("\n");
    }
    return 0;
}
