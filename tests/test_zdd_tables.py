"""Tables past the huge-page threshold (``src/excover/_tables.h``): a table of 4 MiB or
more is a mapping of its own, and one that grows moves its pages to a larger mapping
instead of copying them. The node store and the top-down construction must keep every
entry across both moves (from malloc's memory into a mapping, and from a mapping into a
larger one)."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
from pathlib import Path

from builders import queens

from excover import Family
from excover.zdd import Manager, dxz

#: The node arrays hold 4 bytes a node: past this many nodes each is a mapping.
MAPPED_NODES = 1 << 20
#: The folder of the shared C headers.
SHARED = Path(__file__).resolve().parents[1] / "src" / "excover"


def test_the_node_store_keeps_its_nodes_as_its_arrays_move() -> None:
    """Two chains of nodes, past the count at which the store's arrays (4 bytes a node)
    leave malloc's memory for mappings and then grow again by moving: every set is still
    there, the operations between them still agree with the sets themselves."""
    n = 720_000
    manager = Manager()
    evens = Family.from_sets([range(0, n, 2)], manager)
    both = Family.from_sets([range(n), range(1, n, 2)], manager)
    assert both.size + evens.size > MAPPED_NODES
    assert both.count() == 2
    assert set(map(frozenset, both | evens)) == {
        frozenset(range(n)),
        frozenset(range(1, n, 2)),
        frozenset(range(0, n, 2)),
    }
    assert (both & evens).count() == 0
    assert (both - evens) == both


def test_the_top_down_tables_keep_their_entries_as_they_move() -> None:
    """queens(13) top-down makes 1.4 million states: its table of children (8 bytes a
    state) moves into a mapping and grows twice there. The family must be the one ddqueens
    builds (204,781 nodes) with the OEIS count of 13-queens solutions (A000170: 73,712)."""
    family = dxz.topdown(queens(13), Manager())
    assert family.size == 204_781
    assert family.count() == 73_712


#: A program that drives ``_tables.h`` directly: a table through every kind of resize
#: (malloc's, from malloc's into a mapping, mapping to larger mapping, shrinking), its
#: bytes checked after each; on Linux, the mappings over it counted (one: a table that
#: grows stays one mapping, which older kernels' mremap needs to move it again) and the
#: memory a 4 MiB table takes once written (its pages and the header's page, no more).
DRIVER = r"""
#include "_tables.h"
#include <stdio.h>

static int mappings_over(const void *table, size_t size) {
    int count = 0;
#if defined(__linux__)
    char line[512];
    unsigned long start, end;
    FILE *maps = fopen("/proc/self/maps", "r");
    while (maps != NULL && fgets(line, sizeof line, maps) != NULL) {
        if (sscanf(line, "%lx-%lx", &start, &end) == 2 && start < (uintptr_t)table + size
            && end > (uintptr_t)table)
            count++;
    }
    if (maps != NULL)
        fclose(maps);
#else
    (void)table;
    (void)size;
    count = 1;
#endif
    return count;
}

static long resident_kib(void) {
    long kib = 0;
#if defined(__linux__)
    char line[256];
    FILE *status = fopen("/proc/self/status", "r");
    while (status != NULL && fgets(line, sizeof line, status) != NULL) {
        if (strncmp(line, "RssAnon:", 8) == 0)
            sscanf(line + 8, "%ld", &kib);
    }
    if (status != NULL)
        fclose(status);
#endif
    return kib;
}

int main(void) {
    const size_t sizes[] = {100, 3u << 20, 5u << 20, 4u << 20, 8u << 20, 16u << 20,
                            40u << 20, 1000, 48u << 20};
    unsigned char *table = NULL, *grown, *big;
    size_t held = 0, i;
    int k;
    long before;
    for (k = 0; k < (int)(sizeof sizes / sizeof sizes[0]); k++) {
        grown = (unsigned char *)excover_table_resize(table, sizes[k]);
        if (grown == NULL) {
            printf("refused %zu\n", sizes[k]);
            return 1;
        }
        for (i = 0; i < held && i < sizes[k]; i++) {
            if (grown[i] != (unsigned char)(i * 7 + k)) {
                printf("lost byte %zu growing to %zu\n", i, sizes[k]);
                return 1;
            }
        }
        for (i = 0; i < sizes[k]; i++)
            grown[i] = (unsigned char)(i * 7 + k + 1);
        table = grown;
        held = sizes[k];
        printf("%zu %d\n", sizes[k], mappings_over(table, held));
    }
    excover_table_free(table);
    before = resident_kib();
    big = (unsigned char *)excover_table_alloc(4u << 20);
    memset(big, 1, 4u << 20);
    printf("resident %ld\n", resident_kib() - before);
    excover_table_free(big);
    printf("overflow %d\n", excover_table_alloc((size_t)-8) == NULL);
    return 0;
}
"""


def test_tables_keep_their_bytes_and_stay_one_mapping(tmp_path: Path) -> None:
    """The header itself, compiled as the extensions are (``_GNU_SOURCE``, which
    ``Python.h`` defines, opens ``mremap``)."""
    source = tmp_path / "driver.c"
    source.write_text(DRIVER)
    program = tmp_path / "driver"
    compiler = (sysconfig.get_config_var("CC") or "cc").split()
    subprocess.run(
        [*compiler, "-O1", "-D_GNU_SOURCE", f"-I{SHARED}", str(source), "-o", str(program)],
        check=True,
    )
    lines = subprocess.run([str(program)], check=True, capture_output=True, text=True)
    *resizes, resident, overflow = lines.stdout.splitlines()
    assert [int(line.split()[1]) for line in resizes] == [1] * len(resizes)
    assert [int(line.split()[0]) for line in resizes][-1] == 48 << 20
    assert overflow == "overflow 1"
    if sys.platform == "linux":
        # 4 MiB and the header's 4 KiB page; a header inside the table's pages would
        # take a whole third huge page (6 MiB)
        assert 4 << 10 <= int(resident.split()[1]) <= (4 << 10) + 64
