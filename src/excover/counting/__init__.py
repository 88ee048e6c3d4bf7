"""Counting every solution of an exact cover problem: the counting routes.

:mod:`excover.counting.components` counts by component decomposition.
"""
