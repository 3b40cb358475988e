"""Credentials, scopes and rate-limit retries against a real posekit secured by API keys (conftest's secured_url:
tenant acme, a read+write key and a read-only key, 1 request per second with a burst of 3)."""
from __future__ import annotations

import time
from pathlib import Path
from typing import List

import httpx
import pytest

from conftest import KEYS, sha256
from posekit import Posekit, PosekitError


def test_no_key_is_a_401_problem(secured_url: str) -> None:
    with Posekit(secured_url) as c, pytest.raises(PosekitError) as e:
        c.list()
    assert e.value.status == 401 and e.value.problem["status"] == 401
    assert e.value.detail and e.value.request_id


def test_a_read_only_key_cannot_upload_and_the_right_key_can(secured_url: str, assets: Path) -> None:
    fox = assets / "gltf/Fox/Fox.glb"
    with Posekit(secured_url, api_key=KEYS["ro"]) as reader, pytest.raises(PosekitError) as e:
        reader.upload(fox)
    assert e.value.status == 403 and "posekit:write" in e.value.detail
    with Posekit(secured_url, api_key=KEYS["rw"]) as writer:
        assert writer.upload(fox)["id"] == sha256(fox)
        assert sha256(fox) in [a["id"] for a in writer.list()["assets"]]


def test_the_token_provider_is_asked_again_after_a_401(secured_url: str) -> None:
    asked: List[bool] = []

    def token(refresh: bool) -> str:
        asked.append(refresh)
        return KEYS["rw"] if refresh else "pk_" + "c" * 43  # the first one is no key of the service's
    with Posekit(secured_url, token=token) as c:
        c.list()
    assert asked == [False, True]


def test_429_is_retried_after_retry_after_and_bounded(secured_url: str) -> None:
    statuses: List[int] = []
    with Posekit(secured_url, api_key=KEYS["rw"], retries=0) as c:
        with pytest.raises(PosekitError) as e:
            for _ in range(10):  # the bucket holds 3 and refills 1 a second
                c.list()
        assert e.value.status == 429 and e.value.retry_after is not None and e.value.retry_after >= 1
    with Posekit(secured_url, api_key=KEYS["rw"],
                 event_hooks={"response": [lambda r: statuses.append(r.status_code)]}) as c:
        started = time.monotonic()
        for _ in range(3):
            c.list()
        assert statuses.count(200) == 3 and 429 in statuses
        assert time.monotonic() - started >= 1.0  # it waited the service's Retry-After
    with Posekit(secured_url, api_key=KEYS["rw"], max_retry_delay=0.5) as c, pytest.raises(PosekitError) as e:
        for _ in range(10):
            c.list()  # a Retry-After of a second is beyond this client's cap: not waited for
    assert e.value.status == 429


def test_answers_for_an_authenticated_caller_are_private(secured_url: str, assets: Path) -> None:
    with Posekit(secured_url, api_key=KEYS["rw"]) as c:
        fox = c.asset(sha256(assets / "gltf/Fox/Fox.glb"))
        seen: List[httpx.Response] = []
        c.http.event_hooks["response"].append(seen.append)
        c.asset(fox.id).matrices(0, "float32", clip="Walk", time=0.125)
        c.asset(fox.id).matrices(0, "float32", clip="Walk", time=0.125)
    ok = [r for r in seen if r.status_code in (200, 304)]
    assert ok[0].headers["Cache-Control"].startswith("private")
    assert ok[-1].status_code == 304  # revalidated from the client's cache
