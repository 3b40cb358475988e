#!/usr/bin/env bash
# Builds and tests both clients against one posekit started from the service jar (target/posekit*.jar; built with
# the tests skipped when absent) on a free loopback port, then stops it. Exit status: non-zero when any client test
# failed, or when pytest collected no test at all (exit 5: the suite always has tests, skipped or not, so 5 means it
# was not found). Needs node/npm and Debian's python3 with httpx, pytest and numpy (installed here when root).
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS

py=/usr/bin/python3
if ! "$py" -c 'import httpx, pytest, numpy, jsonschema, yaml' 2>/dev/null; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-httpx python3-pytest python3-numpy \
      python3-jsonschema python3-yaml >/dev/null
  else
    echo "clients: $py lacks httpx, pytest or numpy (apt-get install python3-httpx python3-pytest python3-numpy)" >&2
    exit 1
  fi
fi

jar=target/posekit.jar  # the service jar (pom finalName); other jars in target/ are tools' or tests'
[ -f "$jar" ] || jar=
if [ -z "$jar" ]; then
  ./mvnw -B -q -DskipTests -Dposekit.aot.skip package
  jar=target/posekit.jar
fi

port=$("$py" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
store=$(mktemp -d)
log=$(mktemp)
java -jar "$jar" --server.port="$port" --server.address=127.0.0.1 --posekit.store.dir="$store" \
  --posekit.warm-up.duration=0 --posekit.warm-up.rounds=0 >"$log" 2>&1 &
service=$!
stop() { kill "$service" 2>/dev/null || true; wait "$service" 2>/dev/null || true; rm -rf "$store" "$log"; }
trap stop EXIT
export POSEKIT_URL="http://127.0.0.1:$port"
up() { "$py" -c 'import sys, httpx; sys.exit(httpx.get(sys.argv[1]).status_code != 200)' "$POSEKIT_URL/api/v1/assets" 2>/dev/null; }
for _ in $(seq 1 240); do
  up && break
  kill -0 "$service" 2>/dev/null || { echo "clients: the service exited:" >&2; tail -20 "$log" >&2; exit 1; }
  sleep 0.5
done
up || { echo "clients: the service did not start" >&2; tail -20 "$log" >&2; exit 1; }
echo "clients: posekit up at $POSEKIT_URL after $((SECONDS - started)) s"

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
