#!/usr/bin/env python3
"""Writes N distinct variants of a glTF binary: the same file with k*4 more trailing spaces in its JSON chunk
(lengths fixed), so each has its own SHA-256 (= posekit asset id) and parses to the same model.

usage: load/glb-variants.py SOURCE.glb N OUT_DIR   (files OUT_DIR/<name>-<k>.glb, k = 1..N)
"""
import hashlib
import os
import struct
import sys

src, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
data = open(src, "rb").read()
magic, version, length = struct.unpack_from("<4sII", data, 0)
assert magic == b"glTF" and version == 2 and length == len(data), "not a glTF 2.0 binary: " + src
clen, ctype = struct.unpack_from("<I4s", data, 12)
assert ctype == b"JSON", "the first chunk is not JSON"
json_chunk, rest = data[20:20 + clen], data[20 + clen:]
name = os.path.splitext(os.path.basename(src))[0]
seen = set()
for k in range(1, n + 1):
    pad = b" " * (4 * k)  # JSON allows trailing whitespace; chunk lengths stay multiples of 4
    chunk = json_chunk + pad
    body = (struct.pack("<4sII", b"glTF", 2, 12 + 8 + len(chunk) + len(rest))
            + struct.pack("<I4s", len(chunk), b"JSON") + chunk + rest)
    seen.add(hashlib.sha256(body).hexdigest())
    open(os.path.join(out, "%s-%03d.glb" % (name, k)), "wb").write(body)
assert len(seen) == n
