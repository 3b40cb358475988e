"""The service's JSON answers as the contract describes them: each validated against its operation's response schema
in api-spec/openapi.yaml (JSON Schema 2020-12, as OpenAPI 3.1 uses), so the clients' types and the service agree."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Dict

import httpx
import pytest

jsonschema = pytest.importorskip("jsonschema")
yaml = pytest.importorskip("yaml")

SPEC: Dict[str, Any] = yaml.safe_load((Path(__file__).resolve().parents[3] / "api-spec/openapi.yaml").read_text())


def errors(path: str, method: str, status: int, body: Any) -> list:
    response = SPEC["paths"][path][method]["responses"][str(status)]
    if "$ref" in response:
        response = SPEC["components"]["responses"][response["$ref"].split("/")[-1]]
    content = response["content"]
    schema = (content.get("application/json") or content["application/problem+json"])["schema"]
    root = {"components": SPEC["components"]}
    validator = jsonschema.Draft202012Validator({**schema, **root}, resolver=jsonschema.RefResolver.from_schema(root))
    return [f"{list(e.absolute_path)[:5]}: {e.message[:300]}" for e in validator.iter_errors(body)]


@pytest.fixture(scope="module")
def ids(url: str, assets: Path) -> Dict[str, str]:
    out = {}
    with httpx.Client(base_url=url) as c:
        for name, path in [("fox", "gltf/Fox/Fox.glb"), ("cesium", "gltf/CesiumMan/CesiumMan.glb"), ("figure", "gltf/RiggedFigure/RiggedFigure.glb")]:
            out[name] = c.post("/api/v1/assets", files=[("file", (Path(path).name, (assets / path).read_bytes()))]).json()["id"]
    return out


CASES = [
    ("summary", "get", "/api/v1/assets/{id}", "", None),
    ("list", "get", "/api/v1/assets", None, None),
    ("local pose", "get", "/api/v1/assets/{id}/pose", "/pose?clip=Walk&time=0.3", None),
    ("model pose, root motion", "get", "/api/v1/assets/{id}/pose", "/pose?clip=Walk&time=0.3&space=model&rootMotion=extract&previousTime=0.2", None),
    ("blend", "get", "/api/v1/assets/{id}/pose", "/pose?layer=clip:Walk;weight:0.7&layer=clip:Run;weight:0.3&normalized=0.4", None),
    ("matrices", "get", "/api/v1/assets/{id}/skins/{skin}/matrices", "/skins/0/matrices?clip=Walk&time=0.3", None),
    ("dual quaternions", "get", "/api/v1/assets/{id}/skins/{skin}/matrices", "/skins/0/matrices?clip=Walk&time=0.3&form=dualQuaternion", None),
    ("geometry", "get", "/api/v1/assets/{id}/meshes/{mesh}", "/meshes/0", None),
    ("skinned", "get", "/api/v1/assets/{id}/meshes/{mesh}/skinned", "/meshes/0/skinned?clip=Run&time=0.3", None),
    ("skeleton", "get", "/api/v1/assets/{id}/skeleton", "/skeleton?clip=Walk&time=0.3", None),
    ("bounds over a clip", "get", "/api/v1/assets/{id}/bounds", "/bounds?clip=Walk&over=clip", None),
    ("IK", "post", "/api/v1/assets/{id}/pose", "/pose?space=model",
     {"clip": "Walk", "time": 0.3, "ik": [{"type": "aim", "joint": "b_Head_05", "forward": [0, 1, 0], "target": [0, 80, 200]}]}),
    ("in place", "post", "/api/v1/assets/{id}/clips/{clip}/in-place", "/clips/Walk/in-place", {}),
    ("unknown clip", "get", "/api/v1/assets/{id}/pose", "/pose?clip=Jump", None),
    ("two time units", "get", "/api/v1/assets/{id}/pose", "/pose?clip=Walk&time=1&frame=2&fps=30", None),
]


@pytest.mark.parametrize("name,method,path,route,body", CASES, ids=[c[0] for c in CASES])
def test_answer_matches_the_contract(url: str, ids: Dict[str, str], name: str, method: str, path: str, route: Any, body: Any) -> None:
    target = "/api/v1/assets" if route is None else f"/api/v1/assets/{ids['fox']}{route}"
    with httpx.Client(base_url=url) as c:
        r = c.request(method.upper(), target, json=body)
    assert r.status_code in (200, 201, 400, 404)
    assert errors(path, method, r.status_code, r.json()) == []


def test_retarget_answer_matches_the_contract(url: str, ids: Dict[str, str]) -> None:
    with httpx.Client(base_url=url) as c:
        r = c.post(f"/api/v1/assets/{ids['figure']}/retarget", json={"source": ids["cesium"]})
    assert r.status_code in (200, 201)
    assert errors("/api/v1/assets/{id}/retarget", "post", r.status_code, r.json()) == []


def test_a_matrix_answer_is_not_a_dual_quaternion_answer(url: str, ids: Dict[str, str]) -> None:
    # the matrices route answers oneOf SkinMatrices | SkinDualQuaternions: each answer must match exactly one
    with httpx.Client(base_url=url) as c:
        body = c.get(f"/api/v1/assets/{ids['fox']}/skins/0/matrices?clip=Walk&time=0.3").json()
    root = {"components": SPEC["components"]}
    dq = jsonschema.Draft202012Validator({"$ref": "#/components/schemas/SkinDualQuaternions", **root},
                                         resolver=jsonschema.RefResolver.from_schema(root))
    assert not dq.is_valid(body)
