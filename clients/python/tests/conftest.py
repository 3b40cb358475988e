"""The tests run against a real posekit: $POSEKIT_URL when set, else the service jar (../../target/posekit.jar or
$POSEKIT_JAR) started here on a free port with a temporary store, and stopped after."""
from __future__ import annotations

import hashlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Iterator

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[3]
ASSETS = Path(os.environ.get("POSEKIT_CONFORMANCE_ASSETS", ROOT.parent / "shared" / "conformance" / "assets"))


def pytest_collection_modifyitems(config: pytest.Config, items: list) -> None:
    if not (ASSETS / "gltf/Fox/Fox.glb").exists():
        skip = pytest.mark.skip(reason=f"conformance assets absent ({ASSETS})")
        for item in items:
            if "assets" in item.fixturenames:
                item.add_marker(skip)


@pytest.fixture(scope="session")
def url() -> Iterator[str]:
    if os.environ.get("POSEKIT_URL"):
        yield os.environ["POSEKIT_URL"]
        return
    jars = [Path(os.environ.get("POSEKIT_JAR", ROOT / "target" / "posekit.jar"))]
    if not jars[0].exists():
        pytest.fail("no service jar: build it (./mvnw -DskipTests -Dposekit.aot.skip package) or set POSEKIT_URL")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    store = tempfile.mkdtemp(prefix="posekit-py-store-")
    java = str(Path(os.environ["JAVA_HOME"]) / "bin" / "java") if os.environ.get("JAVA_HOME") else "java"
    server = subprocess.Popen([java, "-jar", str(jars[0]), f"--server.port={port}", "--server.address=127.0.0.1",
                               f"--posekit.store.dir={store}", "--posekit.warm-up.duration=0", "--posekit.warm-up.rounds=0"], stdout=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    try:
        while True:
            if server.poll() is not None:
                pytest.fail(f"the service exited with {server.returncode}")
            try:
                if httpx.get(f"{base}/api/v1/assets").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("the service did not start in 120 s")
            time.sleep(0.25)
        yield base
    finally:
        server.terminate()
        server.wait(30)
        shutil.rmtree(store, ignore_errors=True)


@pytest.fixture(scope="session")
def assets() -> Path:
    return ASSETS


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()
