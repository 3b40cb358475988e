#!/usr/bin/env bash
# Makes a posekit API key: prints the key once (give it to the client; posekit never stores it) and appends its
# SHA-256 line to the key file posekit reads (posekit.security.api-keys-file), which posekit re-reads within seconds.
#   deploy/api-key.sh <tenant> <scopes> [name] [key file]
#   deploy/api-key.sh acme posekit:read,posekit:write,posekit:delete "acme build server"
# scopes: posekit:read, posekit:write, posekit:delete, posekit:admin (comma-separated). Revoke a key by deleting
# its line. Default key file: deploy/api-keys.txt (the one docker-compose.yml mounts).
set -euo pipefail
tenant=${1:?usage: $0 <tenant> <scopes> [name] [key file]}
scopes=${2:?usage: $0 <tenant> <scopes> [name] [key file]}
name=${3:-$tenant}
file=${4:-$(dirname "$0")/api-keys.txt}
key="pk_$(head -c 32 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n')"
hash=$(printf '%s' "$key" | sha256sum | cut -c1-64)
printf '%s %s %s %s\n' "$hash" "$tenant" "$scopes" "$name" >> "$file"
echo "$key"
