"""The package builds offline (setuptools from the system, no download) into a wheel with its marker and command."""
from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parents[1]


def test_wheel_builds_offline_with_py_typed_and_the_command(tmp_path: Path) -> None:
    if subprocess.run([sys.executable, "-m", "pip", "--version"], capture_output=True).returncode != 0:
        pytest.skip("pip absent")
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                        str(HERE), "-w", str(tmp_path / "wheel")], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert r.returncode == 0, r.stderr
    wheel = next((tmp_path / "wheel").glob("posekit-0.1.0-*.whl"))
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        assert {"posekit/py.typed", "posekit/__init__.py", "posekit/cli.py", "posekit/_client.py", "posekit/_core.py"} <= names
        entry_points = z.read("posekit-0.1.0.dist-info/entry_points.txt").decode()
        metadata = z.read("posekit-0.1.0.dist-info/METADATA").decode()
    assert "posekit = posekit.cli:main" in entry_points
    assert re.search(r"^Requires-Dist: httpx ?\(?>=0.23\)?$", metadata, re.M), metadata  # setuptools 66 writes "httpx (>=0.23)"
