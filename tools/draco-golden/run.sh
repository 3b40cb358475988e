#!/usr/bin/env bash
# Makes what DracoGoldenTest reads, into OUT (default target/draco-golden of the project): Draco variants of the
# conformance glTF assets (glTF Transform's draco() with Google's encoder: edgebreaker at encode speeds 0, 5 and 10,
# sequential, quantization at 6–8 and 16 bits) and every Draco primitive of each as Google's decoder (npm
# draco3dgltf) decodes it (golden.mjs). Derived from third-party assets, so generated, never committed. Needs
# Node.js >= 20 and the npm registry.
#   tools/draco-golden/run.sh [CONFORMANCE_DIR] [OUT]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
conformance="$(cd "${1:-$root/../shared/conformance}" && pwd)"
out="${2:-$root/target/draco-golden}"
rm -rf "$out"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
(cd "$here" && npm ci --no-audit --no-fund --silent)
# the service runs the copy of Google's decoder vendored in src/main/wasm/draco: it must be the one that decodes these
if ! cmp -s "$here/node_modules/draco3dgltf/draco_decoder_gltf.wasm" "$root/src/main/wasm/draco/draco_decoder_gltf.wasm"; then
  echo "src/main/wasm/draco/draco_decoder_gltf.wasm differs from npm draco3dgltf's (see its README.md)" >&2
  exit 1
fi
node "$here/golden.mjs" "$conformance" "$out"
