#!/usr/bin/env python3
"""Uploads that try to take a replica down (issue 38), from outside, on raw sockets; one phase per call:

  upload-memory.py BASE PID large N MB raw|multipart   N concurrent uploads of MB random megabytes each
  upload-memory.py BASE PID models N MB                N concurrent distinct glTF models of about MB megabytes, while
                                                       one client (a process of its own, nice -10: the `reader`
                                                       phase) GETs an asset's summary every 20 ms on a kept-alive
                                                       connection and times each answer (p50, p99, the slowest,
                                                       how many took 100 ms or more, and the first, whose connection
                                                       is made in the same instant as the uploads')
  upload-memory.py BASE PID trickle N                  N connections declare a 10 GB body (refused at once) and go on
                                                       trickling a byte every 0.5 s: how long after its answer each
                                                       connection is closed

Prints one JSON line: the answers by status (a reset or an early close without an answer is "reset"), the service's
peak resident memory while the phase ran (PID's VmRSS, and RssAnon: without the pages of the files it maps, sampled
every 100 ms), and the phase's own figures.
"""
import json
import os
import socket
import struct
import sys
import threading
import time
import urllib.parse

BASE, PID, PHASE = sys.argv[1], int(sys.argv[2]), sys.argv[3]
HOST, PORT = urllib.parse.urlsplit(BASE).hostname, urllib.parse.urlsplit(BASE).port
MB = 1 << 20
CHUNK = os.urandom(MB)


def rss(field="VmRSS"):
    """PID's resident memory, bytes: VmRSS (all of it), or RssAnon (without the pages of files it maps, which the
    kernel's page cache holds and reclaims)."""
    with open(f"/proc/{PID}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    return 0


class Sampler(threading.Thread):
    def __init__(self):
        super().__init__(daemon=True)
        self.peak, self.peak_anon, self.stop = 0, 0, False

    def run(self):
        while not self.stop:
            try:
                self.peak = max(self.peak, rss())
                self.peak_anon = max(self.peak_anon, rss("RssAnon"))
            except OSError:
                return  # the process is gone
            time.sleep(0.1)


def read_head(sock, timeout):
    """What arrives on sock up to the end of an answer's head (less when the connection ends first)."""
    sock.settimeout(timeout)
    data = b""
    try:
        while b"\r\n\r\n" not in data:
            more = sock.recv(65536)
            if not more:
                break
            data += more
    except OSError:
        pass
    return data


def status_of(sock):
    """The status of the answer on sock, 'reset' when the connection ends without one."""
    data = read_head(sock, 600)
    if not data.startswith(b"HTTP/1.1 "):
        return "reset"
    code = data[9:12].decode()
    if code == "503":
        return code + (" Retry-After" if b"\r\nretry-after:" in data.lower() else " no Retry-After")
    return code


def post(path, headers, pieces):
    """Sends a POST with the given body pieces (bytes or memoryviews); its status."""
    sock = socket.create_connection((HOST, PORT))
    try:
        head = f"POST {path} HTTP/1.1\r\nHost: {HOST}\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers.items())
        sock.sendall((head + "\r\n").encode())
        for p in pieces:
            sock.sendall(p)
    except OSError:
        pass  # refused and closed before the whole body went: the answer says why
    try:
        return status_of(sock)
    finally:
        sock.close()


def random_body(n, mb):
    prefix = f"upload {n} ".encode()
    yield prefix
    for _ in range(mb):
        yield CHUNK
    return


def large(n, mb, mode):
    size = len(f"upload {n} ".encode()) + mb * MB
    if mode == "raw":
        return post(f"/api/v1/assets?filename=random-{n}.glb",
                    {"Content-Type": "application/octet-stream", "Content-Length": size}, random_body(n, mb))
    boundary = f"posekitLoad{n:06d}"
    head = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"random-{n}.glb\"\r\n"
            f"Content-Type: application/octet-stream\r\n\r\n").encode()
    tail = f"\r\n--{boundary}--\r\n".encode()

    def body():
        yield head
        yield from random_body(n, mb)
        yield tail
    return post("/api/v1/assets", {"Content-Type": f"multipart/form-data; boundary={boundary}",
                                   "Content-Length": len(head) + size + len(tail)}, body())


def model_pieces(mb):
    """A glTF binary of one mesh of about mb megabytes of positions; the first float varies per upload."""
    triangles = max(1, mb * MB // 36)
    block = struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0)
    positions = block * triangles
    doc = {"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
           "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
           "buffers": [{"byteLength": len(positions)}],
           "bufferViews": [{"buffer": 0, "byteLength": len(positions)}],
           "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3 * triangles, "type": "VEC3",
                          "min": [-1, 0, 0], "max": [1, 1, 0]}]}
    js = json.dumps(doc).encode()
    js += b" " * (-len(js) % 4)
    total = 12 + 8 + len(js) + 8 + len(positions)
    header = struct.pack("<4sII", b"glTF", 2, total) + struct.pack("<I4s", len(js), b"JSON") + js \
        + struct.pack("<I4s", len(positions), b"BIN\0")
    return header, memoryview(positions), total


def model(n, pieces):
    header, positions, total = pieces
    first = struct.pack("<f", -n / 1e6)  # distinct content, within min/max
    return post(f"/api/v1/assets?filename=model-{n}.glb",
                {"Content-Type": "application/octet-stream", "Content-Length": total},
                [header, first, positions[4:]])


def trickle(n):
    sock = socket.create_connection((HOST, PORT))
    sock.sendall(f"POST /api/v1/assets?filename=a.glb HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: "
                 f"application/octet-stream\r\nContent-Length: 10000000000\r\n\r\nglTF".encode())
    data = read_head(sock, 30)
    answered = time.monotonic()
    status = data[9:12].decode() if data.startswith(b"HTTP/1.1 ") else "reset"
    closed = None
    sock.settimeout(0.5)
    while time.monotonic() - answered < 30:
        try:
            sock.send(b"x")
        except OSError:
            closed = time.monotonic()
            break
        try:
            if sock.recv(4096) == b"":
                closed = time.monotonic()
                break
        except socket.timeout:
            pass
        except OSError:
            closed = time.monotonic()
            break
    sock.close()
    return status, (closed - answered) if closed else None


def run_all(work):
    results, threads = [None] * len(work), []
    for i, w in enumerate(work):
        t = threading.Thread(target=lambda i=i, w=w: results.__setitem__(i, w()))
        t.start()
        threads.append(t)
    for t in threads:
        t.join()
    return results


def counts(statuses):
    out = {}
    for s in statuses:
        out[s] = out.get(s, 0) + 1
    return dict(sorted(out.items()))


def main():
    sampler = Sampler()
    before = rss()
    sampler.start()
    start = time.monotonic()
    report = {"phase": " ".join(sys.argv[3:]), "rss_before_mb": round(before / MB)}
    if PHASE == "large":
        n, mb, mode = int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
        report["answers"] = counts(run_all([lambda i=i: large(i, mb, mode) for i in range(n)]))
    elif PHASE == "models":
        n, mb = int(sys.argv[4]), int(sys.argv[5])
        pieces = model_pieces(mb)

        # a normal client meanwhile: the summary of an asset it uploaded before, on a kept-alive connection
        import http.client
        header, positions, total = model_pieces(1)
        conn = http.client.HTTPConnection(HOST, PORT)
        conn.request("POST", "/api/v1/assets?filename=calm.glb", body=header + bytes(positions),
                     headers={"Content-Type": "application/octet-stream"})
        calm = json.loads(conn.getresponse().read())["id"]

        # the reader is a process of its own at a higher priority (nice -10, so root): a thread here would time this
        # process's own scheduling too (100 sender threads and the interpreter's lock on the one client core)
        import subprocess
        conn.close()
        reader = subprocess.Popen(["nice", "-n", "-10", sys.executable, __file__, BASE, str(PID), "reader", calm],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        report["answers"] = counts(run_all([lambda i=i: model(i, pieces) for i in range(n)]))
        out, _ = reader.communicate(b"")  # its stdin closed: it stops and prints its latencies
        in_order = json.loads(out)
        latencies = sorted(in_order)
        # the first GET makes the reader's connection, in the same instant as the 100 uploads make theirs
        report["get_during"] = {"count": len(latencies), "first_ms": round(1000 * in_order[0], 1),
                                "p50_ms": round(1000 * latencies[len(latencies) // 2], 1),
                                "p99_ms": round(1000 * latencies[min(len(latencies) - 1,
                                                                     int(len(latencies) * 0.99))], 1),
                                "max_ms": round(1000 * latencies[-1], 1),
                                "over_100ms": sum(1 for t in latencies if t >= 0.1)}
    elif PHASE == "reader":
        # GETs the summary of asset argv[4] every 20 ms on a kept-alive connection until stdin closes; prints the
        # latencies (seconds) as a JSON list
        import http.client
        stop = threading.Event()
        threading.Thread(target=lambda: (sys.stdin.read(), stop.set()), daemon=True).start()
        conn, times = http.client.HTTPConnection(HOST, PORT), []
        while not stop.is_set():
            t0 = time.monotonic()
            conn.request("GET", f"/api/v1/assets/{sys.argv[4]}")
            conn.getresponse().read()
            times.append(time.monotonic() - t0)
            time.sleep(0.02)
        print(json.dumps(times))
        return
    elif PHASE == "trickle":
        n = int(sys.argv[4])
        results = run_all([lambda: trickle(0) for _ in range(n)])
        closes = sorted(c for _, c in results if c is not None)
        report["answers"] = counts(s for s, _ in results)
        report["closed"] = len(closes)
        report["close_after_answer_s"] = {"median": round(closes[len(closes) // 2], 2) if closes else None,
                                          "max": round(closes[-1], 2) if closes else None}
    sampler.stop = True
    sampler.join()
    report["seconds"] = round(time.monotonic() - start, 1)
    report["rss_peak_mb"] = round(sampler.peak / MB)
    report["rss_anon_peak_mb"] = round(sampler.peak_anon / MB)
    print(json.dumps(report))


main()
