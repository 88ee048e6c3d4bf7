/* Large tables for excover's compiled modules, backed by huge pages where the system
 * offers them.
 *
 * The ZDD constructions probe tables of millions of entries at random (hash tables, the
 * children of every node by id). In 4 KiB pages such a table misses the TLB on nearly
 * every probe and is faulted in a page at a time; in 2 MiB pages it does neither (the
 * N-queens ZDD of n = 13 builds about a tenth faster). On Linux a table of at least
 * EXCOVER_HUGE_BYTES is its own mapping, aligned to 2 MiB and marked MADV_HUGEPAGE
 * before it is touched (a hint: the kernel may still use small pages, and where
 * transparent huge pages are off nothing changes). Smaller tables, and every table
 * elsewhere, come from malloc.
 *
 * A table starts with a header of 16 bytes (the bytes mapped, 0 for malloc's; its size),
 * so that excover_table_free() and excover_table_resize() need no size from the caller.
 * Contents start uninitialised, as malloc's.
 */
#ifndef EXCOVER_TABLES_H
#define EXCOVER_TABLES_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#if defined(__linux__) && defined(MADV_HUGEPAGE)
#define EXCOVER_HUGE_PAGES 1
#else
#define EXCOVER_HUGE_PAGES 0
#endif

#if defined(_MSC_VER) && !defined(__clang__)
#define EXCOVER_TABLES_INLINE static __inline
#else
#define EXCOVER_TABLES_INLINE static inline
#endif

#define EXCOVER_HUGE_PAGE ((size_t)2 << 20)
/* the least table given its own mapping: smaller ones would round up to a huge page */
#define EXCOVER_HUGE_BYTES ((size_t)4 << 20)

typedef struct {
    size_t mapped; /* bytes of the mapping, from the header on; 0 when from malloc */
    size_t size;   /* bytes of the table after the header */
} excover_table_header;

#if EXCOVER_HUGE_PAGES
/* A mapping of `bytes` (a multiple of the huge page) aligned to a huge page, marked for
 * huge pages; NULL when the system refuses it. */
EXCOVER_TABLES_INLINE void *excover_huge_mapping(size_t bytes) {
    size_t slack = EXCOVER_HUGE_PAGE;
    char *raw = (char *)mmap(NULL, bytes + slack, PROT_READ | PROT_WRITE,
                             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        return NULL;
    char *start = (char *)(((uintptr_t)raw + slack - 1) & ~(uintptr_t)(slack - 1));
    if (start > raw)
        munmap(raw, (size_t)(start - raw));
    if (start + bytes < raw + bytes + slack)
        munmap(start + bytes, (size_t)(raw + bytes + slack - (start + bytes)));
    madvise(start, bytes, MADV_HUGEPAGE);
    return start;
}
#endif

/* A table of `size` bytes (uninitialised); NULL when out of memory. */
EXCOVER_TABLES_INLINE void *excover_table_alloc(size_t size) {
    excover_table_header *header = NULL;
    size_t total = size + sizeof(excover_table_header);
#if EXCOVER_HUGE_PAGES
    if (size >= EXCOVER_HUGE_BYTES) {
        size_t mapped = (total + EXCOVER_HUGE_PAGE - 1) & ~(EXCOVER_HUGE_PAGE - 1);
        header = (excover_table_header *)excover_huge_mapping(mapped);
        if (header != NULL)
            header->mapped = mapped;
    }
#endif
    if (header == NULL) {
        header = (excover_table_header *)malloc(total);
        if (header == NULL)
            return NULL;
        header->mapped = 0;
    }
    header->size = size;
    return header + 1;
}

/* Give a table back (NULL: nothing to do). */
EXCOVER_TABLES_INLINE void excover_table_free(void *table) {
    if (table == NULL)
        return;
    excover_table_header *header = (excover_table_header *)table - 1;
#if EXCOVER_HUGE_PAGES
    if (header->mapped) {
        munmap(header, header->mapped);
        return;
    }
#endif
    free(header);
}

/* The table `table` (NULL: none) grown or shrunk to `size` bytes, its first bytes kept;
 * NULL when out of memory, `table` then left as it was. A mapped table that grows moves
 * its pages to the start of the new mapping (mremap) rather than copying them: the old
 * and the new table are never in memory side by side. */
EXCOVER_TABLES_INLINE void *excover_table_resize(void *table, size_t size) {
    if (table == NULL)
        return excover_table_alloc(size);
    excover_table_header *header = (excover_table_header *)table - 1;
    if (header->mapped == 0 && size < EXCOVER_HUGE_BYTES) {
        header = (excover_table_header *)realloc(header, size + sizeof(excover_table_header));
        if (header == NULL)
            return NULL;
        header->size = size;
        return header + 1;
    }
    if (header->mapped && size + sizeof(excover_table_header) <= header->mapped) {
        header->size = size;
        return table;
    }
#if EXCOVER_HUGE_PAGES && defined(MREMAP_FIXED)
    if (header->mapped) {
        size_t total = size + sizeof(excover_table_header);
        size_t mapped = (total + EXCOVER_HUGE_PAGE - 1) & ~(EXCOVER_HUGE_PAGE - 1);
        char *fresh = (char *)excover_huge_mapping(mapped);
        if (fresh == NULL)
            return NULL;
        if (mremap(header, header->mapped, header->mapped, MREMAP_MAYMOVE | MREMAP_FIXED,
                   fresh) == MAP_FAILED) {
            munmap(fresh, mapped);
            return NULL;
        }
        header = (excover_table_header *)fresh;
        header->mapped = mapped;
        header->size = size;
        return header + 1;
    }
#endif
    void *grown = excover_table_alloc(size);
    if (grown == NULL)
        return NULL;
    memcpy(grown, table, header->size < size ? header->size : size);
    excover_table_free(table);
    return grown;
}

#endif
