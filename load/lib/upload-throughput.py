#!/usr/bin/env python3
"""Concurrent uploads of new content (the client half of load/upload-throughput.sh).

  upload-throughput.py BASE_URL ASSETS_DIR [CLIENTS (1,4,16)] [SMALL_TOTAL (192)] [LARGE_TOTAL (48)] [WARMUP (48)]

For a small asset (gltf/RiggedSimple, 15 KB) and a large one (gltf/BrainStem, 3.2 MB) and each client count N in
CLIENTS: N threads, each on a kept-alive connection of its own, upload TOTAL/N distinct variants of the asset as raw
POST /api/v1/assets?filename=NAME (application/octet-stream), all starting together. Every variant is new content
(its JSON chunk's asset.extras holds a unique 8-digit number, so each has its own id and parses to the same model),
so every answer is a 201: a parse and a durable store. Nothing is deleted (a DELETE's sync would mix with the
uploads'). WARMUP uploads of each asset (half one at a time, half on 4 clients) go first, unrecorded.
Reports per phase: uploads/s (answers over the phase's wall time), median and p90 latency in ms, answers other than
201, and the disk's flush requests per upload (from /sys/block/DISK/stat, DISK from $DISK, default vda: every
journal commit of ext4 flushes the disk cache, so this counts commits, plus whatever else on the machine flushes
meanwhile). One JSON object per phase on stdout.
"""
import http.client, itertools, json, os, statistics, struct, sys, threading, time, urllib.parse

SMALL = "gltf/RiggedSimple/RiggedSimple.glb"
LARGE = "gltf/BrainStem/BrainStem.glb"
PLACEHOLDER = "00000000"
counter = itertools.count(1)
counter_lock = threading.Lock()


def variant_maker(path):
    """A function k -> the GLB at path with asset.extras.posekitBench = k (8 digits), every length fixed."""
    data = open(path, "rb").read()
    magic, version, length = struct.unpack_from("<4sII", data, 0)
    assert magic == b"glTF" and version == 2 and length == len(data), "not a glTF 2.0 binary: " + path
    clen, ctype = struct.unpack_from("<I4s", data, 12)
    assert ctype == b"JSON"
    doc = json.loads(data[20:20 + clen])
    doc.setdefault("asset", {}).setdefault("extras", {})["posekitBench"] = PLACEHOLDER
    chunk = json.dumps(doc, separators=(",", ":")).encode()
    chunk += b" " * (-len(chunk) % 4)
    rest = data[20 + clen:]
    head = struct.pack("<4sII", b"glTF", 2, 12 + 8 + len(chunk) + len(rest)) + struct.pack("<I4s", len(chunk), b"JSON")
    at = chunk.index(PLACEHOLDER.encode())

    def make(k):
        return head + chunk[:at] + b"%08d" % k + chunk[at + 8:] + rest
    return make


def flushes(disk):
    try:
        return int(open(f"/sys/block/{disk}/stat").read().split()[15])
    except (OSError, IndexError, ValueError):
        return None


def phase(base, name, make, clients, total):
    """Uploads total distinct variants from `clients` threads; returns (wall s, latencies ms, statuses)."""
    u = urllib.parse.urlsplit(base)
    per = total // clients
    bodies = [[make(next(counter)) for _ in range(per)] for _ in range(clients)]
    lat, statuses, lock = [], [], threading.Lock()
    start = threading.Barrier(clients + 1)

    def run(mine):
        conn = http.client.HTTPConnection(u.hostname, u.port, timeout=120)
        start.wait()
        for body in mine:
            t0 = time.perf_counter()
            conn.request("POST", "/api/v1/assets?filename=" + urllib.parse.quote(name), body=body,
                         headers={"Content-Type": "application/octet-stream"})
            r = conn.getresponse()
            r.read()
            ms = (time.perf_counter() - t0) * 1000
            with lock:
                lat.append(ms)
                statuses.append(r.status)
        conn.close()

    threads = [threading.Thread(target=run, args=(b,)) for b in bodies]
    for t in threads:
        t.start()
    start.wait()
    t0 = time.perf_counter()
    for t in threads:
        t.join()
    return time.perf_counter() - t0, lat, statuses


def main():
    base, root = sys.argv[1], sys.argv[2]
    clients = [int(c) for c in (sys.argv[3] if len(sys.argv) > 3 else "1,4,16").split(",")]
    totals = {"small": int(sys.argv[4]) if len(sys.argv) > 4 else 192,
              "large": int(sys.argv[5]) if len(sys.argv) > 5 else 48}
    warmup = int(sys.argv[6]) if len(sys.argv) > 6 else 48
    disk = os.environ.get("DISK", "vda")
    assets = {"small": os.path.join(root, SMALL), "large": os.path.join(root, LARGE)}
    makers = {k: variant_maker(p) for k, p in assets.items()}
    for size, path in assets.items():
        name = os.path.basename(path)
        phase(base, name, makers[size], 1, warmup // 2)
        phase(base, name, makers[size], 4, warmup // 2)
    for size, path in assets.items():
        name = os.path.basename(path)
        for n in clients:
            f0 = flushes(disk)
            wall, lat, statuses = phase(base, name, makers[size], n, totals[size])
            f1 = flushes(disk)
            lat.sort()
            print(json.dumps({
                "asset": size, "file": name, "clients": n, "uploads": len(lat),
                "uploads_per_s": round(len(lat) / wall, 1),
                "median_ms": round(statistics.median(lat), 2),
                "p90_ms": round(lat[min(len(lat) - 1, int(0.9 * len(lat)))], 2),
                "not_201": sum(1 for s in statuses if s != 201),
                "flushes_per_upload": None if f0 is None or f1 is None else round((f1 - f0) / len(lat), 2),
            }), flush=True)


if __name__ == "__main__":
    main()
