#!/usr/bin/env python3
"""Upload + parse time per conformance asset over HTTP (the client half of load/upload-bench.sh).

  upload-bench.py BASE_URL ASSETS_DIR ROUNDS WARMUPS [--timers]

Each upload is one raw POST /api/v1/assets?filename=NAME (Content-Type: application/octet-stream) on a kept-alive
connection, timed from the first byte sent to the last byte of the answer read (time.perf_counter), followed by an
untimed DELETE of the id it answered, so that the next POST of the same bytes is new content to the service (201,
a real parse and store) rather than the 200 of a stored duplicate. The rounds are interleaved (round r uploads every
asset once) so that noise spreads over all assets alike; WARMUPS rounds are not recorded. An asset the service
refuses (4xx) is reported as "-" with the status. With --timers (posekit), each recorded upload is followed, untimed,
by reads of posekit's own timers (/actuator/metrics: posekit.import.duration of uploads, posekit.store.duration of
stage and commit), whose growth is that upload's parse, stage and commit time. Prints one JSON object per asset
(name, bytes, status, median and all samples in ms, and the median parse, stage and commit ms) on stdout.
"""
import http.client, io, json, os, statistics, sys, time, urllib.parse, zipfile

MODEL_EXT = (".glb", ".gltf", ".dae", ".fbx", ".bvh", ".x", ".iqm", ".md5mesh")


def assets(root):
    """(label, file name, bytes) for each model file under root, plus the MD5 mesh as a zip."""
    out = []
    for fmt in sorted(os.listdir(root)):
        if not os.path.isdir(os.path.join(root, fmt)):
            continue
        for name in sorted(os.listdir(os.path.join(root, fmt))):
            d = os.path.join(root, fmt, name)
            if not os.path.isdir(d):
                continue
            for f in sorted(os.listdir(d)):
                if f.lower().endswith(MODEL_EXT):
                    data = open(os.path.join(d, f), "rb").read()
                    out.append((f"{fmt}/{f}", f, data))
                    if f.lower().endswith(".md5mesh"):
                        buf = io.BytesIO()
                        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
                            for g in sorted(os.listdir(d)):
                                if g.lower().endswith((".md5mesh", ".md5anim")):
                                    z.write(os.path.join(d, g), g)
                        out.append((f"{fmt}/{name}.zip", name + ".zip", buf.getvalue()))
    return out


TIMERS = {"parse": "posekit.import.duration?tag=source:upload", "stage": "posekit.store.duration?tag=op:stage",
          "commit": "posekit.store.duration?tag=op:commit"}


def timer_totals(conn):
    """The total ms each of TIMERS has recorded so far (0 before its first record)."""
    out = {}
    for key, path in TIMERS.items():
        conn.request("GET", "/actuator/metrics/" + path)
        r = conn.getresponse()
        body = r.read()
        total = 0.0
        if r.status == 200:
            total = 1000 * next(m["value"] for m in json.loads(body)["measurements"] if m["statistic"] == "TOTAL_TIME")
        out[key] = total
    return out


def main():
    base, root, rounds, warmups = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    with_timers = "--timers" in sys.argv[5:]
    u = urllib.parse.urlsplit(base)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=60)
    items = assets(root)
    samples = {label: [] for label, _, _ in items}
    parts = {label: {key: [] for key in TIMERS} for label, _, _ in items}
    totals = timer_totals(conn) if with_timers else None
    status = {}
    for r in range(warmups + rounds):
        for label, fname, data in items:
            if status.get(label, 201) >= 400:
                continue
            path = "/api/v1/assets?filename=" + urllib.parse.quote(fname)
            t0 = time.perf_counter()
            conn.request("POST", path, body=data, headers={"Content-Type": "application/octet-stream"})
            resp = conn.getresponse()
            body = resp.read()
            ms = (time.perf_counter() - t0) * 1000
            status[label] = resp.status
            if resp.status >= 400:
                print(f"{label}: {resp.status} {body[:200]!r}", file=sys.stderr)
                continue
            if resp.status != 201:
                sys.exit(f"{label}: expected 201 after a DELETE, got {resp.status}")
            if r >= warmups:
                samples[label].append(ms)
            if with_timers:
                now = timer_totals(conn)
                if r >= warmups:
                    for key in TIMERS:
                        parts[label][key].append(now[key] - totals[key])
                totals = now
            aid = json.loads(body)["id"]
            conn.request("DELETE", "/api/v1/assets/" + aid)
            d = conn.getresponse(); d.read()
            if d.status != 204:
                sys.exit(f"{label}: DELETE answered {d.status}")
    for label, fname, data in items:
        s = samples[label]
        row = {"asset": label, "bytes": len(data), "status": status.get(label),
               "median_ms": round(statistics.median(s), 2) if s else None,
               "samples_ms": [round(x, 2) for x in s]}
        for key in TIMERS:
            p = parts[label][key]
            row[key + "_median_ms"] = round(statistics.median(p), 2) if p else None
        print(json.dumps(row))


if __name__ == "__main__":
    main()
