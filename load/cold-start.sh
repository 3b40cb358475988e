#!/usr/bin/env bash
# Cold-start benchmark of posekit and the peer (SHARED/tools/peer), one service at a time, on loopback: how long a
# fresh process takes to answer and to be ready, then how fast it serves the pinned Fox matrices JSON load in the
# windows after it said it was ready (the warm-up curve), beside the warm benchmark (load/compare-peer.sh).
#   load/cold-start.sh          (needs a built posekit jar, wrk, node + npm, python3, curl, taskset)
#   load/cold-start.sh --kubernetes   two replicas behind nginx, one restarted under load (load/lib/restart-under-load.sh)
#
# For each service (posekit, then the peer), RUNS times:
#  1. starts it fresh under `taskset -c SERVICE_CPUS` (every thread inherits the affinity) — the jar with java, or
#     for KIND=image the Docker image with `docker run --cpuset-cpus SERVICE_CPUS` — at t0;
#  2. polls every 20 ms: first answer = the first HTTP answer of any status to the readiness probe (posekit
#     /actuator/health/readiness, the peer /health), ready = the first 200 of it; both in seconds since t0, and the
#     service's CPU seconds by then (user + system of every thread: on a busy machine wall times stretch with the
#     other processes' load, CPU times much less), and for posekit that CPU by thread (load/lib/thread-cpu.py: the C1
#     and C2 compilers, GC, main's start-up and warm-up, the event loops, the rest);
#  3. uploads Fox.glb and reads its "Walk" clip's duration from the summary;
#  4. WINDOWS back-to-back wrk runs of DURATION each (wrk -t1 -cCONNECTIONS pinned to WRK_CPUS, lib/measure.sh:
#     Fox skinning matrices as JSON at random times of Walk), each window's req/s, p50 and p99;
#  5. then the memory: the resident set, and for the jar the heap a full GC leaves (jcmd GC.run, GC.heap_info).
# Output (stdout): a header line (date, nproc, CPU, versions, load average, settings) and a markdown table per run
# row: service, first answer s, ready s, the CPU seconds at each, then req/s and p99 ms of each window; then the medians over the RUNS of each
# figure. Raw figures go to RESULTS as JSON lines. Progress goes to stderr.
#
# Environment (default):
#   JAR (target/aot/posekit.jar, the extracted jar ./mvnw package trains the AOT cache beside)  JAVA_HOME (JDK 25)  JAVA_OPTS (-Xmx1g)
#   AOT (auto: -XX:AOTCache=<jar without .jar>.aot when that file exists; none: never; or a path)
#   SPRING_AOT (-Dspring.aot.enabled=true: the context Spring processed at package time; empty: the reflective start)
#   JVM_MODULES (empty: the scalar kernels; --add-modules jdk.incubator.vector: the Vector API ones)
#   POSEKIT_ARGS (--logging.level.posekit.access=WARN)  KIND (jar; image = Docker IMAGE)  IMAGE (posekit)
#   SHARED (../shared)  PORT (18080)  PEER_PORT (18088)  SERVICES ("posekit peer")  RUNS (3)
#   SERVICE_CPUS (1)  WRK_CPUS (0)  CONNECTIONS (32)  WINDOWS (9)  DURATION (10s)  WRK_TIMEOUT (10s)
#   RESULTS (/tmp/posekit-cold-start.json)  KEEP_WORK (0)
set -euo pipefail
cd "$(dirname "$0")/.."
# --kubernetes: a replica restarted under load behind nginx instead (load/lib/restart-under-load.sh says how)
if [ "${1:-}" = --kubernetes ]; then exec load/lib/restart-under-load.sh; fi
SHARED=${SHARED:-../shared}; JAR=${JAR:-target/aot/posekit.jar}; AOT=${AOT:-auto}
JAVA_OPTS=${JAVA_OPTS:--Xmx1g}; SPRING_AOT=${SPRING_AOT--Dspring.aot.enabled=true}; JVM_MODULES=${JVM_MODULES:-}
JAVA=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
POSEKIT_ARGS=${POSEKIT_ARGS---logging.level.posekit.access=WARN}
KIND=${KIND:-jar}; IMAGE=${IMAGE:-posekit}
PORT=${PORT:-18080}; PEER_PORT=${PEER_PORT:-18088}; SERVICES=${SERVICES:-posekit peer}; RUNS=${RUNS:-3}
SERVICE_CPUS=${SERVICE_CPUS:-1}; WRK_CPUS=${WRK_CPUS:-0}; CONNECTIONS=${CONNECTIONS:-32}
WINDOWS=${WINDOWS:-9}; DURATION=${DURATION:-10s}; WRK_TIMEOUT=${WRK_TIMEOUT:-10s}
RESULTS=${RESULTS:-/tmp/posekit-cold-start.json}; KEEP_WORK=${KEEP_WORK:-0}
export WRK_TIMEOUT DURATION CONNECTIONS WRK_CPUS
# shellcheck source-path=SCRIPTDIR/..
. load/lib/measure.sh

say() { echo "== $*" >&2; }
die() { echo "cold-start: $*" >&2; exit 1; }

for tool in wrk python3 curl taskset; do command -v "$tool" >/dev/null || die "$tool is needed"; done
[[ $KIND = jar || $KIND = image ]] || die "KIND is jar or image (got '$KIND')"
if [ "$KIND" = jar ]; then
  [ -f "$JAR" ] || die "$JAR is missing: build it first with ./mvnw -DskipTests package (or set JAR)"
  JAR=$(cd "$(dirname "$JAR")" && pwd)/$(basename "$JAR")
  [ -x "$JAVA" ] || die "no java at $JAVA (set JAVA_HOME to a JDK 25)"
  case $AOT in
    auto) AOT_FILE=${JAR%.jar}.aot; [ -f "$AOT_FILE" ] || AOT_FILE="" ;;
    none) AOT_FILE="" ;;
    *) AOT_FILE=$AOT; [ -f "$AOT_FILE" ] || die "AOT=$AOT is not a file" ;;
  esac
else
  command -v docker >/dev/null && docker image inspect "$IMAGE" >/dev/null 2>&1 || die "no Docker image $IMAGE"
  AOT_FILE="(the image's)"
fi
for s in $SERVICES; do [[ $s = posekit || $s = peer ]] || die "SERVICES takes posekit and/or peer (got '$s')"; done
SHARED=$(cd "$SHARED" && pwd); PEER_DIR=$SHARED/tools/peer; FOX=$SHARED/conformance/assets/gltf/Fox/Fox.glb
[ -f "$FOX" ] || die "no $FOX"
if [[ " $SERVICES " = *" peer "* ]]; then
  command -v node >/dev/null || die "node is needed for the peer"
  for d in "$SHARED/tools/oracle" "$PEER_DIR"; do
    [ -d "$d/node_modules" ] || (cd "$d" && npm ci --silent >&2) || die "npm ci in $d failed"
  done
fi

WORK=$(mktemp -d /tmp/posekit-cold.XXXXXX)
LOAD_BEFORE=$(cut -d" " -f1-3 /proc/loadavg)
SVC_PID=""; CONTAINER=""
cleanup() {
  local rc=$?
  [ -n "$SVC_PID" ] && { kill "$SVC_PID" 2>/dev/null || true; wait "$SVC_PID" 2>/dev/null || true; }
  [ -n "$CONTAINER" ] && docker rm -f "$CONTAINER" >/dev/null 2>&1 || true
  if [ "$KEEP_WORK" = 1 ]; then echo "cold-start: logs kept in $WORK" >&2; else rm -rf "$WORK"; fi
  [ $rc -eq 0 ] || echo "cold-start: FAILED (exit $rc)" >&2
}
trap cleanup EXIT
trap 'exit 130' INT TERM
: > "$RESULTS"
now() { date +%s.%N; }
since() { python3 -c "import sys; print('%.2f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$1" "$2"; }

start() { # SERVICE RUN: starts it fresh at T0; sets SVC_PID (or CONTAINER), BASE, PROBE, LOG
  local pin=(taskset -c "$SERVICE_CPUS") aot=()
  LOG=$WORK/$1-$2.log
  if [ "$1" = posekit ]; then
    BASE=http://127.0.0.1:$PORT; PROBE=$BASE/actuator/health/readiness
    T0=$(now)
    if [ "$KIND" = jar ]; then
      [ -n "$AOT_FILE" ] && aot=(-XX:AOTCache="$(realpath "$AOT_FILE")")
      # from the jar's directory, named as the training run named it (a cache is used only with the class path it was
      # made with, relative names included); exec keeps the PID the java one
      # shellcheck disable=SC2086 # JAVA_OPTS and POSEKIT_ARGS are lists of options
      (cd "$(dirname "$JAR")" && exec "${pin[@]}" "$JAVA" $JVM_MODULES "${aot[@]}" $SPRING_AOT $JAVA_OPTS \
        -jar "$(basename "$JAR")" --server.port="$PORT" --server.address=127.0.0.1 --posekit.store.dir="$WORK/store-$2" \
        $POSEKIT_ARGS >"$LOG" 2>&1) &
      SVC_PID=$!
    else
      # shellcheck disable=SC2086
      CONTAINER=$(docker run -d --rm --cpuset-cpus "$SERVICE_CPUS" -p "127.0.0.1:$PORT:8080" \
        -e POSEKIT_SECURITY_MODE=open "$IMAGE" $POSEKIT_ARGS)
    fi
  else
    BASE=http://127.0.0.1:$PEER_PORT; PROBE=$BASE/health
    T0=$(now)
    (cd "$PEER_DIR" && exec "${pin[@]}" node server.mjs --port "$PEER_PORT" --host 127.0.0.1) >"$LOG" 2>&1 &
    SVC_PID=$!
  fi
}
stop() {
  if [ -n "$SVC_PID" ]; then kill "$SVC_PID" 2>/dev/null || true; wait "$SVC_PID" 2>/dev/null || true; SVC_PID=""; fi
  if [ -n "$CONTAINER" ]; then docker logs "$CONTAINER" >"$LOG" 2>&1 || true; docker rm -f "$CONTAINER" >/dev/null 2>&1 || true; CONTAINER=""; fi
}
alive() {
  if [ -n "$SVC_PID" ]; then kill -0 "$SVC_PID" 2>/dev/null; else docker inspect "$CONTAINER" >/dev/null 2>&1; fi
}
wait_ready() { # sets FIRST and READY (s since T0), CPU_FIRST and CPU_READY (the service's CPU seconds by then)
  local code t
  FIRST=""; READY=""; CPU_FIRST=""; CPU_READY=""
  while :; do
    code=$(curl -s -o /dev/null -m 1 -w '%{http_code}' "$PROBE" || true)
    t=$(now)
    if [ "$code" != 000 ] && [ -z "$FIRST" ]; then FIRST=$(since "$T0" "$t"); CPU_FIRST=$(cpu_s); fi
    if [ "$code" = 200 ]; then READY=$(since "$T0" "$t"); CPU_READY=$(cpu_s); return 0; fi
    alive || { tail -n 30 "$LOG" >&2; die "$SVC exited while starting"; }
    [ "$(since "$T0" "$t" | cut -d. -f1)" -lt 180 ] || die "$SVC not ready within 180 s"
    sleep 0.02
  done
}
cpu_s() { # the service's CPU time so far (user + system, every thread), seconds: what start-up costs, whatever else
          # the machine runs (wall times stretch with the load of other processes, CPU times much less)
  local p; p=$(service_pid) && python3 -c "import sys; print('%.2f' % (int(sys.argv[1]) / int(sys.argv[2])))" "$(cpu_ticks "$p")" "$_clk_tck"
}
service_pid() { # the PID whose CPU time measure() reads: the java / node process, or the container's
  if [ -n "$SVC_PID" ]; then echo "$SVC_PID"; else docker inspect -f '{{.State.Pid}}' "$CONTAINER"; fi
}

ROWS=()
for SVC in $SERVICES; do
  for run in $(seq 1 "$RUNS"); do
    say "$SVC run $run: starting (CPUs $SERVICE_CPUS, $KIND${AOT_FILE:+, AOT cache $AOT_FILE})"
    start "$SVC" "$run"
    wait_ready
    say "$SVC run $run: first answer after $FIRST s ($CPU_FIRST s of CPU), ready after $READY s ($CPU_READY s of CPU)"
    # where the CPU of the start and the warm-up went, by thread (compilers, GC, main, event loops), at readiness
    BY_THREAD='{}'
    [ "$SVC" = posekit ] && BY_THREAD=$(python3 load/lib/thread-cpu.py "$(service_pid)" 2>/dev/null || echo '{}')
    say "$SVC run $run: CPU s by thread at ready: $BY_THREAD"
    out=$WORK/fox-$SVC-$run.json
    code=$(curl -sS -o "$out" -w '%{http_code}' -H 'Content-Type: model/gltf-binary' --data-binary @"$FOX" "$BASE/api/v1/assets")
    [ "$code" = 201 ] || [ "$code" = 200 ] || die "$SVC: Fox upload answered $code: $(head -c 300 "$out")"
    id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["id"])' "$out")
    curl -sS -o "$out.summary" "$BASE/api/v1/assets/$id"
    dur=$(python3 -c 'import json,sys; print(next(c["duration"] for c in json.load(open(sys.argv[1]))["clips"] if c.get("name") == "Walk"))' "$out.summary")
    pid=$(service_pid)
    row="| $SVC | $run | $FIRST | $READY | $CPU_FIRST | $CPU_READY |"
    windows=()
    for w in $(seq 1 "$WINDOWS"); do
      m=$(measure "$pid" "$BASE/api/v1/assets/$id/skins/0/matrices" Walk "$dur" "") || die "$SVC: wrk window $w failed"
      read -r rps p99 errs <<<"$(python3 -c 'import json,sys; r=json.loads(sys.argv[1]); print(round(r["rps"]), round(r["p99_ms"], 1), r["errors"] + r["non2xx"])' "$m")"
      [ "$errs" = 0 ] || say "$SVC window $w: $errs errors"
      row+=" $rps / $p99 |"
      windows+=("$m")
      say "$SVC run $run window $w: $rps req/s, p99 $p99 ms"
    done
    # memory after the load: the heap a full GC leaves (the jar; the JRE image has no jcmd) and the resident set
    heap=-1; rss=$(awk '/^VmRSS/ {print int($2 / 1024)}' "/proc/$pid/status" 2>/dev/null || echo -1)
    if [ "$SVC" = posekit ] && [ "$KIND" = jar ]; then
      "${JAVA%/java}/jcmd" "$pid" GC.run >/dev/null 2>&1 || true
      # the heap's lines (G1: one; Serial: the young and the old generation), not Metaspace's
      heap=$("${JAVA%/java}/jcmd" "$pid" GC.heap_info 2>/dev/null | grep -v -i -e metaspace -e 'class space' \
        | sed -n 's/.*, used \([0-9]*\)K.*/\1/p' | awk '{s += $1} END {print int(s / 1024)}')
    fi
    say "$SVC run $run: after the load, heap after a full GC $heap MB, resident $rss MB"
    python3 - "$RESULTS" "$SVC" "$run" "$FIRST" "$READY" "$CPU_FIRST" "$CPU_READY" "$KIND" "${AOT_FILE:-none}" "$heap" "$rss" "$BY_THREAD" "${windows[@]}" <<'PY'
import json, sys
path, svc, run, first, ready, cpu_first, cpu_ready, kind, aot, heap, rss, by_thread, *w = sys.argv[1:]
open(path, "a").write(json.dumps({"service": svc, "run": int(run), "first_answer_s": float(first),
    "ready_s": float(ready), "cpu_first_answer_s": float(cpu_first), "cpu_ready_s": float(cpu_ready), "kind": kind,
    "aot": aot, "heap_after_gc_mb": int(heap), "rss_mb": int(rss), "cpu_by_thread_at_ready_s": json.loads(by_thread),
    "windows": [json.loads(x) for x in w]}) + "\n")
PY
    ROWS+=("$row")
    stop
    sleep 2
  done
done

echo "cold start $(date -u +%FT%TZ), nproc $(nproc), $(lscpu | sed -n 's/^Model name: *//p'), $("$JAVA" -version 2>&1 | head -n 1), node $(node --version 2>/dev/null || echo -), load before $LOAD_BEFORE; service CPUs $SERVICE_CPUS, wrk CPUs $WRK_CPUS, -c$CONNECTIONS, $KIND, JAVA_OPTS '$JAVA_OPTS', AOT cache ${AOT_FILE:-none}, '$SPRING_AOT', modules '$JVM_MODULES'"
echo
hdr="| service | run | first answer s | ready s | CPU s at first answer | CPU s at ready |"; sep="|---|---|---|---|---|---|"
for w in $(seq 1 "$WINDOWS"); do hdr+=" window $w req/s / p99 ms |"; sep+="---|"; done
echo "$hdr"; echo "$sep"
printf '%s\n' "${ROWS[@]}"
echo
python3 - "$RESULTS" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print("medians over the runs:")
print()
n = max(len(r["windows"]) for r in rows)
print("| service | first answer s | ready s | CPU s at first answer | CPU s at ready | heap after GC MB | RSS MB | " + " | ".join("%d–%d s" % (10 * i, 10 * i + 10) for i in range(n)) + " |")
print("|---|---|---|---|---|---|---|" + "---|" * n)
for svc in dict.fromkeys(r["service"] for r in rows):
    rs = [r for r in rows if r["service"] == svc]
    med = lambda xs: statistics.median(xs)
    cells = []
    for i in range(n):
        cells.append("%d / %.1f" % (med([r["windows"][i]["rps"] for r in rs]), med([r["windows"][i]["p99_ms"] for r in rs])))
    print("| %s | %.2f | %.2f | %.2f | %.2f | %s | %s | %s |" % (svc, med([r["first_answer_s"] for r in rs]), med([r["ready_s"] for r in rs]),
          med([r["cpu_first_answer_s"] for r in rs]), med([r["cpu_ready_s"] for r in rs]),
          "%d" % med([r.get("heap_after_gc_mb", -1) for r in rs]) if all(r.get("heap_after_gc_mb", -1) >= 0 for r in rs) else "–",
          "%d" % med([r.get("rss_mb", -1) for r in rs]), " | ".join(cells)))
by = [r["cpu_by_thread_at_ready_s"] for r in rows if r.get("cpu_by_thread_at_ready_s")]
if by:
    print()
    print("CPU seconds by thread at readiness (posekit, medians): " + ", ".join(
        "%s %.2f" % (k, statistics.median([b.get(k, 0) for b in by])) for k in by[0]))
PY
