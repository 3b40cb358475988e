#!/usr/bin/env bash
# Throughput of concurrent uploads of new content, on posekit and (optionally) the peer.
#   load/upload-throughput.sh [posekit|peer|both]        (default posekit)
# Starts the service fresh under `taskset -c SERVICE_CPUS` (1) with an empty store, runs load/lib/upload-throughput.py
# under `taskset -c CLIENT_CPUS` (0): for a small (RiggedSimple.glb, 15 KB) and a large asset (BrainStem.glb, 3.2 MB)
# and 1, 4 and 16 concurrent clients (CLIENTS), SMALL_TOTAL (192) and LARGE_TOTAL (48) uploads of distinct variants
# (each new content: a 201, a parse and a durable store), after WARMUP (48) unrecorded ones of each. Prints a markdown
# table: uploads/s, median and p90 ms, answers other than 201, disk flushes per upload (ext4 journal commits, and
# anything else on the machine that flushes; DISK, vda); the raw rows in OUT_DIR/upload-throughput-SERVICE.jsonl.
# Environment: JAR (target/posekit.jar; target/aot/posekit.jar starts with its AOT cache) JAVA_HOME (JDK 25) JAVA_OPTS (-Xmx1g) PORT (18097) PEER_PORT (18098)
#   SHARED (../shared) SERVICE_CPUS (1) CLIENT_CPUS (0) OUT_DIR (/tmp) CLIENTS (1,4,16) SMALL_TOTAL LARGE_TOTAL WARMUP
#   STORE_PARENT (the store's parent directory, /tmp: the disk whose fsyncs are measured)
# The peer (SHARED/tools/peer) needs `npm ci` in tools/oracle and tools/peer first; it keeps uploads in memory.
set -euo pipefail
cd "$(dirname "$0")/.."
WHICH=${1:-posekit}
JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}; JAR=${JAR:-target/posekit.jar}
JAVA_OPTS=${JAVA_OPTS:--Xmx1g}; PORT=${PORT:-18097}; PEER_PORT=${PEER_PORT:-18098}; SHARED=${SHARED:-../shared}
SERVICE_CPUS=${SERVICE_CPUS:-1}; CLIENT_CPUS=${CLIENT_CPUS:-0}; OUT_DIR=${OUT_DIR:-/tmp}
CLIENTS=${CLIENTS:-1,4,16}; SMALL_TOTAL=${SMALL_TOTAL:-192}; LARGE_TOTAL=${LARGE_TOTAL:-48}; WARMUP=${WARMUP:-48}
ASSETS=$SHARED/conformance/assets
rm -f "$OUT_DIR"/upload-throughput-posekit.jsonl "$OUT_DIR"/upload-throughput-peer.jsonl
store=$(mktemp -d -p "${STORE_PARENT:-/tmp}"); PID=""
trap '[ -n "$PID" ] && kill "$PID" 2>/dev/null; wait 2>/dev/null; rm -rf "$store"' EXIT

BENCH=upload-throughput; . load/lib/services.sh
run() { # SERVICE BASE
  taskset -c "$CLIENT_CPUS" python3 load/lib/upload-throughput.py "$2" "$ASSETS" "$CLIENTS" "$SMALL_TOTAL" \
    "$LARGE_TOTAL" "$WARMUP" > "$OUT_DIR/upload-throughput-$1.jsonl"
  stop_service
}
run_each "$WHICH" "$store" "clients $CLIENTS"
python3 - "$OUT_DIR" <<'PY'
import json, os, sys
print("| service | asset | clients | uploads | uploads/s | median ms | p90 ms | not 201 | flushes/upload |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
for svc in ("posekit", "peer"):
    p = os.path.join(sys.argv[1], f"upload-throughput-{svc}.jsonl")
    if not os.path.exists(p):
        continue
    for line in open(p):
        r = json.loads(line)
        print(f"| {svc} | {r['file']} | {r['clients']} | {r['uploads']} | {r['uploads_per_s']} | {r['median_ms']} "
              f"| {r['p90_ms']} | {r['not_201']} | {r['flushes_per_upload']} |")
PY
