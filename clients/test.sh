#!/usr/bin/env bash
# Builds and tests both clients against posekit started from the service jar (target/posekit.jar; built with the
# tests skipped when absent) twice on free loopback ports — open, and secured by the tests' API keys with a rate
# limit — then stops both. Exit status: non-zero when any client test failed, or when pytest collected no test at all
# (exit 5: the suite always has tests, skipped or not, so 5 means it was not found). Needs node/npm and Debian's
# python3 with httpx, pytest, numpy, jsonschema and yaml (installed here when root).
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS

py=/usr/bin/python3
if ! "$py" -c 'import httpx, pytest, numpy, jsonschema, yaml' 2>/dev/null; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-httpx python3-pytest python3-numpy \
      python3-jsonschema python3-yaml >/dev/null
  else
    echo "clients: $py lacks one of httpx, pytest, numpy, jsonschema, yaml (apt-get install python3-httpx python3-pytest python3-numpy python3-jsonschema python3-yaml)" >&2
    exit 1
  fi
fi

jar=target/posekit.jar  # the service jar (pom finalName); other jars in target/ are tools' or tests'
[ -f "$jar" ] || jar=
if [ -z "$jar" ]; then
  ./mvnw -B -q -DskipTests -Dposekit.aot.skip package
  jar=target/posekit.jar
fi

free_port() { "$py" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
port=$(free_port)
secured_port=$(free_port)
store=$(mktemp -d)
# two services, booting together: one open (tenant default), one secured by API keys with a rate limit (tenant
# acme: a read+write key and a read-only key, the tests' fixed keys; 1 request/s, burst 3) for the credential and
# retry tests of both clients
key_rw="pk_$(printf 'a%.0s' $(seq 43))"
key_ro="pk_$(printf 'b%.0s' $(seq 43))"
printf '%s acme posekit:read,posekit:write client tests\n%s acme posekit:read reader\n' \
  "$(printf %s "$key_rw" | sha256sum | cut -c1-64)" "$(printf %s "$key_ro" | sha256sum | cut -c1-64)" >"$store/keys.txt"
common=(--server.address=127.0.0.1 --posekit.warm-up.duration=0 --posekit.warm-up.rounds=0)
# the quicker start of docs/operations.md: Spring's AOT-processed context, and the JDK's AOT cache where the build
# trained one (verify does; it is used from target/aot, the class path it was trained with)
run_dir=.
launch=(-Dspring.aot.enabled=true -jar "$PWD/$jar")
if [ "$jar" = target/posekit.jar ] && [ -f target/aot/posekit.aot ] && [ -f target/aot/posekit.jar ]; then
  run_dir=target/aot
  launch=(-Dspring.aot.enabled=true -XX:AOTCache=posekit.aot -jar posekit.jar)
fi
(cd "$run_dir" && exec java "${launch[@]}" --server.port="$port" --posekit.store.dir="$store/open" "${common[@]}") \
  >"$store/open.log" 2>&1 &
service=$!
(cd "$run_dir" && exec java "${launch[@]}" --server.port="$secured_port" --posekit.store.dir="$store/secured" "${common[@]}" \
  --posekit.security.api-keys-file="$store/keys.txt" --posekit.quota.requests-per-second=1 --posekit.quota.burst=3) \
  >"$store/secured.log" 2>&1 &
secured=$!
stop() {
  kill "$service" "$secured" 2>/dev/null || true
  wait "$service" 2>/dev/null || true
  wait "$secured" 2>/dev/null || true
  rm -rf "$store"
}
trap stop EXIT
export POSEKIT_URL="http://127.0.0.1:$port" POSEKIT_SECURED_URL="http://127.0.0.1:$secured_port"
# up: any HTTP answer (the secured one answers 401)
up() { "$py" -c 'import sys, httpx; httpx.get(sys.argv[1])' "$1/api/v1/assets" 2>/dev/null; }
for name in open secured; do
  url=$POSEKIT_URL; pid=$service
  [ "$name" = secured ] && { url=$POSEKIT_SECURED_URL; pid=$secured; }
  for _ in $(seq 1 240); do
    up "$url" && break
    kill -0 "$pid" 2>/dev/null || { echo "clients: the $name service exited:" >&2; tail -20 "$store/$name.log" >&2; exit 1; }
    sleep 0.5
  done
  up "$url" || { echo "clients: the $name service did not start" >&2; tail -20 "$store/$name.log" >&2; exit 1; }
done
echo "clients: posekit up at $POSEKIT_URL, secured at $POSEKIT_SECURED_URL (from $run_dir), after $((SECONDS - started)) s"

status=0
(cd clients/typescript && npm ci --no-audit --no-fund >/dev/null && npm test) || status=1
echo "clients: typescript done at $((SECONDS - started)) s"
set +e
(cd clients/python && "$py" -m pytest -p no:cacheprovider -q)
rc=$?
set -e
# the Python client's type hints, where mypy is installed (Debian's python3-mypy)
if "$py" -m mypy --version >/dev/null 2>&1; then
  (cd clients/python && "$py" -m mypy src/posekit) || status=1
fi
if [ "$rc" = 5 ]; then
  echo "clients: pytest collected no tests (exit 5): the Python client's suite was not found" >&2
  status=1
elif [ "$rc" != 0 ]; then
  status=1
fi
echo "clients: python done at $((SECONDS - started)) s; status $status"
exit "$status"
