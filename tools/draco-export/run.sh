#!/usr/bin/env bash
# posekit's compress=draco exports read back by three.js and checked by the Khronos glTF-Validator: writes the Draco
# exports (animated.glb, animated.gltf, posed.glb) of the multi-mesh fixture and of Fox, CesiumMan and BrainStem
# in-process (io.posekit.export.ExportDracoFiles, test classes) into OUT, each with what posekit's own importer
# decodes from it; then check.mjs loads each with three.js's GLTFLoader + DRACOLoader (Google's decoder, npm
# draco3dgltf) and compares every Draco primitive's indices and attributes with posekit's, and the glTF-Validator
# (tools/gltf-validate's) reports on each. Exits 1 when three differs or the validator finds an error (or the
# vendored encoder is not npm's), 2 when what it needs could not be set up (npm, the build).
#
#   tools/draco-export/run.sh [CONFORMANCE_DIR] [OUT]   (default ../shared/conformance, target/draco-export;
#                                                        Node.js >= 20, JDK 25, the npm registry)
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
conformance="$(cd "${1:-$root/../shared/conformance}" && pwd)"
out="${2:-$root/target/draco-export}"
rm -rf "$out" && mkdir -p "$out"
out="$(cd "$out" && pwd)"
mvn="$root/mvnw"
offline=""
if "$mvn" -q -o -f "$root/pom.xml" help:help >/dev/null 2>&1; then offline="-o"; fi

(cd "$here" && npm ci --no-audit --no-fund --silent) || exit 2
# the service runs the copy of Google's encoder vendored in src/main/wasm/draco: it must be npm's
if ! cmp -s "$here/node_modules/draco3dgltf/draco_encoder.wasm" "$root/src/main/wasm/draco/draco_encoder.wasm"; then
  echo "src/main/wasm/draco/draco_encoder.wasm differs from npm draco3dgltf's (see its README.md)" >&2
  exit 1
fi

echo "building the test classes and their classpath" >&2
"$mvn" -q $offline -f "$root/pom.xml" test-compile || exit 2
"$mvn" -q $offline -f "$root/pom.xml" dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile="$root/target/draco-export-classpath.txt" >/dev/null || exit 2
java -Dposekit.conformance.dir="$conformance" \
    -cp "$root/target/test-classes:$root/target/classes:$(cat "$root/target/draco-export-classpath.txt")" \
    io.posekit.export.ExportDracoFiles "$out" >&2 || exit 1

status=0
node "$here/check.mjs" "$out" || status=1

validator="$root/tools/gltf-validate"
(cd "$validator" && npm ci --no-audit --no-fund --silent >&2) || exit 2
NODE_PATH="$validator/node_modules" node "$root/src/test/docker/gltf-validator/validate.js" "$out"/*.glb "$out"/*.gltf \
    > "$out/reports.jsonl" || exit 1
node - "$out/reports.jsonl" <<'JS' || status=1
const fs = require('fs');
const reports = fs.readFileSync(process.argv[2], 'utf8').trim().split('\n').map((l) => JSON.parse(l));
let errors = 0;
console.log('\n| file | glTF-Validator errors / warnings / infos / hints | infos |');
console.log('|---|---|---|');
for (const r of reports) {
  errors += r.errors;
  const infos = [...new Set(r.messages.filter((m) => m.severity === 2).map((m) => m.code))].join(', ');
  console.log(`| ${require('path').basename(r.file)} | ${r.errors} / ${r.warnings} / ${r.infos} / ${r.hints} | ${infos} |`);
  for (const m of r.messages.filter((m) => m.severity === 0)) console.log(`  ERROR ${m.code} at ${m.pointer}: ${m.message}`);
}
console.log(`\ngltf-validator ${reports[0].validatorVersion}: ${reports.length} files, ${errors} errors`);
process.exit(errors ? 1 : 0);
JS
exit $status
