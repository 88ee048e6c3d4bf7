"""Problems the benchmarks build that the library does not ship."""

from __future__ import annotations

from excover import ExactCover


def latin_first_row(n: int) -> ExactCover:
    """The Latin squares of order ``n`` whose first row is 0, 1, ..., n-1: for each cell of
    rows 1..n-1 and each symbol, the option that puts the symbol there covers the cell, the
    symbol in its row and the symbol in its column (symbol c is already in column c). Each
    Latin square is one of these with its symbols renamed, so the count times n! is OEIS
    A002860(n)."""
    cells = [f"p{r}_{c}" for r in range(1, n) for c in range(n)]
    in_rows = [f"r{r}_{s}" for r in range(1, n) for s in range(n)]
    in_columns = [f"c{c}_{s}" for c in range(n) for s in range(n) if s != c]
    problem = ExactCover(primary=cells + in_rows + in_columns)
    for r in range(1, n):
        for c in range(n):
            for s in range(n):
                if s != c:
                    problem.add_option([f"p{r}_{c}", f"r{r}_{s}", f"c{c}_{s}"])
    return problem
