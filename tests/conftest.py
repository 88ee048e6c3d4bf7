"""Shared pytest configuration.

Hypothesis runs without per-example deadlines: the suite shares a small machine with other
work, and a slow example is not a wrong one. Helpers for building problems live in
``builders.py`` next to this file (importable as ``builders`` from every test module).
"""

from hypothesis import settings

settings.register_profile("excover", deadline=None, print_blob=True)
settings.load_profile("excover")
