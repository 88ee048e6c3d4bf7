# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The hot loops of :mod:`excover.burr.xmpuzzle.cover`, compiled: the placements of
a problem's pieces on its result, and the option each option becomes under a symmetry.

- :func:`fitting`: for every orientation of every piece and every translation of the
  grid, whether the translate lies on the result, tested voxel by voxel, stopping at its
  first voxel that leaves the result or lands on a voxel it may not cover: a few
  operations for most translates, where numpy's version of the test made a dozen calls
  a piece on arrays of every translate and every voxel.
- :func:`row_table` and :func:`matching`: the options of one length in a hash table
  (open addressing, keyed by a hash of their items in any order: the sum of each
  item's mixed bits), and the option holding the images of each option's items under
  an item permutation, found in it: the images hashed alike and checked against the
  option of that hash by marks in a table of the items, no row sorted (numpy sorted
  every row, keyed it as bytes and searched the keys; a sort of each row in C still
  took most of a large piece's time).
- :func:`normal_images` and :func:`self_maps`: the images of the pieces under every
  transformation of the grid, each moved to its canonical place and sorted, and the
  transformations mapping the result onto itself, voxel by voxel, where numpy made
  some thirty calls on arrays of a few thousand numbers (the fixed cost of each call
  was most of a small puzzle's exact cover problem).
"""

from libc.stdint cimport int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc, qsort

import numpy as np


def fitting(
    const int64_t[::1] offsets,
    const int64_t[::1] bounds,
    const int64_t[:, ::1] low,
    const int64_t[:, ::1] high,
    const int64_t[:, ::1] moves,
    const int64_t[::1] size,
    const int64_t[::1] strides,
    const uint8_t[::1] masks,
):
    """The translates that lie on the result, as ``(which, starts)``: the orientation
    of each (its number) and the flat index of its translation (``moves`` row ``@
    strides``), the orientations in their order, each one's translates in the order of
    ``moves``.

    Orientation ``k``'s voxels are ``offsets[bounds[k]:bounds[k + 1]]``: the flat index
    of each in the result's box (``strides``), plus the start of the mask of its colour
    in ``masks`` (one mask of the box's voxels a colour: 1 where such a voxel may go);
    ``low`` and ``high`` are the corners of its box, ``size`` the result's box."""
    cdef Py_ssize_t n_orientations = bounds.shape[0] - 1
    cdef Py_ssize_t n_moves = moves.shape[0]
    cdef Py_ssize_t k, m, v, found = 0, capacity = 1024
    cdef int64_t start
    cdef bint inside
    which_array = np.empty(capacity, dtype=np.int64)
    starts_array = np.empty(capacity, dtype=np.int64)
    cdef int64_t[::1] which = which_array
    cdef int64_t[::1] starts = starts_array
    for k in range(n_orientations):
        for m in range(n_moves):
            inside = True
            for v in range(3):
                if moves[m, v] < -low[k, v] or moves[m, v] >= size[v] - high[k, v]:
                    inside = False
                    break
            if not inside:
                continue
            start = moves[m, 0] * strides[0] + moves[m, 1] * strides[1] + moves[m, 2] * strides[2]
            for v in range(bounds[k], bounds[k + 1]):
                if not masks[start + offsets[v]]:
                    inside = False
                    break
            if not inside:
                continue
            if found == capacity:
                capacity *= 2
                which_array = np.resize(which_array, capacity)
                starts_array = np.resize(starts_array, capacity)
                which = which_array
                starts = starts_array
            which[found] = k
            starts[found] = start
            found += 1
    return which_array[:found], starts_array[:found]


cdef inline uint64_t _mixed(int64_t value) noexcept nogil:
    """A value's bits mixed (splitmix64's finaliser): the hash of a row is the sum of
    its values' mixed bits, the same in any order."""
    cdef uint64_t z = <uint64_t> value + 0x9E3779B97F4A7C15ULL
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


def row_table(const int64_t[:, ::1] rows):
    """A hash table of the rows (each a set of values: no value twice in a row, no two
    rows holding the same values), keyed by their values in any order: an array of a
    power of two slots, at least twice the rows, each the number of a row or -1, a row
    at the first free slot from its hash on."""
    cdef Py_ssize_t n = rows.shape[0], width = rows.shape[1], size = 2, k, j
    while size < 2 * n:
        size *= 2
    table_array = np.full(size, -1, dtype=np.int64)
    cdef int64_t[::1] table = table_array
    cdef uint64_t mask = size - 1, slot
    for k in range(n):
        slot = 0
        for j in range(width):
            slot += _mixed(rows[k, j])
        slot &= mask
        while table[slot] != -1:
            slot = (slot + 1) & mask
        table[slot] = k
    return table_array


def matching(
    const int64_t[:, ::1] rows,
    const int64_t[::1] items,
    const int64_t[::1] table,
):
    """For each row of ``rows`` (in ``table``: :func:`row_table`; their values are
    less than ``len(items)``), the number of the row holding the images of its values
    under ``items`` (value ``v`` goes to ``items[v]``), in any order, or -1 where there
    is none. A row of the same hash is that row when each of its values is an image
    (the images marked in a table of the values): no row is sorted."""
    cdef Py_ssize_t n = rows.shape[0], width = rows.shape[1], k, i
    cdef uint64_t mask = table.shape[0] - 1, slot
    cdef int64_t candidate
    found_array = np.full(n, -1, dtype=np.int64)
    cdef int64_t[::1] found = found_array
    marks_array = np.full(items.shape[0], -1, dtype=np.int64)
    cdef int64_t[::1] marks = marks_array  # marks[v] == k: v is an image of row k
    with nogil:
        for k in range(n):
            slot = 0
            for i in range(width):
                marks[items[rows[k, i]]] = k
                slot += _mixed(items[rows[k, i]])
            slot &= mask
            while True:
                candidate = table[slot]
                if candidate == -1:
                    break
                for i in range(width):
                    if marks[rows[candidate, i]] != k:
                        break
                else:
                    found[k] = candidate
                    break
                slot = (slot + 1) & mask
    return found_array


cdef inline int64_t _floordiv(int64_t a, int64_t b) noexcept nogil:
    """``a // b`` rounded down, as Python and numpy round it (``b`` > 0)."""
    cdef int64_t q = a / b
    if a % b != 0 and a < 0:
        q -= 1
    return q


cdef inline void _image(
    const int64_t[:, :, ::1] matrices,
    const int64_t[:, ::1] offsets,
    Py_ssize_t t,
    bint prism,
    const int64_t *voxel,
    int64_t *out,
) noexcept nogil:
    """The image of one voxel under transformation ``t``: ``matrices[t] @ v +
    offsets[t]``, on the prism grid of the voxel's strip coordinates ``(a, b, c, z)``
    (see :func:`~excover.burr.xmpuzzle.lattice.prism_strips`)."""
    cdef int64_t strips[4]
    cdef int64_t moved[4]
    cdef int64_t down, i, total
    cdef Py_ssize_t r, c
    if prism:
        down = voxel[0] + voxel[1] - 2 * _floordiv(voxel[0] + voxel[1], 2)
        i = _floordiv(voxel[0] - voxel[1] - down, 2)
        strips[0] = -i
        strips[1] = -voxel[1]
        strips[2] = i + voxel[1] + 1 + down
        strips[3] = voxel[2]
        for r in range(4):
            total = offsets[t, r]
            for c in range(4):
                total += matrices[t, r, c] * strips[c]
            moved[r] = total
        down = moved[0] + moved[1] + moved[2] - 1
        out[0] = -2 * moved[0] - moved[1] + down
        out[1] = -moved[1]
        out[2] = moved[3]
        return
    for r in range(3):
        total = offsets[t, r]
        for c in range(3):
            total += matrices[t, r, c] * voxel[c]
        out[r] = total


cdef inline void _canonical(
    int64_t *voxels, Py_ssize_t n, int64_t period, int parity
) noexcept nogil:
    """Move ``n`` voxels (``x, y, z`` each) by the grid's canonical translation: the
    largest one below their lowest corner, less one period along x when the parity of
    the corner's periods asks (``parity`` 1: of x + y, 2: of x + y + z; 0: never)."""
    cdef int64_t low[3]
    cdef int64_t total
    cdef Py_ssize_t v, a
    if n == 0:
        return
    for a in range(3):
        low[a] = voxels[a]
    for v in range(1, n):
        for a in range(3):
            if voxels[3 * v + a] < low[a]:
                low[a] = voxels[3 * v + a]
    for a in range(3):
        low[a] = _floordiv(low[a], period)
    if parity:
        total = low[0] + low[1] + (low[2] if parity == 2 else 0)
        low[0] -= total - 2 * _floordiv(total, 2)
    for v in range(n):
        for a in range(3):
            voxels[3 * v + a] -= low[a] * period


cdef struct _Keyed:
    int64_t key
    Py_ssize_t index


cdef int _by_key(const void *a, const void *b) noexcept nogil:
    cdef int64_t x = (<const _Keyed *> a).key, y = (<const _Keyed *> b).key
    return (x > y) - (x < y)


#: A shape's voxels are sorted by counting (a pass a coordinate, z first) when their
#: coordinates are below ``RADIX_SLACK`` plus four times their number, else by
#: ``qsort`` (a sparse shape in a large box).
cdef enum:
    RADIX_SLACK = 256


cdef Py_ssize_t *_sorted(
    const int64_t *moved,
    Py_ssize_t first,
    Py_ssize_t size,
    int64_t base,
    Py_ssize_t *order,
    Py_ssize_t *spare,
    Py_ssize_t *counts,
    _Keyed *keyed,
) noexcept nogil:
    """The voxels ``first`` to ``first + size - 1`` of ``moved`` (``x, y, z`` each, at
    least 0 and below ``base``) sorted by position, x first: their numbers, in
    ``order`` or in ``spare`` (the one returned)."""
    cdef Py_ssize_t v, a
    cdef Py_ssize_t *swap
    if base > 4 * size + RADIX_SLACK:
        for v in range(size):
            keyed[v].key = (moved[3 * (first + v)] * base + moved[3 * (first + v) + 1]) * base
            keyed[v].key += moved[3 * (first + v) + 2]
            keyed[v].index = first + v
        qsort(keyed, size, sizeof(_Keyed), _by_key)
        for v in range(size):
            order[v] = keyed[v].index
        return order
    for v in range(size):
        order[v] = first + v
    for a in range(2, -1, -1):  # stable passes, the last on x
        for v in range(base + 1):
            counts[v] = 0
        for v in range(size):
            counts[moved[3 * order[v] + a] + 1] += 1
        for v in range(base):
            counts[v + 1] += counts[v]
        for v in range(size):
            spare[counts[moved[3 * order[v] + a]]] = order[v]
            counts[moved[3 * order[v] + a]] += 1
        swap = order
        order = spare
        spare = swap
    return order


def normal_images(
    const int64_t[:, ::1] cells,
    const int64_t[::1] firsts,
    const int64_t[:, :, ::1] matrices,
    const int64_t[:, ::1] offsets,
    bint prism,
    int64_t period,
    int parity,
):
    """The normalised images of several shapes under every transformation of a grid
    (one whose transformations move each voxel on its own): an array of shape
    ``(transformations, voxels, 5)``, shape ``k``'s the voxels ``firsts[k]:firsts[k +
    1]``, each image moved by the grid's canonical translation and sorted by position
    (x, then y, then z), each voxel's two labels (state, colour) carried along.

    ``cells`` are the shapes' labelled voxels ``(x, y, z, state, colour)``, one a row;
    the transformations are ``matrices[t] @ v + offsets[t]`` (on the prism grid, of the
    strip coordinates); ``period`` and ``parity`` give the canonical translation."""
    cdef Py_ssize_t count = matrices.shape[0], n = cells.shape[0]
    cdef Py_ssize_t shapes = firsts.shape[0] - 1, t, k, v, a, first, size, w
    cdef int64_t base
    result_array = np.empty((count, n, 5), dtype=np.int64)
    cdef int64_t[:, :, ::1] result = result_array
    cdef Py_ssize_t room = max(n, 1)
    cdef int64_t *moved = <int64_t *> malloc(3 * room * sizeof(int64_t))
    cdef _Keyed *keyed = <_Keyed *> malloc(room * sizeof(_Keyed))
    cdef Py_ssize_t *order = <Py_ssize_t *> malloc(room * sizeof(Py_ssize_t))
    cdef Py_ssize_t *spare = <Py_ssize_t *> malloc(room * sizeof(Py_ssize_t))
    cdef Py_ssize_t *counts = <Py_ssize_t *> malloc((4 * room + RADIX_SLACK + 2) * sizeof(Py_ssize_t))
    cdef Py_ssize_t *ordered
    try:
        if not (moved and keyed and order and spare and counts):
            raise MemoryError()
        with nogil:
            for t in range(count):
                for v in range(n):
                    _image(matrices, offsets, t, prism, &cells[v, 0], &moved[3 * v])
                for k in range(shapes):
                    first, size = firsts[k], firsts[k + 1] - firsts[k]
                    if size == 0:
                        continue
                    _canonical(&moved[3 * first], size, period, parity)
                    base = 0  # every coordinate is at least 0 once moved
                    for v in range(3 * first, 3 * (first + size)):
                        if moved[v] >= base:
                            base = moved[v] + 1
                    ordered = _sorted(moved, first, size, base, order, spare, counts, keyed)
                    for v in range(size):
                        w = ordered[v]
                        for a in range(3):
                            result[t, first + v, a] = moved[3 * w + a]
                        result[t, first + v, 3] = cells[w, 3]
                        result[t, first + v, 4] = cells[w, 4]
    finally:
        free(moved)
        free(keyed)
        free(order)
        free(spare)
        free(counts)
    return result_array


def self_maps(
    const int64_t[:, ::1] cells,
    const int64_t[:, :, ::1] matrices,
    const int64_t[:, ::1] offsets,
    bint prism,
    int64_t period,
    int parity,
):
    """The transformations mapping a shape onto a translate of itself, labels kept, as
    ``(which, permutations)``: their numbers, and for each the voxel each voxel goes to
    (the image moved back onto the shape). ``cells`` are the shape's labelled voxels,
    the others as :func:`normal_images` has them."""
    cdef Py_ssize_t count = matrices.shape[0], n = cells.shape[0], t, v, a, found = 0
    cdef int64_t box[3]
    cdef int64_t shift[3]
    cdef int64_t place, target
    cdef bint same
    for a in range(3):
        box[a] = 1
        for v in range(n):
            if cells[v, a] + 1 > box[a]:
                box[a] = cells[v, a] + 1
    number_array = np.full(box[0] * box[1] * box[2], -1, dtype=np.int64)
    cdef int64_t[::1] number = number_array
    which_array = np.empty(count, dtype=np.int64)
    perms_array = np.empty((count, n), dtype=np.int64)
    cdef int64_t[::1] which = which_array
    cdef int64_t[:, ::1] perms = perms_array
    cdef int64_t *moved = <int64_t *> malloc(max(3 * n, 1) * sizeof(int64_t))
    if moved == NULL:
        raise MemoryError()
    try:
        with nogil:
            for v in range(n):
                number[(cells[v, 0] * box[1] + cells[v, 1]) * box[2] + cells[v, 2]] = v
                for a in range(3):
                    moved[3 * v + a] = cells[v, a]
            _canonical(moved, n, period, parity)  # the shape's own canonical shift
            for a in range(3):
                shift[a] = cells[0, a] - moved[a] if n else 0
            for t in range(count):
                for v in range(n):
                    _image(matrices, offsets, t, prism, &cells[v, 0], &moved[3 * v])
                _canonical(moved, n, period, parity)
                same = True
                for v in range(n):
                    place = 0
                    for a in range(3):
                        target = moved[3 * v + a] + shift[a]
                        if target < 0 or target >= box[a]:
                            same = False
                            break
                        place = place * box[a] + target
                    if not same:
                        break
                    target = number[place]
                    if target < 0 or cells[target, 3] != cells[v, 3] or cells[target, 4] != cells[v, 4]:
                        same = False
                        break
                    perms[found, v] = target
                if same:
                    which[found] = t
                    found += 1
    finally:
        free(moved)
    return which_array[:found], perms_array[:found]
