/* Large tables for excover's compiled modules, backed by huge pages where the system
 * offers them.
 *
 * The ZDD constructions probe tables of millions of entries at random (hash tables, the
 * children of every node by id). In 4 KiB pages such a table misses the TLB on nearly
 * every probe and is faulted in a page at a time; in 2 MiB pages it does neither (the
 * N-queens ZDD of n = 13 builds about a tenth faster). On Linux a table of at least
 * EXCOVER_HUGE_BYTES is a mapping of its own: one small page for its header, then the
 * table itself from a 2 MiB boundary, in whole huge pages, the mapping marked
 * MADV_HUGEPAGE before it is touched (a hint: the kernel may still use small pages, and
 * where transparent huge pages are off nothing changes). A table that grows moves its
 * pages into the larger mapping with one mremap, which keeps the mapping in one piece.
 * Smaller tables, and every table elsewhere, come from malloc.
 *
 * The header (the bytes mapped, 0 for malloc's; the table's size) sits just before the
 * table, so that excover_table_free() and excover_table_resize() need no size from the
 * caller. Contents start uninitialised, as malloc's.
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
/* the page before a mapped table that holds its header */
#define EXCOVER_HEADER_PAGE ((size_t)4 << 10)
/* the least table given its own mapping: smaller ones would round up to a huge page */
#define EXCOVER_HUGE_BYTES ((size_t)4 << 20)
/* the largest table asked for: past it the sizes below could wrap around */
#define EXCOVER_MOST_BYTES (SIZE_MAX / 4)

typedef struct {
    size_t mapped; /* bytes of the mapping, header page included; 0 when from malloc */
    size_t size;   /* bytes of the table */
} excover_table_header;

#if EXCOVER_HUGE_PAGES
/* The bytes mapped for a table of `size` bytes: its header page and whole huge pages. */
EXCOVER_TABLES_INLINE size_t excover_mapped_bytes(size_t size) {
    return EXCOVER_HEADER_PAGE + ((size + EXCOVER_HUGE_PAGE - 1) & ~(EXCOVER_HUGE_PAGE - 1));
}

/* A mapping of `mapped` bytes (as excover_mapped_bytes gives) whose table starts on a
 * huge page boundary, marked for huge pages as a whole (marking a part would split the
 * mapping in two); the start of the mapping, or NULL when the system refuses it. */
EXCOVER_TABLES_INLINE char *excover_huge_mapping(size_t mapped) {
    size_t reserved = mapped + EXCOVER_HUGE_PAGE;
    char *raw = (char *)mmap(NULL, reserved, PROT_READ | PROT_WRITE,
                             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        return NULL;
    char *table = (char *)(((uintptr_t)raw + EXCOVER_HEADER_PAGE + EXCOVER_HUGE_PAGE - 1) &
                           ~(uintptr_t)(EXCOVER_HUGE_PAGE - 1));
    char *start = table - EXCOVER_HEADER_PAGE;
    if (start > raw)
        munmap(raw, (size_t)(start - raw));
    if (start + mapped < raw + reserved)
        munmap(start + mapped, (size_t)(raw + reserved - (start + mapped)));
    madvise(start, mapped, MADV_HUGEPAGE);
    return start;
}

/* The header of a mapped table starting at `start`, with its table `size` bytes. */
EXCOVER_TABLES_INLINE excover_table_header *excover_mapped_header(char *start, size_t mapped,
                                                                  size_t size) {
    excover_table_header *header =
        (excover_table_header *)(start + EXCOVER_HEADER_PAGE) - 1;
    header->mapped = mapped;
    header->size = size;
    return header;
}
#endif

/* A table of `size` bytes (uninitialised); NULL when out of memory. */
EXCOVER_TABLES_INLINE void *excover_table_alloc(size_t size) {
    excover_table_header *header;
    if (size > EXCOVER_MOST_BYTES)
        return NULL;
#if EXCOVER_HUGE_PAGES
    if (size >= EXCOVER_HUGE_BYTES) {
        size_t mapped = excover_mapped_bytes(size);
        char *start = excover_huge_mapping(mapped);
        if (start != NULL)
            return excover_mapped_header(start, mapped, size) + 1;
    }
#endif
    header = (excover_table_header *)malloc(sizeof(excover_table_header) + size);
    if (header == NULL)
        return NULL;
    header->mapped = 0;
    header->size = size;
    return header + 1;
}

/* Give a table back (NULL: nothing to do). */
EXCOVER_TABLES_INLINE void excover_table_free(void *table) {
    excover_table_header *header;
    if (table == NULL)
        return;
    header = (excover_table_header *)table - 1;
#if EXCOVER_HUGE_PAGES
    if (header->mapped) {
        munmap((char *)table - EXCOVER_HEADER_PAGE, header->mapped);
        return;
    }
#endif
    free(header);
}

/* The table `table` (NULL: none) grown or shrunk to `size` bytes, its first bytes kept;
 * NULL when out of memory, `table` then left as it was. A mapped table that grows moves
 * its pages into the new mapping (mremap, growing the mapping in the same call) rather
 * than copying them: the old and the new table are never in memory side by side. */
EXCOVER_TABLES_INLINE void *excover_table_resize(void *table, size_t size) {
    excover_table_header *header;
    void *grown;
    if (table == NULL)
        return excover_table_alloc(size);
    if (size > EXCOVER_MOST_BYTES)
        return NULL;
    header = (excover_table_header *)table - 1;
    if (header->mapped == 0 && size < EXCOVER_HUGE_BYTES) {
        header = (excover_table_header *)realloc(header, sizeof(excover_table_header) + size);
        if (header == NULL)
            return NULL;
        header->size = size;
        return header + 1;
    }
#if EXCOVER_HUGE_PAGES
    if (header->mapped && excover_mapped_bytes(size) <= header->mapped) {
        header->size = size;
        return table;
    }
#if defined(MREMAP_FIXED)
    if (header->mapped) {
        size_t mapped = excover_mapped_bytes(size);
        char *start = excover_huge_mapping(mapped);
        if (start != NULL) {
            /* the old mapping, grown to the new size, replaces the one just reserved */
            if (mremap((char *)table - EXCOVER_HEADER_PAGE, header->mapped, mapped,
                       MREMAP_MAYMOVE | MREMAP_FIXED, start) != MAP_FAILED)
                return excover_mapped_header(start, mapped, size) + 1;
            munmap(start, mapped);
        }
    }
#endif
#endif
    grown = excover_table_alloc(size);
    if (grown == NULL)
        return NULL;
    memcpy(grown, table, header->size < size ? header->size : size);
    excover_table_free(table);
    return grown;
}

#endif
