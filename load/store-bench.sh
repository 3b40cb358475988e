#!/usr/bin/env bash
# What the asset store costs per upload and per cache miss: the local directory against S3 (s3proxy 4.1.0 on
# loopback, filesystem backend, through the real AWS SDK client).
#   ./mvnw -DskipTests package && load/store-bench.sh
# For each store type: start posekit (the jar, on the host), upload ASSETS distinct variants of ASSET_FILE one at a time
# (load/glb-variants.py), read posekit.store.duration{op=commit}; restart posekit (empty cache) and GET one pose of
# every asset once (each a cache miss: read from the store, verify, parse), read posekit.store.duration{op=read} and
# posekit.import.duration{source=reload}. Client times are curl's time_total.
# Environment: ASSETS (10) ASSET_FILE (../shared/conformance/assets/gltf/BrainStem/BrainStem.glb) PORT (18091)
#   S3_PORT (18092) JAVA_HOME (a JDK 25) RESULTS (/tmp/posekit-store-bench.json)
# Takes /tmp/posekit-bench.lock while it measures (a convention of this machine's workers).
set -euo pipefail
cd "$(dirname "$0")/.."
ASSETS=${ASSETS:-10}; ASSET_FILE=${ASSET_FILE:-../shared/conformance/assets/gltf/BrainStem/BrainStem.glb}
PORT=${PORT:-18091}; S3_PORT=${S3_PORT:-18092}; RESULTS=${RESULTS:-/tmp/posekit-store-bench.json}
JAVA=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
LOCK=/tmp/posekit-bench.lock
say() { echo "store-bench: $*" >&2; }
die() { say "$*"; exit 1; }

[ -f target/posekit.jar ] || die "target/posekit.jar is missing: build it first with ./mvnw -DskipTests package"
[ -x "$JAVA" ] || die "no java at $JAVA (set JAVA_HOME to a JDK 25)"
[ -f "$ASSET_FILE" ] || die "no $ASSET_FILE (set ASSET_FILE to a .glb)"
for c in curl python3; do command -v "$c" >/dev/null || die "$c is needed"; done
S3PROXY=target/s3proxy/s3proxy.jar
if [ ! -s "$S3PROXY" ]; then
  say "fetching org.gaul:s3proxy:4.1.0:jar-with-dependencies into target/s3proxy"
  ./mvnw -q -B org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy \
    -Dartifact=org.gaul:s3proxy:4.1.0:jar:jar-with-dependencies -DoutputDirectory=target/s3proxy >&2
  mv target/s3proxy/s3proxy-4.1.0-jar-with-dependencies.jar "$S3PROXY"
fi

WORK=$(mktemp -d /tmp/posekit-store-bench.XXXXXX)
PIDS=()
cleanup() {
  local rc=$?
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
  [ "$(cat "$LOCK" 2>/dev/null)" = "$$" ] && rm -f "$LOCK"
  if [ $rc -eq 0 ]; then rm -rf "$WORK"; else say "failed; logs kept in $WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
until ( set -o noclobber; echo $$ > "$LOCK" ) 2>/dev/null; do
  other=$(cat "$LOCK" 2>/dev/null || true)
  if [ -n "$other" ] && ! kill -0 "$other" 2>/dev/null; then rm -f "$LOCK"; continue; fi
  say "waiting for the benchmark lock held by $other"; sleep 10
done
LOAD_BEFORE=$(cut -d" " -f1-3 /proc/loadavg)

mkdir -p "$WORK/variants" "$WORK/s3data"
python3 load/glb-variants.py "$ASSET_FILE" "$ASSETS" "$WORK/variants"
cat > "$WORK/s3proxy.properties" <<PROPS
s3proxy.endpoint=http://127.0.0.1:$S3_PORT
s3proxy.authorization=aws-v2-or-v4
s3proxy.identity=bench
s3proxy.credential=bench-secret
jclouds.provider=filesystem
jclouds.filesystem.basedir=$WORK/s3data
PROPS
"$JAVA" -jar "$S3PROXY" --properties "$WORK/s3proxy.properties" >"$WORK/s3proxy.log" 2>&1 &
PIDS+=($!)

BASE=http://127.0.0.1:$PORT
wait_up() { # URL LOG PID
  local i
  for i in $(seq 1 240); do
    curl -fs -o /dev/null "$1" && return 0
    kill -0 "$3" 2>/dev/null || { tail -n 30 "$2" >&2; die "exited while starting ($2)"; }
    sleep 0.5
  done
  die "$1 did not answer within 120 s ($2)"
}
POSEKIT_PID=""
start_posekit() { # TYPE LOGNAME
  local args=(--server.port="$PORT" --server.address=127.0.0.1 --logging.level.posekit.access=WARN
    --posekit.cache.max-bytes=2GB)
  if [ "$1" = s3 ]; then
    args+=(--posekit.store.type=s3 --posekit.store.s3.bucket=posekit --posekit.store.s3.endpoint="http://127.0.0.1:$S3_PORT"
      --posekit.store.s3.path-style=true --posekit.store.s3.create-bucket=true
      --posekit.store.s3.access-key-id=bench --posekit.store.s3.secret-access-key=bench-secret)
  else
    args+=(--posekit.store.dir="$WORK/dir")
  fi
  "$JAVA" --add-modules jdk.incubator.vector -jar target/posekit.jar "${args[@]}" >"$WORK/$2.log" 2>&1 &
  POSEKIT_PID=$!; PIDS+=("$POSEKIT_PID")
  wait_up "$BASE/actuator/health/readiness" "$WORK/$2.log" "$POSEKIT_PID"
}
stop_posekit() { kill "$POSEKIT_PID"; wait "$POSEKIT_PID" 2>/dev/null || true; }
metric() { # NAME TAGS... → the metric's JSON
  local url="$BASE/actuator/metrics/$1" sep="?"; shift
  for t in "$@"; do url+="${sep}tag=$t"; sep="&"; done
  curl -fs "$url"
}
for i in $(seq 1 120); do (exec 3<>"/dev/tcp/127.0.0.1/$S3_PORT") 2>/dev/null && break; sleep 0.5; done
(exec 3<>"/dev/tcp/127.0.0.1/$S3_PORT") 2>/dev/null || { tail -n 30 "$WORK/s3proxy.log" >&2; die "s3proxy did not start"; }

for type in directory s3; do
  say "$type: uploading $ASSETS variants of $(basename "$ASSET_FILE")"
  start_posekit "$type" "$type-upload"
  : > "$WORK/$type-ids"
  for f in "$WORK"/variants/*.glb; do
    curl -fs -o "$WORK/out.json" -w '%{time_total}\n' -F "file=@$f" "$BASE/api/v1/assets" >> "$WORK/$type-upload-times"
    python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["id"])' "$WORK/out.json" >> "$WORK/$type-ids"
  done
  metric posekit.store.duration op:commit outcome:success > "$WORK/$type-commit.json"
  metric posekit.store.duration op:stage outcome:success > "$WORK/$type-stage.json"
  stop_posekit
  say "$type: restarted with an empty cache, one pose of every asset"
  start_posekit "$type" "$type-read"
  while read -r id; do
    curl -fs -o /dev/null -w '%{time_total}\n' "$BASE/api/v1/assets/$id/pose?clip=0&time=0.5" >> "$WORK/$type-get-times"
  done < "$WORK/$type-ids"
  metric posekit.store.duration op:read outcome:success > "$WORK/$type-read.json"
  metric posekit.import.duration source:reload > "$WORK/$type-reload.json"
  stop_posekit
done

python3 - "$WORK" "$ASSETS" "$ASSET_FILE" "$LOAD_BEFORE" "$(cut -d" " -f1-3 /proc/loadavg)" "$RESULTS" <<'PY'
import json, os, statistics, sys
work, n, asset, load_before, load_after, results = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6]
def times(name):
    return [float(x) * 1000 for x in open(os.path.join(work, name)).read().split()]
def timer(name):
    m = {s["statistic"]: s["value"] for s in json.load(open(os.path.join(work, name)))["measurements"]}
    return {"count": m["COUNT"], "mean_ms": 1000 * m["TOTAL_TIME"] / m["COUNT"], "max_ms": 1000 * m["MAX"]}
out = {"asset": os.path.basename(asset), "bytes": os.path.getsize(asset), "assets": n,
       "load_before": load_before, "load_after": load_after, "stores": {}}
rows = []
for t in ("directory", "s3"):
    up, get = times(t + "-upload-times"), times(t + "-get-times")
    r = {"upload_ms_median": statistics.median(up), "cold_get_ms_median": statistics.median(get),
         "stage": timer(t + "-stage.json"), "commit": timer(t + "-commit.json"), "read": timer(t + "-read.json"),
         "reparse": timer(t + "-reload.json")}
    out["stores"][t] = r
    rows.append("| %s | %.1f | %.1f + %.1f | %.1f | %.1f | %.1f |" % (t, r["upload_ms_median"], r["stage"]["mean_ms"],
                r["commit"]["mean_ms"], r["cold_get_ms_median"], r["read"]["mean_ms"], r["reparse"]["mean_ms"]))
print("%d variants of %s (%d bytes); load average %s before, %s after" % (n, out["asset"], out["bytes"], load_before, load_after))
print()
print("| store | upload, median ms | stage + commit, mean ms | first GET (cache miss), median ms | read + verify, mean ms | parse, mean ms |")
print("|---|---:|---:|---:|---:|---:|")
print("\n".join(rows))
json.dump(out, open(results, "w"), indent=2)
print()
print(json.dumps(out))
PY
