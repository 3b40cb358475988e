"""The command line as a shell script uses it: stdout lines, stderr messages, exit codes."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import List

import numpy as np
import pytest

from conftest import sha256
from posekit import Posekit
from posekit._core import BinaryBakeReader

SRC = str(Path(__file__).resolve().parents[1] / "src")


def posekit(url: str, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run([sys.executable, "-m", "posekit", "--url", url, *args], capture_output=True, text=True,
                          env=env, timeout=300)


def test_upload_a_folder_in_parallel(url: str, assets: Path, tmp_path: Path) -> None:
    for name in ("gltf/Fox/Fox.glb", "gltf/CesiumMan/CesiumMan.glb", "gltf/BrainStem/BrainStem.glb", "fbx/huesitos/huesitos.fbx"):
        shutil.copy(assets / name, tmp_path)
    (tmp_path / "notes.txt").write_text("not a model")
    r = posekit(url, "upload", "--jobs", "3", "--progress", str(tmp_path))
    assert r.returncode == 0, r.stderr
    lines = [line.split("\t") for line in r.stdout.splitlines()]
    files = sorted(p for p in tmp_path.iterdir() if p.suffix != ".txt")
    assert [(i, f) for i, f, _ in lines] == [(sha256(p), str(p)) for p in files]
    assert {s for _, _, s in lines} <= {"created", "exists"}
    assert "] 4/4 " in r.stderr  # the progress bar (asked for: stderr is not a terminal here)


def test_upload_companions_together(url: str, assets: Path, tmp_path: Path) -> None:
    glb = (assets / "gltf/Fox/Fox.glb").read_bytes()
    n = int.from_bytes(glb[12:16], "little")
    doc = json.loads(glb[20:20 + n])
    doc["buffers"][0]["uri"] = "f.bin"
    (tmp_path / "f.gltf").write_text(json.dumps(doc))
    size = int.from_bytes(glb[20 + n:24 + n], "little")
    (tmp_path / "f.bin").write_bytes(glb[28 + n:28 + n + size])
    r = posekit(url, "upload", "--together", str(tmp_path / "f.gltf"), str(tmp_path / "f.bin"))
    assert r.returncode == 0, r.stderr
    asset_id = r.stdout.split("\t")[0]
    with Posekit(url) as c:
        assert c.asset(asset_id).matrices(0, clip="Walk", time=0.5)["matrices"] == \
            c.asset(sha256(assets / "gltf/Fox/Fox.glb")).matrices(0, clip="Walk", time=0.5)["matrices"]


def test_bake_binary_file_equals_the_matrices_route(url: str, assets: Path, tmp_path: Path) -> None:
    out = tmp_path / "walk.bin"
    r = posekit(url, "bake", str(assets / "gltf/Fox/Fox.glb"), "--clip", "Walk", "--fps", "30", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().split("\t")[2:] == [str(out), "23"]
    reader = BinaryBakeReader()
    frames = reader.feed(out.read_bytes())
    reader.finish()
    assert len(frames) == 23
    with Posekit(url) as c:
        m = c.asset(sha256(assets / "gltf/Fox/Fox.glb")).matrices(0, "float32", clip="Walk", time=10 / 30)  # the times in the file are float32: sample at the exact 10/30 s
    assert frames[10].time == np.float32(10 / 30)
    assert np.array_equal(frames[10].block("skinningMatrices"), m.data)


def test_bake_ndjson(url: str, assets: Path, tmp_path: Path) -> None:
    out = tmp_path / "walk.ndjson"
    r = posekit(url, "bake", str(assets / "gltf/Fox/Fox.glb"), "--clip", "Walk", "--fps", "10", "--end", "0.5",
                "--outputs", "bounds", "--out", str(out))
    assert r.returncode == 0, r.stderr
    frames = [json.loads(line) for line in out.read_text().splitlines()]
    assert [f["time"] for f in frames] == [0, 0.1, 0.2, 0.3, 0.4, 0.5]
    assert set(frames[0]) >= {"frame", "time", "localTime", "bounds"}


def test_failures_exit_codes_and_messages(url: str, assets: Path, tmp_path: Path) -> None:
    fox = assets / "gltf/Fox/Fox.glb"
    r = posekit(url, "bake", str(fox), "--clip", "Jump", "--out", str(tmp_path / "x.ndjson"))
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr == f"posekit: {fox}: 404 Unknown clip: clip 'Jump' does not exist; clips: 'Survey', 'Walk', 'Run'\n"
    assert not (tmp_path / "x.ndjson").exists()
    broken = tmp_path / "broken.glb"
    broken.write_bytes(b"\x01\x02\x03")
    r = posekit(url, "upload", str(fox), str(broken))
    assert r.returncode == 1
    assert r.stdout.startswith(sha256(fox))
    assert r.stderr.startswith(f"posekit: {broken}: 4")
    r = posekit(url, "upload", str(tmp_path / "missing.glb"))
    assert r.returncode == 2 and r.stderr == f"posekit: {tmp_path / 'missing.glb'}: no such file or folder\n"
    assert posekit(url, "bake").returncode == 2
    r = posekit("http://127.0.0.1:9", "upload", str(fox))
    assert r.returncode == 3 and "could not be reached" in r.stderr


def test_render_convert_retarget(url: str, assets: Path, tmp_path: Path) -> None:
    png = tmp_path / "thumb.png"
    r = posekit(url, "render", str(assets / "gltf/Fox/Fox.glb"), "--clip", "Walk", "--time", "0.3", "--width", "80",
                "--height", "60", "--out", str(png))
    assert r.returncode == 0, r.stderr
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and (int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")) == (80, 60)
    r = posekit(url, "convert", str(assets / "fbx/huesitos"), "--out", str(tmp_path / "glb"))
    assert r.returncode == 0, r.stderr
    glb = (tmp_path / "glb" / "huesitos.glb").read_bytes()
    assert glb[:4] == b"glTF" and int.from_bytes(glb[8:12], "little") == len(glb)
    r = posekit(url, "convert", str(assets / "gltf/Fox/Fox.glb"), "--compress", "meshopt", "--out", str(tmp_path / "fox.glb"))
    assert r.returncode == 0, r.stderr
    packed = (tmp_path / "fox.glb").read_bytes()
    gltf = json.loads(packed[20:20 + int.from_bytes(packed[12:16], "little")])
    assert "EXT_meshopt_compression" in gltf["extensionsRequired"]
    report = tmp_path / "r.json"
    r = posekit(url, "retarget", str(assets / "gltf/CesiumMan/CesiumMan.glb"), str(assets / "gltf/RiggedFigure/RiggedFigure.glb"),
                "--out", str(report))
    assert r.returncode == 0, r.stderr
    result = json.loads(report.read_text())
    assert r.stdout.split("\t")[0] == result["asset"]["id"]
    assert [c["sourceName"] for c in result["report"]["clips"]] == ["animation_0"]
    out = tmp_path / "retargeted.glb"
    r = posekit(url, "retarget", str(assets / "gltf/CesiumMan/CesiumMan.glb"), str(assets / "gltf/RiggedFigure/RiggedFigure.glb"),
                "--out", str(out))
    assert r.returncode == 0 and out.read_bytes()[:4] == b"glTF"
