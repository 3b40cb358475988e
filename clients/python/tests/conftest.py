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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _java() -> str:
    return str(Path(os.environ["JAVA_HOME"]) / "bin" / "java") if os.environ.get("JAVA_HOME") else "java"


def _jar() -> Path:
    return Path(os.environ.get("POSEKIT_JAR", ROOT / "target" / "posekit.jar"))


# A second posekit, secured by API keys and rate-limited, for the credential and retry tests: started when the
# session starts so its boot overlaps the other tests (it is waited for only by test_secured.py).
KEYS = {"rw": "pk_" + "a" * 43, "ro": "pk_" + "b" * 43}
_secured: dict = {}


def pytest_sessionstart(session: pytest.Session) -> None:
    if not _jar().exists() or os.environ.get("POSEKIT_SECURED_URL"):
        return
    store = tempfile.mkdtemp(prefix="posekit-py-secured-")
    keys = Path(store) / "keys.txt"
    keys.write_text(f"{hashlib.sha256(KEYS['rw'].encode()).hexdigest()} acme posekit:read,posekit:write client tests\n"
                    f"{hashlib.sha256(KEYS['ro'].encode()).hexdigest()} acme posekit:read reader\n")
    port = _free_port()
    _secured.update(store=store, url=f"http://127.0.0.1:{port}", process=subprocess.Popen(
        [_java(), "-jar", str(_jar()), f"--server.port={port}", "--server.address=127.0.0.1",
         f"--posekit.store.dir={store}/store", f"--posekit.security.api-keys-file={keys}",
         "--posekit.quota.requests-per-second=1", "--posekit.quota.burst=3",
         "--posekit.warm-up.duration=0", "--posekit.warm-up.rounds=0"], stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL))


def pytest_sessionfinish(session: pytest.Session) -> None:
    if _secured:
        _secured["process"].terminate()
        _secured["process"].wait(30)
        shutil.rmtree(_secured["store"], ignore_errors=True)


@pytest.fixture(scope="session")
def secured_url() -> str:
    """The secured posekit (keys KEYS['rw'] read+write and KEYS['ro'] read-only, tenant acme; 1 request/s, burst 3)."""
    if os.environ.get("POSEKIT_SECURED_URL"):
        return os.environ["POSEKIT_SECURED_URL"]
    if not _secured:
        pytest.fail(f"no service jar at {_jar()} for the secured service")
    deadline = time.monotonic() + 120
    while True:
        if _secured["process"].poll() is not None:
            pytest.fail(f"the secured service exited with {_secured['process'].returncode}")
        try:
            httpx.get(f"{_secured['url']}/api/v1/assets")  # any answer (401) means it is up
            return str(_secured["url"])
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            pytest.fail("the secured service did not start in 120 s")
        time.sleep(0.25)


@pytest.fixture(scope="session")
def url() -> Iterator[str]:
    if os.environ.get("POSEKIT_URL"):
        yield os.environ["POSEKIT_URL"]
        return
    jars = [_jar()]
    if not jars[0].exists():
        pytest.fail("no service jar: build it (./mvnw -DskipTests -Dposekit.aot.skip package) or set POSEKIT_URL")
    port = _free_port()
    store = tempfile.mkdtemp(prefix="posekit-py-store-")
    server = subprocess.Popen([_java(), "-jar", str(jars[0]), f"--server.port={port}", "--server.address=127.0.0.1",
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
