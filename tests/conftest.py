"""Shared pytest configuration.

Hypothesis runs without per-example deadlines: the suite shares a small machine with other
work, and a slow example is not a wrong one. Helpers for building problems live in
``builders.py`` next to this file (importable as ``builders`` from every test module),
and the one for ending child runs in ``runs.py``.
"""

import os
import signal
from collections.abc import Iterator

import pytest
from hypothesis import settings

settings.register_profile("excover", deadline=None, print_blob=True)
settings.load_profile("excover")


@pytest.fixture(autouse=True, scope="session")
def _private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Automatic checkpoints of interrupted parallel counts go to a folder of the test
    session, not to the user's ~/.cache (child processes inherit the setting)."""
    before = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("cache"))
    yield
    if before is None:
        del os.environ["XDG_CACHE_HOME"]
    else:
        os.environ["XDG_CACHE_HOME"] = before


@pytest.fixture(autouse=True, scope="session")
def _ctrl_c_reaches_children() -> Iterator[None]:
    """The Ctrl-C tests send SIGINT to child runs. A suite started in the background by a
    shell (``cmd &`` without job control, ``nohup``) inherits SIGINT ignored, and children
    keep an ignored signal across exec, so they would never see the test's Ctrl-C. A
    handler of our own is reset to the default at exec: the children then start as they
    would from a terminal."""
    before = signal.getsignal(signal.SIGINT)
    if before is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    if before is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
