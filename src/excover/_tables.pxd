# Cython declarations of _tables.h: large tables backed by huge pages where the system
# offers them (free them with table_free, never free()).

cdef extern from "_tables.h" nogil:
    void* table_alloc "excover_table_alloc" (size_t size) noexcept
    void* table_resize "excover_table_resize" (void* table, size_t size) noexcept
    void table_free "excover_table_free" (void* table) noexcept
