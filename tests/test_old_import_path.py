"""``excover.dlx``, the engines' old import path, still works for one release and warns."""

import importlib
import sys

import pytest

import excover.engines


def test_old_path_gives_the_same_objects_with_a_deprecation_warning() -> None:
    sys.modules.pop("excover.dlx", None)
    with pytest.warns(DeprecationWarning, match="excover.engines"):
        old = importlib.import_module("excover.dlx")
    assert old.Search is excover.engines.Search
    assert old.Stats is excover.engines.Stats
    assert set(old.__all__) == set(excover.engines.__all__)
