"""The Python client against the real service (the retry and auth cases against a scripted local server)."""
from __future__ import annotations

import asyncio
import http.server
import json
import threading
import time
from pathlib import Path
from typing import Callable, Iterator, List, Tuple

import numpy as np
import pytest

from conftest import sha256
from posekit import AsyncPosekit, BakeFrame, Posekit, PosekitError, layer_parameter, parse_layout

FOX_ID = "d97044e701822bac5a62696459b27d7b375aada5de8574ed4362edbba94771f7"


@pytest.fixture(scope="module")
def client(url: str) -> Iterator[Posekit]:
    with Posekit(url) as c:
        yield c


@pytest.fixture(scope="module")
def fox(client: Posekit, assets: Path) -> str:
    return client.upload(assets / "gltf/Fox/Fox.glb")["id"]


def test_upload_id_is_the_sha256_and_created_says_201(client: Posekit, assets: Path, url: str) -> None:
    path = assets / "gltf/CesiumMan/CesiumMan.glb"
    with Posekit(url) as fresh:
        first = fresh.upload(path)
        again = fresh.upload(("CesiumMan.glb", path.read_bytes()))
    assert first["id"] == sha256(path)
    assert again["id"] == first["id"] and again["created"] is False
    assert first["name"] == "CesiumMan.glb"


def test_fox_id_and_clips(client: Posekit, fox: str) -> None:
    assert fox == FOX_ID
    assert [c["name"] for c in client.asset(fox).summary()["clips"]] == ["Survey", "Walk", "Run"]


def test_float32_matrices_equal_the_json_route(client: Posekit, fox: str) -> None:
    a = client.asset(fox)
    j = a.matrices(0, clip="Run", time=2.7, loop="repeat")
    b = a.matrices(0, "float32", clip="Run", time=2.7, loop="repeat")
    assert b.layout == "matrix:24x16"
    assert isinstance(b.data, np.ndarray) and b.data.dtype == np.dtype("<f4")
    assert np.array_equal(b.data, np.array(j["matrices"], dtype=np.float32).ravel())
    run = 1.1583333015441895
    assert j["localTime"] == 2.7 - run * (2.7 // run)


def test_skinned_float32_equals_json_and_glb(client: Posekit, assets: Path) -> None:
    a = client.asset(client.upload(assets / "gltf/CesiumMan/CesiumMan.glb")["id"])
    j = a.skinned(0, clip="animation_0", time=1, attributes="position,normal")
    b = a.skinned(0, "float32", clip="animation_0", time=1, attributes="position,normal")
    p = j["primitives"][0]
    assert b.layout == f"position:{p['vertexCount']}x3,normal:{p['vertexCount']}x3"
    assert np.array_equal(b.block(0, "position"), np.array(p["positions"], dtype=np.float32))
    assert np.array_equal(b.block(0, "normal"), np.array(p["normals"], dtype=np.float32))
    assert a.skinned(0, "glb", clip="animation_0", time=1)[:4] == b"glTF"


def test_time_units_layers_and_ik(client: Posekit, fox: str) -> None:
    a = client.asset(fox)
    assert a.pose(clip="Walk", frame=15, fps=30)["localTime"] == 0.5
    layers = [{"clip": "Walk", "weight": 0.7}, {"clip": "Survey", "weight": 1, "mask": ["b_Neck_04"]}]
    assert layer_parameter(layers[1]) == "clip:Survey;weight:1;mask:b_Neck_04"
    via_get = a.pose(space="model", layers=layers, normalized=0.4, loop="repeat")
    via_post = a.pose(space="model", layers=layers, normalized=0.4, loop="repeat", ik=[])
    assert [(l["clip"], l["weight"]) for l in via_get["layers"]] == [("Walk", 0.7), ("Survey", 1)]
    assert via_get["nodes"] == via_post["nodes"]
    aimed = a.pose(space="model", clip="Walk", time=0.3,
                   ik=[{"type": "aim", "joint": "b_Head_05", "forward": [0, 1, 0], "target": [0, 80, 200]}])
    assert aimed["ik"] == [{"reached": True}]
    moved = a.pose(clip="Walk", time=2.5, loop="repeat", root_motion="extract", root_components=["horizontal", "yaw"],
                   previous_time=2.4)
    assert moved["rootMotion"]["components"] == ["horizontal", "yaw"] and moved["rootMotion"]["loops"] == 3


def test_bake_ndjson_and_binary_equal_the_single_frame_route(client: Posekit, fox: str) -> None:
    a = client.asset(fox)
    spec = {"clip": "Walk", "times": {"start": 0, "end": 0.7083, "fps": 30}, "outputs": ["skinningMatrices", "bounds"]}
    frames = list(a.bake(spec))
    assert len(frames) == 23 and frames[22]["time"] == 0.7083
    binary: List[BakeFrame] = list(a.bake(spec, "binary"))
    assert [f.frame for f in binary] == list(range(23))
    for f, j in zip(binary, frames):
        assert f.time == np.float32(j["time"])
        assert np.array_equal(f.block("skinningMatrices", skin=0), np.array(j["skinningMatrices"][0]["values"], dtype=np.float32))
    single = a.matrices(0, "float32", clip="Walk", time=frames[7]["time"])
    assert np.array_equal(single.data, binary[7].block("skinningMatrices", skin=0))


def test_posed_animated_render(client: Posekit, fox: str) -> None:
    a = client.asset(fox)
    posed = a.posed_glb(clip="Survey", time=1.5)
    assert posed[:4] == b"glTF" and int.from_bytes(posed[8:12], "little") == len(posed)
    animated = a.animated_glb(clips=["Walk"])
    assert animated[:4] == b"glTF" and int.from_bytes(animated[8:12], "little") == len(animated)
    png = a.render(width=64, height=48, view="side", clip="Walk", time=0.3)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert (int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")) == (64, 48)


def test_retarget_clips_in_place(client: Posekit, fox: str, assets: Path) -> None:
    figure = client.upload(assets / "gltf/RiggedFigure/RiggedFigure.glb")["id"]
    cesium = client.upload(assets / "gltf/CesiumMan/CesiumMan.glb")["id"]
    r = client.asset(figure).retarget(cesium)
    assert r["asset"]["id"] != figure
    assert [c["sourceName"] for c in r["report"]["clips"]] == ["animation_0"]
    added = client.asset(fox).clips(assets / "gltf/Fox/Fox.glb")
    assert [c["name"] for c in added["clips"]] == ["Survey (2)", "Walk (2)", "Run (2)"]
    in_place = client.asset(fox).in_place("Walk")
    assert (in_place["clip"], in_place["topNode"]) == ("Walk (in place)", "root")


def test_errors_carry_the_problem(client: Posekit, fox: str) -> None:
    with pytest.raises(PosekitError) as e:
        client.asset(fox).pose(clip="Jump")
    assert (e.value.status, e.value.title) == (404, "Unknown clip")
    assert e.value.detail == "clip 'Jump' does not exist; clips: 'Survey', 'Walk', 'Run'"
    assert e.value.instance == f"/api/v1/assets/{fox}/pose"
    assert e.value.request_id and len(e.value.request_id) == 16
    with pytest.raises(PosekitError) as bad:
        client.asset(fox).pose(clip="Walk", time=1, frame=3, fps=30)
    assert bad.value.status == 400 and bad.value.problem["status"] == 400 and "time" in bad.value.detail


def test_etag_revalidation(url: str, fox: str) -> None:
    seen: List[Tuple[str, int]] = []

    def log(response) -> None:  # type: ignore[no-untyped-def]
        seen.append((response.request.headers.get("If-None-Match", ""), response.status_code))

    with Posekit(url, event_hooks={"response": [log]}) as c:
        first = c.asset(fox).matrices(0, "float32", clip="Walk", time=0.25)
        second = c.asset(fox).matrices(0, "float32", clip="Walk", time=0.25)
    assert [s for _, s in seen] == [200, 304]
    assert seen[0][0] == "" and seen[1][0].startswith('"')
    assert np.array_equal(first.data, second.data) and second.layout == "matrix:24x16"


def test_async_client_answers_as_the_sync_one(url: str, client: Posekit, fox: str) -> None:
    async def run() -> Tuple[object, int]:
        async with AsyncPosekit(url) as c:
            m = await c.asset(fox).matrices(0, "float32", clip="Walk", time=0.5)
            frames = [f async for f in c.asset(fox).bake({"clip": "Walk", "times": [0, 0.5], "outputs": ["skinningMatrices"]}, "binary")]
            assert np.array_equal(frames[1].block("skinningMatrices"), m.data)
            assert await c.asset(fox).skeleton(clip="Walk", time=0.5) == client.asset(fox).skeleton(clip="Walk", time=0.5)
            return m.data, len(frames)
    data, n = asyncio.run(run())
    assert n == 2
    assert np.array_equal(data, client.asset(fox).matrices(0, "float32", clip="Walk", time=0.5).data)


def test_parse_layout() -> None:
    groups = parse_layout("position:2x3,normal:2x3;position:1x3")
    assert [(b.name, b.offset) for g in groups for b in g] == [("position", 0), ("normal", 6), ("position", 12)]
    with pytest.raises(ValueError):
        parse_layout("matrix:24by16")


# --- what the service cannot be made to answer on demand: a scripted local server ---

class Scripted:
    def __init__(self, answer: Callable[[http.server.BaseHTTPRequestHandler, int], None]) -> None:
        self.requests: List[dict] = []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802
                outer.requests.append(dict(self.headers))
                answer(self, len(outer.requests))

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def problem(h: http.server.BaseHTTPRequestHandler, status: int, title: str, **headers: str) -> None:
    body = json.dumps({"type": "about:blank", "title": title, "status": status, "detail": f"{title} (scripted)"}).encode()
    h.send_response(status)
    h.send_header("Content-Type", "application/problem+json")
    h.send_header("Content-Length", str(len(body)))
    for k, v in headers.items():
        h.send_header(k.replace("_", "-"), v)
    h.end_headers()
    h.wfile.write(body)


def ok(h: http.server.BaseHTTPRequestHandler) -> None:
    body = b'{"assets":[]}'
    h.send_response(200)
    h.send_header("Content-Type", "application/json")
    h.send_header("Content-Length", str(len(body)))
    h.end_headers()
    h.wfile.write(body)


def test_retries_429_and_503_honouring_retry_after() -> None:
    s = Scripted(lambda h, n: problem(h, 429, "Too many requests", Retry_After="1") if n == 1
                 else problem(h, 503, "Busy", Retry_After="0") if n == 2 else ok(h))
    try:
        started = time.monotonic()
        with Posekit(s.url) as c:
            assert c.list() == {"assets": []}
        assert len(s.requests) == 3 and time.monotonic() - started >= 1.0
    finally:
        s.close()


def test_retries_are_bounded() -> None:
    s = Scripted(lambda h, n: problem(h, 429, "Too many requests", Retry_After="0"))
    try:
        with Posekit(s.url, retries=2) as c, pytest.raises(PosekitError) as e:
            c.list()
        assert e.value.status == 429 and e.value.retry_after == 0 and len(s.requests) == 3
    finally:
        s.close()
    t = Scripted(lambda h, n: problem(h, 503, "Busy", Retry_After="120"))
    try:
        with Posekit(t.url, max_retry_delay=5) as c, pytest.raises(PosekitError) as e:
            c.list()
        assert e.value.status == 503 and e.value.retry_after == 120 and len(t.requests) == 1
    finally:
        t.close()


def test_api_key_and_token_refresh() -> None:
    s = Scripted(lambda h, n: ok(h) if h.headers.get("Authorization") == "Bearer fresh"
                 else problem(h, 401, "Unauthorized", WWW_Authenticate='Bearer error="invalid_token"'))
    try:
        with Posekit(s.url, api_key="pk_test") as c, pytest.raises(PosekitError) as e:
            c.list()
        assert e.value.status == 401 and s.requests[0]["Authorization"] == "Bearer pk_test"
        asked: List[bool] = []

        def token(refresh: bool) -> str:
            asked.append(refresh)
            return "fresh" if refresh else "stale"
        with Posekit(s.url, token=token) as c:
            assert c.list() == {"assets": []}
        assert asked == [False, True]

        async def run() -> dict:
            async def atoken(refresh: bool) -> str:
                return "fresh" if refresh else "stale"
            async with AsyncPosekit(s.url, token=atoken) as c:
                return await c.list()
        assert asyncio.run(run()) == {"assets": []}
    finally:
        s.close()
