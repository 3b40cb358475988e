#!/usr/bin/env bash
# Where a request's CPU time goes: posekit pinned to one core (SERVICE_CPUS, 1) under wrk load (WRK_CPUS, 0; one
# thread, CONNECTIONS 32) on one endpoint of Fox, recorded by JFR (method samples), then summarised.
#   load/profile.sh [matrices|matrices-binary|skinned|health|summary]    (default matrices: JSON skinning matrices)
# Environment: JAR (target/posekit.jar) JAVA_HOME (JDK 25) WARMUP (15s) DURATION (20s) PORT (18095) TOP (25)
#   OUT (/tmp/posekit-profile.jfr) SHARED (../shared)
#   POSEKIT_ARGS (--logging.level.posekit.access=WARN, as load/compare-peer.sh: no access log; empty = log every request)
#   PROFILER (jfr: JFR method samples, Java frames only; async: async-profiler's CPU samples with the kernel's frames,
#   tools.profiler:async-profiler 4.1 fetched from Maven Central into ~/.cache/posekit, attached after the warm-up)
# Prints the share of samples with a frame of each part of a request, and the top frames by self time.
set -euo pipefail
cd "$(dirname "$0")/.."
WHAT=${1:-matrices}
JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}; JAR=${JAR:-target/posekit.jar}
WARMUP=${WARMUP:-15s}; DURATION=${DURATION:-20s}; PORT=${PORT:-18095}; TOP=${TOP:-25}
OUT=${OUT:-/tmp/posekit-profile.jfr}; SHARED=${SHARED:-../shared}
export WRK_CPUS=${WRK_CPUS:-0} CONNECTIONS=${CONNECTIONS:-32} WRK_THREADS=1
. load/lib/measure.sh
store=$(mktemp -d)
trap 'kill $PID 2>/dev/null; wait 2>/dev/null; rm -rf "$store"' EXIT
taskset -c "${SERVICE_CPUS:-1}" "$JAVA_HOME/bin/java" -Xmx1g --add-modules jdk.incubator.vector \
  -jar "$JAR" --server.port="$PORT" --server.address=127.0.0.1 --posekit.store.dir="$store" \
  ${POSEKIT_ARGS---logging.level.posekit.access=WARN} >/tmp/posekit-profile.log 2>&1 &
PID=$!
for _ in $(seq 1 120); do curl -fs -o /dev/null "http://127.0.0.1:$PORT/actuator/health" && break; sleep 0.5; done
id=$(curl -fs -H 'Content-Type: model/gltf-binary' --data-binary @"$SHARED/conformance/assets/gltf/Fox/Fox.glb" \
  "http://127.0.0.1:$PORT/api/v1/assets" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
base=http://127.0.0.1:$PORT/api/v1/assets/$id
case $WHAT in
  matrices) url=$base/skins/0/matrices; accept="" ;;
  matrices-binary) url=$base/skins/0/matrices; accept=application/octet-stream ;;
  skinned) url=$base/meshes/0/skinned; accept="" ;;
  health) url=http://127.0.0.1:$PORT/actuator/health; accept="" ;;
  summary) url=$base; accept="" ;;
  *) echo "unknown: $WHAT" >&2; exit 2 ;;
esac
DURATION=$WARMUP measure "$PID" "$url" Walk 0.7 "$accept" >/dev/null
if [ "${PROFILER:-jfr}" = async ]; then
  AP=$HOME/.cache/posekit/async-profiler-4.1
  if [ ! -f "$AP/libasyncProfiler.so" ]; then
    mkdir -p "$AP"
    curl -fsS -o "$AP/ap.jar" https://repo1.maven.org/maven2/tools/profiler/async-profiler/4.1/async-profiler-4.1.jar
    (cd "$AP" && unzip -o -q -j ap.jar linux-x64/libasyncProfiler.so)
  fi
  OUT=${OUT%.jfr}.collapsed
  # the options are quoted once more: jcmd would read "a=b" as its own argument syntax
  "$JAVA_HOME/bin/jcmd" "$PID" JVMTI.agent_load "$AP/libasyncProfiler.so" '"start,event=cpu,interval=1ms"' >/dev/null
  m=$(measure "$PID" "$url" Walk 0.7 "$accept")
  "$JAVA_HOME/bin/jcmd" "$PID" JVMTI.agent_load "$AP/libasyncProfiler.so" "\"stop,collapsed,file=$OUT\"" >/dev/null
  # collapsed stacks (root first, "frame;frame;… count") as JFR's (leaf first, one per sample)
  stacks() { python3 -c '
import sys
for line in open(sys.argv[1]):
    st, n = line.rstrip().rsplit(" ", 1)
    frames = [f.replace("/", ".") for f in reversed(st.split(";"))]
    for _ in range(int(n)): print("jdk.ExecutionSample"); [print(f + "() line: 0") for f in frames]
' "$OUT"; }
else
  "$JAVA_HOME/bin/jcmd" "$PID" JFR.start name=load settings=profile >/dev/null
  m=$(measure "$PID" "$url" Walk 0.7 "$accept")
  "$JAVA_HOME/bin/jcmd" "$PID" JFR.dump name=load filename="$OUT" >/dev/null
  "$JAVA_HOME/bin/jcmd" "$PID" JFR.stop name=load >/dev/null
  stacks() { "$JAVA_HOME/bin/jfr" print --events jdk.ExecutionSample --stack-depth 96 "$OUT"; }
fi
echo "$WHAT: $m"
stacks | python3 -c '
import re, sys, collections
top = int(sys.argv[1]); stacks = []; stack = []
for line in sys.stdin:
    line = line.strip()
    if line.startswith("jdk.ExecutionSample"):
        if stack: stacks.append(stack)
        stack = []
    m = re.match(r"(\S+?)\(.*\)\s+line:", line)
    if m: stack.append(m.group(1))
if stack: stacks.append(stack)
n = len(stacks) or 1
marks = [("the pose: sampling, local to model, skinning matrices", r"io\.posekit\.(sampling|skinning)\."),
         ("Sampling.parse: query validation, clip lookup", r"io\.posekit\.api\.Sampling\.parse"),
         ("JSON text: JsonOut, FloatText, Jackson", r"io\.posekit\.api\.json\.|^tools\.jackson\."),
         ("access log: logback", r"^ch\.qos\.logback"),
         ("request timers: Micrometer", r"^io\.micrometer\."),
         ("ETag: SHA-256", r"ConditionalRequests\.etag"),
         ("content negotiation", r"Negotiation\.|ContentNegotiat|MediaType\.parse"),
         ("Spring MVC dispatch", r"DispatcherServlet\.doDispatch"),
         ("Tomcat and the servlet filters", r"Http11Processor\.service"),
         ("ApiServer.handle (all of a request in posekit on Reactor Netty)", r"io\.posekit\.api\.http\.ApiServer\.handle"),
         ("Reactor Netty and Netty", r"^reactor\.netty|^io\.netty"),
         ("socket I/O: JDK NIO, epoll, write syscalls", r"^sun\.nio\.ch|epoll|Native\.(write|send|recv)|FileDispatcher"),
         ("the kernel: system calls, TCP on loopback (async-profiler only)", r"_\[k\]$")]
print(f"{len(stacks)} samples; share of samples with a frame of:")
for label, rx in marks:
    r = re.compile(rx)
    c = sum(1 for st in stacks if any(r.search(f) for f in st))
    print(f"  {100*c/n:5.1f}%  {label}")
self_ = collections.Counter(st[0] for st in stacks)
print("top frames by self time:")
for f, c in self_.most_common(top): print(f"  {100*c/n:5.1f}%  {f}")
' "$TOP"
