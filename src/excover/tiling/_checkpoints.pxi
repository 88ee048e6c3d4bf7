# What the two frontier counts share, their checkpoints' parts and the turn from one
# layer to the next: ``include``d by ``_dissections.pyx`` and ``_cell_frontier.pyx``, each
# after its ``_Counter`` (its tables ``old`` and ``new``, ``peak``, ``overflowed``,
# ``_allocate``, ``_pack``), ``FULL_TENTHS``, ``WORDS`` (the header's 64-bit words after
# MAGIC, the checksum last) and the cimports these use, and with its own ``_overflowed``:
# each module compiles its own copy, for its own ``_Counter``, with ``_mixed`` inline in
# its record sums.


cdef inline uint64_t _mixed(uint64_t h, uint64_t word) noexcept nogil:
    """``h`` with ``word`` mixed in (splitmix64's step): any change of either changes
    each bit of the result with a chance of about a half."""
    h += word + 0x9E3779B97F4A7C15ULL
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ULL
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBULL
    return h ^ (h >> 31)


cdef uint64_t _sealed(uint64_t records, const uint64_t *header) noexcept:
    """The checksum of a checkpoint: the sum of its ``records``' shares with the
    header's words before the checksum mixed in (a changed header is damage too)."""
    cdef int k
    for k in range(WORDS - 1):
        records = _mixed(records, header[k])
    return records


cdef int _bounded(int64_t max_bytes, int64_t slots, int64_t slot_bytes, str what) except -1:
    """Raise MemoryBoundError if ``slots`` slots of ``slot_bytes`` bytes pass
    ``max_bytes`` (0: no bound), the tables of ``what``."""
    if max_bytes and slots * slot_bytes > max_bytes:
        from excover.errors import MemoryBoundError

        raise MemoryBoundError(max_bytes, what)
    return 0


cdef int _write(int descriptor, const void *data, Py_ssize_t size) except -1:
    """Write the ``size`` bytes at ``data`` to the file ``descriptor``, all of them (a
    write may take fewer), through ``os.write``: an OSError (a full disk) or Ctrl-C
    stops it as any Python write."""
    cdef Py_ssize_t at = 0
    view = PyMemoryView_FromMemory(<char *>data, size, PyBUF_READ)
    while at < size:
        written = os.write(descriptor, view[at:])
        if not written:
            raise OSError(errno.EIO, "the file took no more bytes")
        at += written
    return 0


cdef FILE *_records(bytes path, void *chunk, int64_t *left) except NULL:
    """The checkpoint ``path`` opened for reading at its first record (past MAGIC and
    the header); ``left`` made -1 (damage) if the file is shorter than that. If it
    cannot be opened, ``chunk`` (the caller's buffer) is freed and OSError raised."""
    cdef FILE *source = fopen(path, "rb")
    if source == NULL:
        free(chunk)
        raise OSError(f"cannot read {path.decode(errors='replace')}")
    if fseek(source, 16 + WORDS * sizeof(uint64_t), SEEK_SET) != 0:
        left[0] = -1
    return source


cdef int64_t _resumed(_Counter counter, resume, uint64_t *header) except -1:
    """Ready ``counter`` for the checkpoint ``resume`` (an
    :class:`~excover.tiling.resume.Resume`): the new table made for all its states at
    once (the file holds them in the order of their slots, so a smaller table would take
    them all at its start, one long run), its words put in the ``header`` after the
    count's own three, for :func:`_loaded` to check. Returns the layers it has done."""
    cdef int64_t done = resume.done, states = resume.states
    counter._allocate(&counter.new, max(1024, states * 12 // FULL_TENTHS + 1), 0)
    header[3], header[4], header[5] = done, states, resume.checksum
    return done


cdef int _renew(_Counter counter) except -1:
    """After ``counter._pack()``: the layer it packed (the old table) counted in the
    peak, and a new table made for a fifth more states than it holds."""
    if counter.old.n > counter.peak:
        counter.peak = counter.old.n
    counter._allocate(&counter.new, max(1024, counter.old.n * 12 // FULL_TENTHS + 1),
                      counter.old.n)
    return 0


cdef int _turned(_Counter counter, tick, int64_t done, int64_t steps) except -1:
    """After a layer, packed into the old table as ``done`` of the count's ``steps``:
    its overflow raised (``_overflowed``), the new table made (:func:`_renew`),
    ``tick(done, steps, states)`` called, Ctrl-C let in."""
    if counter.overflowed:
        _overflowed()
    _renew(counter)
    if tick is not None:
        tick(done, steps, counter.old.n)
    PyErr_CheckSignals()
    return 0


cdef int _loaded(_Counter counter, bytes path, int64_t left, uint64_t total,
                 const uint64_t *header) except -1:
    """The records of ``path`` added to the new table made the old one (see
    :func:`_renew`), if they were all read (``left`` 0) and their shares' sum ``total``
    seals to the ``header``'s checksum; else DamagedCheckpoint."""
    if left != 0 or _sealed(total, header) != header[WORDS - 1]:
        from excover.parallel.checkpoint import DamagedCheckpoint

        raise DamagedCheckpoint(
            f"checkpoint {path.decode(errors='replace')} is damaged (its states are not a"
            " count's, or do not match its header); move it aside to count from the start")
    counter._pack()
    return _renew(counter)
