"""Symmetry: the automorphisms of an exact cover problem, counts up to symmetry, and
symmetry-broken search.

* :meth:`ExactCover.symmetries() <excover.ExactCover.symmetries>` finds the automorphism
  group of any problem (:mod:`excover.symmetry.automorphisms`, through BLISS; needs the
  extra ``excover[symmetry]``). :class:`Group` also takes generators written by hand, for
  a part of the symmetries or a group the problem's structure does not show.
* ``count(up_to_symmetry=True)`` counts the orbits of solutions, ``solutions(
  up_to_symmetry=True)`` yields one solution per orbit, and ``count(symmetry=...)`` counts
  all solutions faster by searching one branch per orbit at the top of the tree
  (:mod:`excover.symmetry.broken`), under a group of any order: large groups are never
  listed (identical options merged, :mod:`excover.symmetry.twins`; stabilizers and
  smallest images along stabilizer chains, :mod:`excover.symmetry.smallest`).
  :func:`burnside` counts orbits by Burnside's lemma instead
  (:mod:`excover.symmetry.fixed`), an independent route for groups small enough to list.
"""

from excover.symmetry.broken import BrokenSearch
from excover.symmetry.fixed import Quotient, burnside
from excover.symmetry.group import Automorphism, Generator, Group
from excover.symmetry.partials import Orbit

__all__ = [
    "Automorphism",
    "BrokenSearch",
    "Generator",
    "Group",
    "Orbit",
    "Quotient",
    "burnside",
]
