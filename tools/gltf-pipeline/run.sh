#!/usr/bin/env bash
# Makes what the pipeline tests read, into OUT (default target/gltf-pipeline of the project):
#   meshopt-vectors.json       reference vectors for the meshopt decoder (vectors.mjs)
#   conformance/assets/<variant>/<asset>/<file>.glb   the conformance glTF assets as web pipelines make them:
#       gltfpack (default: quantized, texture transform), gltfpack -cc (+ meshopt), gltf-transform optimize (meshopt by
#       default since v4), gltf-transform meshopt, quantize, webp (EXT_texture_webp, through sharp) and draco
#   conformance/expected/<variant>-<asset>__<clip>.json   the oracle's expected outputs for each of those files
#       (three.js GLTFLoader with MeshoptDecoder / DRACOLoader, through ../shared/tools/oracle)
#   meshopt-views/<variant>-<asset>.json   every meshopt-compressed buffer view of a file, as npm meshoptimizer decodes it
#   variants.tsv               variant, asset and file of every variant made
# Derived from third-party assets, so generated, never committed. Needs Node.js >= 20 and the npm registry.
#   tools/gltf-pipeline/run.sh [CONFORMANCE_DIR] [OUT]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
conformance="$(cd "${1:-$root/../shared/conformance}" && pwd)"
out="${2:-$root/target/gltf-pipeline}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

(cd "$here" && npm ci --no-audit --no-fund --silent)
node "$here/vectors.mjs" "$out/meshopt-vectors.json"

# the oracle, copied (shared/ is read-only and shared by everyone) with its own node_modules, plus our entry point
oracle="$out/oracle"
if [ ! -f "$oracle/package-lock.json" ] || ! cmp -s "$oracle/package-lock.json" "$conformance/../tools/oracle/package-lock.json"; then
  rm -rf "$oracle" && mkdir -p "$oracle"
  cp -r "$conformance/../tools/oracle/." "$oracle/"
  chmod -R u+w "$oracle"
  rm -rf "$oracle/node_modules"
  (cd "$oracle" && npm ci --no-audit --no-fund --silent)
fi
cp "$here/expected.mjs" "$oracle/pipeline-expected.mjs"
cp "$here/draco.mjs" "$oracle/pipeline-draco.mjs"

bin="$here/node_modules/.bin"
assets="$out/conformance/assets"
rm -rf "$out/conformance" "$out/meshopt-views"
mkdir -p "$assets" "$out/conformance/expected" "$out/meshopt-views"
list="$out/variants.tsv"
: > "$list"
for src in "$conformance"/assets/gltf/*/*.gl[tb]*; do
  case "$src" in *.gltf|*.glb) ;; *) continue ;; esac
  name="$(basename "$(dirname "$src")")"
  stem="$(basename "${src%.*}")"
  for variant in gltfpack gltfpack-cc optimize meshopt quantize webp draco; do
    dir="$assets/$variant/$name"
    mkdir -p "$dir"
    dst="$dir/$stem.glb"
    case "$variant" in
      gltfpack) cmd=("$bin/gltfpack" -i "$src" -o "$dst" -kn -km) ;;
      gltfpack-cc) cmd=("$bin/gltfpack" -i "$src" -o "$dst" -kn -km -cc) ;;
      optimize) cmd=("$bin/gltf-transform" optimize "$src" "$dst" --texture-compress false) ;;
      meshopt) cmd=("$bin/gltf-transform" meshopt "$src" "$dst") ;;
      quantize) cmd=("$bin/gltf-transform" quantize "$src" "$dst") ;;
      webp) cmd=("$bin/gltf-transform" webp "$src" "$dst") ;;
      draco) cmd=("$bin/gltf-transform" draco "$src" "$dst") ;;
    esac
    if "${cmd[@]}" > "$dir/tool.log" 2>&1; then
      printf '%s\t%s\t%s\n' "$variant" "$name" "${dst#$out/conformance/}" >> "$list"
    else
      echo "  $variant $name: the tool failed (see $dir/tool.log)" >&2
      rm -f "$dst"
    fi
  done
done
echo "$(wc -l < "$list") pipeline variants made" >&2
(cd "$oracle" && node pipeline-expected.mjs "$list" "$out/conformance" "$out/meshopt-views")
