#!/usr/bin/env bash
# Upload + parse time of every conformance asset over HTTP, on posekit and (optionally) the peer.
#   load/upload-bench.sh [posekit|peer|both]        (default posekit)
# Starts the service fresh under `taskset -c SERVICE_CPUS` (1) with an empty store, runs load/lib/upload-bench.py
# under `taskset -c CLIENT_CPUS` (0): WARMUPS (5: soon after start; warm needs 200 on one core, where C2 compiles for
# over a minute) unrecorded then ROUNDS (7) recorded rounds, each round one raw
# POST /api/v1/assets?filename=NAME (application/octet-stream) per asset on a kept-alive connection, timed until the
# whole answer is read, then an untimed DELETE so that the next round's identical upload is new content (201: a
# real parse and a durable store) again. Prints a markdown table of the median ms per asset, and for posekit the
# medians of that upload's parse, stage and commit from its own timers, read after each upload, untimed (all samples
# and the raw rows in OUT, /tmp/upload-bench-SERVICE.jsonl). The MD5 mesh is also sent zipped (the zip path).
# Environment: JAR (target/posekit.jar; target/aot/posekit.jar starts with its AOT cache) JAVA_HOME (JDK 25) JAVA_OPTS (-Xmx1g) PORT (18097) PEER_PORT (18098)
#   SHARED (../shared) ROUNDS (7) WARMUPS (5) SERVICE_CPUS (1) CLIENT_CPUS (0) OUT_DIR (/tmp)
# The peer (SHARED/tools/peer, glTF and COLLADA only) needs `npm ci` in tools/oracle and tools/peer first; the
# assets it refuses show as "-".
set -euo pipefail
cd "$(dirname "$0")/.."
WHICH=${1:-posekit}
JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}; JAR=${JAR:-target/posekit.jar}
JAVA_OPTS=${JAVA_OPTS:--Xmx1g}; PORT=${PORT:-18097}; PEER_PORT=${PEER_PORT:-18098}; SHARED=${SHARED:-../shared}
ROUNDS=${ROUNDS:-7}; WARMUPS=${WARMUPS:-5}; SERVICE_CPUS=${SERVICE_CPUS:-1}; CLIENT_CPUS=${CLIENT_CPUS:-0}
OUT_DIR=${OUT_DIR:-/tmp}
ASSETS=$SHARED/conformance/assets
store=$(mktemp -d); PID=""
trap '[ -n "$PID" ] && kill "$PID" 2>/dev/null; wait 2>/dev/null; rm -rf "$store"' EXIT

BENCH=upload-bench; . load/lib/services.sh
run() { # SERVICE BASE
  taskset -c "$CLIENT_CPUS" python3 load/lib/upload-bench.py "$2" "$ASSETS" "$ROUNDS" "$WARMUPS" \
    $([ "$1" = posekit ] && echo --timers) > "$OUT_DIR/upload-bench-$1.jsonl"
  if [ "$1" = posekit ]; then # where the time went, from posekit's own timers (mean ms over all uploads, warm-ups too)
    for m in "posekit.import.duration?tag=source:upload" "posekit.store.duration?tag=op:stage" \
        "posekit.store.duration?tag=op:commit" "posekit.store.duration?tag=op:delete"; do
      curl -fsS "$2/actuator/metrics/${m%%\?*}?${m#*\?}" 2>/dev/null | python3 -c '
import json, sys
j = json.load(sys.stdin); v = {x["statistic"]: x["value"] for x in j["measurements"]}
n = max(v["COUNT"], 1); print("%s: count %d, mean %.2f ms" % (sys.argv[1], v["COUNT"], 1000 * v["TOTAL_TIME"] / n))' "$m" >&2 || true
    done
  fi
  stop_service
}
run_each "$WHICH" "$store" "$WARMUPS warm-up + $ROUNDS rounds"
python3 - "$OUT_DIR" <<'PY'
import json, os, sys
rows = {}
for svc in ("posekit", "peer"):
    p = os.path.join(sys.argv[1], f"upload-bench-{svc}.jsonl")
    if os.path.exists(p):
        for line in open(p):
            r = json.loads(line); rows.setdefault(r["asset"], {"bytes": r["bytes"]})[svc] = r
print("| asset | bytes | posekit median ms | parse ms | stage ms | commit ms | peer median ms |")
print("|---|---:|---:|---:|---:|---:|---:|")
for a, r in rows.items():
    f = lambda s: "-" if s not in r else (f"{r[s]['median_ms']:.2f}" if r[s]["median_ms"] is not None else f"- ({r[s]['status']})")
    t = lambda k: "-" if r.get("posekit", {}).get(k) is None else f"{r['posekit'][k]:.2f}"
    print(f"| {a} | {r['bytes']} | {f('posekit')} | {t('parse_median_ms')} | {t('stage_median_ms')} "
          f"| {t('commit_median_ms')} | {f('peer')} |")
PY
