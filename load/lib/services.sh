# Sourced by the upload benchmarks: start posekit or the peer, pinned, and wait until it answers.
#   start_posekit STORE_DIR LOG   start_peer LOG   stop_service
#   run_each WHICH STORE_DIR WHAT: for posekit, the peer or both (WHICH), starts each in turn, says "== SERVICE: WHAT"
#     and calls the caller's `run SERVICE BASE_URL` (which stops it), logs in OUT_DIR/BENCH-SERVICE.log
# Each sets PID to the started service's process (stop_service kills and reaps it and clears PID) and returns
# once the service's health URL answers (120 s at most, then exits the script with a message naming the URL).
# Environment (set by the caller): JAVA_HOME JAR JAVA_OPTS PORT PEER_PORT SHARED SERVICE_CPUS; BENCH (the calling
# script's name, for messages). A JAR with its AOT cache beside it (target/aot/posekit.jar and posekit.aot, which
# ./mvnw package makes) is started as the image starts it: from its own directory (the cache holds the class path as
# the training run spelled it), with -XX:AOTCache and Spring's AOT-processed context.
wait_ready() { # URL
  for _ in $(seq 1 240); do curl -fs -o /dev/null "$1" && return 0; sleep 0.5; done
  echo "${BENCH:-load}: the service did not answer $1" >&2; exit 1
}
start_posekit() { # STORE_DIR LOG
  local aot=() jar=$JAR dir=.
  if [ -f "${JAR%.jar}.aot" ]; then
    dir=$(dirname "$JAR"); jar=$(basename "$JAR")
    aot=(-XX:AOTCache="$(basename "${JAR%.jar}").aot" -Dspring.aot.enabled=true)
  fi
  (cd "$dir" && exec taskset -c "$SERVICE_CPUS" "$JAVA_HOME/bin/java" "${aot[@]}" $JAVA_OPTS -jar "$jar" \
    --server.port="$PORT" --server.address=127.0.0.1 --posekit.store.dir="$(realpath "$1")" \
    --logging.level.posekit.access=WARN) > "$2" 2>&1 &
  PID=$!
  wait_ready "http://127.0.0.1:$PORT/actuator/health"
}
start_peer() { # LOG
  (cd "$SHARED/tools/peer" && exec taskset -c "$SERVICE_CPUS" node server.mjs --port "$PEER_PORT" --host 127.0.0.1) \
    > "$1" 2>&1 &
  PID=$!
  wait_ready "http://127.0.0.1:$PEER_PORT/health"
}
stop_service() {
  kill "$PID"; wait "$PID" 2>/dev/null || true; PID=""
}
run_each() { # WHICH STORE_DIR WHAT
  if [ "$1" = posekit ] || [ "$1" = both ]; then
    start_posekit "$2" "$OUT_DIR/$BENCH-posekit.log"
    echo "== posekit ($JAR): $3" >&2
    run posekit "http://127.0.0.1:$PORT"
  fi
  if [ "$1" = peer ] || [ "$1" = both ]; then
    start_peer "$OUT_DIR/$BENCH-peer.log"
    echo "== peer: $3" >&2
    run peer "http://127.0.0.1:$PEER_PORT"
  fi
}
