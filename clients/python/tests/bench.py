"""What the client adds to a request: the same requests, interleaved, through bare httpx and through the client
(ETag cache off). Needs POSEKIT_URL and Fox.glb uploaded. Not a test (pytest collects test_*.py only)."""
import os
import statistics
import time

import httpx
import numpy as np

from posekit import Posekit

url = os.environ["POSEKIT_URL"]
fox = os.environ.get("FOX_ID", "d97044e701822bac5a62696459b27d7b375aada5de8574ed4362edbba94771f7")
n = int(os.environ.get("N", "400"))
with Posekit(url, cache_bytes=0) as c, httpx.Client(base_url=url) as bare_http:
    a = c.asset(fox)
    for name, accept, via_client, parse in [
        ("float32 matrices", "application/octet-stream", lambda t: a.matrices(0, "float32", clip="Run", time=t, loop="repeat"),
         lambda r: np.frombuffer(r.content, dtype="<f4")),
        ("JSON matrices", "application/json", lambda t: a.matrices(0, clip="Run", time=t, loop="repeat"), lambda r: r.json()),
    ]:
        bare, client = [], []
        for i in range(n):
            t = 0.001 * i + 0.0001
            t0 = time.perf_counter()
            parse(bare_http.get(f"/api/v1/assets/{fox}/skins/0/matrices",
                                params={"clip": "Run", "time": t + 0.00005, "loop": "repeat"}, headers={"Accept": accept}))
            bare.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            via_client(t)
            client.append(time.perf_counter() - t0)
        b, k = statistics.median(bare) * 1e3, statistics.median(client) * 1e3
        print(f"{name}: bare httpx median {b:.3f} ms, client median {k:.3f} ms, difference {k - b:.3f} ms (n={n})")
