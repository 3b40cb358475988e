#!/usr/bin/env bash
# Mixed load against a real posekit: uploads and sampling for DURATION at about 80 % of the maximum rate.
#   load/run-load.sh            (needs target/posekit.jar: ./mvnw -DskipTests package; wrk: apt-get install wrk)
# 1. starts posekit on PORT with GC logging and a fresh store, uploads the sample assets;
# 2. measures the maximum rate of the mix (CALIBRATE seconds, no pacing);
# 3. runs the mix for DURATION at SHARE (0.8) of that rate, Poisson arrivals;
# 4. prints wrk's RESULT lines, the GC pauses from the log, and one JSON line.
# Environment: DURATION (300s) CALIBRATE (20s) SHARE (0.8) UPLOAD_SHARE (0.02) CONNECTIONS (16) THREADS (2) PORT (18080)
#              ASSETS_DIR (../shared/conformance/assets) JAVA_OPTS (-Xmx1g)
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-300s}; CALIBRATE=${CALIBRATE:-20s}; SHARE=${SHARE:-0.8}; UPLOAD_SHARE=${UPLOAD_SHARE:-0.02}
CONNECTIONS=${CONNECTIONS:-16}; THREADS=${THREADS:-2}; PORT=${PORT:-18080}
ASSETS_DIR=${ASSETS_DIR:-../shared/conformance/assets}; JAVA_OPTS=${JAVA_OPTS:--Xmx1g}
JAVA=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
command -v wrk >/dev/null || { echo "wrk is needed (apt-get install wrk)" >&2; exit 2; }
[ -f target/posekit.jar ] || { echo "build the jar first: ./mvnw -DskipTests package" >&2; exit 2; }

WORK=$(mktemp -d /tmp/posekit-load.XXXXXX)
"$JAVA" --add-modules jdk.incubator.vector $JAVA_OPTS -Xlog:gc*:file="$WORK/gc.log":uptime,level,tags -jar target/posekit.jar --server.port="$PORT" \
  --posekit.store.dir="$WORK/store" --logging.level.posekit.access=WARN >"$WORK/posekit.log" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null; wait $PID 2>/dev/null || true' EXIT
BASE=http://localhost:$PORT
for _ in $(seq 1 120); do curl -fs -o /dev/null "$BASE/actuator/health/readiness" && break; sleep 0.5; done

upload() { curl -fsS -F "file=@$1" "$BASE/api/v1/assets"; }
ASSETS=""
for f in gltf/Fox/Fox.glb gltf/CesiumMan/CesiumMan.glb gltf/BrainStem/BrainStem.glb collada/RiggedFigure/RiggedFigure.dae; do
  [ -f "$ASSETS_DIR/$f" ] || continue
  pair=$(upload "$ASSETS_DIR/$f" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["id"] + ":" + str(d["clips"][0]["duration"]))')
  ASSETS="${ASSETS:+$ASSETS,}$pair"
done
[ -n "$ASSETS" ] || { echo "no sample assets under $ASSETS_DIR" >&2; exit 2; }
TEMPLATE="$ASSETS_DIR/gltf/SimpleSkin/SimpleSkin.gltf"

echo "== calibrating: $CALIBRATE unpaced" >&2
CAL=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$CALIBRATE" -s load/mixed.lua "$BASE" -- "$ASSETS" "$TEMPLATE" "$UPLOAD_SHARE" 0 | grep '^RESULT')
echo "$CAL" >&2
MAX=$(sed -n 's/.* rps=\([0-9.]*\).*/\1/p' <<<"$CAL")
PER_CONNECTION=$(python3 -c "print($MAX * $SHARE / $CONNECTIONS)")
: > "$WORK/gc.log.mark"; GC_BEFORE=$(wc -l < "$WORK/gc.log")

echo "== running $DURATION at $SHARE of $MAX req/s" >&2
RUN=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --timeout 10s -s load/mixed.lua "$BASE" -- "$ASSETS" "$TEMPLATE" "$UPLOAD_SHARE" "$PER_CONNECTION" | grep '^RESULT')
echo "$RUN"
GC=$(tail -n +"$((GC_BEFORE + 1))" "$WORK/gc.log" | python3 -c '
import re, sys
p = [float(m.group(1)) for m in (re.search(r"Pause.* ([0-9.]+)ms$", l.strip()) for l in sys.stdin) if m]
p.sort()
q = lambda f: p[min(len(p) - 1, int(f * len(p)))] if p else 0
print("gc_pauses=%d gc_p50_ms=%.2f gc_p99_ms=%.2f gc_max_ms=%.2f gc_total_ms=%.1f" % (len(p), q(0.5), q(0.99), p[-1] if p else 0, sum(p)))')
echo "GC $GC"
python3 - "$MAX" "$RUN" "$GC" <<'PY'
import json, sys
kv = lambda s: {k: float(v) for k, v in (p.split("=") for p in s.replace("RESULT ", "").split())}
out = {"max_rps": float(sys.argv[1]), "run": kv(sys.argv[2]), "gc": kv(sys.argv[3])}
print(json.dumps(out))
PY
