#!/usr/bin/env bash
# Side-by-side HTTP benchmark of posekit and the peer (the same v1 API in Node + three.js, SHARED/tools/peer), on
# loopback, one service at a time (never both under load at once).
#   load/compare-peer.sh        (needs a built posekit jar, wrk, node + npm, python3, curl, taskset, lscpu)
#
# For each service in turn (posekit, then the peer):
#  1. PINNED: starts it fresh under `taskset -c SERVICE_CPUS` (so every thread inherits the affinity), waits for
#     readiness (posekit GET /actuator/health, the peer GET /health), checks that the PID it measures is the java /
#     node process itself, then
#     a. upload + parse time of BrainStem.glb (raw body, Content-Type: model/gltf-binary): a 201-then-200 deduplication
#        check, 3 warm-ups, then UPLOAD_REPEATS timed POSTs, each followed by a DELETE so that the next POST parses
#        again (every timed POST must answer 201; posekit's parse counter must grow by as much);
#     b. uploads Fox, CesiumMan and BrainStem, reads the clips from the summaries (Fox "Walk", the others their
#        first clip; random times in [0, 1.37 x duration) of it, loop=repeat, see lib/sample.lua);
#     c. per row: one probe request (must answer 200 with the expected Content-Type: for posekit a failure stops the
#        script, for the peer the row is left out as "not served"), a WARMUP of unrecorded load, then RUNS runs of
#        DURATION with wrk -t1 -cCONNECTIONS pinned to WRK_CPUS (lib/measure.sh: wrk figures plus the service's CPU
#        time from /proc/PID/stat over the run); the tables give the MEDIAN of the runs of each figure;
#     d. BURST: for BURST_DURATION, wrk -c256 (BURST_CONNECTIONS) on Fox matrices JSON and, at the same time, a second
#        wrk -c8 (BURST_SIDE_CONNECTIONS) on BrainStem skinned JSON, both pinned to WRK_CPUS;
#  2. UNPINNED: starts it again fresh without taskset, uploads the assets, runs UNPINNED_ROWS the same way with an
#     unpinned wrk -t2 (UNPINNED_WRK_THREADS).
# Output (stdout): a header line (date, nproc, CPU model, JDK and node versions, load average), the pinned table, the
# unpinned table, the burst table and the upload line, all markdown; per row posekit's and the peer's req/s,
# p50 / p99 / p99.9 ms, server CPU us per request (medians of the runs), the ratio posekit req/s / peer req/s and the
# errors (connect/read/write/timeout + non-2xx, summed over the recorded runs). Progress goes to stderr. Every raw
# figure (each run, probe sizes, PIDs, affinities, upload samples) is written as one JSON object to RESULTS.
#
# Environment (default):
#   JAR (target/posekit.jar)  JAVA_HOME (/usr/lib/jvm/temurin-25-jdk-amd64)  JAVA_OPTS (-Xmx1g)
#   JVM_MODULES (empty: the scalar kernels, as the image runs; --add-modules jdk.incubator.vector: the Vector API ones)
#   POSEKIT_ARGS (--logging.level.posekit.access=WARN: extra posekit options; the peer logs no access lines either)
#   SHARED (../shared)  PORT (18080)  PEER_PORT (18088)  SERVICES ("posekit peer")
#   SERVICE_CPUS (1)  WRK_CPUS (0)  CONNECTIONS (32)  WARMUP (40s per row: a JVM pinned to one core reaches its steady rate after 30–40 s; 0 = none)  RUNS (3)  DURATION (10s)
#   WRK_TIMEOUT (10s: wrk's 2 s default would cut the peer's slow BrainStem rows, whose p50 is over 1 s)
#   ROWS ("fox-matrices-json fox-matrices-binary fox-skinned-json cesiumman-skinned-json brainstem-skinned-json
#         brainstem-skinned-binary health fox-summary"; health is posekit's /actuator/health, posekit only)
#   UNPINNED (1; 0 = skip)  UNPINNED_WRK_THREADS (2)
#   UNPINNED_ROWS ("fox-matrices-json fox-matrices-binary brainstem-skinned-json brainstem-skinned-binary")
#   BURST (1; 0 = skip)  BURST_DURATION (30s)  BURST_CONNECTIONS (256)  BURST_SIDE_CONNECTIONS (8)
#   UPLOAD_REPEATS (20; 0 = skip)  RESULTS (/tmp/posekit-compare.json)  KEEP_WORK (0; 1 = keep logs and raw files)
#   AUTH (none; key = posekit secured by an API key file, every request to it — wrk's and curl's — carrying the key
#         as a bearer token: the cost of authentication; the peer has none either way)
# A failure (missing prerequisite, a service that does not start or dies, a failed request or wrk run) stops the
# script with a message naming it; the services are stopped and the temporary directory removed in every case.
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared}; JAR=${JAR:-target/posekit.jar}
JAVA_OPTS=${JAVA_OPTS:--Xmx1g}; JVM_MODULES=${JVM_MODULES:-}; JAVA=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
POSEKIT_ARGS=${POSEKIT_ARGS---logging.level.posekit.access=WARN}
PORT=${PORT:-18080}; PEER_PORT=${PEER_PORT:-18088}; SERVICES=${SERVICES:-posekit peer}
SERVICE_CPUS=${SERVICE_CPUS:-1}; WRK_CPUS=${WRK_CPUS:-0}; CONNECTIONS=${CONNECTIONS:-32}
WARMUP=${WARMUP:-40s}; RUNS=${RUNS:-3}; DURATION=${DURATION:-10s}; WRK_TIMEOUT=${WRK_TIMEOUT:-10s}
ROWS=${ROWS:-fox-matrices-json fox-matrices-binary fox-skinned-json cesiumman-skinned-json brainstem-skinned-json brainstem-skinned-binary health fox-summary}
UNPINNED=${UNPINNED:-1}; UNPINNED_WRK_THREADS=${UNPINNED_WRK_THREADS:-2}
UNPINNED_ROWS=${UNPINNED_ROWS:-fox-matrices-json fox-matrices-binary brainstem-skinned-json brainstem-skinned-binary}
BURST=${BURST:-1}; BURST_DURATION=${BURST_DURATION:-30s}
BURST_CONNECTIONS=${BURST_CONNECTIONS:-256}; BURST_SIDE_CONNECTIONS=${BURST_SIDE_CONNECTIONS:-8}
UPLOAD_REPEATS=${UPLOAD_REPEATS:-20}; RESULTS=${RESULTS:-/tmp/posekit-compare.json}; KEEP_WORK=${KEEP_WORK:-0}
UPLOAD_WARMUPS=3
AUTH=${AUTH:-none}
[[ $AUTH = none || $AUTH = key ]] || { echo "compare-peer: AUTH is none or key (got '$AUTH')" >&2; exit 1; }
export WRK_TIMEOUT   # read by lib/measure.sh
# shellcheck source-path=SCRIPTDIR/..
. load/lib/measure.sh

say() { echo "== $*" >&2; }
die() { echo "compare-peer: $*" >&2; exit 1; }

# ---- prerequisites ---------------------------------------------------------------------------------------------------
[ -f "$JAR" ] || die "$JAR is missing: build it first with ./mvnw -DskipTests package (or set JAR)"
JAR=$(cd "$(dirname "$JAR")" && pwd)/$(basename "$JAR")
[ -x "$JAVA" ] || die "no java at $JAVA (set JAVA_HOME to a JDK 25)"
for tool in wrk node python3 curl taskset lscpu; do
  command -v "$tool" >/dev/null || die "$tool is needed (apt-get install wrk nodejs npm python3 curl util-linux)"
done
if [ ! -d "$SHARED/tools/peer" ] || [ ! -d "$SHARED/tools/oracle" ]; then die "no tools/peer and tools/oracle under SHARED=$SHARED"; fi
SHARED=$(cd "$SHARED" && pwd)
PEER_DIR=$SHARED/tools/peer; GLTF=$SHARED/conformance/assets/gltf
[ -f "$PEER_DIR/server.mjs" ] || die "$PEER_DIR/server.mjs is missing"
for d in "$SHARED/tools/oracle" "$PEER_DIR"; do   # the peer imports three.js from ../oracle/node_modules
  if [ ! -d "$d/node_modules" ]; then
    command -v npm >/dev/null || die "npm is needed to install $d/node_modules"
    say "npm ci in $d"
    (cd "$d" && npm ci --no-audit --no-fund >&2) || die "npm ci failed in $d"
  fi
done
declare -A ASSET_OF=([fox]=Fox [cesiumman]=CesiumMan [brainstem]=BrainStem) CLIP_SPEC=([Fox]=Walk [CesiumMan]=0 [BrainStem]=0)
for a in Fox CesiumMan BrainStem; do [ -f "$GLTF/$a/$a.glb" ] || die "no asset $GLTF/$a/$a.glb"; done
check_rows() { # NAME LIST: every row is ASSET-KIND-BODY (fox|cesiumman|brainstem, matrices|skinned, json|binary), health or fox-summary
  local r
  for r in $2; do
    [[ $r =~ ^(fox|cesiumman|brainstem)-(matrices|skinned)-(json|binary)$ || $r =~ ^(health|(fox|cesiumman|brainstem)-summary)$ ]] \
      || die "$1: unknown row '$r'"
  done
}
check_rows ROWS "$ROWS"; check_rows UNPINNED_ROWS "$UNPINNED_ROWS"
for v in RUNS UPLOAD_REPEATS BURST_CONNECTIONS BURST_SIDE_CONNECTIONS CONNECTIONS UNPINNED_WRK_THREADS; do
  [[ ${!v} =~ ^[0-9]+$ ]] || die "$v must be a whole number (got '${!v}')"
done
[ "$RUNS" -ge 1 ] || die "RUNS must be at least 1"
for s in $SERVICES; do [[ $s = posekit || $s = peer ]] || die "SERVICES takes posekit and/or peer (got '$s')"; done
[ "$PORT" != "$PEER_PORT" ] || die "PORT and PEER_PORT must differ"
taskset -c "$SERVICE_CPUS" true 2>/dev/null || die "SERVICE_CPUS=$SERVICE_CPUS is not a usable CPU list (nproc: $(nproc))"
taskset -c "$WRK_CPUS" true 2>/dev/null || die "WRK_CPUS=$WRK_CPUS is not a usable CPU list (nproc: $(nproc))"

WORK=$(mktemp -d /tmp/posekit-compare.XXXXXX)
LOAD_BEFORE=$(cut -d" " -f1-3 /proc/loadavg 2>/dev/null || echo unknown)  # other work on the machine skews every figure
SVC_PID=""; BURST_PIDS=""
kill_tree() { # PID: the process and its descendants, children first
  local c
  for c in $(ps -o pid= --ppid "$1" 2>/dev/null); do kill_tree "$c"; done
  kill "$1" 2>/dev/null || true
}
cleanup() {
  local rc=$? p
  for p in $BURST_PIDS; do kill_tree "$p"; done
  if [ -n "$SVC_PID" ]; then kill "$SVC_PID" 2>/dev/null || true; wait "$SVC_PID" 2>/dev/null || true; fi
  if [ "$KEEP_WORK" = 1 ]; then echo "compare-peer: logs and raw files kept in $WORK" >&2; else rm -rf "$WORK"; fi
  [ $rc -eq 0 ] || echo "compare-peer: FAILED (exit $rc)$([ "$KEEP_WORK" = 1 ] || echo "; KEEP_WORK=1 keeps the logs")" >&2
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- helpers ---------------------------------------------------------------------------------------------------------
port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
base_of() { if [ "$1" = posekit ]; then echo "http://127.0.0.1:$PORT"; else echo "http://127.0.0.1:$PEER_PORT"; fi; }
record() { # FILE JSON [KEY=VALUE...]: appends the JSON object with the keys added (as strings) to FILE
  python3 -c 'import json, sys
d = json.loads(sys.argv[2]) if sys.argv[2] else {}
d.update(kv.split("=", 1) for kv in sys.argv[3:])
open(sys.argv[1], "a").write(json.dumps(d) + "\n")' "$@"
}
log_tail() { tail -n 30 "$1" | sed 's/^/    | /' >&2; }

start_service() { # SERVICE MODE(pinned|unpinned): starts it fresh, sets SVC_PID, SVC, MODE, BASE, LOG
  local pin=() port comm aff t threads
  SVC=$1; MODE=$2; BASE=$(base_of "$1"); LOG=$WORK/$1-$2.log
  [ "$MODE" = pinned ] && pin=(taskset -c "$SERVICE_CPUS")
  port=${BASE##*:}
  port_busy "$port" && die "port $port is already in use on 127.0.0.1 (set PORT / PEER_PORT)"
  say "starting $SVC ($MODE${pin[*]:+: ${pin[*]}}) on $BASE"
  unset POSEKIT_AUTHORIZATION CURL_HOME
  if [ "$SVC" = posekit ]; then
    local secured=()
    if [ "$AUTH" = key ]; then
      # one key with every scope (the metrics this script reads need posekit:admin); curl reads the header from a
      # .curlrc of its own, wrk from POSEKIT_AUTHORIZATION (lib/sample.lua)
      local key; key="pk_$(head -c 32 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n')"
      printf '%s bench posekit:read,posekit:write,posekit:delete,posekit:admin\n' \
        "$(printf '%s' "$key" | sha256sum | cut -c1-64)" > "$WORK/api-keys.txt"
      mkdir -p "$WORK/curl-auth" && printf 'header = "Authorization: Bearer %s"\n' "$key" > "$WORK/curl-auth/.curlrc"
      export POSEKIT_AUTHORIZATION="Bearer $key" CURL_HOME=$WORK/curl-auth
      secured=(--posekit.security.mode=secured --posekit.security.api-keys-file="$WORK/api-keys.txt")
    fi
    # shellcheck disable=SC2086 # JAVA_OPTS and POSEKIT_ARGS are lists of options
    "${pin[@]}" "$JAVA" $JVM_MODULES $JAVA_OPTS -jar "$JAR" --server.port="$PORT" --server.address=127.0.0.1 \
      --posekit.store.dir="$WORK/store-$MODE" "${secured[@]}" $POSEKIT_ARGS >"$LOG" 2>&1 &
  else
    (cd "$PEER_DIR" && exec "${pin[@]}" node server.mjs --port "$PEER_PORT" --host 127.0.0.1) >"$LOG" 2>&1 &
  fi
  SVC_PID=$!   # taskset and `exec` replace themselves, so this is the java / node process (checked below)
  local ready=$BASE/actuator/health i
  [ "$SVC" = peer ] && ready=$BASE/health
  for i in $(seq 1 240); do
    curl -fs -o /dev/null "$ready" && break
    kill -0 "$SVC_PID" 2>/dev/null || { log_tail "$LOG"; SVC_PID=""; die "$SVC exited while starting (log above)"; }
    [ "$i" -lt 240 ] || { log_tail "$LOG"; die "$SVC did not answer $ready within 120 s (log above)"; }
    sleep 0.5
  done
  comm=$(cat "/proc/$SVC_PID/comm" 2>/dev/null || echo gone)
  [ "$comm" = "$([ "$SVC" = posekit ] && echo java || echo node)" ] \
    || die "PID $SVC_PID is '$comm', not the $SVC process itself: its CPU figures would be wrong"
  aff=$(taskset -pc "$SVC_PID" | sed 's/.*: //')
  if [ "$MODE" = pinned ]; then   # every thread (JIT, GC, workers) must have inherited the affinity
    for t in /proc/"$SVC_PID"/task/*; do
      [ "$(taskset -pc "${t##*/}" 2>/dev/null | sed 's/.*: //')" = "$aff" ] || [ ! -e "$t" ] \
        || die "thread ${t##*/} of $SVC is not pinned like the process ($aff)"
    done
  fi
  threads=(/proc/"$SVC_PID"/task/*)
  say "$SVC is up: PID $SVC_PID ($comm), CPUs $aff, ${#threads[@]} threads"
  record "$WORK/services.jsonl" "" service="$SVC" mode="$MODE" pid="$SVC_PID" comm="$comm" cpus="$aff"
}
stop_service() { # stops it and tells of the errors and warnings it logged (kept in the RESULTS JSON)
  local n
  kill "$SVC_PID" 2>/dev/null || true; wait "$SVC_PID" 2>/dev/null || true; SVC_PID=""
  n=$(grep -cE '(^|[^A-Za-z])(ERROR|WARN|Error|Exception)([^A-Za-z]|$)' "$LOG" || true)
  if [ "$n" -gt 0 ]; then
    say "note: $SVC ($MODE) logged $n lines of errors / warnings, the first ones:"
    grep -E '(^|[^A-Za-z])(ERROR|WARN|Error|Exception)([^A-Za-z]|$)' "$LOG" | head -n 5 | cut -c1-300 | sed 's/^/    | /' >&2
  fi
  grep -E '(^|[^A-Za-z])(ERROR|WARN|Error|Exception)([^A-Za-z]|$)' "$LOG" | head -n 50 | cut -c1-500 > "$WORK/logged-$SVC-$MODE.txt" || true
}
settle() { # waits until the service is idle (< 0.1 s CPU per 0.5 s; at most 60 s): wrk stops with requests in flight,
            # and what the service still does for them must neither load the next run nor count in its CPU time
  local a b i
  a=$(cpu_ticks "$SVC_PID") || return 0
  for i in $(seq 1 120); do
    sleep 0.5
    b=$(cpu_ticks "$SVC_PID") || return 0
    if [ $((b - a)) -le $((_clk_tck / 10)) ]; then return 0; fi
    a=$b
  done
  say "note: $SVC is still busy after 60 s of waiting for it to be idle; measuring anyway"
}
listen_overflows() { # the kernel's TcpExt ListenOverflows + ListenDrops (system-wide): a full accept queue drops SYNs
  awk '/^TcpExt:/ { if (!h) { split($0, k); h = 1 } else { for (i = 2; i <= NF; i++) if (k[i] == "ListenOverflows" || k[i] == "ListenDrops") n += $i } }
       END { print n + 0 }' /proc/net/netstat 2>/dev/null || echo 0
}
alive() { # the service process is there and not a zombie, or the script stops
  local st
  if st=$(cat "/proc/$SVC_PID/stat" 2>/dev/null) && st=${st##*) } && [ "${st%% *}" != Z ]; then return 0; fi
  log_tail "$LOG"; SVC_PID=""; die "$SVC ($MODE) died (log above)"
}

id_of() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["id"])' "$1" 2>/dev/null || die "no asset id in $1: $(head -c 300 "$1")"; }
post() { # FILE OUT -> "status seconds": a raw glTF binary upload to the current service
  curl -sS -o "$2" -w '%{http_code} %{time_total}' -H 'Content-Type: model/gltf-binary' -H 'Expect:' \
    --data-binary "@$1" "$BASE/api/v1/assets" || { alive; die "upload of $1 to $SVC failed (connection)"; }
}
delete() { # ID
  local s
  s=$(curl -sS -o /dev/null -w '%{http_code}' -X DELETE "$BASE/api/v1/assets/$1") || { alive; die "DELETE on $SVC failed"; }
  [ "$s" = 204 ] || die "DELETE /api/v1/assets/$1 on $SVC answered $s, not 204"
}
import_count() { # posekit's parse counter (Micrometer timer posekit.import.duration), or -1 if it is not there
  curl -fsS "$BASE/actuator/metrics/posekit.import.duration" 2>/dev/null | python3 -c '
import json, sys
print(int(next(m["value"] for m in json.load(sys.stdin)["measurements"] if m["statistic"] == "COUNT")))' 2>/dev/null || echo -1
}

upload_timing() { # BrainStem.glb upload + parse time on the current service -> $WORK/upload-SVC.txt
  local f=$GLTF/BrainStem/BrainStem.glb r s1 s2 s t id i before after parsed
  say "$SVC: upload + parse of BrainStem.glb: dedup check, $UPLOAD_WARMUPS warm-ups, $UPLOAD_REPEATS timed (POST, DELETE)"
  r=$(post "$f" "$WORK/up1.json"); s1=${r%% *}
  r=$(post "$f" "$WORK/up2.json"); s2=${r%% *}
  if [ "$s1" != 201 ] || [ "$s2" != 200 ]; then
    die "$SVC: expected 201 then 200 for the same upload twice, got $s1 then $s2 ($(head -c 300 "$WORK/up2.json"))"
  fi
  id=$(id_of "$WORK/up1.json"); [ "$(id_of "$WORK/up2.json")" = "$id" ] || die "$SVC: the duplicate got another id"
  delete "$id"
  s=$(curl -sS -o /dev/null -w '%{http_code}' "$BASE/api/v1/assets/$id"); [ "$s" = 404 ] || die "$SVC: a deleted asset answers $s, not 404"
  : > "$WORK/upload-$SVC.txt"
  [ "$SVC" = posekit ] && before=$(import_count)
  for i in $(seq 1 $((UPLOAD_WARMUPS + UPLOAD_REPEATS))); do
    r=$(post "$f" "$WORK/up.json"); s=${r%% *}; t=${r#* }
    [ "$s" = 201 ] || die "$SVC: a POST after DELETE answered $s, not 201 (so it did not parse again): $(head -c 300 "$WORK/up.json")"
    delete "$(id_of "$WORK/up.json")"
    [ "$i" -le "$UPLOAD_WARMUPS" ] || echo "$t" >> "$WORK/upload-$SVC.txt"
  done
  if [ "$SVC" = posekit ]; then
    after=$(import_count)
    if [ "$before" -ge 0 ] && [ "$after" -ge 0 ]; then
      parsed=$((after - before))
      [ "$parsed" -ge $((UPLOAD_WARMUPS + UPLOAD_REPEATS)) ] \
        || die "posekit parsed only $parsed times for $((UPLOAD_WARMUPS + UPLOAD_REPEATS)) uploads (posekit.import.duration)"
      echo "$parsed" > "$WORK/posekit-parses.txt"
    else
      say "note: posekit has no posekit.import.duration metric; the parse count is not checked"
    fi
  fi
}

declare -A ID CLIP CLIPDUR
upload_assets() { # uploads the three assets to the current service; ID/CLIP/CLIPDUR[asset] for it
  local a r s up out
  for a in Fox CesiumMan BrainStem; do
    out=$WORK/asset-$a-$SVC-$MODE.json
    r=$(post "$GLTF/$a/$a.glb" "$out"); up=${r%% *}
    [ "$up" = 201 ] || [ "$up" = 200 ] || die "$SVC: upload of $a.glb answered $up: $(head -c 300 "$out")"
    ID[$a]=$(id_of "$out")
    # GET the summary (what the rows sample) and pick the clip by name, or by index resolved to its name
    s=$(curl -sS -o "$out.summary" -w '%{http_code}' "$BASE/api/v1/assets/${ID[$a]}") || { alive; die "$SVC: GET summary of $a failed"; }
    [ "$s" = 200 ] || die "$SVC: GET /api/v1/assets/${ID[$a]} ($a) answered $s: $(head -c 300 "$out.summary")"
    r=$(python3 - "$out.summary" "${CLIP_SPEC[$a]}" <<'PY'
import json, sys
d, spec = json.load(open(sys.argv[1])), sys.argv[2]
clips = d.get("clips") or []
c = next((c for c in clips if c.get("name") == spec), None)
if c is None and spec.isdigit() and int(spec) < len(clips):
    c = clips[int(spec)]
if c is None or not c.get("duration"):
    sys.exit("clip %r not found or without a duration (clips: %s)" % (spec, json.dumps(clips)[:300]))
print("%s\t%r" % (c.get("name") or c.get("index", spec), float(c["duration"])))
PY
) || die "$SVC: $a.glb has no usable clip '${CLIP_SPEC[$a]}'"
    CLIP[$a]=${r%%$'\t'*}; CLIPDUR[$a]=${r#*$'\t'}
    record "$WORK/assets.jsonl" "" service="$SVC" mode="$MODE" asset="$a" id="${ID[$a]}" clip="${CLIP[$a]}" \
      duration="${CLIPDUR[$a]}" upload_status="$up" summary_file="$out.summary"
  done
}

# row_target ROW -> sets T_URL T_CLIP T_DUR T_ACCEPT for the current service; returns 1 if the service has no such row
row_target() {
  local a kind body
  T_CLIP=""; T_DUR=0; T_ACCEPT=""
  case $1 in
    health) [ "$SVC" = posekit ] || return 1; T_URL=$BASE/actuator/health; return 0 ;;
    *-summary) a=${ASSET_OF[${1%-summary}]}; T_URL=$BASE/api/v1/assets/${ID[$a]}; return 0 ;;
  esac
  IFS=- read -r a kind body <<<"$1"; a=${ASSET_OF[$a]}
  [ "$body" = binary ] && T_ACCEPT=application/octet-stream
  if [ "$kind" = matrices ]; then T_URL=$BASE/api/v1/assets/${ID[$a]}/skins/0/matrices
  else T_URL=$BASE/api/v1/assets/${ID[$a]}/meshes/0/skinned; fi
  T_CLIP=${CLIP[$a]}; T_DUR=${CLIPDUR[$a]}
}
probe() { # ROW: one request as wrk will send it; 0 if it answers 200 with the expected Content-Type, else PROBE_WHY
  local url=$T_URL r code size ctype hdr=()
  [ -n "$T_ACCEPT" ] && hdr=(-H "Accept: $T_ACCEPT")
  if [ -n "$T_CLIP" ]; then
    url="$url?clip=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$T_CLIP")&time=0.1&loop=repeat"
  fi
  r=$(curl -sS -o "$WORK/probe.out" -w '%{http_code} %{size_download} %{content_type}' "${hdr[@]}" "$url") \
    || { alive; die "$SVC: probe of $1 failed (connection)"; }
  read -r code size ctype <<<"$r"
  record "$WORK/probes.jsonl" "" service="$SVC" mode="$MODE" row="$1" status="$code" bytes="$size" content_type="${ctype:-}"
  if [ "$code" != 200 ]; then PROBE_WHY="answered $code: $(head -c 200 "$WORK/probe.out")"; return 1; fi
  if [ -n "$T_ACCEPT" ] && [[ $ctype != application/octet-stream* ]]; then PROBE_WHY="answered $ctype to Accept: $T_ACCEPT"; return 1; fi
  if [ -z "$T_ACCEPT" ] && [[ $ctype != *json* ]]; then PROBE_WHY="answered $ctype, not JSON"; return 1; fi
  [ "$size" -gt 0 ] || { PROBE_WHY="answered an empty body"; return 1; }
}
run_row() { # PHASE ROW: probe, warm-up, RUNS measured runs -> runs.jsonl (wrk settings from the caller's environment)
  local phase=$1 row=$2 r m
  if ! row_target "$row"; then say "$SVC $phase $row: not applicable"; return 0; fi
  if ! probe "$row"; then
    [ "$SVC" = peer ] || die "$SVC: $row: GET $T_URL $PROBE_WHY"
    say "$SVC $phase $row: not served ($PROBE_WHY), left out"
    record "$WORK/skips.jsonl" "" service="$SVC" phase="$phase" row="$row" why="$PROBE_WHY"; return 0
  fi
  if [ "$WARMUP" != 0 ]; then
    settle
    say "$SVC $phase $row: warm-up $WARMUP"
    DURATION=$WARMUP measure "$SVC_PID" "$T_URL" "$T_CLIP" "$T_DUR" "$T_ACCEPT" >/dev/null \
      || { alive; die "$SVC $phase $row: wrk failed during the warm-up"; }
    alive
  fi
  for r in $(seq 1 "$RUNS"); do
    settle
    m=$(measure "$SVC_PID" "$T_URL" "$T_CLIP" "$T_DUR" "$T_ACCEPT") || { alive; die "$SVC $phase $row: wrk run $r failed"; }
    alive
    record "$WORK/runs.jsonl" "$m" phase="$phase" service="$SVC" row="$row" run="$r"
    python3 -c 'import json, sys; m = json.loads(sys.argv[2])
if not m["requests"]: sys.exit("compare-peer: %s run %s: no request completed" % (sys.argv[1], sys.argv[3]))
print("== %s run %s: %.0f req/s, p50 %.2f / p99 %.2f ms, %s us CPU/req (%.2f cores busy), errors %d + non-2xx %d" % (
      sys.argv[1], sys.argv[3], m["rps"], m["p50_ms"], m["p99_ms"], m["cpu_us_per_req"], m["cpu_s"] / m["duration_s"],
      m["errors"], m["non2xx"]))' \
      "$SVC $phase $row" "$m" "$r/$RUNS" >&2 || exit 1
  done
}
burst() { # BURST_CONNECTIONS on Fox matrices JSON while BURST_SIDE_CONNECTIONS request BrainStem skinned JSON
  local fox_url fox_clip fox_dur brain_url brain_clip brain_dur b1 b2 ok=1 lo
  row_target fox-matrices-json; probe fox-matrices-json || die "$SVC: burst: Fox matrices JSON $PROBE_WHY"
  fox_url=$T_URL; fox_clip=$T_CLIP; fox_dur=$T_DUR
  row_target brainstem-skinned-json; probe brainstem-skinned-json || die "$SVC: burst: BrainStem skinned JSON $PROBE_WHY"
  brain_url=$T_URL; brain_clip=$T_CLIP; brain_dur=$T_DUR
  settle
  say "$SVC burst: $BURST_DURATION of Fox matrices JSON x$BURST_CONNECTIONS + BrainStem skinned JSON x$BURST_SIDE_CONNECTIONS"
  lo=$(listen_overflows)
  CONNECTIONS=$BURST_CONNECTIONS DURATION=$BURST_DURATION measure "$SVC_PID" "$fox_url" "$fox_clip" "$fox_dur" "" \
    > "$WORK/burst-main.json" &
  b1=$!
  CONNECTIONS=$BURST_SIDE_CONNECTIONS DURATION=$BURST_DURATION measure "$SVC_PID" "$brain_url" "$brain_clip" "$brain_dur" "" \
    > "$WORK/burst-side.json" &
  b2=$!
  BURST_PIDS="$b1 $b2"
  wait "$b1" || ok=0
  wait "$b2" || ok=0
  BURST_PIDS=""
  alive
  [ $ok = 1 ] || die "$SVC burst: a wrk run failed"
  python3 -c 'import json, sys
for f in sys.argv[1:]:
    if not json.load(open(f))["requests"]: sys.exit("compare-peer: burst: no request completed (%s)" % f)' \
    "$WORK/burst-main.json" "$WORK/burst-side.json" || exit 1
  lo=$(( $(listen_overflows) - lo ))
  record "$WORK/burst.jsonl" "$(cat "$WORK/burst-main.json")" service="$SVC" load=main connections="$BURST_CONNECTIONS" \
    row=fox-matrices-json listen_overflows="$lo"
  record "$WORK/burst.jsonl" "$(cat "$WORK/burst-side.json")" service="$SVC" load=side connections="$BURST_SIDE_CONNECTIONS" row=brainstem-skinned-json
}

# ---- the runs: one service at a time ---------------------------------------------------------------------------------
: > "$WORK/runs.jsonl"; : > "$WORK/burst.jsonl"; : > "$WORK/skips.jsonl"; : > "$WORK/probes.jsonl"
for svc in $SERVICES; do
  start_service "$svc" pinned
  if [ "$UPLOAD_REPEATS" -gt 0 ]; then upload_timing; fi
  upload_assets
  for row in $ROWS; do
    WRK_CPUS=$WRK_CPUS WRK_THREADS=1 run_row pinned "$row"
  done
  if [ "$BURST" != 0 ]; then WRK_CPUS=$WRK_CPUS WRK_THREADS=1 burst; fi
  stop_service
  if [ "$UNPINNED" != 0 ]; then
    start_service "$svc" unpinned
    upload_assets
    for row in $UNPINNED_ROWS; do
      WRK_CPUS="" WRK_THREADS=$UNPINNED_WRK_THREADS run_row unpinned "$row"
    done
    stop_service
  fi
done

# ---- report ----------------------------------------------------------------------------------------------------------
C_DATE=$(date -u +%Y-%m-%dT%H:%M:%SZ) C_NPROC=$(nproc) C_CPU=$(lscpu | sed -n 's/^Model name: *//p' | head -n 1) \
C_JDK=$("$JAVA" -version 2>&1 | head -n 1) C_NODE=$(node --version) C_LOAD_BEFORE=$LOAD_BEFORE \
C_REV=$(git rev-parse --short HEAD 2>/dev/null || echo unknown) C_JAR=$JAR C_JAVA_OPTS="$JVM_MODULES $JAVA_OPTS" C_POSEKIT_ARGS=$POSEKIT_ARGS \
C_SERVICES=$SERVICES C_SERVICE_CPUS=$SERVICE_CPUS C_WRK_CPUS=$WRK_CPUS C_CONNECTIONS=$CONNECTIONS C_WARMUP=$WARMUP \
C_RUNS=$RUNS C_DURATION=$DURATION C_WRK_TIMEOUT=$WRK_TIMEOUT C_ROWS=$ROWS C_UNPINNED=$UNPINNED \
C_UNPINNED_WRK_THREADS=$UNPINNED_WRK_THREADS C_UNPINNED_ROWS=$UNPINNED_ROWS C_BURST=$BURST C_BURST_DURATION=$BURST_DURATION \
C_BURST_CONNECTIONS=$BURST_CONNECTIONS C_BURST_SIDE_CONNECTIONS=$BURST_SIDE_CONNECTIONS C_UPLOAD_REPEATS=$UPLOAD_REPEATS \
C_UPLOAD_WARMUPS=$UPLOAD_WARMUPS \
  python3 load/lib/compare-report.py "$WORK" "$RESULTS"
