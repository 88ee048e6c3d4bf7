"""What a release says about itself agrees everywhere: the package's version (as Python
sees it, as the installed metadata records it, as ``excover --version`` prints it), the
newest entry of the changelog, the citation file, and the licence shipped with the
metadata."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import excover

ROOT = Path(__file__).resolve().parents[1]


def test_the_version_is_the_same_everywhere() -> None:
    version = excover.__version__
    assert re.fullmatch(r"\d+\.\d+\.\d+((a|b|rc)\d+)?", version)
    assert metadata.version("excover") == version
    shown = subprocess.run(
        [sys.executable, "-m", "excover", "--version"], capture_output=True, text=True, check=True
    ).stdout
    assert shown.startswith(f"excover {version} ")
    changelog = (ROOT / "docs" / "changelog.md").read_text(encoding="utf-8")
    releases = re.findall(r"^### (\S+) \((\d{4}-\d\d-\d\d)\)$", changelog, re.MULTILINE)
    assert releases and releases[0][0] == version
    citation = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    assert re.search(rf"^version: {re.escape(version)}$", citation, re.MULTILINE)
    assert f'date-released: "{releases[0][1]}"' in citation


def test_the_licence_ships_and_the_metadata_says_mit() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    licence = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert licence.startswith("MIT License") and "Permission is hereby granted" in licence
    meta = metadata.metadata("excover")
    assert meta["License-Expression"] == "MIT"
    files = metadata.files("excover") or []
    assert any(Path(str(f)).name == "LICENSE" for f in files)
    assert "Typing :: Typed" in meta.get_all("Classifier", [])
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL", []))
    assert {"Documentation", "Source", "Issues"} <= set(urls)
