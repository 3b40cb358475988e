"""What the sync and async clients share: requests as values, answers parsed, errors, layouts, the ETag cache."""
from __future__ import annotations

import email.utils
import json
import re
import struct
import time as _time
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Literal, Mapping, Optional, Sequence, Tuple, TypedDict, Union

import httpx

try:  # numpy arrays for binary answers when numpy is there; array('f') otherwise
    import numpy as _np
except ImportError:  # pragma: no cover - exercised where numpy is absent
    _np = None  # type: ignore[assignment]
from array import array as _array

API = "/api/v1"

Loop = Literal["clamp", "repeat", "pingpong"]
RootComponent = Literal["horizontal", "vertical", "yaw", "rotation"]


class BlendLayer(TypedDict, total=False):
    clip: str
    weight: float
    mode: Literal["normal", "additive"]
    time: float
    normalized: float
    frame: float
    fps: float
    speed: float
    loop: Loop
    mask: List[str]
    reference: str


class Sampling(TypedDict, total=False):
    """The sampling parameters (the contract's SamplingRequest), in Python spelling."""

    clip: Union[str, int]
    time: float
    frame: float
    fps: float
    normalized: float
    speed: float
    loop: Loop
    time_base: Literal["clip", "scene"]
    layers: List[BlendLayer]
    threshold: float
    root_motion: Literal["none", "extract"]
    root_joint: str
    root_components: List[RootComponent]
    previous_time: float
    ik: List[Dict[str, Any]]


_CAMEL = {"root_motion": "rootMotion", "root_joint": "rootJoint", "root_components": "rootComponents",
          "previous_time": "previousTime", "time_base": "timeBase", "joint_map": "jointMap", "time_unit": "timeUnit",
          "matrix_layout": "matrixLayout", "foot_lock": "footLock", "keep_translations": "keepTranslations"}


def camel(values: Mapping[str, Any]) -> Dict[str, Any]:
    """snake_case keys (ours) to the contract's camelCase, recursively; None values dropped."""
    out: Dict[str, Any] = {}
    for k, v in values.items():
        if v is None:
            continue
        if isinstance(v, Mapping):
            v = camel(v)
        elif isinstance(v, list):
            v = [camel(x) if isinstance(x, Mapping) else x for x in v]
        out[_CAMEL.get(k, k)] = v
    return out


class PosekitError(Exception):
    """A failed request: the RFC 9457 problem the service answered with (or the status alone)."""

    def __init__(self, status: int, problem: Mapping[str, Any], request_id: Optional[str] = None,
                 retry_after: Optional[float] = None) -> None:
        self.status = status
        self.problem: Dict[str, Any] = dict(problem)
        self.title: str = str(problem.get("title") or f"HTTP {status}")
        self.detail: str = str(problem.get("detail") or self.title)
        self.type: str = str(problem.get("type") or "about:blank")
        self.instance: Optional[str] = problem.get("instance")
        self.request_id = request_id
        self.retry_after = retry_after
        super().__init__(f"{status} {self.title}: {self.detail}")


@dataclass(frozen=True)
class LayoutBlock:
    name: str
    count: int
    components: int
    offset: int


def parse_layout(layout: str) -> List[List[LayoutBlock]]:
    """A `Posekit-Layout` header: `;` separates primitives, `,` blocks, each `name:COUNTxCOMPONENTS`."""
    offset = 0
    groups: List[List[LayoutBlock]] = []
    for group in layout.split(";"):
        blocks = []
        for block in filter(None, group.split(",")):
            m = re.fullmatch(r"([A-Za-z]+):(\d+)x(\d+)", block.strip())
            if not m:
                raise ValueError(f"unreadable Posekit-Layout block {block!r} in {layout!r}")
            b = LayoutBlock(m.group(1), int(m.group(2)), int(m.group(3)), offset)
            offset += b.count * b.components
            blocks.append(b)
        groups.append(blocks)
    return groups


def floats(data: bytes) -> Any:
    """Little-endian float32 bytes as a numpy array (when numpy is there) or array('f')."""
    if _np is not None:
        return _np.frombuffer(data, dtype="<f4")
    a = _array("f")
    a.frombytes(data)
    if struct.pack("=f", 1.0) != struct.pack("<f", 1.0):  # pragma: no cover - big-endian hosts
        a.byteswap()
    return a


@dataclass
class Float32Answer:
    """A binary answer and what its `Posekit-Layout` header says it holds."""

    layout: str
    groups: List[List[LayoutBlock]]
    data: Any

    def block(self, primitive: int, name: str) -> Any:
        for b in self.groups[primitive]:
            if b.name == name:
                return self.data[b.offset:b.offset + b.count * b.components]
        raise KeyError(f"no block {name!r} in primitive {primitive} of {self.layout!r}")


def float32_answer(response: httpx.Response) -> Float32Answer:
    layout = response.headers.get("Posekit-Layout")
    if not layout:
        raise ValueError("a binary answer without a Posekit-Layout header")
    groups = parse_layout(layout)
    data = floats(response.content)
    expected = sum(b.count * b.components for g in groups for b in g)
    if expected != len(data):
        raise ValueError(f"Posekit-Layout {layout!r} describes {expected} floats, the answer holds {len(data)}")
    return Float32Answer(layout, groups, data)


def error_of(response: httpx.Response, retry_after: Optional[float]) -> PosekitError:
    try:
        problem = json.loads(response.content)
        if not isinstance(problem, dict):
            problem = {"detail": response.text}
    except ValueError:
        problem = {"title": response.reason_phrase or f"HTTP {response.status_code}",
                   "detail": response.text[:500] or response.reason_phrase}
    return PosekitError(response.status_code, problem, response.headers.get("X-Request-Id"), retry_after)


def retry_after_seconds(value: Optional[str]) -> Optional[float]:
    """Retry-After: delta-seconds or an HTTP date."""
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, min(when.timestamp() - _time.time(), 86400.0))


FileArg = Union[str, Path, Tuple[str, bytes]]


def files_of(files: Sequence[FileArg]) -> List[Tuple[str, Tuple[str, bytes, str]]]:
    """Upload parts named `file`: paths, or (name, bytes) pairs."""
    if not files:
        raise ValueError("an upload needs at least one file")
    parts = []
    for f in files:
        if isinstance(f, tuple):
            name, data = f
        else:
            path = Path(f)
            name, data = path.name, path.read_bytes()
        parts.append(("file", (name, data, "application/octet-stream")))
    return parts


@dataclass
class Request:
    method: str
    path: str
    params: List[Tuple[str, str]] = field(default_factory=list)
    json: Any = None
    files: Optional[List[Tuple[str, Tuple[str, bytes, str]]]] = None
    accept: Optional[str] = None
    cacheable: bool = False
    stream: bool = False


def layer_parameter(layer: Mapping[str, Any]) -> str:
    """A blend layer in the query grammar: `clip:Walk;weight:0.7;mask:a|b`."""
    return ";".join(f"{k}:{'|'.join(map(str, v)) if isinstance(v, list) else _text(v)}"
                    for k, v in layer.items() if v is not None)


def _text(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def query(values: Mapping[str, Any]) -> List[Tuple[str, str]]:
    params: List[Tuple[str, str]] = []
    for k, v in camel(values).items():
        if k == "layers":
            params.extend(("layer", layer_parameter(layer)) for layer in v)
        elif isinstance(v, list):
            params.append((k, ",".join(map(str, v))))
        else:
            params.append((k, _text(v)))
    return params


def sampling_request(path: str, sampling: Mapping[str, Any], extra: Mapping[str, Any], accept: str) -> Request:
    """GET with the sampling as a query (cacheable), or POST with it as a body when it has IK (POST only)."""
    if sampling.get("ik") is None:
        return Request("GET", path, query({**sampling, **extra}), accept=accept, cacheable=True)
    return Request("POST", path, query(extra), json=camel(sampling), accept=accept)


class EtagCache:
    """The immutable answers by URL and Accept, least recently used dropped past `limit` bytes."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.size = 0
        self.entries: "OrderedDict[str, Tuple[str, bytes, httpx.Headers, int]]" = OrderedDict()

    def get(self, key: str) -> Optional[Tuple[str, bytes, httpx.Headers, int]]:
        entry = self.entries.get(key)
        if entry is not None:
            self.entries.move_to_end(key)
        return entry

    def put(self, key: str, etag: str, body: bytes, headers: httpx.Headers, status: int) -> None:
        if len(body) > self.limit:
            return
        old = self.entries.pop(key, None)
        if old is not None:
            self.size -= len(old[1])
        self.entries[key] = (etag, body, headers, status)
        self.size += len(body)
        while self.size > self.limit:
            _, dropped = self.entries.popitem(last=False)
            self.size -= len(dropped[1])


TokenProvider = Callable[[bool], str]


class BakeHeader(TypedDict, total=False):
    format: str
    version: int
    frames: int
    frameFloats: int
    timesOffset: int
    dataOffset: int
    matrixLayout: str
    clip: Optional[str]
    loop: str
    timeUnit: str
    skinning: str
    blocks: List[Dict[str, Any]]


@dataclass
class BakeFrame:
    """One frame of a binary bake: its floats, and the header that says where each output block is."""

    frame: int
    time: float
    data: Any
    header: BakeHeader

    def block(self, output: str, skin: Optional[int] = None, mesh: Optional[int] = None,
              primitive: Optional[int] = None) -> Any:
        for b in self.header["blocks"]:
            if (b["output"] == output and (skin is None or b.get("skin") == skin)
                    and (mesh is None or b.get("mesh") == mesh) and (primitive is None or b.get("primitive") == primitive)):
                return self.data[b["offset"]:b["offset"] + b["count"] * b["components"]]
        raise KeyError(f"the bake has no block {output!r} skin={skin} mesh={mesh} primitive={primitive}")


class BinaryBakeReader:
    """Turns the byte chunks of a binary bake into frames as they arrive."""

    def __init__(self) -> None:
        self.buffer = bytearray()
        self.header: Optional[BakeHeader] = None
        self.times: Any = None
        self.next_frame = 0

    def feed(self, chunk: bytes) -> List[BakeFrame]:
        self.buffer += chunk
        frames: List[BakeFrame] = []
        if self.header is None:
            if len(self.buffer) < 12:
                return frames
            if bytes(self.buffer[:4]) != b"PKBK":
                raise ValueError(f"not a posekit bake (magic {bytes(self.buffer[:4])!r})")
            version, length = struct.unpack_from("<II", self.buffer, 4)
            if version != 1:
                raise ValueError(f"bake layout version {version}; this client reads version 1")
            header_end = 12 + length
            if len(self.buffer) < header_end:
                return frames
            header: BakeHeader = json.loads(bytes(self.buffer[12:header_end]))
            times_end = header["timesOffset"] + 4 * header["frames"]
            if len(self.buffer) < max(times_end, header["dataOffset"]):
                return frames
            self.times = floats(bytes(self.buffer[header["timesOffset"]:times_end]))
            del self.buffer[:header["dataOffset"]]
            self.header = header
        size = 4 * self.header["frameFloats"]
        while len(self.buffer) >= size and self.next_frame < self.header["frames"]:
            data = floats(bytes(self.buffer[:size]))
            del self.buffer[:size]
            frames.append(BakeFrame(self.next_frame, float(self.times[self.next_frame]), data, self.header))
            self.next_frame += 1
        return frames

    def finish(self) -> None:
        if self.header is None or self.next_frame != self.header["frames"]:
            raise ValueError("the bake stream ended early")
