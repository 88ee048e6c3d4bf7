# Part of ``_core.pyx`` (pasted in by ``include``): the colour line solver.
#
# A colour puzzle has ``n_values`` cell values: white (value 0) and its colours (values
# 1 .. n_values - 1); a cell is a 32-bit set of the values it may still take, bit ``v``
# for value ``v``. Every block has a length and a colour; two consecutive blocks of one
# colour need a white cell between them, of different colours none.
#
# **The colour line solver** is the black-and-white one with the gap made conditional:
# ``F[j][i]`` "the first ``j`` blocks fit in cells ``0..i-1``" is true when cell ``i-1``
# may be white and ``F[j][i-1]``, or when block ``j-1`` (colour ``c``, length ``L``) may
# cover cells ``i-L..i-1`` and the blocks before it fit to its left: in ``0..i-L-2`` with
# cell ``i-L-1`` white when block ``j-2`` has colour ``c`` too, in ``0..i-L-1`` otherwise
# (block ``j-2`` may then end right where block ``j-1`` starts). ``G[j][i]`` "blocks
# ``j..k-1`` fit in cells ``i..n-1``" mirrors it. Whether a stretch may be all of one
# value is read from prefix counts, one array per value, so the tables cost O(n k) and
# the counts O(n (colours + 1)). A cell keeps white when some ``j`` has ``F[j][i]`` and
# ``G[j][i+1]``; block ``j`` may start at ``s`` when its stretch allows its colour and
# the tables allow what lies left and right of it, and each such start adds to the
# difference array of the block's colour, whose prefix sums give the cells each colour
# may reach.
#
# Run with a single colour (value 1, black) on the black-and-white value sets (1 white,
# 2 black, 3 unknown), it is also the byte-table reference that the bit-parallel solvers
# of ``_core_lines.pxi`` are tested against (``line_solve(..., bit_parallel=False)``).


cdef struct ColourScratch:
    uint8_t *forward      # F, (k + 1) rows of n + 1 entries
    uint8_t *backward     # G, same shape
    int32_t *no_value     # no_value[v * (n + 1) + i]: cells < i that cannot take value v
    int32_t *diff         # a difference array of n + 1 entries per value


cdef int alloc_colour_scratch(
    ColourScratch *w, Blocks memory, int n_values, int largest, int longest
) except -1:
    """Allocate ``w`` from ``memory`` for clues of up to ``largest`` blocks and lines of up
    to ``longest`` cells."""
    cdef int n = longest + 1
    w.forward = <uint8_t *> memory.alloc((largest + 1) * n, 1)
    w.backward = <uint8_t *> memory.alloc((largest + 1) * n, 1)
    w.no_value = <int32_t *> memory.alloc(n_values * n, sizeof(int32_t))
    w.diff = <int32_t *> memory.alloc(n_values * n, sizeof(int32_t))
    return 0


cdef inline bint all_of(const int32_t *no_value, int stride, int v, int a, int b) noexcept nogil:
    """Cells ``a..b-1`` may all take value ``v``."""
    return no_value[v * stride + b] == no_value[v * stride + a]


cdef bint solve_colour_line(
    int n, const int32_t *lengths, const int32_t *colours, int k, int n_values,
    const uint32_t *cells, uint32_t *out, ColourScratch *w
) noexcept nogil:
    """Narrow ``cells`` (``n`` value sets) to the union of the placements of the clue
    (block ``j``: ``lengths[j]`` cells of value ``colours[j]``, 1 or more) into ``out``;
    false when there is no placement (``out`` is then meaningless)."""
    cdef int i, j, s, v, length, colour, stride = n + 1, depth
    cdef uint8_t *F = w.forward
    cdef uint8_t *G = w.backward
    cdef int32_t *nv = w.no_value
    cdef int32_t *diff = w.diff
    cdef bint ok, gap_before, gap_after
    for v in range(n_values):
        nv[v * stride] = 0
        for i in range(n):
            nv[v * stride + i + 1] = nv[v * stride + i] + (0 if (cells[i] >> v) & 1 else 1)
    memset(F, 0, (k + 1) * stride)
    memset(G, 0, (k + 1) * stride)
    for i in range(n + 1):
        F[i] = nv[i] == 0
    for j in range(1, k + 1):
        length = lengths[j - 1]
        colour = colours[j - 1]
        gap_before = j > 1 and colours[j - 2] == colour
        for i in range(n + 1):
            ok = i >= 1 and (cells[i - 1] & 1) and F[j * stride + i - 1]
            if not ok and i >= length and all_of(nv, stride, colour, i - length, i):
                if j == 1:
                    ok = F[i - length]
                elif gap_before:
                    ok = (i - length >= 1 and (cells[i - length - 1] & 1)
                          and F[(j - 1) * stride + i - length - 1])
                else:
                    ok = F[(j - 1) * stride + i - length]
            F[j * stride + i] = ok
    if not F[k * stride + n]:
        return False
    for i in range(n + 1):
        G[k * stride + i] = nv[n] == nv[i]
    for j in range(k - 1, -1, -1):
        length = lengths[j]
        colour = colours[j]
        gap_after = j < k - 1 and colours[j + 1] == colour
        for i in range(n, -1, -1):
            ok = i < n and (cells[i] & 1) and G[j * stride + i + 1]
            if not ok and i + length <= n and all_of(nv, stride, colour, i, i + length):
                if j == k - 1:
                    ok = G[k * stride + i + length]
                elif gap_after:
                    ok = (i + length < n and (cells[i + length] & 1)
                          and G[(j + 1) * stride + i + length + 1])
                else:
                    ok = G[(j + 1) * stride + i + length]
            G[j * stride + i] = ok
    memset(diff, 0, n_values * stride * sizeof(int32_t))
    for j in range(k):
        length = lengths[j]
        colour = colours[j]
        gap_before = j > 0 and colours[j - 1] == colour
        gap_after = j < k - 1 and colours[j + 1] == colour
        for s in range(n - length + 1):
            if not all_of(nv, stride, colour, s, s + length):
                continue
            if j == 0:
                ok = F[s]
            elif gap_before:
                ok = s >= 1 and (cells[s - 1] & 1) and F[j * stride + s - 1]
            else:
                ok = F[j * stride + s]
            if not ok:
                continue
            if j == k - 1:
                ok = G[k * stride + s + length]
            elif gap_after:
                ok = (s + length < n and (cells[s + length] & 1)
                      and G[(j + 1) * stride + s + length + 1])
            else:
                ok = G[(j + 1) * stride + s + length]
            if ok:
                diff[colour * stride + s] += 1
                diff[colour * stride + s + length] -= 1
    for i in range(n):
        out[i] = 0
    for v in range(1, n_values):
        depth = 0
        for i in range(n):
            depth += diff[v * stride + i]
            if depth > 0:
                out[i] |= (<uint32_t> 1) << v
    for j in range(k + 1):
        for i in range(n):
            if F[j * stride + i] and G[j * stride + i + 1] and (cells[i] & 1):
                out[i] |= 1
    return True


cdef inline bint several(uint32_t value) noexcept nogil:
    """Whether the value set holds more than one value."""
    return (value & (value - 1)) != 0


cdef inline int lowest(uint32_t value) noexcept nogil:
    """The smallest value of a non-empty value set."""
    cdef int v = 0
    while not (value >> v) & 1:
        v += 1
    return v


def colour_line_solve(lengths, colours, int n_values, cells):
    """Narrow one colour line: ``cells`` (value sets, bit 0 white, bit ``v`` colour
    ``v``) against the blocks (``lengths[j]`` cells of colour ``colours[j]``). Returns
    the narrowed sets as a list, or None when no placement agrees with the cells."""
    cdef int n = len(cells), k = len(lengths), j
    cdef ColourScratch w
    cdef Blocks memory = Blocks()
    cdef int32_t *blocks = <int32_t *> memory.alloc(k + 1, sizeof(int32_t))
    cdef int32_t *values = <int32_t *> memory.alloc(k + 1, sizeof(int32_t))
    cdef uint32_t *given = <uint32_t *> memory.alloc(n + 1, sizeof(uint32_t))
    cdef uint32_t *out = <uint32_t *> memory.alloc(n + 1, sizeof(uint32_t))
    if n_values < 2 or n_values > 32:
        raise ValueError("n_values is 2 to 32")
    alloc_colour_scratch(&w, memory, n_values, k, n)
    if len(colours) != k:
        raise ValueError("one colour per block")
    for j in range(k):
        if lengths[j] < 1:
            raise ValueError("every block needs at least one cell")
        if colours[j] < 1 or colours[j] >= n_values:
            raise ValueError(f"block colours are 1 to {n_values - 1}")
        blocks[j] = lengths[j]
        values[j] = colours[j]
    for j in range(n):
        if cells[j] < 1 or cells[j] >= (1 << n_values):
            raise ValueError(f"cell value set {cells[j]} is empty or too large")
        given[j] = cells[j]
    if not solve_colour_line(n, blocks, values, k, n_values, given, out, &w):
        return None
    return [out[j] for j in range(n)]
