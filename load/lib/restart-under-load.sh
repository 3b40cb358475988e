#!/usr/bin/env bash
# A replica restarted under load, as Kubernetes does it (load/cold-start.sh --kubernetes; issue 41): two posekit
# replicas on one shared store directory behind nginx, wrk through nginx all along, one replica taken out and started
# again; the errors and the p99 second by second through the restart, for each MODES entry.
#   load/cold-start.sh --kubernetes     (needs a built jar, nginx, wrk, python3, curl, taskset)
#
# For each mode, RUNS times:
#  1. starts replicas a and b (the jar as load/lib/services.sh starts it, both pinned to SERVICE_CPUS) on one fresh
#     store directory, waits until both are ready, uploads Fox.glb;
#  2. an endpoints controller (this script, every PERIOD s, as the kubelet's readiness probe and the endpoints
#     controller): nginx's upstream holds exactly the replicas whose /actuator/health/readiness answered 200 at the
#     last probe (removed after FAILURES failing probes in a row, added after one success), reloaded on each change;
#  3. wrk (pinned to WRK_CPUS, like nginx) runs back-to-back windows of WINDOW through nginx on the Fox matrices, JSON;
#  4. after BEFORE s of load replica a is taken out as a pod is: out of the upstream at once (its pod is terminating),
#     then SIGTERM after PRESTOP s (deploy/k8s's preStop pause; its graceful shutdown finishes what it serves), and a
#     new process started in its place as soon as the old one has exited; load continues until AFTER s past the new
#     replica's entry into the upstream.
# Modes: "budget" = readiness after a fixed 5 s warm-up (posekit.warm-up.duration=5s, what issue 41 found: the
# service before it), "evidence" = the default (readiness once the warm-up's rate has levelled and the compilers are
# idle). Output: per run, a markdown table with one row per window (seconds since the load began, the replicas in the
# upstream, req/s, p99 ms, failed requests: non-2xx, connect, write and timeout errors; and apart, read errors: the
# keep-alive connections an nginx reload closed under wrk), then a summary line (failures, worst window p99, the p99
# and rate of the windows from the replica's return, the time it took to return); raw figures to RESULTS as JSON.
# Environment: JAR (target/aot/posekit.jar) JAVA_HOME JAVA_OPTS (-Xmx1g) SHARED (../shared) MODES ("budget evidence")
#   RUNS (1) SERVICE_CPUS (1) WRK_CPUS (0) CONNECTIONS (32) WINDOW (1s) BEFORE (10) AFTER (20) PERIOD (2)
#   FAILURES (2, deploy/k8s's failureThreshold) PRESTOP (2; deploy/k8s waits 15 s for DNS, which this topology has not)
#   PORT (18090: nginx; the replicas 18091, 18092) RESULTS (/tmp/posekit-restart.json) OUT_DIR (/tmp)
set -euo pipefail
cd "$(dirname "$0")/../.."
JAR=${JAR:-target/aot/posekit.jar}; JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
JAVA_OPTS=${JAVA_OPTS:--Xmx1g}; SHARED=${SHARED:-../shared}; MODES=${MODES:-budget evidence}; RUNS=${RUNS:-1}
SERVICE_CPUS=${SERVICE_CPUS:-1}; WRK_CPUS=${WRK_CPUS:-0}; CONNECTIONS=${CONNECTIONS:-32}; WINDOW=${WINDOW:-1s}
BEFORE=${BEFORE:-10}; AFTER=${AFTER:-20}; PERIOD=${PERIOD:-2}; FAILURES=${FAILURES:-2}; PRESTOP=${PRESTOP:-2}
PORT=${PORT:-18090}; RESULTS=${RESULTS:-/tmp/posekit-restart.json}; OUT_DIR=${OUT_DIR:-/tmp}
FOX=$SHARED/conformance/assets/gltf/Fox/Fox.glb
say() { echo "== $(date +%H:%M:%S) $*" >&2; }
die() { echo "restart-under-load: $*" >&2; exit 1; }
for tool in nginx wrk python3 curl taskset; do command -v "$tool" >/dev/null || die "$tool is needed"; done
[ -f "$JAR" ] || die "$JAR is missing: ./mvnw -DskipTests package"
[ -f "$FOX" ] || die "$FOX is missing (SHARED=$SHARED)"
JAR=$(realpath "$JAR"); WORK=$(mktemp -d); : > "$RESULTS"
declare -A PIDS=() PORTS=([a]=$((PORT + 1)) [b]=$((PORT + 2)))
cleanup() {
  for r in "${!PIDS[@]}"; do kill "${PIDS[$r]}" 2>/dev/null || true; done
  [ -f "$WORK/nginx.pid" ] && nginx -p "$WORK" -c nginx.conf -s stop 2>/dev/null || true
  wait 2>/dev/null || true; rm -rf "$WORK"
}
trap cleanup EXIT

start_replica() { # NAME MODE_ARGS...
  local name=$1 aot=() dir; shift
  dir=$(dirname "$JAR")
  [ -f "${JAR%.jar}.aot" ] && aot=(-XX:AOTCache="$(basename "${JAR%.jar}").aot" -Dspring.aot.enabled=true)
  # shellcheck disable=SC2086
  (cd "$dir" && exec taskset -c "$SERVICE_CPUS" "$JAVA_HOME/bin/java" "${aot[@]}" $JAVA_OPTS -jar "$(basename "$JAR")" \
    --server.port="${PORTS[$name]}" --server.address=127.0.0.1 --posekit.store.dir="$WORK/store" \
    --logging.level.posekit.access=WARN "$@") >> "$OUT_DIR/restart-$name.log" 2>&1 &
  PIDS[$name]=$!
}
ready() { curl -fs -m 2 -o /dev/null "http://127.0.0.1:${PORTS[$1]}/actuator/health/readiness"; }
write_upstream() { # the replicas in it (none: every request 502s), then nginx reloaded if it runs
  {
    echo "upstream posekit {"
    [ $# -eq 0 ] && echo "  server 127.0.0.1:1 down;"
    for r in "$@"; do echo "  server 127.0.0.1:${PORTS[$r]};"; done
    echo "  keepalive 64;"
    echo "}"
  } > "$WORK/upstream.conf"
  echo "$*" > "$WORK/members"
  if [ -f "$WORK/nginx.pid" ]; then nginx -p "$WORK" -c nginx.conf -s reload; fi
}
controller() { # as the kubelet and the endpoints controller: probe every PERIOD s, keep the upstream in step
  local -A fails=() in=([a]=1 [b]=1)
  while :; do
    local changed=0 members=()
    for r in a b; do
      if [ -f "$WORK/out-$r" ]; then # terminating: out at once, until its new process is ready
        [ -n "${in[$r]:-}" ] && { in[$r]=""; changed=1; }
        ready "$r" && [ -f "$WORK/new-$r" ] && { rm -f "$WORK/out-$r"; in[$r]=1; changed=1; date +%s.%N > "$WORK/back-$r"; }
      elif ready "$r"; then
        fails[$r]=0; [ -z "${in[$r]:-}" ] && { in[$r]=1; changed=1; }
      else
        fails[$r]=$(( ${fails[$r]:-0} + 1 ))
        [ -n "${in[$r]:-}" ] && [ "${fails[$r]}" -ge "$FAILURES" ] && { in[$r]=""; changed=1; }
      fi
      [ -n "${in[$r]:-}" ] && members+=("$r")
    done
    [ "$changed" = 1 ] && write_upstream "${members[@]}"
    sleep "$PERIOD"
  done
}

mkdir -p "$WORK/logs"
cat > "$WORK/nginx.conf" <<EOF
worker_processes 1;
pid $WORK/nginx.pid;
error_log $WORK/logs/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  include $WORK/upstream.conf;
  server {
    listen 127.0.0.1:$PORT;
    location / {
      proxy_pass http://posekit;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      # as ingress-nginx: a request whose connection failed goes to the next replica, never one that was answered
      proxy_next_upstream error timeout;
    }
  }
}
EOF
write_upstream a b
taskset -c "$WRK_CPUS" nginx -p "$WORK" -c nginx.conf

for mode in $MODES; do
  case $mode in
    budget) MODE_ARGS=(--posekit.warm-up.duration=5s) ;;
    evidence) MODE_ARGS=() ;;
    *) die "unknown mode $mode (budget, evidence)" ;;
  esac
  for run in $(seq 1 "$RUNS"); do
    rm -rf "$WORK/store" "$WORK"/out-* "$WORK"/new-* "$WORK"/back-*; mkdir -p "$WORK/store"
    : > "$OUT_DIR/restart-a.log"; : > "$OUT_DIR/restart-b.log"
    say "$mode run $run: starting replicas a and b (${MODE_ARGS[*]:-defaults})"
    start_replica a "${MODE_ARGS[@]}"; start_replica b "${MODE_ARGS[@]}"
    for _ in $(seq 1 600); do ready a && ready b && break; sleep 0.5; done
    ready a && ready b || die "the replicas did not become ready (logs: $OUT_DIR/restart-a.log, -b.log)"
    write_upstream a b
    curl -fs -o /dev/null -H 'Content-Type: model/gltf-binary' --data-binary @"$FOX" "http://127.0.0.1:$PORT/api/v1/assets"
    id=$(sha256sum "$FOX" | cut -d' ' -f1)
    url="http://127.0.0.1:$PORT/api/v1/assets/$id/skins/0/matrices"
    controller & CONTROLLER=$!
    t0=$(date +%s.%N); restarted=""; windows=()
    while :; do
      now=$(date +%s.%N)
      elapsed=$(python3 -c "print(f'{$now - $t0:.1f}')")
      if [ -z "$restarted" ] && python3 -c "import sys; sys.exit(0 if $now - $t0 >= $BEFORE else 1)"; then
        say "taking replica a out and starting it again"
        touch "$WORK/out-a"; restarted=$now
        ( sleep "$PRESTOP"; kill "${PIDS[a]}"; while kill -0 "${PIDS[a]}" 2>/dev/null; do sleep 0.1; done
          date +%s.%N > "$WORK/exited-a" ) &
      fi
      if [ -n "$restarted" ] && [ -f "$WORK/exited-a" ] && [ ! -f "$WORK/new-a" ]; then
        start_replica a "${MODE_ARGS[@]}"; touch "$WORK/new-a"; date +%s.%N > "$WORK/started-a"
      fi
      line=$(taskset -c "$WRK_CPUS" wrk -t1 -c"$CONNECTIONS" -d"$WINDOW" --timeout 5s -s load/lib/sample.lua "$url" \
        -- "/api/v1/assets/$id/skins/0/matrices" Walk 1.0 | grep '^RESULT ' || true)
      members=$(cat "$WORK/members")
      windows+=("$elapsed|$members|$line")
      echo "$mode run $run t=$elapsed s upstream=[$members] $line" >&2
      if [ -f "$WORK/back-a" ] && python3 -c "import sys; sys.exit(0 if $now - $(cat "$WORK/back-a") >= $AFTER else 1)"; then
        break
      fi
    done
    kill "$CONTROLLER" 2>/dev/null || true; wait "$CONTROLLER" 2>/dev/null || true
    printf '%s\n' "${windows[@]}" > "$WORK/windows"
    python3 - "$mode" "$run" "$t0" "$restarted" "$(cat "$WORK/started-a")" "$(cat "$WORK/back-a")" "$RESULTS" \
      "$WORK/windows" <<'PY'
import json, sys
mode, run, results = sys.argv[1], int(sys.argv[2]), sys.argv[7]
t0, restarted, started, back = (float(a) for a in sys.argv[3:7])
rows = []
for line in open(sys.argv[8]).read().splitlines():
    t, members, result = line.split("|", 2)
    r = {k: float(v) for k, v in (kv.split("=") for kv in result.split()[1:])} if result else {}
    rows.append({"t": float(t), "upstream": members.split(), **r})
for w in rows:  # a window wrk could not finish counts as nothing served
    for k in ("rps", "p99_ms", "errors", "non2xx"):
        w.setdefault(k, 0.0)
start_rel, back_rel = started - restarted, back - restarted
print(f"| {mode} | run {run} | new process after {start_rel:.1f} s | back in the upstream after {back_rel:.1f} s |")
print("| t s | upstream | req/s | p99 ms | failed (non-2xx, connect, timeout) | closed by a reload |")
print("|---:|---|---:|---:|---:|---:|")
for w in rows:
    w["failed"] = int(w["non2xx"] + w.get("err_connect", 0) + w.get("err_timeout", 0) + w.get("err_write", 0))
    print(f"| {w['t']:.1f} | {' '.join(w['upstream'])} | {w['rps']:.0f} | {w['p99_ms']:.1f} | {w['failed']} "
          f"| {int(w.get('err_read', 0))} |")
# nginx applies an upstream change by reloading: its old workers close their idle keep-alive connections, and a
# request wrk sends on one just then is a read error (a browser or an SDK retries it); counted apart
errors = sum(w["failed"] for w in rows)
closed = int(sum(w.get("err_read", 0) for w in rows))
after = [w for w in rows if w["t"] >= back - t0]  # the windows from the replica's return
summary = {"mode": mode, "run": run, "failed": errors, "closed_by_reload": closed, "worst_p99_ms": max(w["p99_ms"] for w in rows),
           "new_process_s": round(start_rel, 1), "back_s": round(back_rel, 1),
           "p99_ms_after_back_max": max((w["p99_ms"] for w in after), default=None),
           "rps_after_back_first5": [round(w["rps"]) for w in after[:5]], "windows": rows}
print(f"summary: {json.dumps({k: v for k, v in summary.items() if k != 'windows'})}")
with open(results, "a") as f:
    f.write(json.dumps(summary) + "\n")
PY
    for r in a b; do kill "${PIDS[$r]}" 2>/dev/null || true; wait "${PIDS[$r]}" 2>/dev/null || true; done
    PIDS=(); rm -f "$WORK/exited-a"; write_upstream a b
  done
done
