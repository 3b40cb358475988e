#!/bin/bash
# s3proxy's configuration from the environment: S3PROXY_IDENTITY, S3PROXY_CREDENTIAL, S3PROXY_PORT; objects under /data
set -euo pipefail
: "${S3PROXY_IDENTITY:?}" "${S3PROXY_CREDENTIAL:?}"
conf=$(mktemp /tmp/s3proxy.XXXXXX.properties)
cat > "$conf" <<PROPS
s3proxy.endpoint=http://0.0.0.0:${S3PROXY_PORT:-9000}
s3proxy.authorization=aws-v2-or-v4
s3proxy.identity=${S3PROXY_IDENTITY}
s3proxy.credential=${S3PROXY_CREDENTIAL}
jclouds.provider=filesystem
jclouds.filesystem.basedir=/data
PROPS
exec java -jar /opt/s3proxy/s3proxy.jar --properties "$conf"
