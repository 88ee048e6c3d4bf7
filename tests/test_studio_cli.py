"""``excover studio``: the command starts the server on 127.0.0.1 with a token in the
address it prints, opens the file it is given, refuses bad input with exit status 2, says
which extra to install when the framework is missing, and stops on Ctrl-C (exit status
130)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from excover.main import main
from excover.studio.cli import listen

pytest.importorskip("uvicorn")

ROOT = Path(__file__).resolve().parents[1]


def test_a_bad_program_is_refused_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    program = tmp_path / "bad.cmb"
    program.write_text("pattern a = {**}\nproblem p = a [b ~one]\n")
    assert main(["studio", str(program), "--no-browser"]) == 2
    assert f"{program}:2:" in capsys.readouterr().err
    assert main(["studio", str(tmp_path / "none.cmb"), "--no-browser"]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_a_busy_port_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    busy = listen(0)
    try:
        assert main(["studio", "--no-browser", "--port", str(busy.getsockname()[1])]) == 2
    finally:
        busy.close()
    assert "cannot listen on 127.0.0.1" in capsys.readouterr().err
    assert main(["studio", "--no-browser", "--port", "70000"]) == 2


def test_the_missing_extra_is_named() -> None:
    code = "import sys; sys.modules['uvicorn'] = None\nfrom excover.main import main\n"
    code += "sys.exit(main(['studio', '--no-browser']))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "pip install 'excover[studio]'" in done.stderr


def fetch(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def test_the_command_serves_the_file_until_ctrl_c(tmp_path: Path) -> None:
    program = ROOT / "examples" / "studio_soma.cmb"
    folder = tmp_path / "checkpoints"
    command = ["studio", str(program), "--no-browser", "--checkpoints", str(folder)]
    child = subprocess.Popen(
        [sys.executable, "-m", "excover", *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    try:
        assert child.stdout is not None
        line = child.stdout.readline()
        found = re.fullmatch(r"excover studio: (http://127\.0\.0\.1:(\d+)/)\?token=(\S+)\n", line)
        assert found is not None, line
        base, _, token = found.groups()
        status, page = fetch(f"{base}?token={token}")
        assert status == 200 and token.encode() in page
        assert fetch(f"{base}api/initial")[0] == 403
        status, body = fetch(f"{base}api/initial?token={token}")
        initial = json.loads(body)
        assert initial["name"] == "studio_soma.cmb"
        assert initial["design"]["grid"] == "cube"
        assert initial["design"]["board"] == [["***"] * 3] * 3
        assert [piece["name"] for piece in initial["design"]["pieces"]] == list("VLTZABP")
    finally:
        child.send_signal(signal.SIGINT)
        child.wait(60)
    assert child.returncode == 130  # Ctrl-C, as for every command (docs/cli.md)
