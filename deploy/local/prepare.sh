#!/usr/bin/env bash
# Prepares what docker-compose.scale.local.yml builds on a machine without a container registry:
#   deploy/local/prepare.sh
# - target/s3proxy-image/: deploy/local/s3proxy/{Dockerfile,entrypoint.sh} + s3proxy.jar, the jar fetched from
#   Maven Central (org.gaul:s3proxy:4.1.0, classifier jar-with-dependencies) by Maven into ~/.m2 and copied here;
# - checks that the local base images exist (../shared/docker/build-base-images.sh builds them).
# Idempotent; third-party binaries live only under target/ (never committed).
set -euo pipefail
cd "$(dirname "$0")/../.."
S3PROXY_VERSION=${S3PROXY_VERSION:-4.1.0}
OUT=target/s3proxy-image
for img in local/debian:bookworm local/temurin-jre:25; do
  docker image inspect "$img" >/dev/null 2>&1 \
    || { echo "prepare: no image $img; build it with ../shared/docker/build-base-images.sh" >&2; exit 1; }
done
mkdir -p "$OUT"
if [ ! -s "$OUT/s3proxy.jar" ] || [ "$(cat "$OUT/.version" 2>/dev/null)" != "$S3PROXY_VERSION" ]; then
  echo "prepare: fetching org.gaul:s3proxy:$S3PROXY_VERSION:jar-with-dependencies" >&2
  rm -f "$OUT"/s3proxy*.jar
  ./mvnw -q -B org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy \
    -Dartifact="org.gaul:s3proxy:$S3PROXY_VERSION:jar:jar-with-dependencies" -DoutputDirectory="$OUT" >&2
  mv "$OUT/s3proxy-$S3PROXY_VERSION-jar-with-dependencies.jar" "$OUT/s3proxy.jar"
  echo "$S3PROXY_VERSION" > "$OUT/.version"
fi
cp deploy/local/s3proxy/Dockerfile deploy/local/s3proxy/entrypoint.sh "$OUT/"
echo "prepare: $OUT ready" >&2
