"""Burnside's lemma over the square's symmetries, for the benchmarks that count a term
as the mean of the tilings each symmetry fixes (a328020.py, a291806.py): the ledger of
the fixed counts (one entry a symmetry or group, written as each finishes, its states
checkpointed while it runs so that a killed run resumes), the checks every subgroup's
sum must pass, and the classes with a nontrivial symmetry by Möbius inversion.

The square's group D4 has 10 subgroups: the trivial one, five of order 2 (the half
turn and the four mirrors), three of order 4 (the rotations C4, the Klein group of both
axes, that of both diagonals) and D4. The tilings whose stabilizer is exactly trivial
are, by Möbius inversion over that lattice, sum over H of mu(1, H) |Fix(H)| with
mu = 1 for the trivial group, -1 for each group of order 2, 0 for C4 (it holds one
group of order 2: -(1 - 1)), 2 for each Klein group (it holds three: -(1 - 3)) and 0
for D4 (-(1 - 5 + 0 + 2 + 2)). Those tilings fall into orbits of 8, so

    free classes = (Fix(1) - Fix(Rot180) - 2 Fix(VertRefl) - 2 Fix(Diag1Refl)
                    + 2 Fix(axes) + 2 Fix(diagonals)) / 8

(conjugate mirrors fix as many), and the classes with a nontrivial symmetry are the
classes (Burnside's mean) less the free ones.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

__all__ = [
    "KLEIN",
    "OTHERS",
    "SUBGROUPS",
    "checks",
    "classes",
    "count_into",
    "load_ledger",
    "save_ledger",
    "symmetric_classes",
]

#: The symmetries other than the identity, in the order they are counted (the cheap
#: ones first; the half turn's frontier is the whole width of the square).
OTHERS = ("Rot90", "Rot270", "Diag1Refl", "Diag2Refl", "VertRefl", "HorizRefl", "Rot180")

#: The Klein groups (both axes, both diagonals, each with the half turn), whose fixed
#: counts the classes with a nontrivial symmetry need.
KLEIN = ("axes", "diagonals")

#: The subgroups of the square's symmetries, each with its elements other than the
#: identity: by Burnside's lemma the sum of its fixed counts, the identity's included, is
#: a multiple of its order.
SUBGROUPS = {
    "the half turn": ("Rot180",),
    "VertRefl": ("VertRefl",),
    "HorizRefl": ("HorizRefl",),
    "Diag1Refl": ("Diag1Refl",),
    "Diag2Refl": ("Diag2Refl",),
    "the rotations": ("Rot90", "Rot180", "Rot270"),
    "both axes": ("Rot180", "VertRefl", "HorizRefl"),
    "both diagonals": ("Rot180", "Diag1Refl", "Diag2Refl"),
    "all eight": OTHERS,
}

#: Conjugate symmetries: each pair fixes as many tilings (counted on other domains).
CONJUGATES = (("Rot90", "Rot270"), ("VertRefl", "HorizRefl"), ("Diag1Refl", "Diag2Refl"))


def save_ledger(path: Path, ledger: dict[str, Any]) -> None:
    """Write the ledger whole, then rename it over the old one (never half written)."""
    spare = path.with_suffix(".tmp")
    spare.write_text(json.dumps(ledger, indent=1, sort_keys=True) + "\n")
    os.replace(spare, path)


def load_ledger(path: Path, n: int) -> dict[str, Any]:
    """The ledger at ``path`` (empty if none), which must be of ``n``."""
    ledger: dict[str, Any] = json.loads(path.read_text()) if path.exists() else {}
    if ledger.get("n", n) != n:
        sys.exit(f"{path} is a ledger of n = {ledger['n']}, not {n}")
    ledger["n"] = n
    ledger.setdefault("fixed", {})
    return ledger


Count = Callable[[Callable[[int, int, int], None], Path], int]


def count_into(
    ledger: dict[str, Any], path: Path, name: str, checkpoint: Path, count: Count
) -> int:
    """The count ``name`` from the ledger, or counted by ``count(tick, checkpoint)``
    (its progress printed a line an op), its CPU seconds kept for each sitting (a
    stopped one's too), its value, CPU time and widest layer saved when done."""
    fixed = ledger["fixed"]
    if name in fixed:
        print(f"{name}: {int(fixed[name]['count']):,} (in the ledger)", flush=True)
        return int(fixed[name]["count"])
    started = time.process_time()
    widest = 0

    def tick(done: int, ops: int, states: int) -> None:
        nonlocal widest
        widest = max(widest, states)
        print(
            f"{name} op {done}/{ops}: {states:,} states, {time.process_time() - started:.0f} s",
            flush=True,
        )

    sittings = ledger.setdefault("sittings", {}).setdefault(name, [])
    try:
        found = count(tick, checkpoint)
    finally:  # a stopped sitting's CPU time is kept too
        sittings.append(round(time.process_time() - started, 2))
        save_ledger(path, ledger)
    fixed[name] = {"count": str(found), "cpu": round(sum(sittings), 2), "widest": widest}
    save_ledger(path, ledger)
    print(f"{name}: {found:,} ({sittings[-1]:.2f} s of CPU in this sitting)", flush=True)
    return found


def checks(identity: int, counts: Mapping[str, int]) -> list[str]:
    """The failures of Burnside's checks (none: all pass), each check printed: every
    subgroup's sum divides by its order, conjugate symmetries fix as many."""
    failures = []
    for group, names in SUBGROUPS.items():
        total = identity + sum(counts[name] for name in names)
        order = len(names) + 1
        verdict = "divides" if total % order == 0 else "DOES NOT DIVIDE"
        print(f"{group}: {total:,} / {order} {verdict}", flush=True)
        if total % order:
            failures.append(group)
    for a, b in CONJUGATES:
        same = counts[a] == counts[b]
        print(f"{a} and {b}: {'agree' if same else 'DISAGREE'}", flush=True)
        if not same:
            failures.append(f"{a}/{b}")
    return failures


def classes(identity: int, counts: Mapping[str, int]) -> int:
    """The classes under the square's 8 symmetries (Burnside's mean, exact)."""
    total = identity + sum(counts[name] for name in OTHERS)
    if total % 8:
        raise ArithmeticError(f"Burnside's sum {total} is not a multiple of 8")
    return total // 8


def symmetric_classes(identity: int, counts: Mapping[str, int]) -> int:
    """The classes with a nontrivial symmetry: all classes less the free ones (the
    module's notes: Möbius inversion over the subgroups of D4)."""
    free = (
        identity
        - counts["Rot180"]
        - counts["VertRefl"]
        - counts["HorizRefl"]
        - counts["Diag1Refl"]
        - counts["Diag2Refl"]
        + 2 * counts["axes"]
        + 2 * counts["diagonals"]
    )
    if free % 8:
        raise ArithmeticError(f"the free tilings, {free}, are not a multiple of 8")
    return classes(identity, counts) - free // 8
