#!/usr/bin/env bash
# Uploads that try to take a replica down (issue 38): memory, answers and connections under hostile concurrency.
#   load/upload-memory.sh [PROFILE...]     PROFILE: heap1g (-Xmx1g, defaults: the Serial GC on one CPU), k8s
#                                          (deploy/k8s's heap, flags and settings: -Xmx1536m, G1 as on the pod's 2
#                                          CPUs with its periodic GC, 512MB cache, 256MB in flight),
#                                          small (-Xmx256m, a 1 GB upload allowed); default: heap1g k8s
# For each profile: starts the jar (JAR, default target/posekit.jar) under `taskset -c SERVICE_CPUS` (1) on an empty
# store, then runs load/lib/upload-memory.py under `taskset -c CLIENT_CPUS` (0), one phase after the other:
#   16 concurrent 200 MB uploads of random bytes, raw, then multipart; 100 concurrent distinct 20 MB glTF models with
#   a GET timed meanwhile; 200 refused bodies (10 GB declared) trickled on after their answer;
# the resident memory is read again SETTLE seconds after the random uploads (nothing of them is kept). Prints one JSON line per phase, and per profile the
# OutOfMemoryErrors and errors in the service's log, whether it is alive, and its memory before, at peak and after.
# Environment: JAVA_HOME (JDK 25) JAR PORT (18099) SERVICE_CPUS CLIENT_CPUS OUT_DIR (/tmp) SETTLE (60) EXTRA_JAVA_OPTS
set -euo pipefail
cd "$(dirname "$0")/.."
JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}; JAR=${JAR:-target/posekit.jar}; PORT=${PORT:-18099}
SERVICE_CPUS=${SERVICE_CPUS:-1}; CLIENT_CPUS=${CLIENT_CPUS:-0}; OUT_DIR=${OUT_DIR:-/tmp}; SETTLE=${SETTLE:-60}
PROFILES=("$@"); [ ${#PROFILES[@]} -gt 0 ] || PROFILES=(heap1g k8s)
BENCH=upload-memory; . load/lib/services.sh
store=""; PID=""
trap '[ -n "$PID" ] && kill "$PID" 2>/dev/null; wait 2>/dev/null; [ -n "$store" ] && rm -rf "$store"' EXIT

phase() { taskset -c "$CLIENT_CPUS" python3 load/lib/upload-memory.py "http://127.0.0.1:$PORT" "$PID" "$@"; }
rss_mb() { awk '/VmRSS/ {print int($2 / 1024)}' "/proc/$PID/status" 2>/dev/null || echo gone; }

for profile in "${PROFILES[@]}"; do
  store=$(mktemp -d); log="$OUT_DIR/upload-memory-$profile.log"
  case $profile in
    heap1g) JAVA_OPTS="-Xmx1g" ;;
    k8s) JAVA_OPTS="-Xmx1536m -XX:+ExitOnOutOfMemoryError -XX:+UseG1GC -XX:G1PeriodicGCInterval=30000 \
-Dposekit.cache.max-bytes=512MB -Dposekit.upload.max-bytes=256MB -Dposekit.http.max-upload-bytes-in-flight=256MB" ;;
    small) JAVA_OPTS="-Xmx256m -XX:+ExitOnOutOfMemoryError -Dposekit.cache.max-bytes=48MB \
-Dposekit.upload.max-bytes=1100MB" ;;
    *) echo "unknown profile $profile" >&2; exit 2 ;;
  esac
  JAVA_OPTS="$JAVA_OPTS ${EXTRA_JAVA_OPTS:-}"
  start_posekit "$store" "$log"
  echo "== $profile ($JAVA_OPTS): started, $(rss_mb) MB resident" >&2
  before=$(rss_mb)
  if [ "$profile" = small ]; then
    phase large 1 1024 raw
  else
    phase large 16 200 raw
    phase large 16 200 multipart
  fi
  # what the refused uploads leave: nothing of them is kept, so memory should go back to where it started
  sleep "$SETTLE"
  after=$(rss_mb)
  if [ "$profile" != small ]; then
    phase models 100 20
    phase trickle 200
  fi
  alive=yes; kill -0 "$PID" 2>/dev/null || alive=no
  echo "{\"profile\":\"$profile\",\"oom\":$(grep -c OutOfMemoryError "$log" || true),\"errors_logged\":$(grep -c \
' ERROR ' "$log" || true),\"alive\":\"$alive\",\"rss_start_mb\":$before,\"rss_after_${SETTLE}s_mb\":\"$after\"}"
  [ "$alive" = yes ] && stop_service || { wait "$PID" 2>/dev/null || true; PID=""; }
  rm -rf "$store"; store=""
done
