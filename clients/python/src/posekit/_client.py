"""The clients: `Posekit` (sync) and `AsyncPosekit`, one `Asset` object per asset, on httpx."""
from __future__ import annotations

import asyncio
import json
import random
import time as _time
from typing import (TYPE_CHECKING, Any, cast, AsyncIterator, Callable, Dict, Iterator, List, Literal, Mapping, Optional, Sequence, Tuple,
                    TypeVar, Union, overload)

import httpx

if TYPE_CHECKING:
    from typing_extensions import Unpack
from urllib.parse import quote

from ._core import (API, Sampling, BakeFrame, BinaryBakeReader, EtagCache, FileArg, Float32Answer, PosekitError, Request,
                    TokenProvider, camel, error_of, files_of, float32_answer, query, retry_after_seconds,
                    sampling_request)

T = TypeVar("T")
Parse = Callable[[httpx.Response], Any]


def _json(r: httpx.Response) -> Any:
    return r.json()


def _bytes(r: httpx.Response) -> bytes:
    return r.content


class _Base:
    def __init__(self, base_url: str, api_key: Optional[str], token: Optional[TokenProvider], retries: int,
                 max_retry_delay: float, cache_bytes: int, headers: Optional[Mapping[str, str]]) -> None:
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.token = token
        self.retries = retries
        self.max_retry_delay = max_retry_delay
        self.cache = EtagCache(cache_bytes) if cache_bytes > 0 else None
        self.headers = dict(headers or {})

    def _headers(self, request: Request, refresh: bool, etag: Optional[str]) -> Dict[str, str]:
        h = dict(self.headers)
        if request.accept:
            h["Accept"] = request.accept
        token = self.token(refresh) if self.token else self.api_key
        if token:
            h["Authorization"] = f"Bearer {token}"
        if etag:
            h["If-None-Match"] = etag
        return h

    def _key(self, request: Request) -> str:
        return f"{request.accept} {request.path}?{httpx.QueryParams(cast(Any, request.params))}"

    def _wait(self, response: httpx.Response, attempt: int) -> Optional[float]:
        """Seconds to wait before retrying, or None to give up."""
        if response.status_code not in (429, 503) or attempt >= self.retries:
            return None
        after = retry_after_seconds(response.headers.get("Retry-After"))
        wait = after if after is not None else min(30.0, 0.25 * 2 ** attempt) * (0.5 + random.random() / 2)
        return wait if wait <= self.max_retry_delay else None

    def _cached(self, request: Request) -> Optional[Tuple[str, bytes, httpx.Headers, int]]:
        return self.cache.get(self._key(request)) if self.cache and request.cacheable else None

    def _keep(self, request: Request, response: httpx.Response) -> None:
        etag = response.headers.get("ETag")
        if (self.cache and request.cacheable and etag and "immutable" in response.headers.get("Cache-Control", "")):
            self.cache.put(self._key(request), etag, response.content, response.headers, response.status_code)


class _AssetRequests:
    """The requests of one asset's resources, for both clients."""

    def __init__(self, asset_id: str) -> None:
        self.id = asset_id
        self.path = f"{API}/assets/{asset_id}"

    def _summary(self) -> Tuple[Request, Parse]:
        return Request("GET", self.path, accept="application/json"), _json

    def _delete(self) -> Tuple[Request, Parse]:
        return Request("DELETE", self.path), lambda r: None

    def _pose(self, space: Optional[str], sampling: Mapping[str, Any]) -> Tuple[Request, Parse]:
        return sampling_request(f"{self.path}/pose", sampling, {"space": space}, "application/json"), _json

    def _matrices(self, skin: int, format: str, form: Optional[str], sampling: Mapping[str, Any]) -> Tuple[Request, Parse]:
        binary = format == "float32"
        req = sampling_request(f"{self.path}/skins/{skin}/matrices", sampling, {"form": form},
                               "application/octet-stream" if binary else "application/json")
        return req, float32_answer if binary else _json

    def _skinned(self, mesh: int, format: str, attributes: Optional[str], skinning: Optional[str],
                 sampling: Mapping[str, Any]) -> Tuple[Request, Parse]:
        accept = {"float32": "application/octet-stream", "glb": "model/gltf-binary"}.get(format, "application/json")
        req = sampling_request(f"{self.path}/meshes/{mesh}/skinned", sampling,
                               {"attributes": attributes, "skinning": skinning}, accept)
        return req, {"float32": float32_answer, "glb": _bytes}.get(format, _json)

    def _get(self, route: str, accept: str, parse: Parse, values: Mapping[str, Any]) -> Tuple[Request, Parse]:
        return Request("GET", f"{self.path}/{route}", query(values), accept=accept, cacheable=True), parse

    def _post(self, route: str, body: Any = None, files: Optional[Sequence[FileArg]] = None) -> Tuple[Request, Parse]:
        return Request("POST", f"{self.path}/{route}", json=body, files=files_of(files) if files else None,
                       accept="application/json"), _json

    def _bake(self, spec: Mapping[str, Any], format: str) -> Request:
        accept = "application/octet-stream" if format == "binary" else "application/x-ndjson"
        return Request("POST", f"{self.path}/bake", json=camel(spec), accept=accept, stream=True)


def _retarget_body(source: str, clips: Optional[Sequence[str]], joint_map: Optional[Mapping[str, str]],
                   options: Optional[Mapping[str, Any]]) -> Dict[str, Any]:
    return camel({"source": source, "clips": list(clips) if clips else None,
                  "joint_map": dict(joint_map) if joint_map else None, "options": options})


class Posekit(_Base):
    """The posekit service (sync). Thread-safe; use as a context manager or call close().

    base_url: the service root (``http://localhost:8080``); api_key: a posekit API key; token: an OAuth2 access
    token provider ``token(refresh) -> str`` (called per request, again with refresh=True after a 401); retries of
    429/503 honouring Retry-After (at most max_retry_delay seconds each); cache_bytes: the ETag cache of immutable
    answers (0: off).
    """

    def __init__(self, base_url: str = "http://localhost:8080", *, api_key: Optional[str] = None,
                 token: Optional[TokenProvider] = None, retries: int = 3, max_retry_delay: float = 30.0,
                 cache_bytes: int = 32 << 20, timeout: float = 120.0, headers: Optional[Mapping[str, str]] = None,
                 transport: Optional[httpx.BaseTransport] = None, event_hooks: Optional[Dict[str, List[Callable[..., Any]]]] = None) -> None:
        super().__init__(base_url, api_key, token, retries, max_retry_delay, cache_bytes, headers)
        self.http = httpx.Client(base_url=self.base_url, timeout=timeout, transport=transport,
                                 event_hooks=event_hooks or {})

    def __enter__(self) -> "Posekit":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        self.http.close()

    def asset(self, asset_id: str) -> "Asset":
        return Asset(self, asset_id)

    def upload(self, *files: FileArg) -> Dict[str, Any]:
        """Uploads one asset (a model file and its companions, or one .zip): the summary, plus `created`."""
        response = self.send(Request("POST", f"{API}/assets", files=files_of(files), accept="application/json"))
        return {**response.json(), "created": response.status_code == 201}

    def list(self, limit: Optional[int] = None, after: Optional[str] = None) -> Dict[str, Any]:
        return self.send(Request("GET", f"{API}/assets", query({"limit": limit, "after": after}),
                                 accept="application/json")).json()

    def send(self, request: Request) -> httpx.Response:
        """One request with auth, retries, the ETag cache and errors applied (read whole unless request.stream)."""
        cached = self._cached(request)
        refresh = False
        attempt = 0
        while True:
            req = self.http.build_request(request.method, request.path, params=cast(Any, request.params) or None,
                                          json=request.json, files=request.files,
                                          headers=self._headers(request, refresh, cached[0] if cached else None))
            response = self.http.send(req, stream=request.stream)
            if response.status_code == 304 and cached:
                response.close()
                return httpx.Response(cached[3], headers=cached[2], content=cached[1], request=req)
            if response.is_success:
                if not request.stream:
                    self._keep(request, response)
                return response
            response.read()
            if response.status_code == 401 and self.token and not refresh:
                refresh = True
                continue
            wait = self._wait(response, attempt)
            if wait is None:
                raise error_of(response, retry_after_seconds(response.headers.get("Retry-After")))
            _time.sleep(wait)
            attempt += 1

    def _run(self, spec: Tuple[Request, Parse]) -> Any:
        request, parse = spec
        return parse(self.send(request))


class Asset(_AssetRequests):
    """One asset's resources (sync). Sampling keywords: clip, time | frame + fps | normalized, speed, loop, time_base,
    layers, threshold, root_motion, root_joint, root_components, previous_time, ik (IK makes it a POST)."""

    def __init__(self, client: Posekit, asset_id: str) -> None:
        super().__init__(asset_id)
        self.client = client

    def summary(self) -> Dict[str, Any]:
        return self.client._run(self._summary())

    def delete(self) -> None:
        self.client._run(self._delete())

    def pose(self, space: Optional[Literal["local", "model"]] = None, **sampling: Unpack[Sampling]) -> Dict[str, Any]:
        return self.client._run(self._pose(space, sampling))

    @overload
    def matrices(self, skin: int = 0, format: Literal["json"] = "json", form: Optional[str] = None, **sampling: Unpack[Sampling]) -> Dict[str, Any]: ...
    @overload
    def matrices(self, skin: int, format: Literal["float32"], form: Optional[str] = None, **sampling: Unpack[Sampling]) -> Float32Answer: ...

    def matrices(self, skin: int = 0, format: str = "json", form: Optional[str] = None, **sampling: Unpack[Sampling]) -> Any:
        """Skinning matrices (model × inverse bind, column-major): JSON, or float32 laid out as Posekit-Layout says."""
        return self.client._run(self._matrices(skin, format, form, sampling))

    def skinned(self, mesh: int = 0, format: Literal["json", "float32", "glb"] = "json", attributes: Optional[str] = None,
                skinning: Optional[Literal["authored", "linear", "dq"]] = None, **sampling: Unpack[Sampling]) -> Any:
        return self.client._run(self._skinned(mesh, format, attributes, skinning, sampling))

    def geometry(self, mesh: int = 0) -> Dict[str, Any]:
        return self.client._run(self._get(f"meshes/{mesh}", "application/json", _json, {}))

    def posed_glb(self, compress: Optional[str] = None, coordinates: Optional[Literal["gltf", "file"]] = None,
                  **sampling: Unpack[Sampling]) -> bytes:
        return self.client._run(self._get("posed.glb", "model/gltf-binary", _bytes, {**sampling, "compress": compress, "coordinates": coordinates}))

    def animated_glb(self, clips: Optional[Sequence[str]] = None, fps: Optional[float] = None,
                     tolerance: Optional[float] = None, compress: Optional[str] = None,
                     coordinates: Optional[Literal["gltf", "file"]] = None) -> bytes:
        return self.client._run(self._get("animated.glb", "model/gltf-binary", _bytes,
                                          {"clips": list(clips) if clips else None, "fps": fps, "tolerance": tolerance, "compress": compress, "coordinates": coordinates}))

    def render(self, width: Optional[int] = None, height: Optional[int] = None, view: Optional[str] = None,
               background: Optional[str] = None, **sampling: Unpack[Sampling]) -> bytes:
        return self.client._run(self._get("render.png", "image/png", _bytes,
                                          {**sampling, "width": width, "height": height, "view": view, "background": background}))

    def skeleton(self, nodes: Optional[str] = None, **sampling: Unpack[Sampling]) -> Dict[str, Any]:
        return self.client._run(self._get("skeleton", "application/json", _json, {**sampling, "nodes": nodes}))

    def bounds(self, over: Optional[str] = None, **sampling: Unpack[Sampling]) -> Dict[str, Any]:
        return self.client._run(self._get("bounds", "application/json", _json, {**sampling, "over": over}))

    def bake(self, spec: Mapping[str, Any], format: Literal["ndjson", "binary"] = "ndjson",
             on_start: Optional[Callable[[int], None]] = None) -> Iterator[Any]:
        """Streams the frames as they arrive: dicts (NDJSON) or BakeFrame (binary). on_start(frames) gets the count."""
        response = self.client.send(self._bake(spec, format))
        try:
            if on_start and response.headers.get("Posekit-Frames"):
                on_start(int(response.headers["Posekit-Frames"]))
            if format == "binary":
                reader = BinaryBakeReader()
                for chunk in response.iter_bytes():
                    yield from reader.feed(chunk)
                reader.finish()
            else:
                for line in response.iter_lines():
                    if line.strip():
                        yield json.loads(line)
        finally:
            response.close()

    def retarget(self, source: str, clips: Optional[Sequence[str]] = None, joint_map: Optional[Mapping[str, str]] = None,
                 options: Optional[Mapping[str, Any]] = None) -> Dict[str, Any]:
        return self.client._run(self._post("retarget", _retarget_body(source, clips, joint_map, options)))

    def clips(self, *files: FileArg) -> Dict[str, Any]:
        return self.client._run(self._post("clips", files=files))

    def in_place(self, clip: str, **options: Any) -> Dict[str, Any]:
        return self.client._run(self._post(f"clips/{_quote(clip)}/in-place", camel(options)))


def _quote(segment: str) -> str:
    return quote(segment, safe="")


class AsyncPosekit(_Base):
    """The posekit service (asyncio). Same options as Posekit; `token` may return an awaitable."""

    def __init__(self, base_url: str = "http://localhost:8080", *, api_key: Optional[str] = None,
                 token: Optional[Callable[[bool], Any]] = None, retries: int = 3, max_retry_delay: float = 30.0,
                 cache_bytes: int = 32 << 20, timeout: float = 120.0, headers: Optional[Mapping[str, str]] = None,
                 transport: Optional[httpx.AsyncBaseTransport] = None) -> None:
        super().__init__(base_url, api_key, None, retries, max_retry_delay, cache_bytes, headers)
        self.async_token = token
        self.http = httpx.AsyncClient(base_url=self.base_url, timeout=timeout, transport=transport)

    async def __aenter__(self) -> "AsyncPosekit":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self.http.aclose()

    def asset(self, asset_id: str) -> "AsyncAsset":
        return AsyncAsset(self, asset_id)

    async def upload(self, *files: FileArg) -> Dict[str, Any]:
        response = await self.send(Request("POST", f"{API}/assets", files=files_of(files), accept="application/json"))
        return {**response.json(), "created": response.status_code == 201}

    async def list(self, limit: Optional[int] = None, after: Optional[str] = None) -> Dict[str, Any]:
        return (await self.send(Request("GET", f"{API}/assets", query({"limit": limit, "after": after}),
                                        accept="application/json"))).json()

    async def send(self, request: Request) -> httpx.Response:
        cached = self._cached(request)
        refresh = False
        attempt = 0
        while True:
            headers = self._headers(request, False, cached[0] if cached else None)
            if self.async_token:
                token = self.async_token(refresh)
                if asyncio.iscoroutine(token) or isinstance(token, asyncio.Future):
                    token = await token
                headers["Authorization"] = f"Bearer {token}"
            req = self.http.build_request(request.method, request.path, params=cast(Any, request.params) or None,
                                          json=request.json, files=request.files, headers=headers)
            response = await self.http.send(req, stream=request.stream)
            if response.status_code == 304 and cached:
                await response.aclose()
                return httpx.Response(cached[3], headers=cached[2], content=cached[1], request=req)
            if response.is_success:
                if not request.stream:
                    self._keep(request, response)
                return response
            await response.aread()
            if response.status_code == 401 and self.async_token and not refresh:
                refresh = True
                continue
            wait = self._wait(response, attempt)
            if wait is None:
                raise error_of(response, retry_after_seconds(response.headers.get("Retry-After")))
            await asyncio.sleep(wait)
            attempt += 1

    async def _run(self, spec: Tuple[Request, Parse]) -> Any:
        request, parse = spec
        return parse(await self.send(request))


class AsyncAsset(_AssetRequests):
    """One asset's resources (asyncio); the methods of Asset, awaited."""

    def __init__(self, client: AsyncPosekit, asset_id: str) -> None:
        super().__init__(asset_id)
        self.client = client

    async def summary(self) -> Dict[str, Any]:
        return await self.client._run(self._summary())

    async def delete(self) -> None:
        await self.client._run(self._delete())

    async def pose(self, space: Optional[Literal["local", "model"]] = None, **sampling: Unpack[Sampling]) -> Dict[str, Any]:
        return await self.client._run(self._pose(space, sampling))

    async def matrices(self, skin: int = 0, format: Literal["json", "float32"] = "json", form: Optional[str] = None,
                       **sampling: Unpack[Sampling]) -> Any:
        return await self.client._run(self._matrices(skin, format, form, sampling))

    async def skinned(self, mesh: int = 0, format: Literal["json", "float32", "glb"] = "json",
                      attributes: Optional[str] = None, skinning: Optional[str] = None, **sampling: Unpack[Sampling]) -> Any:
        return await self.client._run(self._skinned(mesh, format, attributes, skinning, sampling))

    async def geometry(self, mesh: int = 0) -> Dict[str, Any]:
        return await self.client._run(self._get(f"meshes/{mesh}", "application/json", _json, {}))

    async def skeleton(self, nodes: Optional[str] = None, **sampling: Unpack[Sampling]) -> Dict[str, Any]:
        return await self.client._run(self._get("skeleton", "application/json", _json, {**sampling, "nodes": nodes}))

    async def bounds(self, over: Optional[str] = None, **sampling: Unpack[Sampling]) -> Dict[str, Any]:
        return await self.client._run(self._get("bounds", "application/json", _json, {**sampling, "over": over}))

    async def posed_glb(self, compress: Optional[str] = None, coordinates: Optional[Literal["gltf", "file"]] = None,
                  **sampling: Unpack[Sampling]) -> bytes:
        return await self.client._run(self._get("posed.glb", "model/gltf-binary", _bytes, {**sampling, "compress": compress, "coordinates": coordinates}))

    async def animated_glb(self, clips: Optional[Sequence[str]] = None, fps: Optional[float] = None,
                           tolerance: Optional[float] = None, compress: Optional[str] = None,
                     coordinates: Optional[Literal["gltf", "file"]] = None) -> bytes:
        return await self.client._run(self._get("animated.glb", "model/gltf-binary", _bytes,
                                                {"clips": list(clips) if clips else None, "fps": fps, "tolerance": tolerance, "compress": compress, "coordinates": coordinates}))

    async def render(self, width: Optional[int] = None, height: Optional[int] = None, view: Optional[str] = None,
                     background: Optional[str] = None, **sampling: Unpack[Sampling]) -> bytes:
        return await self.client._run(self._get("render.png", "image/png", _bytes,
                                                {**sampling, "width": width, "height": height, "view": view, "background": background}))

    async def bake(self, spec: Mapping[str, Any], format: Literal["ndjson", "binary"] = "ndjson") -> AsyncIterator[Any]:
        response = await self.client.send(self._bake(spec, format))
        try:
            if format == "binary":
                reader = BinaryBakeReader()
                async for chunk in response.aiter_bytes():
                    for frame in reader.feed(chunk):
                        yield frame
                reader.finish()
            else:
                async for line in response.aiter_lines():
                    if line.strip():
                        yield json.loads(line)
        finally:
            await response.aclose()

    async def retarget(self, source: str, clips: Optional[Sequence[str]] = None,
                       joint_map: Optional[Mapping[str, str]] = None, options: Optional[Mapping[str, Any]] = None) -> Dict[str, Any]:
        return await self.client._run(self._post("retarget", _retarget_body(source, clips, joint_map, options)))

    async def clips(self, *files: FileArg) -> Dict[str, Any]:
        return await self.client._run(self._post("clips", files=files))

    async def in_place(self, clip: str, **options: Any) -> Dict[str, Any]:
        return await self.client._run(self._post(f"clips/{_quote(clip)}/in-place", camel(options)))
