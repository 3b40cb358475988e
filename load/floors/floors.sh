#!/usr/bin/env bash
# The floor of each candidate web stack on one core: an endpoint that answers pre-built bytes the size of Fox's
# skinning matrices (1 536 bytes float32, or JSON of posekit's length), reading the query the real endpoint reads.
# Each stack runs alone, pinned to SERVICE_CPUS (1); wrk (1 thread, CONNECTIONS 32) is pinned to WRK_CPUS (0).
#   load/floors/floors.sh            (JDK 25, wrk, node; builds the floor applications with the Maven wrapper)
# Per stack and body: WARMUP (20s) unrecorded, then RUNS (3) runs of DURATION (10s); prints the medians: req/s,
# p50/p99/p99.9 and the server's CPU µs per request (utime + stime from /proc over the run / requests).
# STACKS picks some of (node needs a Java stack before it, for the JSON size): mvc-tomcat node mvc-tomcat-4 mvc-jetty webflux boot-route reactor-netty netty
set -euo pipefail
cd "$(dirname "$0")"
JAVA=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
STACKS=${STACKS:-mvc-tomcat node mvc-tomcat-4 mvc-jetty webflux boot-route reactor-netty netty}
WARMUP=${WARMUP:-20s}; RUNS=${RUNS:-3}; PORT=${PORT:-18090}; SERVICE_CPUS=${SERVICE_CPUS:-1}
export WRK_CPUS=${WRK_CPUS:-0} DURATION=${DURATION:-10s} CONNECTIONS=${CONNECTIONS:-32} WRK_THREADS=1
JAVA_OPTS=${JAVA_OPTS:--Xmx1g}
. ../lib/measure.sh

[ -f mvc/target/floor-mvc.jar ] || (cd mvc && ../../../mvnw -q -DskipTests package)
[ -f mvc/target/floor-mvc-jetty.jar ] || (cd mvc && ../../../mvnw -q -DskipTests -Pjetty package)
[ -f webflux/target/floor-webflux.jar ] || (cd webflux && ../../../mvnw -q -DskipTests package)

PID=""
trap '[ -n "$PID" ] && kill $PID 2>/dev/null; wait 2>/dev/null' EXIT
start() { # STACK
  local boot=(--server.port=$PORT --server.address=127.0.0.1) launcher=org.springframework.boot.loader.launch.PropertiesLauncher
  case $1 in
    node) taskset -c "$SERVICE_CPUS" node node/floor.mjs $PORT "$JSON_BYTES" & ;;
    mvc-tomcat) taskset -c "$SERVICE_CPUS" "$JAVA" $JAVA_OPTS -jar mvc/target/floor-mvc.jar "${boot[@]}" & ;;
    mvc-tomcat-4) taskset -c "$SERVICE_CPUS" "$JAVA" $JAVA_OPTS -jar mvc/target/floor-mvc.jar "${boot[@]}" \
        --server.tomcat.threads.max=4 --server.tomcat.threads.min-spare=4 & ;;
    mvc-jetty) taskset -c "$SERVICE_CPUS" "$JAVA" $JAVA_OPTS -jar mvc/target/floor-mvc-jetty.jar "${boot[@]}" & ;;
    webflux) taskset -c "$SERVICE_CPUS" "$JAVA" $JAVA_OPTS -Dreactor.netty.ioWorkerCount=1 -jar webflux/target/floor-webflux.jar "${boot[@]}" & ;;
    boot-route) taskset -c "$SERVICE_CPUS" "$JAVA" $JAVA_OPTS -Dreactor.netty.ioWorkerCount=1 -Dloader.main=floor.route.FloorBootRoute \
        -cp webflux/target/floor-webflux.jar $launcher "${boot[@]}" & ;;
    reactor-netty) taskset -c "$SERVICE_CPUS" "$JAVA" $JAVA_OPTS -Dreactor.netty.ioWorkerCount=1 -Dserver.port=$PORT \
        -Dloader.main=floor.FloorReactorNetty -cp webflux/target/floor-webflux.jar $launcher & ;;
    netty) taskset -c "$SERVICE_CPUS" "$JAVA" $JAVA_OPTS -Dserver.port=$PORT -Dloader.main=floor.FloorNetty \
        -cp webflux/target/floor-webflux.jar $launcher & ;;
    *) echo "unknown stack $1" >&2; exit 2 ;;
  esac
  PID=$!
  for _ in $(seq 1 120); do curl -fs -o /dev/null "http://127.0.0.1:$PORT/floor" && return 0; sleep 0.5; done
  echo "$1 did not start" >&2; exit 1
}
stop() { kill "$PID"; wait "$PID" 2>/dev/null || true; PID=""; }

JSON_BYTES=""
results=$(mktemp)
for stack in $STACKS; do
  start "$stack"
  if [ -z "$JSON_BYTES" ] && [ "$stack" != node ]; then JSON_BYTES=$(curl -fs "http://127.0.0.1:$PORT/floor" | wc -c); fi
  for body in binary json; do
    accept=""; [ $body = binary ] && accept=application/octet-stream
    echo "== $stack $body: warm-up $WARMUP" >&2
    DURATION=$WARMUP measure "$PID" "http://127.0.0.1:$PORT/floor" Walk 0.7 "$accept" >/dev/null
    for r in $(seq 1 "$RUNS"); do
      m=$(measure "$PID" "http://127.0.0.1:$PORT/floor" Walk 0.7 "$accept")
      echo "$stack $body $r $m" >&2
      echo "$stack $body $m" >> "$results"
    done
  done
  stop
done
python3 - "$results" <<'PY'
import json, statistics, sys
rows = {}
for l in open(sys.argv[1]):
    stack, body, js = l.split(" ", 2)
    rows.setdefault((stack, body), []).append(json.loads(js))
order = []
for k in rows:
    if k[0] not in order: order.append(k[0])
med = lambda xs, f: statistics.median(x[f] for x in xs)
print("| stack, one core | binary req/s | CPU µs/req | p50 / p99 / p99.9 ms | JSON req/s | CPU µs/req | p50 / p99 / p99.9 ms |")
print("|---|---:|---:|---|---:|---:|---|")
for s in order:
    cells = []
    for b in ("binary", "json"):
        xs = rows.get((s, b), [])
        if not xs: cells += ["-", "-", "-"]; continue
        cells += ["%.0f" % med(xs, "rps"), "%.1f" % med(xs, "cpu_us_per_req"),
                  "%.2f / %.2f / %.2f" % (med(xs, "p50_ms"), med(xs, "p99_ms"), med(xs, "p999_ms"))]
    print("| %s | %s |" % (s, " | ".join(cells)))
PY
